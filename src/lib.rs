//! A rules engine for the board game Carcassonne, with tile sets as data.
//!
//! Tile catalogs are TOML files in a small, strict language (see `tilesets/README.md`); the
//! base game, its second-edition variant with gardens, The River and Inns & Cathedrals are
//! built in, and any file a user writes loads the same way, with every mistake reported at
//! once by file, line, column and a stable code.
//!
//! # A game
//!
//! A [`Game`] is made from a checked [`GameSetup`] and changed only by [`Game::apply`], which
//! takes one action of those [`Game::legal_actions`] lists and returns the [`Event`]s it
//! caused; anything else is refused with a typed reason and changes nothing.
//!
//! ```
//! use carcassonne::{Catalog, Event, Game, GameSetup};
//!
//! let mut setup = GameSetup::new(vec![Catalog::builtin("base")?], 2);
//! setup.seed = 42;
//! setup.options.abbots = true;
//! let mut game = Game::new(setup)?;
//!
//! let (mut actions, mut scored) = (Vec::new(), 0);
//! while !game.is_over() {
//!     game.legal_actions_into(&mut actions);
//!     let action = actions[game.actions().len() % actions.len()];
//!     for event in game.apply(action)? {
//!         if let Event::FeatureScored(score) = event {
//!             scored += score.points * score.scorers.len() as u32;
//!         }
//!     }
//! }
//! assert_eq!(scored, game.scores().iter().sum::<u32>());
//! println!("{:?} to {:?}", game.scores(), game.leaders());
//!
//! // A game is its setup and its actions: saving writes them, loading replays and checks
//! // every action again.
//! let saved = serde_json::to_string(&game)?;
//! let loaded: Game = serde_json::from_str(&saved)?;
//! assert_eq!(loaded, game);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A tile set of your own
//!
//! A set brings tiles, and may bring a start tile, followers and colours; it plays alone or
//! beside others whose tile ids differ.
//!
//! ```
//! use carcassonne::{Catalog, Game, GameSetup};
//!
//! let text = r#"
//! [set]
//! id = "fortresses"
//! name = "Fortresses"
//! edition = 1
//!
//! ## A mark is declared by the set that prints it: what it stands on, how several add up,
//! ## what each adds to a feature, and how pictures draw it.
//! [[mark]]
//! id = "pennant"
//! name = "Pennant"
//! on = ["city"]
//! merge = "count"
//! complete = 2
//! unfinished = 1
//! glyph = "shield"
//! colour = "blue"
//!
//! [[tile]]
//! id = "FORT"
//! name = "City on four sides with two pennants"
//! count = 3
//! edges = { N = "city", E = "city", S = "city", W = "city" }
//! segments = [{ kind = "city", edges = ["N", "E", "S", "W"], marks = ["pennant"] }]
//! "#;
//! let fortresses = Catalog::from_toml("fortresses.toml", text)?;
//! let pennant = fortresses.mark_by_id("pennant").unwrap();
//! assert_eq!(fortresses.count_tiles_with(pennant), 3);
//!
//! let setup = GameSetup::new(vec![Catalog::builtin("base")?, fortresses], 3);
//! let game = Game::new(setup)?;
//! assert_eq!(game.tiles_left(), 71 + 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A broken file gets every problem at once ([`Diagnostics`]), each with its line, column and
//! a stable [`Code`]; [`limits`] lists every bound on input from strangers.
//!
//! # Features
//! - `std` (default): loading tile sets from paths ([`Catalog::from_path`]). Without it the
//!   crate is `#![no_std]` and needs only `alloc`.
//!
//! [`engine`] holds the engine's own data structures, for benchmarks and tools.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod action;
mod bag;
mod bits;
mod board;
mod catalog;
pub mod dsl;
mod edge;
mod event;
mod export;
mod features;
mod fit;
mod game;
mod geom;
mod hoard;
mod id;
mod landscape;
pub mod limits;
#[cfg(feature = "std")]
mod load;
mod palette;
mod player;
mod pos;
mod rng;
mod rulebook;
mod save;
mod scoring;
mod segment;
mod setup;
mod skip;
mod tagged;
mod tile;
mod view;

