//! The game: the turn cycle, the one generator of legal actions, and `apply`, the only thing
//! that changes a game.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::action::{Action, ActionError, Phase};
use crate::bag::{Bag, Undrawable};
use crate::board::{Board, FrontierCell};
use crate::catalog::Catalog;
use crate::edge::EdgeKind;
use crate::event::{Event, FeatureScore, PointsByKind, ScoreReason};
use crate::features::{Features, NodeId, roomy_clone};
use crate::geom::{ByDir, Dir, Rotation};
use crate::player::{ByPlayer, Figure, MAX_PLAYERS, PlayerId, PlayerSet, Supply};
use crate::pos::Pos;
use crate::rng::Rng;
use crate::rulebook::{MarkCounts, MarkInfo, Rule, Rulebook};
use crate::scoring::{Scene, Standing, Valuation, winners};
use crate::segment::{SegmentIndex, SegmentKind, SegmentSet};
use crate::setup::{GameSetup, RuleOptions, Rules, SetupError};
use crate::tile::{TileIndex, TileType};

/// A segment of the tile just placed, as a figure would see it.
struct Target {
    segment: SegmentIndex,
    kind: SegmentKind,
    node: NodeId,
    occupied: bool,
}

/// Which way a river curve turns, seen going downstream from the spring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Turn {
    Left,
    Right,
}

/// A figure standing on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PlacedFigure {
    /// Whose figure.
    pub player: PlayerId,
    /// Which figure.
    pub figure: Figure,
    /// The cell of the tile it stands on.
    pub pos: Pos,
    /// The segment of that tile it stands on.
    pub segment: SegmentIndex,
}

/// What is known about the feature a segment belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureView {
    /// The feature's kind.
    pub kind: SegmentKind,
    /// A closed city, road or river, or a monastery or garden with all eight neighbours.
    pub complete: bool,
    /// Distinct tiles it covers (for a monastery or garden, itself and its neighbours).
    pub tiles: u32,
    /// City, road or river edges that still face an empty cell.
    pub open_edges: u32,
    /// How many of each declared mark it carries, by mark number ([`Game::marks`]).
    pub marks: MarkCounts,
    /// What it would score now: complete, or unfinished at the end of the game (fields:
    /// 0, as they score by their cities).
    pub points: u32,
    /// What it would score if it were completed as it is, by the declared rules (a city or
    /// road; a monastery or garden: 9).
    pub points_if_complete: u32,
    /// Figures standing on it.
    pub figures: u32,
    /// Who would take it now: the players with most strength on it.
    pub leaders: PlayerSet,
}

/// A game in progress, or over: built by [`Game::new`], changed only by [`Game::apply`].
///
/// ```
/// use carcassonne::{Action, Catalog, Game, GameSetup, Phase};
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// let mut actions = Vec::new();
/// while game.phase() != Phase::GameOver {
///     game.legal_actions_into(&mut actions);
///     // Always the first legal action: draw, the first placement, the first figure.
///     game.apply(actions[0])?;
/// }
/// assert_eq!(game.tiles_left(), 0);
/// assert!(game.scores().iter().sum::<u32>() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Game {
    /// Shared by every copy and restart; its setup's seed is the first game's.
    rules: Arc<Rules>,
    seed: u64,
    board: Board,
    features: Features,
    bag: Bag,
    rng: Rng,
    phase: Phase,
    current: PlayerId,
    scores: ByPlayer<u32>,
    /// The same points, by the kind of feature that paid them.
    by_kind: ByPlayer<PointsByKind>,
    supply: ByPlayer<Supply>,
    figures: Vec<Standing>,
    /// Where the figures in monasteries and gardens stand (a few at most), so the end of a
    /// turn finds whether it completed one without looking at every figure.
    cloisters: Vec<Pos>,
    /// Cell and tile type of each placed tile, in placement order.
    placed: Vec<(Pos, TileIndex)>,
    river_turn: Option<Turn>,
    /// In the place phase, how many placements the drawn tile has (counted once, when it is
    /// drawn, since nothing else changes until it is placed); 0 in other phases.
    placements: u32,
    /// In the figure phase, whether the tile just placed closed a city or road, which the
    /// end of the turn then scores; false in other phases.
    closes: bool,
    /// In the figure phase, the deployments open on the tile just placed: bit
    /// `FIGURE_KINDS × segment + figure` for `Deploy { segment, figure }`, found once when
    /// the tile is placed, as nothing changes them until the turn ends; 0 in other phases.
    deployments: u128,
    /// Tiles drawn that fit nowhere, in the order they were drawn.
    discarded: Vec<TileIndex>,
    log: Vec<Action>,
}

/// A clone keeps the original's capacities, so playing on from a copy (a search, a rollout)
/// never reallocates, just as playing on from the original would not.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            rules: Arc::clone(&self.rules),
            seed: self.seed,
            board: self.board.clone(),
            features: self.features.clone(),
            bag: self.bag.clone(),
            rng: self.rng,
            phase: self.phase,
            current: self.current,
            scores: self.scores,
            by_kind: self.by_kind,
            supply: self.supply,
            figures: roomy_clone(&self.figures),
            cloisters: roomy_clone(&self.cloisters),
            placed: roomy_clone(&self.placed),
            river_turn: self.river_turn,
            placements: self.placements,
            closes: self.closes,
            deployments: self.deployments,
            discarded: self.discarded.clone(),
            log: roomy_clone(&self.log),
        }
    }
}

impl Game {
    /// Checks `setup` and lays out the start tile; the first player is about to draw.
    ///
    /// # Errors
    /// [`SetupError`] when the setup cannot make a game.
    pub fn new(setup: GameSetup) -> Result<Game, SetupError> {
        let seed = setup.seed;
        Ok(Game::fresh(Arc::new(Rules::new(setup)?), seed))
    }

