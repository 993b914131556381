//! `Game`: one game of Carcassonne, driven from JavaScript.

use carcassonne::{Action, Catalog, Event, Game as CoreGame, GameSetup, RuleOptions};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, seed, to_js};
use crate::errors::{error, error_with_reason, type_error};

/// How a game is set up, as JavaScript gives it; every field may be left out.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct SetupDoc {
    /// Built-in set names, or `{ toml, file }` for a tile set's text; the base game when absent.
    tilesets: Option<Vec<serde_json::Value>>,
    players: Option<u8>,
    seed: Option<f64>,
    options: Option<RuleOptions>,
}

/// A tile set given as text, with a file name for its diagnostics.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlTileset {
    toml: String,
    #[serde(default)]
    file: Option<String>,
}

/// The catalog a `tilesets` entry names: a built-in name, or `{ toml, file }`.
fn catalog(entry: serde_json::Value) -> Result<Catalog, JsValue> {
    match entry {
        serde_json::Value::String(name) => {
            Catalog::builtin(&name).map_err(|unknown| error("SetupError", unknown.to_string()))
        }
        object @ serde_json::Value::Object(_) => {
            let given: TomlTileset = serde_json::from_value(object)
                .map_err(|refusal| type_error("a tile set given as text", refusal))?;
            let file = given.file.as_deref().unwrap_or("tileset.toml");
            Catalog::from_toml(file, &given.toml)
                .map_err(|diagnostics| error("SetupError", diagnostics.to_string()))
        }
        other => Err(type_error(
            "tilesets",
            format!("{other} is neither a built-in set's name nor {{ toml, file }}"),
        )),
    }
}

/// The setup a JavaScript value describes.
pub(crate) fn setup(value: JsValue) -> Result<GameSetup, JsValue> {
    let doc: SetupDoc = if value.is_undefined() || value.is_null() {
        SetupDoc::default()
    } else {
        from_js(value, "game setup")?
    };
    let catalogs = match doc.tilesets {
        Some(sets) => sets.into_iter().map(catalog).collect::<Result<Vec<_>, _>>()?,
        None => vec![catalog(serde_json::Value::from("base"))?],
    };
    Ok(GameSetup::new(catalogs, doc.players.unwrap_or(2))
        .with_seed(seed(doc.seed.unwrap_or(0.0))?)
        .with_options(doc.options.unwrap_or_default()))
}

#[wasm_bindgen]
extern "C" {
    /// A `GameSetup` object as JavaScript passes it.
    #[wasm_bindgen(typescript_type = "GameSetup")]
    pub type GameSetupValue;
}

/// One game: its setup, the actions played, and every rule of the sets it was made with.
#[wasm_bindgen]
pub struct Game {
    game: CoreGame,
    events: Vec<Event>,
}

impl Game {
    pub(crate) fn core(&self) -> &CoreGame {
        &self.game
    }

    pub(crate) fn wrap(game: CoreGame) -> Game {
        Game { game, events: Vec::new() }
    }
}

#[wasm_bindgen]
impl Game {
    /// A new game: `setup.tilesets` are built-in set names (`"base"`, `"river"`, ...) or tile
    /// sets as TOML text (`{ toml, file }`), `players` 2 by default, `seed` a whole number
    /// that fixes the tile order, `options` the rule options (the published rules by default).
    #[wasm_bindgen(constructor)]
    pub fn new(setup: Option<GameSetupValue>) -> Result<Game, JsValue> {
        let setup = self::setup(setup.map_or(JsValue::UNDEFINED, JsValue::from))?;
        CoreGame::new(setup)
            .map(Game::wrap)
            .map_err(|refusal| error("SetupError", refusal.to_string()))
    }

    /// Loads a saved game (what `saveJson` writes, and the server's `GET /games/{id}`),
    /// replaying and checking every action.
    #[wasm_bindgen(js_name = loadJson)]
    pub fn load_json(text: &str) -> Result<Game, JsValue> {
        if text.len() > carcassonne::limits::MAX_JSON_BYTES {
            let limit = carcassonne::limits::MAX_JSON_BYTES;
            return Err(error("SaveError", format!("a saved game may be at most {limit} bytes")));
        }
        serde_json::from_str::<CoreGame>(text)
            .map(Game::wrap)
            .map_err(|refusal| error("SaveError", refusal.to_string()))
    }

    /// The game as a saved game: JSON with its format, setup and actions.
    #[wasm_bindgen(js_name = saveJson)]
    pub fn save_json(&self) -> Result<String, JsValue> {
        serde_json::to_string(&self.game).map_err(|refusal| error("SaveError", refusal.to_string()))
    }

    /// An independent copy.
    #[wasm_bindgen(js_name = clone)]
    pub fn clone_game(&self) -> Game {
        Game::wrap(self.game.clone())
    }