pub use action::{Action, ActionError, ActionKind, Forbidden, Phase};
pub use board::{Board, MAX_COORDINATE, PlacedTile, PlacementError};
pub use catalog::{BUILTIN_NAMES, Catalog, DeckRules, Figures, SetInfo, UnknownBuiltin};
pub use dsl::{Code, Diagnostic, Diagnostics};
pub use edge::{EdgeKind, HalfEdge, HalfEdgeSet};
pub use event::{Event, FeatureScore, PointsByKind, ScoreReason};
pub use export::EXPORT_FORMAT;
pub use hoard::{BagContents, Hoard};

pub use game::{FeatureView, Game, PlacedFigure, ReplayError};
pub use geom::{ByDir, Dir, DirSet, InvalidRotation, Rotation};
pub use landscape::{
    Landscape, LandscapeDoc, LandscapeError, LandscapeFigure, LandscapeOptions, LandscapeScore,
    LandscapeTile,
};
#[cfg(feature = "std")]
pub use load::LoadError;
pub use palette::{Colour, PALETTE};
pub use player::{
    ByPlayer, Figure, FigureList, MAX_FIGURE_ID, MAX_FIGURE_KINDS, MAX_FOLLOWER_KINDS, MAX_PLAYERS,
    PlayerId, PlayerSet, Supply,
};
pub use pos::Pos;
pub use rulebook::{
    Alone, BagKind, BagRule, BagToken, BagTokenRule, ChainRule, ChainTurns, Drawn, Effect,
    Extended, FarmRule, FeatureState, FigureRole, FigureRule, Glyph, HideRule, Joins, KindSet,
    MAX_BAG_KINDS, MAX_BAG_TOKEN_KINDS, MAX_MARKS, MAX_RULES, MAX_STRENGTH, MAX_TITLES, MAX_TOKENS,
    Mark, MarkCounts, MarkInfo, MarkSet, Merge, NeighbourRule, OccupantRule, OptionTest, PigRule,
    Reach, RivalRule, Rule, RuleId, Rulebook, Taker, TieBreakBy, TieBreakRule, TitleId, TitleInfo,
    TitleStanding, TokenId, TokenInfo, ValueRule,
};
pub use save::{CatalogList, SAVE_FORMAT};
pub use segment::{MAX_SEGMENTS_PER_TILE, Segment, SegmentIndex, SegmentKind, SegmentSet};
pub use setup::{
    FarmScoring, GameSetup, MAX_CLASHES, RuleOptions, SetupError, TitleScoring, UnfinishedMarks,
    clashes,
};
pub use tile::{TileIndex, TileType};
pub use view::{Challenge, HoardOnBoard, PlayerView, TileOnBoard};

pub mod engine {
    //! The engine's own data structures, for benchmarks, tests and tools that study the
    //! engine; playing a game needs none of them ([`Game`](crate::Game)'s queries show what a
    //! player sees).
    //!
    //! - [`FitTable`]: the rotations of each tile type that fit each edge constraint, so the
    //!   legal placements of a tile are one lookup per frontier cell.
    //! - [`FrontierCell`] and [`EdgeConstraint`]: the empty cells next to the board, each
    //!   with what its neighbours ask of a tile
    //!   ([`Board::frontier_cells`](crate::Board::frontier_cells),
    //!   [`Board::constraint`](crate::Board::constraint)).
    //! - [`Features`], [`FeatureData`] and [`NodeId`]: the incremental tracking of cities,
    //!   roads, fields and monasteries as tiles join them
    //!   ([`Game::features`](crate::Game::features)).
    pub use crate::board::{EdgeConstraint, FrontierCell};
    pub use crate::features::{FeatureData, Features, NodeId};
    pub use crate::fit::{FitTable, RotationSet};
}

/// The examples in README.md, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