    /// The same setup from the start with another seed: what a self-play loop wants between
    /// games, sharing the tile tables instead of rebuilding them.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let mut setup = GameSetup::new(vec![Catalog::builtin("base")?], 2);
    /// let first = Game::new(setup.clone())?;
    /// setup.seed = 7;
    /// assert_eq!(first.restarted(7), Game::new(setup)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn restarted(&self, seed: u64) -> Game {
        Game::fresh(Arc::clone(&self.rules), seed)
    }

    /// Shuffles the bag anew from `seed`: the tiles left, the board, the scores and every
    /// other public fact stay as they are; only the hidden order of the coming draws changes.
    ///
    /// A copy of a game knows which tiles its bag will give next, so a search that plays on
    /// from a copy would see the future. A bot reshuffles its copies with its own seed first,
    /// and then two games that differ only in their hidden order look the same to it.
    ///
    /// The game stays its own replay: each past random [`Action::Draw`] in the log becomes
    /// the [`Action::DrawTile`] of the tile it gave, and the setup's seed becomes `seed`.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// game.apply(Action::Draw)?;
    /// let (tiles_left, remaining) = (game.tiles_left(), game.remaining().to_vec());
    ///
    /// game.reshuffle(99);
    /// assert!(matches!(game.actions()[0], Action::DrawTile { .. }));
    /// assert_eq!((game.tiles_left(), game.remaining()), (tiles_left, &remaining[..]));
    /// assert_eq!(game, Game::replay(game.setup(), game.actions())?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reshuffle(&mut self, seed: u64) {
        // The start tile is placed by no action; every later placement follows its draw.
        let mut placed = self.placed.iter().skip(1).map(|(_, tile)| *tile);
        let mut discarded = self.discarded.iter().copied();
        for index in 0..self.log.len() {
            if !matches!(self.log[index], Action::Draw | Action::DrawTile { .. }) {
                continue;
            }
            let tile = match (self.log.get(index + 1), self.phase) {
                (Some(Action::Place { .. }), _) => placed.next(),
                (None, Phase::Place { tile }) => Some(tile),
                _ => discarded.next(),
            };
            if let Some(tile) = tile {
                self.log[index] = Action::DrawTile { tile };
            }
        }
        self.seed = seed;
        self.rng = Rng::new(seed);
    }

    /// A copy of the game with the bag shuffled anew from `seed` ([`Game::reshuffle`]).
    #[must_use]
    pub fn reshuffled(&self, seed: u64) -> Game {
        let mut copy = self.clone();
        copy.reshuffle(seed);
        copy
    }

    /// Starts this game over with a new seed, as [`Game::restarted`] does, reusing the memory
    /// it has: what a self-play loop does between games.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// while !game.is_over() {
    ///     game.apply(game.legal_action(0).unwrap())?;
    /// }
    /// let next = game.restarted(8);
    /// game.restart(8);
    /// assert_eq!(game, next);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restart(&mut self, seed: u64) {
        let (tiles, _) = deck_size(&self.rules);
        let rules = &self.rules;
        self.seed = seed;
        self.rng = Rng::new(seed);
        self.board.clear_with_reach(reach_for(tiles));
        self.features.clear();
        self.bag.refill(rules.tiles.iter().map(TileType::count), rules.start, &rules.groups);
        self.phase = Phase::Draw;
        self.current = PlayerId(0);
        self.scores = ByPlayer::default();
        self.by_kind = ByPlayer::default();
        self.supply = starting_supply(rules);
        self.figures.clear();
        self.cloisters.clear();
        self.placed.clear();
        self.river_turn = None;
        self.placements = 0;
        self.closes = false;
        self.deployments = 0;
        self.discarded.clear();
        self.log.clear();
        self.lay_start();
    }

    /// A new game: the memory its deck will need, then [`Game::restart`] lays out the start,
    /// so that a new game and a restarted one are set up by the same code.
    fn fresh(rules: Arc<Rules>, seed: u64) -> Game {
        let (tiles, nodes) = deck_size(&rules);
        let figures = usize::from(rules.setup.players) * rules.supply.total() as usize;
        let mut game = Game {
            seed,
            rng: Rng::new(seed),
            // Random play spreads a deck of n tiles about 1.5√n cells from the start (72
            // tiles: a median of 8 cells, 12 in 99 games of 100, never more than 14 in 10,000
            // random base games); sizing the grid for that saves copying it as it grows.
            board: Board::with_reach(reach_for(tiles)),
            features: Features::with_capacity(tiles, nodes, rules.rulebook.marks().len()),
            bag: Bag::default(),
            phase: Phase::Draw,
            current: PlayerId(0),
            scores: ByPlayer::default(),
            by_kind: ByPlayer::default(),
            supply: ByPlayer::default(),
            figures: Vec::with_capacity(figures),
            cloisters: Vec::with_capacity(figures),
            placed: Vec::with_capacity(tiles),
            river_turn: None,
            placements: 0,
            closes: false,
            deployments: 0,
            discarded: Vec::new(),
            // A turn is a draw, a placement and a figure action, plus any discards.
            log: Vec::with_capacity(3 * tiles + 8),
            rules,
        };
        game.restart(seed);
        game
    }

    /// Lays the start tile on the empty board of a new game.
    fn lay_start(&mut self) {
        let start = self.rules.start;
        let edges = self.rules.tiles[usize::from(start)].edges();
        self.board
            .place(Pos::ORIGIN, start, Rotation::R0, edges)
            .expect("the first tile fits on an empty board");
        self.features.join_tile(&self.board, &self.rules.tiles, Pos::ORIGIN);
        self.placed.push((Pos::ORIGIN, start));
        if self.bag.total() == 0 {
            self.finish(&mut Vec::new());
        }
    }

    /// Builds the game `setup` describes and applies `actions` in order.
    ///
    /// # Errors
    /// The setup's error, or the first refused action with its index.
    pub fn replay(setup: GameSetup, actions: &[Action]) -> Result<Game, ReplayError> {
        let mut events = Vec::new();
        Game::replay_into(setup, actions, &mut events)
    }

    /// As [`Game::replay`], appending every action's events to `events`: the whole story of
    /// a saved game, for a report or a viewer.
    ///
    /// # Errors
    /// As [`Game::replay`]; `events` then holds the events of the actions before the refused
    /// one.
    pub fn replay_into(
        setup: GameSetup,
        actions: &[Action],
        events: &mut Vec<Event>,
    ) -> Result<Game, ReplayError> {
        let mut game = Game::new(setup).map_err(ReplayError::Setup)?;
        for (index, action) in actions.iter().enumerate() {
            game.apply_into(*action, events)
                .map_err(|error| ReplayError::Action { index, error })?;
        }
        Ok(game)
    }

    // ----- Views -----

    /// The setup the game was built from (a copy: the tile sets are cloned).
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        GameSetup { seed: self.seed, ..self.rules.setup.clone() }
    }

    /// The colour `player` plays, as the tile sets name it: the sets' colours in setup order,
    /// one a seat (the base game's red, green, blue, yellow and black, then Inns & Cathedrals'
    /// grey). `None` beyond the players, or where the sets name too few colours.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup, PlayerId};
    /// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 3))?;
    /// assert_eq!(game.player_colour(PlayerId(1)), Some("green"));
    /// assert_eq!(game.player_colour(PlayerId(3)), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn player_colour(&self, player: PlayerId) -> Option<&str> {
        if player.0 >= self.players() {
            return None;
        }
        let mut colours = self.catalogs().iter().flat_map(|catalog| &catalog.figures().colours);
        colours.nth(player.index()).map(String::as_str)
    }

    /// The marks and rules of every set in play together.
    #[must_use]
    pub fn rulebook(&self) -> &Rulebook {
        &self.rules.rulebook
    }

    /// The marks the sets in play declare, numbered for this game: a [`Mark`](crate::Mark)
    /// on a segment of [`Game::tiles`], in a [`FeatureView`] or a [`FeatureScore`] indexes
    /// this list.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("inns_and_cathedrals")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let ids: Vec<&str> = game.marks().iter().map(|mark| mark.id.as_str()).collect();
    /// assert_eq!(ids, ["pennant", "inn", "cathedral"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn marks(&self) -> &[MarkInfo] {
        self.rules.rulebook.marks()
    }

    /// The rules the sets in play declare, numbered for this game: a
    /// [`FeatureScore::rule`] indexes this list.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        self.rules.rulebook.rules()
    }

    /// The tile sets in play, in setup order; their tile types are numbered one set after
    /// another.
    #[must_use]
    pub fn catalogs(&self) -> &[Catalog] {
        &self.rules.setup.catalogs
    }

    /// The seed of the tile bag.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Roughly how many bytes this game owns on the heap, not counting the tile tables all
    /// copies share: what a clone copies.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.board.heap_bytes()
            + self.features.heap_bytes()
            + size_of_val(self.bag.remaining())
            + self.figures.capacity() * size_of::<Standing>()
            + self.placed.capacity() * size_of::<(Pos, TileIndex)>()
            + self.log.capacity() * size_of::<Action>()
            + self.discarded.capacity() * size_of::<TileIndex>()
    }

    /// The rule options in force.
    #[must_use]
    pub fn options(&self) -> &RuleOptions {
        &self.rules.setup.options
    }

    /// How many players sit at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.rules.setup.players
    }

    /// Where the turn cycle stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Whose turn it is (after the game, the player who would have been next).
    #[must_use]
    pub fn current_player(&self) -> PlayerId {
        self.current
    }

    /// The tile drawn and waiting to be placed, if any.
    #[must_use]
    pub fn drawn_tile(&self) -> Option<TileIndex> {
        match self.phase {
            Phase::Place { tile } => Some(tile),
            _ => None,
        }
    }

    /// Every tile type of every set in play; a [`TileIndex`] indexes this list.
    #[must_use]
    pub fn tiles(&self) -> &[TileType] {
        &self.rules.tiles
    }

    /// The tile type numbered `tile`.
    #[must_use]
    pub fn tile(&self, tile: TileIndex) -> Option<&TileType> {
        self.rules.tiles.get(usize::from(tile))
    }

    /// The tile type with this id, with its number.
    #[must_use]
    pub fn tile_by_id(&self, id: &str) -> Option<(TileIndex, &TileType)> {
        let index = self.rules.tiles.iter().position(|tile| tile.id() == id)?;
        Some((index as TileIndex, &self.rules.tiles[index]))
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The engine's tracking of the board's features (see [`crate::engine`]);
    /// [`Game::feature`] answers what a player asks of one.
    #[must_use]
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Scores, one per player, in turn order.
    #[must_use]
    pub fn scores(&self) -> &[u32] {
        &self.scores.0[..usize::from(self.players())]
    }

    /// What the end-of-game scoring would award if the game ended now, one entry per feature
    /// that would score, appended to `out`: the unfinished roads, cities, monasteries and
    /// gardens with figures on them, then the fields. A game already over appends nothing.
    ///
    /// A scoreboard's projection, and the ground truth under a bot's evaluator.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// let mut projected = Vec::new();
    /// while !game.is_over() {
    ///     projected.clear();
    ///     game.scores_if_over(&mut projected);
    ///     let first_figure = game.legal_actions().into_iter().find(|action| {
    ///         matches!(action, Action::Deploy { .. })
    ///     });
    ///     game.apply(first_figure.unwrap_or(game.legal_actions()[0]))?;
    /// }
    /// assert!(!projected.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn scores_if_over(&self, out: &mut Vec<FeatureScore>) {
        if self.phase != Phase::GameOver {
            self.scene().final_scores(&Valuation::of(*self.options(), &self.rules.rulebook), out);
        }
    }

    /// The rotations of each tile type that fit each edge constraint: with
    /// [`Board::frontier_key`], how a tool asks which tiles could go in an empty cell.
    #[must_use]
    pub fn fit_table(&self) -> &crate::fit::FitTable {
        &self.rules.fit
    }

    /// Each player's points by the kind of feature that paid them, in turn order; each
    /// player's kinds add up to [`Game::scores`].
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// while !game.is_over() {
    ///     let last = *game.legal_actions().last().unwrap();
    ///     game.apply(last)?;
    /// }
    /// for (kinds, total) in game.points_by_kind().iter().zip(game.scores()) {
    ///     assert_eq!(kinds.total(), *total);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn points_by_kind(&self) -> &[PointsByKind] {
        &self.by_kind.0[..usize::from(self.players())]
    }

    /// The players with the highest score (meaningful once the game is over).
    #[must_use]
    pub fn leaders(&self) -> PlayerSet {
        let leaders = winners(&self.scores);
        if leaders.is_empty() { (0..self.players()).map(PlayerId).collect() } else { leaders }
    }

    /// The figures `player` has in hand.
    #[must_use]
    pub fn supply(&self, player: PlayerId) -> Supply {
        self.supply.0.get(player.index()).copied().unwrap_or_default()
    }

    /// The figures on the board, in the order they were placed.
    pub fn figures(&self) -> impl ExactSizeIterator<Item = PlacedFigure> + '_ {
        self.figures.iter().map(|standing| PlacedFigure {
            player: standing.player,
            figure: standing.figure,
            pos: standing.pos,
            segment: standing.segment,
        })
    }

    /// Copies of each tile type left in the bag, by tile number: what a player may know of the
    /// bag (its order is never revealed).
    #[must_use]
    pub fn remaining(&self) -> &[u16] {
        self.bag.remaining()
    }

    /// Tiles left in the bag.
    #[must_use]
    pub fn tiles_left(&self) -> u32 {
        self.bag.total()
    }

    /// Tiles drawn that fit nowhere and left the game.
    #[must_use]
    pub fn discarded(&self) -> u32 {
        self.discarded.len() as u32
    }

    /// Every action applied since the start, in order.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.log
    }

    /// The cell of each tile on the board with its type, in placement order (the start tile
    /// first).
    #[must_use]
    pub fn placements(&self) -> &[(Pos, TileIndex)] {
        &self.placed
    }

    /// The feature that segment `segment` of the tile at `pos` belongs to.
    #[must_use]
    pub fn feature(&self, pos: Pos, segment: SegmentIndex) -> Option<FeatureView> {
        let node = self.node_at(pos, segment)?;
        let root = self.features.root(node);
        let data = self.features.data(root);
        let scene = self.scene();
        let (tiles, complete) = match data.kind {
            SegmentKind::Monastery | SegmentKind::Garden => scene.cloister(pos),
            _ => (self.features.tile_count(root) as u32, data.is_closed()),
        };
        let marks = self.features.marks(root);
        let valuation = Valuation::of(*self.options(), &self.rules.rulebook);
        let (points, points_if_complete) = match data.kind {
            SegmentKind::City | SegmentKind::Road => (
                valuation.linear(data.kind, tiles, &marks, complete).0,
                valuation.linear(data.kind, tiles, &marks, true).0,
            ),
            SegmentKind::Monastery | SegmentKind::Garden => (tiles, 9),
            SegmentKind::Field | SegmentKind::River => (0, 0),
        };
        Some(FeatureView {
            kind: data.kind,
            complete,
            tiles,
            open_edges: data.open_edges,
            marks,
            points,
            points_if_complete,
            figures: data.figures,
            leaders: scene.majority(root, false),
        })
    }

    // ----- Legal actions -----

    /// Every legal action now: the draw; the placements of the drawn tile (cell by cell in
    /// frontier order, rotations in increasing order); or the figure actions on the placed
    /// tile, then abbot recalls, then `Skip`. Empty once the game is over.
    ///
    /// [`Action::DrawTile`] is legal for every tile type the bag could give now but is not
    /// listed; [`Game::drawable`] tells which.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    /// As [`Game::legal_actions`], into a buffer the caller reuses (cleared first).
    pub fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        match self.phase {
            Phase::Draw => actions.push(Action::Draw),
            Phase::Place { tile } if !self.rules.river[usize::from(tile)] => {
                // The hot loop of self-play: one table lookup per frontier cell, and no branch
                // on how many rotations fit, which a random board makes unpredictable: each
                // cell writes four actions into room made beforehand and keeps as many as fit.
                // The count lives in a local, not in the vector, so no store waits on a load.
                let row = self.rules.fit.row(tile);
                let frontier = self.board.frontier_cells();
                actions.resize(frontier.len() * 4, Action::Skip);
                let mut listed = 0;
                for cell in frontier {
                    let rotations = row.get(usize::from(cell.key)).copied().unwrap_or_default();
                    let [a, b, c, d] = rotations.listed();
                    let pos = cell.pos;
                    if let Some([first, second, third, fourth]) =
                        actions.get_mut(listed..listed + 4)
                    {
                        *first = Action::Place { pos, rotation: a };
                        *second = Action::Place { pos, rotation: b };
                        *third = Action::Place { pos, rotation: c };
                        *fourth = Action::Place { pos, rotation: d };
                    }
                    listed += rotations.len();
                }
                actions.truncate(listed);
            }
            Phase::Place { tile } => self.placements_into(tile, |pos, rotation| {
                actions.push(Action::Place { pos, rotation });
                false
            }),
            Phase::Figure { .. } => self.figure_actions(|action| {
                actions.push(action);
                false
            }),
            Phase::GameOver => {}
        }
    }

    /// How many actions [`Game::legal_actions`] would list, without listing them.
    ///
    /// With [`Game::legal_action`], a uniformly random legal action costs no list: what a
    /// random playout does on every turn.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// game.apply(carcassonne::Action::Draw)?;
    /// let listed = game.legal_actions();
    /// assert_eq!(game.legal_action_count(), listed.len());
    /// assert_eq!(game.legal_action(listed.len() - 1), listed.last().copied());
    /// assert_eq!(game.legal_action(listed.len()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_action_count(&self) -> usize {
        match self.phase {
            Phase::Draw => 1,
            Phase::Place { .. } => self.placements as usize,
            Phase::GameOver => 0,
            Phase::Figure { .. } => {
                self.deployments.count_ones() as usize + self.recallable_abbots().count() + 1
            }
        }
    }

    /// The action at `index` in [`Game::legal_actions`], found without listing the others;
    /// `None` past the end.
    #[must_use]
    pub fn legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            Phase::Draw => (index == 0).then_some(Action::Draw),
            Phase::Figure { .. } if index < self.deployments.count_ones() as usize => {
                let mut open = self.deployments;
                for _ in 0..index {
                    open &= open - 1;
                }
                Some(deployment(open.trailing_zeros() as usize))
            }
            Phase::Place { tile } if !self.rules.river[usize::from(tile)] => {
                let row = self.rules.fit.row(tile);
                let fits_at = |cell: &FrontierCell| {
                    row.get(usize::from(cell.key)).copied().unwrap_or_default()
                };
                let cells = self.board.frontier_cells();
                let count = self.placements as usize;
                // The count is known since the draw, so the scan starts from the nearer end:
                // a quarter of the frontier on average rather than half.
                if index < count / 2 {
                    let mut before = 0;
                    for cell in cells {
                        let fits = fits_at(cell);
                        if index < before + fits.len() {
                            let rotation = fits.listed()[index - before];
                            return Some(Action::Place { pos: cell.pos, rotation });
                        }
                        before += fits.len();
                    }
                } else if index < count {
                    let mut from = count;
                    for cell in cells.iter().rev() {
                        let fits = fits_at(cell);
                        from -= fits.len();
                        if index >= from {
                            let rotation = fits.listed()[index - from];
                            return Some(Action::Place { pos: cell.pos, rotation });
                        }
                    }
                }
                None
            }
            _ => {
                let mut seen = 0;
                let mut found = None;
                self.each_legal_action(|action| {
                    found = (seen == index).then_some(action);
                    seen += 1;
                    found.is_some()
                });
                found
            }
        }
    }

    /// Calls `each` with the legal actions in [`Game::legal_actions`]'s order until it
    /// returns `true`.
    fn each_legal_action(&self, mut each: impl FnMut(Action) -> bool) {
        match self.phase {
            Phase::Draw => {
                each(Action::Draw);
            }
            Phase::Place { tile } => {
                self.placements_into(tile, |pos, rotation| each(Action::Place { pos, rotation }));
            }
            Phase::Figure { .. } => self.figure_actions(each),
            Phase::GameOver => {}
        }
    }

    /// Calls `each` with the figure actions open after the tile just placed (deployments,
    /// abbot recalls, then `Skip`) until it returns `true`.
    fn figure_actions(&self, mut each: impl FnMut(Action) -> bool) {
        let mut open = self.deployments;
        while open != 0 {
            if each(deployment(open.trailing_zeros() as usize)) {
                return;
            }
            open &= open - 1;
        }
        for pos in self.recallable_abbots() {
            if each(Action::RecallAbbot { pos }) {
                return;
            }
        }
        each(Action::Skip);
    }

    /// The deployments open on the tile at `pos`, as [`Game::deployments`] keeps them.
    fn open_deployments(&self, pos: Pos) -> u128 {
        let Some((tile, order, _)) = self.board.peek(pos) else { return 0 };
        let supply = self.supply[self.current];
        let in_supply = Figure::ALL
            .into_iter()
            .enumerate()
            .fold(0u8, |mask, (bit, figure)| mask | u8::from(supply.count(figure) > 0) << bit);
        let segments = self.rules.tiles[usize::from(tile)].segments();
        let mut open = 0u128;
        for (segment, printed) in segments.iter().enumerate() {
            let choices = self.rules.may_stand[printed.kind() as usize] & in_supply;
            if choices == 0
                || self
                    .features
                    .node(order, segment as SegmentIndex)
                    .is_none_or(|node| self.features.data(node).figures > 0)
            {
                continue;
            }
            open |= u128::from(choices) << (FIGURE_KINDS * segment);
        }
        open
    }

    /// Where the current player has an abbot that may be recalled. Only a player whose abbot
    /// has left the supply can recall one: most games have no abbots, and the figures need
    /// not be searched for them.
    fn recallable_abbots(&self) -> impl Iterator<Item = Pos> + '_ {
        let out = self.supply[self.current].abbots < self.rules.supply.abbots;
        let figures = if out { &self.figures[..] } else { &[] };
        figures
            .iter()
            .filter(|standing| {
                standing.player == self.current
                    && standing.figure == Figure::Abbot
                    && self.board.surrounding_tiles(standing.pos) < 8
            })
            .map(|standing| standing.pos)
    }

    /// Whether the bag could give tile type `tile` now.
    #[must_use]
    pub fn drawable(&self, tile: TileIndex) -> bool {
        self.check_draw(tile).is_ok()
    }

    /// Whether `action` would be accepted now, and why not.
    ///
    /// # Errors
    /// The reason [`Game::apply`] would give.
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::GameOver, _) => Err(ActionError::GameOver),
            (Phase::Draw, Action::Draw) => Ok(()),
            (Phase::Draw, Action::DrawTile { tile }) => self.check_draw(tile),
            (Phase::Place { tile }, Action::Place { pos, rotation }) => {
                self.check_place(tile, pos, rotation).map(|_| ())
            }
            (Phase::Figure { pos }, Action::Deploy { segment, figure }) => {
                self.check_deploy(pos, segment, figure).map(|_| ())
            }
            (Phase::Figure { .. }, Action::RecallAbbot { pos }) => {
                self.check_recall(pos).map(|_| ())
            }
            (Phase::Figure { .. }, Action::Skip) => Ok(()),
            (phase, action) => Err(wrong_phase(phase, action)),
        }
    }

    /// Calls `each` with every legal (cell, rotation) of `tile` until it returns `true`.
    fn placements_into(&self, tile: TileIndex, mut each: impl FnMut(Pos, Rotation) -> bool) {
        let river = self.rules.river[usize::from(tile)];
        for cell in self.board.frontier_cells() {
            let rotations = self.rules.fit.rotations_by_key(tile, cell.key);
            if rotations.is_empty() {
                continue;
            }
            let sides = if river { self.board.constraint(cell.pos).0 } else { ByDir([None; 4]) };
            for rotation in rotations.iter() {
                if river && self.river_rule(tile, cell.pos, rotation, &sides).is_err() {
                    continue;
                }
                if each(cell.pos, rotation) {
                    return;
                }
            }
        }
    }

    /// How many placements `tile` has on the board.
    fn placement_count(&self, tile: TileIndex) -> usize {
        // A full board still has a frontier, but no tile can be numbered on it: every tile
        // drawn is discarded and the game ends when the bag is empty.
        if self.board.is_full() {
            return 0;
        }
        if !self.rules.river[usize::from(tile)] {
            let row = self.rules.fit.row(tile);
            return self
                .board
                .frontier_cells()
                .iter()
                .map(|cell| row.get(usize::from(cell.key)).map_or(0, |fits| fits.len()))
                .sum();
        }
        let mut count = 0;
        self.placements_into(tile, |_, _| {
            count += 1;
            false
        });
        count
    }

    fn check_draw(&self, tile: TileIndex) -> Result<(), ActionError> {
        self.bag.check(tile, &self.rules.groups).map_err(|why| match why {
            Undrawable::Unknown => ActionError::UnknownTile { tile },
            Undrawable::NoneLeft => ActionError::TileNotInBag { tile },
            Undrawable::LaterStage => ActionError::TileOfLaterStage { tile },
            Undrawable::ComesLast => ActionError::TileComesLast { tile },
        })
    }

    /// The tile's edges as placed, or why it cannot go there.
    fn check_place(
        &self,
        tile: TileIndex,
        pos: Pos,
        rotation: Rotation,
    ) -> Result<(ByDir<EdgeKind>, Option<Turn>), ActionError> {
        let edges = self.rules.tiles[usize::from(tile)].edges().rotated(rotation);
        let river = self.rules.river[usize::from(tile)];
        // A frontier cell whose key admits the rotation passes every board rule (the board
        // is never full in the place phase: `has_placement` discards a tile drawn then): one
        // lookup where the full check reads four neighbours. The full check names what is
        // wrong.
        let fits = self
            .board
            .frontier_key(pos)
            .is_some_and(|key| self.rules.fit.rotations_by_key(tile, key).contains(rotation));
        if !fits {
            self.board.check(pos, edges)?;
        }
        let turn = if river {
            self.river_rule(tile, pos, rotation, &self.board.constraint(pos).0)?
        } else {
            None
        };
        Ok((edges, turn))
    }

    /// A river tile must put a river edge against the open river end, and a curve may not
    /// turn the way the previous curve did. Returns the way this tile turns.
    fn river_rule(
        &self,
        tile: TileIndex,
        pos: Pos,
        rotation: Rotation,
        sides: &ByDir<Option<EdgeKind>>,
    ) -> Result<Option<Turn>, ActionError> {
        let edges = self.rules.tiles[usize::from(tile)].edges().rotated(rotation);
        let rivers: Vec<Dir> =
            Dir::ALL.into_iter().filter(|dir| edges[*dir] == EdgeKind::River).collect();
        let Some(inflow) = rivers.iter().copied().find(|dir| sides[*dir] == Some(EdgeKind::River))
        else {
            return Err(ActionError::RiverNotContinued { pos });
        };
        let [a, b] = rivers[..] else { return Ok(None) };
        let outflow = if a == inflow { b } else { a };
        let heading = inflow.opposite();
        let turn = if outflow == heading {
            None
        } else if outflow == heading.rotated(Rotation::R90) {
            Some(Turn::Right)
        } else {
            Some(Turn::Left)
        };
        if turn.is_some() && turn == self.river_turn {
            return Err(ActionError::RiverTurnsBack { pos });
        }
        Ok(turn)
    }

    /// The node a figure would stand on, or why it cannot.
    fn check_deploy(
        &self,
        pos: Pos,
        segment: SegmentIndex,
        figure: Figure,
    ) -> Result<NodeId, ActionError> {
        let target = self.deploy_target(pos, segment)?;
        self.figure_rule(&target, figure)?;
        Ok(target.node)
    }

    /// What a figure deployed on segment `segment` of the tile at `pos` would stand on.
    fn deploy_target(&self, pos: Pos, segment: SegmentIndex) -> Result<Target, ActionError> {
        let placed = self.board.get(pos).ok_or(ActionError::NoSuchSegment { segment })?;
        let tile = &self.rules.tiles[usize::from(placed.tile)];
        let kind = tile
            .segments()
            .get(usize::from(segment))
            .ok_or(ActionError::NoSuchSegment { segment })?
            .kind();
        let node = self
            .features
            .node(placed.order, segment)
            .ok_or(ActionError::NoSuchSegment { segment })?;
        let occupied = self.features.data(node).figures > 0;
        Ok(Target { segment, kind, node, occupied })
    }

    /// Whether the current player may put `figure` on `target`: the kind of segment, then
    /// the supply, then whether the feature is free.
    fn figure_rule(&self, target: &Target, figure: Figure) -> Result<(), ActionError> {
        let kind = target.kind;
        if let Some(why) = kind_refusal(kind, figure, self.options().farmers) {
            return Err(ActionError::FigureNotAllowed { figure, kind, why });
        }
        if self.supply[self.current].count(figure) == 0 {
            return Err(ActionError::NoneLeft { figure });
        }
        if target.occupied {
            return Err(ActionError::FeatureOccupied { segment: target.segment });
        }
        Ok(())
    }

    /// The index of the current player's abbot at `pos`, if it may be recalled: the rules
    /// (`docs/rules.md`) recall only from an unfinished monastery or garden.
    fn check_recall(&self, pos: Pos) -> Result<usize, ActionError> {
        let index = self.abbot_at(pos).ok_or(ActionError::NoAbbotThere { pos })?;
        if self.board.surrounding_tiles(pos) == 8 {
            return Err(ActionError::AbbotFeatureComplete { pos });
        }
        Ok(index)
    }

    /// The index in `figures` of the current player's abbot at `pos`.
    fn abbot_at(&self, pos: Pos) -> Option<usize> {
        self.figures.iter().position(|standing| {
            standing.player == self.current
                && standing.figure == Figure::Abbot
                && standing.pos == pos
        })
    }

    fn node_at(&self, pos: Pos, segment: SegmentIndex) -> Option<NodeId> {
        let placed = self.board.get(pos)?;
        self.features.node(placed.order, segment)
    }

    // ----- Applying actions -----

    /// Applies `action` and returns what happened.
    ///
    /// # Errors
    /// Why the action is not legal now; the game is then exactly as before.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// As [`Game::apply`], appending the events to a buffer the caller reuses; nothing is
    /// appended when the action is refused.
    ///
    /// # Errors
    /// As [`Game::apply`].
    pub fn apply_into(
        &mut self,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::GameOver, _) => return Err(ActionError::GameOver),
            (Phase::Draw, Action::Draw) => {
                let tile = self
                    .bag
                    .draw(&mut self.rng, &self.rules.groups)
                    .expect("the bag is never empty in the draw phase");
                self.drawn(tile, events);
            }
            (Phase::Draw, Action::DrawTile { tile }) => {
                self.check_draw(tile)?;
                self.bag.take(tile, &self.rules.groups);
                self.drawn(tile, events);
            }
            (Phase::Place { tile }, Action::Place { pos, rotation }) => {
                let (edges, turn) = self.check_place(tile, pos, rotation)?;
                // Checked above, with the river rules the board does not know.
                self.board.put(pos, tile, rotation, edges).map_err(ActionError::Placement)?;
                self.closes = self.features.join_tile(&self.board, &self.rules.tiles, pos);
                self.placed.push((pos, tile));
                if turn.is_some() {
                    self.river_turn = turn;
                }
                events.push(Event::TilePlaced { player: self.current, tile, pos, rotation });
                self.phase = Phase::Figure { pos };
                self.placements = 0;
                self.deployments = self.open_deployments(pos);
            }
            (Phase::Figure { pos }, Action::Deploy { segment, figure }) => {
                let node = self.check_deploy(pos, segment, figure)?;
                let player = self.current;
                *self.supply[player].slot(figure) -= 1;
                self.features.count_figure(node, true);
                let kind = self.features.kind(node);
                self.figures.push(Standing { player, figure, pos, segment, node, kind });
                if is_cloister(kind) {
                    self.cloisters.push(pos);
                }
                events.push(Event::FigurePlaced { player, figure, pos, segment });
                self.end_turn(pos, events);
            }
            (Phase::Figure { pos: placed }, Action::RecallAbbot { pos }) => {
                let index = self.check_recall(pos)?;
                let standing = self.figures[index];
                events.push(Event::AbbotRecalled { player: standing.player, pos });
                let kind = self.features.data(standing.node).kind;
                let score = self.scene().cloister_score(
                    pos,
                    standing.segment,
                    kind,
                    ScoreReason::AbbotRecalled,
                    PlayerSet::EMPTY.with(standing.player),
                );
                self.award(score, events);
                self.return_figure(index, events);
                self.end_turn(placed, events);
            }
            (Phase::Figure { pos }, Action::Skip) => self.end_turn(pos, events),
            (phase, action) => return Err(wrong_phase(phase, action)),
        }
        self.log.push(action);
        Ok(())
    }

    fn drawn(&mut self, tile: TileIndex, events: &mut Vec<Event>) {
        let player = self.current;
        events.push(Event::TileDrawn { player, tile });
        let placements = self.placement_count(tile);
        if placements > 0 {
            // At most four per frontier cell, and the frontier is bounded by the board.
            self.placements = u32::try_from(placements).unwrap_or(u32::MAX);
            self.phase = Phase::Place { tile };
            return;
        }
        events.push(Event::TileDiscarded { player, tile });
        self.discarded.push(tile);
        if self.bag.total() == 0 {
            self.finish(events);
        }
    }

    /// Scores what the tile at `pos` completed, then passes the turn or ends the game.
    fn end_turn(&mut self, pos: Pos, events: &mut Vec<Event>) {
        let (tile, order, _) = self.board.peek(pos).expect("the turn's tile lies at its cell");
        // Most tiles close nothing, and then no segment of theirs needs looking at.
        self.deployments = 0;
        let linear = if core::mem::take(&mut self.closes) {
            self.rules.linear.get(usize::from(tile)).copied().unwrap_or_default()
        } else {
            SegmentSet::EMPTY
        };
        let mut done: [NodeId; crate::segment::MAX_SEGMENTS_PER_TILE] =
            [NodeId::MAX; crate::segment::MAX_SEGMENTS_PER_TILE];
        for segment in linear.iter() {
            let Some(node) = self.features.node(order, segment) else {
                continue;
            };
            let root = self.features.find(node);
            let data = self.features.root_data(root);
            let segment = usize::from(segment);
            if !data.is_closed() || done[..segment].contains(&root) {
                continue;
            }
            done[segment] = root;
            if data.figures == 0 {
                continue;
            }
            let scene = self.scene();
            let scorers = scene.majority(root, false);
            let score = scene.linear(
                root,
                &Valuation::of(*self.options(), &self.rules.rulebook),
                ScoreReason::Completed,
                scorers,
            );
            self.award(score, events);
            self.return_figures_on(root, events);
        }

        // Monasteries and gardens this tile completed: only occupied ones score, so look at
        // the few cells with a figure in one rather than at the nine cells around the tile.
        let near = |at: Pos| {
            i32::from(at.x).abs_diff(i32::from(pos.x)) <= 1
                && i32::from(at.y).abs_diff(i32::from(pos.y)) <= 1
        };
        if self.cloisters.iter().any(|at| near(*at) && self.board.surrounding_tiles(*at) == 8) {
            let mut index = 0;
            while index < self.figures.len() {
                let standing = self.figures[index];
                if !is_cloister(standing.kind)
                    || !near(standing.pos)
                    || self.board.surrounding_tiles(standing.pos) < 8
                {
                    index += 1;
                    continue;
                }
                let score = self.scene().cloister_score(
                    standing.pos,
                    standing.segment,
                    standing.kind,
                    ScoreReason::Completed,
                    PlayerSet::EMPTY.with(standing.player),
                );
                self.award(score, events);
                self.return_figure(index, events);
            }
        }

        if self.bag.total() == 0 {
            self.finish(events);
        } else {
            let next = self.current.0 + 1;
            self.current = PlayerId(if next == self.players() { 0 } else { next });
            self.phase = Phase::Draw;
            events.push(Event::TurnStarted { player: self.current });
        }
    }

    /// Final scoring and the end of the game.
    fn finish(&mut self, events: &mut Vec<Event>) {
        let mut scores = Vec::new();
        self.scene()
            .final_scores(&Valuation::of(*self.options(), &self.rules.rulebook), &mut scores);
        for score in scores {
            self.award(score, events);
        }
        self.phase = Phase::GameOver;
        events.push(Event::GameOver { winners: self.leaders() });
    }

    fn award(&mut self, score: FeatureScore, events: &mut Vec<Event>) {
        for player in score.scorers.iter() {
            self.scores[player] += score.points;
            self.by_kind[player].add(&score);
        }
        events.push(Event::FeatureScored(score));
    }

    fn return_figures_on(&mut self, root: NodeId, events: &mut Vec<Event>) {
        let mut index = 0;
        while index < self.figures.len() {
            if self.features.root(self.figures[index].node) == root {
                self.return_figure(index, events);
            } else {
                index += 1;
            }
        }
    }

    fn return_figure(&mut self, index: usize, events: &mut Vec<Event>) {
        let standing = self.figures.remove(index);
        if is_cloister(standing.kind)
            && let Some(at) = self.cloisters.iter().position(|pos| *pos == standing.pos)
        {
            self.cloisters.swap_remove(at);
        }
        *self.supply[standing.player].slot(standing.figure) += 1;
        self.features.count_figure(standing.node, false);
        events.push(Event::FigureReturned {
            player: standing.player,
            figure: standing.figure,
            pos: standing.pos,
            segment: standing.segment,
        });
    }

    fn scene(&self) -> Scene<'_> {
        Scene::new(&self.board, &self.features, &self.rules.tiles, &self.placed, &self.figures)
    }
}