    /// Players in the game.
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.game.players()
    }

    /// The phase of the turn: `draw`, `place`, `figure`, `sheep`, `flock` or `game_over`.
    #[wasm_bindgen(getter, unchecked_return_type = "Phase")]
    pub fn phase(&self) -> String {
        self.game.phase().tag().into()
    }

    /// The player to move, from 0.
    #[wasm_bindgen(getter, js_name = currentPlayer)]
    pub fn current_player(&self) -> u8 {
        self.game.current_player().index() as u8
    }

    /// Whether the game has ended.
    #[wasm_bindgen(getter, js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The tile drawn this turn (its index in the game's tiles), if one is.
    #[wasm_bindgen(getter, js_name = drawnTile)]
    pub fn drawn_tile(&self) -> Option<u16> {
        self.game.drawn_tile()
    }

    /// Tiles left in the bag.
    #[wasm_bindgen(getter, js_name = tilesLeft)]
    pub fn tiles_left(&self) -> u32 {
        self.game.tiles_left()
    }

    /// Each player's score so far.
    #[wasm_bindgen(unchecked_return_type = "number[]")]
    pub fn scores(&self) -> Result<JsValue, JsValue> {
        to_js(self.game.scores())
    }

    /// The legal actions now, in the engine's order (the same order on every platform).
    #[wasm_bindgen(js_name = legalActions, unchecked_return_type = "Action[]")]
    pub fn legal_actions(&self) -> Result<JsValue, JsValue> {
        to_js(&self.game.legal_actions())
    }

    /// Whether `action` is legal now.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> bool {
        from_js::<Action>(action, "action").is_ok_and(|action| self.game.check(action).is_ok())
    }

    /// Throws an `IllegalActionError` saying why `action` is not legal now; returns if it is.
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> Result<(), JsValue> {
        let action: Action = from_js(action, "action")?;
        self.game.check(action).map_err(|refusal| {
            error_with_reason("IllegalActionError", refusal.to_string(), refusal.reason())
        })
    }

    /// Applies `action` and returns what happened: tiles drawn and placed, figures, every
    /// feature scored with its points and scorers, the end. A refused action throws an
    /// `IllegalActionError` (with its `reason`) and changes nothing.
    #[wasm_bindgen(unchecked_return_type = "GameEvent[]")]
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Action")] action: JsValue,
    ) -> Result<JsValue, JsValue> {
        let action: Action = from_js(action, "action")?;
        self.events.clear();
        self.game.apply_into(action, &mut self.events).map_err(|refusal| {
            error_with_reason("IllegalActionError", refusal.to_string(), refusal.reason())
        })?;
        to_js(&self.events)
    }

    /// What the player to move knows: the board, scores, supplies, the tiles left by kind,
    /// never the bag's order.
    #[wasm_bindgen(unchecked_return_type = "PlayerView")]
    pub fn view(&self) -> Result<JsValue, JsValue> {
        to_js(&self.game.view())
    }

    /// Every action played so far, draws included.
    #[wasm_bindgen(unchecked_return_type = "Action[]")]
    pub fn actions(&self) -> Result<JsValue, JsValue> {
        to_js(self.game.actions())
    }

    /// The game as it stood after its first `count` actions (0 to `actions().length`): a new
    /// game replayed from the same setup, for stepping through a game played. (Slicing a saved
    /// game's JSON in JavaScript would do the same but for seeds above 2^53, which
    /// `JSON.parse` rounds.)
    #[wasm_bindgen(js_name = upTo)]
    pub fn up_to(&self, count: f64) -> Result<Game, JsValue> {
        let played = self.game.actions();
        let count = crate::convert::whole(count, "count", 0.0, played.len() as f64)? as usize;
        CoreGame::replay(self.game.setup(), &played[..count])
            .map(Game::wrap)
            .map_err(|refusal| error("SaveError", refusal.to_string()))
    }

    /// Plays random legal actions to the end, the choices fixed by `seed`, and returns how
    /// many it played: a whole game in one call, for speed measurements and tests.
    #[wasm_bindgen(js_name = playRandom)]
    pub fn play_random(&mut self, seed: f64) -> Result<u32, JsValue> {
        let seed = crate::convert::seed(seed)?;
        let played = carcassonne_bots::play_random(&mut self.game, seed, &mut self.events);
        Ok(u32::try_from(played).unwrap_or(u32::MAX))
    }

    /// Starts the game again from its first turn with the tile order of `seed`, keeping its
    /// setup: a self-play loop's new game without a new object.
    pub fn restart(&mut self, seed: f64) -> Result<(), JsValue> {
        self.game.restart(crate::convert::seed(seed)?);
        Ok(())
    }

    /// The board as an SVG document, with the score panel and the last move marked.
    #[wasm_bindgen(js_name = boardSvg)]
    pub fn board_svg(&self) -> String {
        carcassonne_render::board_svg(&self.game, &carcassonne_render::BoardOptions::default())
    }

    /// The board as text: every tile and figure, coordinates in the margins.
    pub fn ascii(&self) -> String {
        carcassonne_render::ascii::board(&self.game)
    }
}
