//! A game: setup, the turn, legal actions, applying them, and saving.

use carcassonne::{Catalog, Event, Game as CoreGame, GameSetup, PlayerId, Pos, RuleOptions};
use numpy::PyArrayMethods;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::action::Action;
use crate::convert::{from_python, serialized};
use crate::errors::{SaveError, SetupError, illegal_action, tileset_error};
use crate::tileset::TileSet;

/// A game of Carcassonne: the board, the bag, the players' scores and figures, and whose turn
/// it is. Every refused action raises `IllegalActionError` and leaves the game as it was.
#[pyclass(module = "carcassonne")]
pub struct Game {
    pub(crate) game: CoreGame,
    /// What the last action did, kept between calls so that applying does not allocate.
    events: Vec<Event>,
}

impl Game {
    pub(crate) fn wrap(game: CoreGame) -> Game {
        Game { game, events: Vec::new() }
    }
}

/// The catalogs named by `tilesets`: built-in names, file paths or `TileSet` objects.
pub(crate) fn catalogs(py: Python<'_>, tilesets: &Bound<'_, PyAny>) -> PyResult<Vec<Catalog>> {
    let mut catalogs = Vec::new();
    for item in tilesets.try_iter()? {
        let item = item?;
        if let Ok(set) = item.cast::<TileSet>() {
            catalogs.push(set.get().catalog.clone());
        } else if let Ok(name) = item.extract::<String>() {
            catalogs.push(TileSet::load(py, &name)?.catalog);
        } else {
            return Err(PyTypeError::new_err(
                "tilesets holds built-in names, tile set paths or TileSet objects",
            ));
        }
    }
    Ok(catalogs)
}

/// The rule options of a dict such as `{"farmers": False, "abbots": True}`; missing keys keep
/// the published rules.
pub(crate) fn options(value: Option<&Bound<'_, PyAny>>) -> PyResult<RuleOptions> {
    let Some(value) = value.filter(|value| !value.is_none()) else {
        return Ok(RuleOptions::default());
    };
    serde_json::from_value(from_python(value)?)
        .map_err(|error| SetupError::new_err(format!("rule options: {error}")))
}