/// Why `figure` may never stand on a segment of `kind` (as a phrase for
/// [`ActionError::FigureNotAllowed`]), or `None` when it may.
pub(crate) fn kind_refusal(
    kind: SegmentKind,
    figure: Figure,
    farmers: bool,
) -> Option<&'static str> {
    match (kind, figure) {
        (SegmentKind::River, _) => Some(""),
        (SegmentKind::Garden, Figure::Follower | Figure::BigFollower) => {
            Some("; only an abbot may stand on a garden")
        }
        (SegmentKind::City | SegmentKind::Road | SegmentKind::Field, Figure::Abbot) => {
            Some("; an abbot stands only on a monastery or garden")
        }
        (SegmentKind::Field, _) if !farmers => Some("; farmers are off in this game"),
        _ => None,
    }
}

/// How many tiles the game's sets hold, and how many segments those tiles have in all.
/// How many kinds of figure a deployment may name: the width of a segment's bits in
/// [`Game::deployments`].
const FIGURE_KINDS: usize = Figure::ALL.len();

// Every (segment, figure) pair of a tile has its bit.
const _: () = assert!(FIGURE_KINDS * crate::segment::MAX_SEGMENTS_PER_TILE <= 128);

/// The deployment that bit `bit` of [`Game::deployments`] stands for.
fn deployment(bit: usize) -> Action {
    Action::Deploy {
        segment: (bit / FIGURE_KINDS) as SegmentIndex,
        figure: Figure::ALL[bit % FIGURE_KINDS],
    }
}

