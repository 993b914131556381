//! A rules engine for the board game Carcassonne, with tile sets as data.
//!
//! Tile catalogs are TOML files in a small, strict language (see `tilesets/README.md`); the
//! base game, its second-edition variant with gardens, The River and Inns & Cathedrals are
//! built in, and any file a user writes loads the same way, with every mistake reported at
//! once by file, line, column and a stable code.
//!
//! ```
//! use carcassonne::{Catalog, Dir, EdgeKind, Mark, SegmentKind};
//!
//! let base = Catalog::builtin("base")?;
//! assert_eq!(base.tile_count(), 72);
//! assert_eq!(base.count_tiles_with(Mark::Pennant), 10);
//!
//! let (_, start) = base.tile_by_id("D").unwrap();
//! assert_eq!(start.edges()[Dir::N], EdgeKind::City);
//! assert_eq!(start.count_segments(SegmentKind::Field), 2);
//! # Ok::<(), carcassonne::UnknownBuiltin>(())
//! ```
//!
//! # Features
//! - `std` (default): loading tile sets from paths ([`Catalog::from_path`]). Without it the
//!   crate is `#![no_std]` and needs only `alloc`.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod action;
mod bag;
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
mod landscape;
pub mod limits;
#[cfg(feature = "std")]
mod load;
mod player;
mod pos;
mod rng;
mod save;
mod scoring;
mod segment;
mod setup;
mod tagged;
mod tile;

pub use action::{Action, ActionError, Phase};
pub use board::{Board, EdgeConstraint, FrontierCell, MAX_COORDINATE, PlacedTile, PlacementError};
pub use catalog::{BUILTIN_NAMES, Catalog, DeckRules, Figures, SetInfo, UnknownBuiltin};
pub use dsl::{Code, Diagnostic, Diagnostics};
pub use edge::{EdgeKind, HalfEdge, HalfEdgeSet};
pub use event::{Event, FeatureScore, Modifier, ScoreReason};
pub use export::EXPORT_FORMAT;
pub use features::{FeatureData, Features, NodeId};
pub use fit::{FitTable, RotationSet};
pub use game::{FeatureView, Game, PlacedFigure, ReplayError};
pub use geom::{ByDir, Dir, DirSet, InvalidRotation, Rotation};
pub use landscape::{
    Landscape, LandscapeDoc, LandscapeError, LandscapeFigure, LandscapeOptions, LandscapeScore,
    LandscapeTile,
};
#[cfg(feature = "std")]
pub use load::LoadError;
pub use player::{ByPlayer, Figure, MAX_PLAYERS, PlayerId, PlayerSet, Supply};
pub use pos::Pos;
pub use save::{CatalogList, SAVE_FORMAT};
pub use segment::{
    MAX_SEGMENTS_PER_TILE, Mark, MarkSet, Segment, SegmentIndex, SegmentKind, SegmentSet,
};
pub use setup::{FarmScoring, GameSetup, RuleOptions, SetupError, UnfinishedMarks};
pub use tile::{TileIndex, TileType};

/// The examples in README.md, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
