//! The game: its state and how it starts (here), what a player may ask of it (`queries`),
//! the one generator of legal actions and the checks (`legal`), and `apply`, the only thing
//! that changes a game (`apply`).

use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::action::{Action, ActionError, ActionKind, Phase};
use crate::bag::Bag;
use crate::bits::WideBits;
use crate::board::Board;
use crate::event::{Event, PointsByKind};
use crate::features::{Features, NodeId, roomy_clone, roomy_clone_from};
use crate::geom::{Dir, Rotation};
use crate::hoard::Bags;
use crate::player::{ByPlayer, Figure, Hand, MAX_FOLLOWER_KINDS, MAX_PLAYERS, PlayerId, PlayerSet};
use crate::pos::Pos;
use crate::rng::Rng;
use crate::rulebook::{MarkCounts, TitleStanding};
use crate::scoring::Standing;
use crate::segment::{SegmentIndex, SegmentKind};
use crate::setup::{GameSetup, Rules, SetupError};
use crate::tile::{TileIndex, TileType};

mod apply;
mod legal;
mod queries;
mod special;

/// A segment of the tile just placed, as a figure would see it.
struct Target {
    /// The tile type of the tile the segment is on.
    tile: TileIndex,
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

impl Turn {
    /// The turn a chain makes entering a tile from side `inflow` and leaving it by side
    /// `outflow`: none going straight on.
    fn between(inflow: Dir, outflow: Dir) -> Option<Turn> {
        let heading = inflow.opposite();
        if outflow == heading {
            None
        } else if outflow == heading.rotated(Rotation::R90) {
            Some(Turn::Right)
        } else {
            Some(Turn::Left)
        }
    }
}

/// What placing a chain tile continues: the open end (its index among the game's) and the
/// side of the tile the chain comes in by.
#[derive(Clone, Copy, Debug)]
struct ChainStep {
    end: Option<usize>,
    inflow: Dir,
}

/// An open end of the declared chain (the River): the empty cell a chain edge faces, the side
/// of that cell the chain comes in from, and which way the last curve on its way turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ChainEnd {
    pos: Pos,
    from: Dir,
    turn: Option<Turn>,
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
#[non_exhaustive]
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
    /// road; a monastery or garden: 9, with the declared bonuses of the marked tiles around
    /// it now).
    pub points_if_complete: u32,
    /// Followers standing on it: the figures that hold it (a builder, pig or shepherd beside
    /// them is not counted).
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
    /// Figures in hand, by place in the game's figure table.
    supply: ByPlayer<Hand>,
    /// Tokens held, by token kind, then by player; empty when no set declares tokens.
    tokens: Vec<ByPlayer<u32>>,
    /// Where each declared title stands; empty when no set declares titles.
    titles: Vec<TitleStanding>,
    /// Under the continuous title scoring, who held each title when the turn's scoring began:
    /// the players its completions pay, whoever takes the title in the same turn. Empty
    /// otherwise.
    turn_holders: Vec<Option<PlayerId>>,
    /// Whether a completed feature may give tokens or titles (some set declares either).
    collects: bool,
    figures: Vec<Standing>,
    /// Where the figures in monasteries and gardens stand (a few at most), so the end of a
    /// turn finds whether it completed one without looking at every figure.
    cloisters: Vec<Pos>,
    /// Cell and tile type of each placed tile, in placement order.
    placed: Vec<(Pos, TileIndex)>,
    /// The chain's open ends (none in games without a chain).
    chain_ends: Vec<ChainEnd>,
    /// In the place phase, how many placements the drawn tile has (counted once, when it is
    /// drawn, since nothing else changes until it is placed); 0 in other phases.
    placements: u32,
    /// In the figure phase, whether the tile just placed closed a city or road, which the
    /// end of the turn then scores; false in other phases.
    closes: bool,
    /// In the figure phase, the follower deployments open on the tile just placed: bit
    /// `MAX_FOLLOWER_KINDS × segment + slot` for `Deploy { segment, figure }` with the
    /// figure at `slot` of the game's table, found once when the tile is placed, as nothing
    /// changes them until the turn ends; empty in other phases.
    deployments: WideBits,
    /// Tiles drawn that fit nowhere, in the order they were drawn.
    discarded: Vec<TileIndex>,
    /// The builders', pigs' and shepherds' state, and the tiles hidden under hills.
    specials: special::Specials,
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
            tokens: self.tokens.clone(),
            titles: self.titles.clone(),
            turn_holders: self.turn_holders.clone(),
            collects: self.collects,
            figures: roomy_clone(&self.figures),
            cloisters: roomy_clone(&self.cloisters),
            placed: roomy_clone(&self.placed),
            chain_ends: self.chain_ends.clone(),
            placements: self.placements,
            closes: self.closes,
            deployments: self.deployments,
            discarded: self.discarded.clone(),
            specials: self.specials.clone(),
            log: roomy_clone(&self.log),
        }
    }

    /// Copies `source` into the memory this game holds: what a search does to copy one
    /// position again and again without allocating.
    fn clone_from(&mut self, source: &Game) {
        self.rules.clone_from(&source.rules);
        self.seed = source.seed;
        self.board.clone_from(&source.board);
        self.features.clone_from(&source.features);
        self.bag.clone_from(&source.bag);
        self.rng = source.rng;
        self.phase = source.phase;
        self.current = source.current;
        self.scores = source.scores;
        self.by_kind = source.by_kind;
        self.supply = source.supply;
        self.tokens.clone_from(&source.tokens);
        self.titles.clone_from(&source.titles);
        self.turn_holders.clone_from(&source.turn_holders);
        self.collects = source.collects;
        roomy_clone_from(&mut self.figures, &source.figures);
        roomy_clone_from(&mut self.cloisters, &source.cloisters);
        roomy_clone_from(&mut self.placed, &source.placed);
        self.chain_ends.clone_from(&source.chain_ends);
        self.placements = source.placements;
        self.closes = source.closes;
        self.deployments = source.deployments;
        self.discarded.clone_from(&source.discarded);
        self.specials.clone_from(&source.specials);
        roomy_clone_from(&mut self.log, &source.log);
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
        // Bag tokens drawn at random are named first, so that only tile draws are left to name.
        for (index, named) in self.specials.random_draws.drain(..) {
            if let Some(action) = self.log.get_mut(index) {
                *action = named;
            }
        }
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
        self.tokens.clear();
        self.tokens.resize(rules.rulebook.tokens().len(), ByPlayer::default());
        self.titles.clear();
        self.titles.resize(rules.rulebook.titles().len(), TitleStanding::default());
        self.turn_holders.clear();
        self.collects = !self.tokens.is_empty() || !self.titles.is_empty();
        self.figures.clear();
        self.cloisters.clear();
        self.placed.clear();
        self.chain_ends.clear();
        self.placements = 0;
        self.closes = false;
        self.deployments = WideBits::EMPTY;
        self.discarded.clear();
        // Cleared in place, keeping the lists' memory as the other fields do.
        let (mut hoards, mut random_draws) = (
            core::mem::take(&mut self.specials.hoards),
            core::mem::take(&mut self.specials.random_draws),
        );
        hoards.clear();
        random_draws.clear();
        self.specials = special::Specials {
            bags: Bags::full(&rules.bags),
            hoards,
            random_draws,
            ..special::Specials::default()
        };
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
            tokens: Vec::new(),
            titles: Vec::new(),
            turn_holders: Vec::new(),
            collects: false,
            figures: Vec::with_capacity(figures),
            cloisters: Vec::with_capacity(figures),
            placed: Vec::with_capacity(tiles),
            chain_ends: Vec::new(),
            placements: 0,
            closes: false,
            deployments: WideBits::EMPTY,
            discarded: Vec::new(),
            specials: special::Specials::default(),
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
        // The chain grows from the start tile's chain edges (the spring's river).
        if let Some(chain) = self.rules.chain {
            for (dir, edge) in edges.iter() {
                if *edge == chain.edge
                    && let Some(pos) = Pos::ORIGIN.neighbour(dir)
                {
                    self.chain_ends.push(ChainEnd { pos, from: dir.opposite(), turn: None });
                }
            }
        }
        if self.tiles_left() == 0 {
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
}

// Every (segment, figure) pair of a tile has its bit in [`Game::deployments`].
const _: () = assert!(MAX_FOLLOWER_KINDS * crate::segment::MAX_SEGMENTS_PER_TILE <= 256);

impl Game {
    /// The deployment that bit `bit` of a deployment set stands for: of the figure at place
    /// `first + bit % MAX_FOLLOWER_KINDS` of the game's table (`first` is 0 for followers,
    /// the number of followers for companions).
    fn deployment(&self, bit: usize, first: usize) -> Action {
        let slot = first + bit % MAX_FOLLOWER_KINDS;
        // A deployment set holds only bits of slots the table has (`open_deployments`,
        // `open_specials`).
        debug_assert!(self.rules.figures.at(slot).is_some(), "no figure at slot {slot}");
        let figure = self.rules.figures.at(slot).map_or(Figure::FOLLOWER, |rule| rule.figure);
        Action::Deploy { segment: (bit / MAX_FOLLOWER_KINDS) as SegmentIndex, figure }
    }
}

/// Whether a figure on a segment of this kind scores by the cells around its tile.
fn is_cloister(kind: SegmentKind) -> bool {
    matches!(kind, SegmentKind::Monastery | SegmentKind::Garden)
}

/// How many tiles the game's sets hold, and how many segments those tiles have in all.
fn deck_size(rules: &Rules) -> (usize, usize) {
    let tiles = rules.tiles.iter().map(|tile| usize::from(tile.count())).sum();
    let nodes =
        rules.tiles.iter().map(|tile| usize::from(tile.count()) * tile.segments().len()).sum();
    (tiles, nodes)
}

/// Every player's figures at the start, the unused seats' empty.
fn starting_supply(rules: &Rules) -> ByPlayer<Hand> {
    let mut supply = ByPlayer([Hand::default(); MAX_PLAYERS]);
    supply.0[..usize::from(rules.setup.players)].fill(rules.supply);
    supply
}

/// How far from the start a game of `tiles` tiles is likely to spread.
fn reach_for(tiles: usize) -> i16 {
    let root = (1..).find(|root: &usize| root * root >= tiles).unwrap_or(1);
    i16::try_from(root + root / 2 + 1).unwrap_or(i16::MAX)
}

fn wrong_phase(phase: Phase, action: Action) -> ActionError {
    ActionError::WrongPhase { phase, action: ActionKind::of(action) }
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