/// Whether a figure on a segment of this kind scores by the cells around its tile.
fn is_cloister(kind: SegmentKind) -> bool {
    matches!(kind, SegmentKind::Monastery | SegmentKind::Garden)
}

fn deck_size(rules: &Rules) -> (usize, usize) {
    let tiles = rules.tiles.iter().map(|tile| usize::from(tile.count())).sum();
    let nodes =
        rules.tiles.iter().map(|tile| usize::from(tile.count()) * tile.segments().len()).sum();
    (tiles, nodes)
}

/// Every player's figures at the start, the unused seats' empty.
fn starting_supply(rules: &Rules) -> ByPlayer<Supply> {
    let mut supply = ByPlayer([Supply::default(); MAX_PLAYERS]);
    supply.0[..usize::from(rules.setup.players)].fill(rules.supply);
    supply
}

/// How far from the start a game of `tiles` tiles is likely to spread.
fn reach_for(tiles: usize) -> i16 {
    let root = (1..).find(|root: &usize| root * root >= tiles).unwrap_or(1);
    i16::try_from(root + root / 2 + 1).unwrap_or(i16::MAX)
}

fn wrong_phase(phase: Phase, action: Action) -> ActionError {
    let action = match action {
        Action::Draw | Action::DrawTile { .. } => "drawing",
        Action::Place { .. } => "placing a tile",
        Action::Deploy { .. } => "deploying a figure",
        Action::RecallAbbot { .. } => "recalling the abbot",
        Action::Skip => "skipping",
    };
    let expected = match phase {
        Phase::Draw => "draw a tile first",
        Phase::Place { .. } => "place the drawn tile first",
        Phase::Figure { .. } => "deploy a figure, recall the abbot or skip",
        Phase::GameOver => "the game is over",
    };
    ActionError::WrongPhase { phase: phase.name(), action, expected }
}

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The setup cannot make a game.
    #[error("invalid setup: {0}")]
    Setup(SetupError),
    /// An action was refused.
    #[error("action {index} was refused: {error}")]
    Action {
        /// Its position in the list, from 0.
        index: usize,
        /// Why.
        error: ActionError,
    },
}