/// The setup of a game on `tilesets` (the base game when None) with the rule `options`.
pub(crate) fn setup(
    py: Python<'_>,
    tilesets: Option<&Bound<'_, PyAny>>,
    players: u8,
    seed: u64,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<GameSetup> {
    let catalogs = match tilesets {
        Some(tilesets) if !tilesets.is_none() => catalogs(py, tilesets)?,
        _ => vec![
            Catalog::builtin("base").map_err(|error| tileset_error(py, error.to_string(), &[]))?,
        ],
    };
    Ok(GameSetup::new(catalogs, players).with_seed(seed).with_options(self::options(options)?))
}

#[pymethods]
impl Game {
    /// A new game: `tilesets` are built-in names (`"base"`), paths of tile set files or
    /// `TileSet` objects; `options` a dict of rule options (`farmers`, `farm_scoring`,
    /// `tiny_city`, `inn_cathedral_unfinished`, `abbots`, `title_scoring`), the published rules
    /// by default.
    #[new]
    #[pyo3(signature = (tilesets = None, players = 2, seed = 0, options = None))]
    fn new(
        py: Python<'_>,
        tilesets: Option<&Bound<'_, PyAny>>,
        players: u8,
        seed: u64,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let setup = self::setup(py, tilesets, players, seed, options)?;
        CoreGame::new(setup).map(Game::wrap).map_err(|error| SetupError::new_err(error.to_string()))
    }

    /// Loads a saved game (what `save_json` writes, and the server's `GET /games/{id}`),
    /// replaying and checking every action. The CLI's `play --json` adds its report (`players`,
    /// `events`, `scores`, `winners`), which this refuses as unknown keys: keep its `format`,
    /// `setup` and `actions`, or read it with `carcassonne replay`.
    #[staticmethod]
    fn load_json(text: &str) -> PyResult<Game> {
        if text.len() > carcassonne::limits::MAX_JSON_BYTES {
            return Err(SaveError::new_err(format!(
                "a saved game may be at most {} bytes",
                carcassonne::limits::MAX_JSON_BYTES
            )));
        }
        serde_json::from_str::<CoreGame>(text)
            .map(Game::wrap)
            .map_err(|error| SaveError::new_err(error.to_string()))
    }

    /// The game in the saved-game form: JSON with its format, setup and actions.
    fn save_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.game).map_err(|error| SaveError::new_err(error.to_string()))
    }

    /// The setup (tile sets, players, seed, options) as a dict.
    fn setup(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.game.setup())
    }

    /// An independent copy: playing on from it changes nothing here.
    fn clone(&self) -> Game {
        Game::wrap(self.game.clone())
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// A copy whose bag is shuffled anew from `seed`: what a player may imagine of the tiles
    /// to come, since the copy knows nothing of the real order.
    fn reshuffled(&self, seed: u64) -> Game {
        Game::wrap(self.game.reshuffled(seed))
    }

    /// How many players.
    #[getter]
    fn players(&self) -> u8 {
        self.game.players()
    }

    /// `draw`, `place`, `figure` or `game_over`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.game.phase().tag()
    }

    /// The player to move, from 0.
    #[getter]
    fn current_player(&self) -> u8 {
        self.game.current_player().0
    }

    /// Whether the last tile is down and the final scores are in.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The tile type drawn and not yet placed, if any.
    #[getter]
    fn drawn_tile(&self) -> Option<u16> {
        self.game.drawn_tile()
    }

    /// Tiles left in the bag.
    #[getter]
    fn tiles_left(&self) -> u32 {
        self.game.tiles_left()
    }

    /// The seed of the bag.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// The colour `player` plays, as the tile sets name it (seat 0 "red", 1 "green", ...:
    /// a key of `carcassonne.PALETTE`), or None past the players.
    fn player_colour(&self, player: u8) -> Option<&str> {
        self.game.player_colour(carcassonne::PlayerId(player))
    }

    /// Each player's points so far.
    fn scores(&self) -> Vec<u32> {
        self.game.scores().to_vec()
    }

    /// The players with the most points (all players before anyone scores).
    fn leaders(&self) -> Vec<usize> {
        // Not `Vec<u8>`, which Python would receive as bytes.
        self.game.leaders().iter().map(PlayerId::index).collect()
    }

    /// The figures `player` has in hand, by figure id, every figure of the game in its order:
    /// `{"follower": n, "abbot": n}`.
    fn supply(&self, py: Python<'_>, player: u8) -> PyResult<Py<PyAny>> {
        if player >= self.game.players() {
            return Err(PyIndexError::new_err(format!("there is no player {player}")));
        }
        serialized(py, &self.game.supply(PlayerId(player)))
    }

    /// Copies of each tile type left in the bag, by tile number.
    fn remaining(&self) -> Vec<u16> {
        self.game.remaining().to_vec()
    }

    /// The id of every mark the game's sets declare, by mark number: what an event's `marks`
    /// counts are in order of.
    fn mark_ids(&self) -> Vec<String> {
        self.game.marks().iter().map(|mark| mark.id.clone()).collect()
    }

    /// The id of every rule the game's sets declare, by rule number: what an event's `rule`
    /// names.
    fn rule_ids(&self) -> Vec<String> {
        self.game.rules().iter().map(|rule| rule.id.clone()).collect()
    }

    /// The id of every token kind the game's sets declare, by kind number: what the
    /// `token` of `tokens_taken` and `tokens_scored` events names.
    fn token_ids(&self) -> Vec<String> {
        self.game.tokens().iter().map(|token| token.id.clone()).collect()
    }

    /// The id of every title the game's sets declare, by title number: what the `title` of
    /// `title_taken` and `title_scored` events names; `view()["titles"]` says where each
    /// stands (holder, largest, completed).
    fn title_ids(&self) -> Vec<String> {
        self.game.titles().iter().map(|title| title.id.clone()).collect()
    }

    /// How many tokens of each declared kind `player` holds, by kind number.
    fn tokens_held(&self, player: u8) -> PyResult<Vec<u32>> {
        if player >= self.game.players() {
            return Err(PyIndexError::new_err(format!("there is no player {player}")));
        }
        Ok(self.game.tokens_held(PlayerId(player)))
    }

    /// The id of every tile type, by tile number.
    fn tile_ids(&self) -> Vec<String> {
        self.game.tiles().iter().map(|tile| tile.id().to_owned()).collect()
    }

    /// Every tile on the board in placement order: `(x, y, tile, rotation)`.
    fn placements(&self) -> Vec<(i16, i16, u16, u16)> {
        self.game
            .placements()
            .iter()
            .map(|(pos, tile)| {
                let rotation =
                    self.game.board().get(*pos).map_or(0, |placed| placed.rotation.degrees());
                (pos.x, pos.y, *tile, rotation)
            })
            .collect()
    }

    /// Every figure on the board, as dicts with player, figure, pos and segment.
    fn figures(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.game.figures().collect::<Vec<_>>())
    }

    /// What every player may know now, as a dict: sets, options, phase, current player,
    /// tiles (with rotation), figures, scores, points by kind, supplies, remaining tile counts,
    /// tiles left; never the bag's order or the seed. Give a planner this or `reshuffled`,
    /// not the game: a copy of the game knows which tile comes next.
    fn view(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        serialized(py, &self.game.view())
    }

    /// What is known of the feature segment `segment` of the tile at (`x`, `y`) belongs to:
    /// kind, complete, tiles, open edges, its marks by id (`marks`; and, for programs written
    /// before sets declared marks, `pennants`, `inn` and `cathedral`), what it would score
    /// now and if completed (`points`, `points_if_complete`), figures and leaders.
    fn feature(&self, py: Python<'_>, x: i16, y: i16, segment: u8) -> PyResult<Py<PyAny>> {
        let view = self.game.feature(Pos::new(x, y), segment).ok_or_else(|| {
            PyIndexError::new_err(format!("no tile at ({x}, {y}) has a segment {segment}"))
        })?;
        let dict = PyDict::new(py);
        dict.set_item("kind", serialized(py, &view.kind)?)?;
        dict.set_item("complete", view.complete)?;
        dict.set_item("tiles", view.tiles)?;
        dict.set_item("open_edges", view.open_edges)?;
        let marks = PyDict::new(py);
        for (mark, count) in view.marks.iter() {
            if let Some(info) = self.game.marks().get(mark.index()) {
                marks.set_item(&info.id, count)?;
            }
        }
        let count_of = |id: &str| view.marks.count_of(self.game.marks(), id);
        dict.set_item("marks", marks)?;
        dict.set_item("pennants", count_of("pennant"))?;
        dict.set_item("inn", count_of("inn") > 0)?;
        dict.set_item("cathedral", count_of("cathedral") > 0)?;
        dict.set_item("points", view.points)?;
        dict.set_item("points_if_complete", view.points_if_complete)?;
        dict.set_item("figures", view.figures)?;
        dict.set_item(
            "leaders",
            view.leaders.iter().map(|player| player.index()).collect::<Vec<_>>(),
        )?;
        Ok(dict.into_any().unbind())
    }

    /// What the end-of-game scoring would award if the game ended now: one dict per feature
    /// (kind, cell, segment, tiles, pennants, points, scorers, ...), as in the events.
    fn scores_if_over(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut scores = Vec::new();
        self.game.scores_if_over(&mut scores);
        serialized(py, &scores)
    }

    /// Every action applied so far.
    fn actions(&self) -> Vec<Action> {
        self.game.actions().iter().copied().map(Action::from).collect()
    }

    /// Every legal action now, in the library's order.
    fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions().into_iter().map(Action::from).collect()
    }

    /// How many legal actions there are now.
    fn legal_action_count(&self) -> usize {
        self.game.legal_action_count()
    }

    /// The legal action at `index` of `legal_actions()`, without listing the others.
    fn legal_action(&self, index: usize) -> PyResult<Action> {
        self.game.legal_action(index).map(Action::from).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "there are {} legal actions; there is no action {index}",
                self.game.legal_action_count()
            ))
        })
    }

    /// Plays on to the end with uniformly random legal actions drawn from `seed` (the tiles
    /// come from the bag as it stands), natively and with the GIL released: a rollout for a
    /// planner (on a `reshuffled` copy) without a Python call per action. Returns the number
    /// of actions played.
    fn play_random(&mut self, py: Python<'_>, seed: u64) -> usize {
        let game = &mut self.game;
        py.detach(|| carcassonne_bots::play_random(game, seed, &mut Vec::new()))
    }

    /// Raises `IllegalActionError` saying why `action` is not legal now; None if it is.
    fn check(&self, py: Python<'_>, action: &Action) -> PyResult<()> {
        self.game.check(action.action).map_err(|refusal| illegal_action(py, &refusal))
    }

    /// Whether `action` is legal now.
    fn is_legal(&self, action: &Action) -> bool {
        self.game.check(action.action).is_ok()
    }

    /// Applies `action` and returns what happened, as a list of event dicts (tiles drawn and
    /// placed, figures, every feature scored with its points and scorers, the end).
    fn apply(&mut self, py: Python<'_>, action: &Action) -> PyResult<Py<PyAny>> {
        self.events.clear();
        self.game
            .apply_into(action.action, &mut self.events)
            .map_err(|refusal| illegal_action(py, &refusal))?;
        serialized(py, &self.events)
    }

    /// The board as an SVG document, with the score panel and the last move marked.
    fn board_svg(&self) -> String {
        carcassonne_render::board_svg(&self.game, &carcassonne_render::BoardOptions::default())
    }

    /// The board as text: every tile and figure, coordinates in the margins.
    fn ascii(&self) -> String {
        carcassonne_render::ascii::board(&self.game)
    }

    /// The board picture as an RGB array shaped (height, width, 3), scaled down to at most
    /// `max_pixels` pixels.
    #[pyo3(signature = (max_pixels = 4_000_000.0))]
    fn board_rgb<'py>(&self, py: Python<'py>, max_pixels: f64) -> PyResult<Bound<'py, PyAny>> {
        if !(max_pixels.is_finite() && max_pixels >= 1.0) {
            return Err(PyValueError::new_err("max_pixels is a number of pixels, 1 or more"));
        }
        let svg =
            carcassonne_render::board_svg(&self.game, &carcassonne_render::BoardOptions::default());
        let picture = py
            .detach(|| carcassonne_render::raster::rasterise(&svg, max_pixels))
            .map_err(PyValueError::new_err)?;
        let rgb: Vec<u8> = picture
            .pixels
            .chunks_exact(4)
            .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
            .collect();
        let shape = [picture.height as usize, picture.width as usize, 3];
        Ok(numpy::PyArray1::from_vec(py, rgb).reshape(shape)?.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "<carcassonne.Game: {} players, {} phase, player {} to move, {} tiles left, scores {:?}>",
            self.game.players(),
            self.game.phase().tag(),
            self.game.current_player().0,
            self.game.tiles_left(),
            self.game.scores()
        )
    }
}
