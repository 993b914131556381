//! Landscape scoring: the score of any board snapshot, even one no real deck could produce,
//! as at the end of a game.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::board::{Board, PlacementError};
use crate::catalog::Catalog;
use crate::event::FeatureScore;
use crate::features::Features;
use crate::geom::Rotation;
use crate::player::{Figure, MAX_PLAYERS, PlayerId};
use crate::pos::Pos;
use crate::rulebook::{PlainOverride, Rulebook};
use crate::save::CatalogList;
use crate::scoring::{Scene, Standing, Valuation};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::setup::{RuleOptions, SetupError, combine};
use crate::tile::TileIndex;

/// A tile of a landscape: a tile id, a cell and a rotation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandscapeTile {
    /// The tile type's id in one of the landscape's sets.
    pub tile: String,
    /// Column, growing east.
    pub x: i16,
    /// Row, growing north.
    pub y: i16,
    /// Degrees clockwise in files.
    #[serde(default)]
    pub rotation: Rotation,
}

/// A figure of a landscape, on a segment of the tile at a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandscapeFigure {
    /// Whose figure.
    pub player: PlayerId,
    /// Which figure; a follower unless said otherwise.
    #[serde(default = "follower")]
    pub figure: Figure,
    /// Column of its tile.
    pub x: i16,
    /// Row of its tile.
    pub y: i16,
    /// The segment of that tile, indexed in the tile type's segment list.
    pub segment: SegmentIndex,
}

fn follower() -> Figure {
    Figure::FOLLOWER
}

/// How a landscape is scored: the game's rule options plus overrides for puzzles.
///
/// The default is the published end-of-game scoring. Fields score only when
/// `rules.farmers` is on, whoever claims them; [`LandscapeOptions::solo_puzzle`] gives the
/// scoring of the published solo puzzles.
///
/// Made with `default` or [`LandscapeOptions::solo_puzzle`] and changed with its `with_` methods or
/// by assigning fields: it is `#[non_exhaustive]`, so an option added in a later release breaks no
/// caller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct LandscapeOptions {
    /// The rule options.
    pub rules: RuleOptions,
    /// Every feature counts for player 0, whatever stands on it (as in solo puzzles).
    pub claim_all: bool,
    /// Points per pennant in a completed city without a cathedral, in place of 2.
    pub pennant_value: Option<u32>,
    /// Points per pennant in an unfinished city without a cathedral, in place of 1.
    pub unfinished_pennant_value: Option<u32>,
}

impl LandscapeOptions {
    /// Sets [`rules`](Self::rules), for chaining.
    #[must_use]
    pub fn with_rules(mut self, rules: RuleOptions) -> LandscapeOptions {
        self.rules = rules;
        self
    }

    /// Sets [`claim_all`](Self::claim_all), for chaining.
    #[must_use]
    pub fn with_claim_all(mut self, claim_all: bool) -> LandscapeOptions {
        self.claim_all = claim_all;
        self
    }

    /// Sets [`pennant_value`](Self::pennant_value), for chaining.
    #[must_use]
    pub fn with_pennant_value(mut self, pennant_value: Option<u32>) -> LandscapeOptions {
        self.pennant_value = pennant_value;
        self
    }

    /// Sets [`unfinished_pennant_value`](Self::unfinished_pennant_value), for chaining.
    #[must_use]
    pub fn with_unfinished_pennant_value(
        mut self,
        unfinished_pennant_value: Option<u32>,
    ) -> LandscapeOptions {
        self.unfinished_pennant_value = unfinished_pennant_value;
        self
    }
    /// The published solo puzzles: one player owns every feature; a city scores 2 per tile
    /// complete and 1 per tile unfinished, with no pennant bonus either way; a road 1 per
    /// tile; a monastery 9 complete, else 1 plus its neighbours; fields nothing.
    ///
    /// ```
    /// use carcassonne::{Catalog, Landscape, LandscapeOptions, LandscapeTile, Rotation};
    ///
    /// // Tile F alone, a city with a pennant: unfinished, one tile, 1 point; the pennant and
    /// // the two fields are worth nothing.
    /// let landscape = Landscape {
    ///     catalogs: vec![Catalog::builtin("base")?],
    ///     tiles: vec![LandscapeTile { tile: "F".into(), x: 0, y: 0, rotation: Rotation::R0 }],
    ///     figures: vec![],
    /// };
    /// let score = landscape.score(&LandscapeOptions::solo_puzzle())?;
    /// assert_eq!(score.total, [1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn solo_puzzle() -> LandscapeOptions {
        LandscapeOptions {
            rules: RuleOptions { farmers: false, ..RuleOptions::default() },
            claim_all: true,
            pennant_value: Some(0),
            unfinished_pennant_value: Some(0),
        }
    }
}

/// The result of scoring a landscape.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LandscapeScore {
    /// Points per player, from player 0 up to the highest player with a figure (one entry
    /// under `claim_all`).
    pub total: Vec<u32>,
    /// Every feature that scored, in end-of-game order.
    pub features: Vec<FeatureScore>,
    /// The marks and rules of the landscape's sets together: what the features' mark and
    /// rule numbers index. Not written with the score: a reader has the sets.
    #[serde(skip)]
    pub rulebook: Rulebook,
}

/// Why a landscape cannot be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LandscapeError {
    /// The tile sets cannot be combined.
    #[error(transparent)]
    Sets(#[from] SetupError),
    /// A tile id is in none of the sets.
    #[error("tile {index}: no tile set in use has a tile `{id}`")]
    UnknownTile {
        /// The tile's place in the list, from 0.
        index: usize,
        /// The id given, cut to [`MAX_LABEL`](crate::limits::MAX_LABEL) characters.
        id: String,
    },
    /// A tile cannot lie where it is listed.
    #[error("tile {index}: {error}")]
    Placement {
        /// The tile's place in the list, from 0.
        index: usize,
        /// Why.
        error: PlacementError,
    },
    /// A figure stands on a cell without a tile.
    #[error("figure {index}: no tile lies at {pos}")]
    NoTile {
        /// The figure's place in the list, from 0.
        index: usize,
        /// The cell.
        pos: Pos,
    },
    /// A figure names a segment its tile does not have.
    #[error("figure {index}: the tile at {pos} has no segment {segment}")]
    NoSuchSegment {
        /// The figure's place in the list, from 0.
        index: usize,
        /// The cell.
        pos: Pos,
        /// The segment given.
        segment: SegmentIndex,
    },
    /// A figure stands where no such figure may.
    #[error("figure {index}: {} {figure} cannot stand on a {kind}", figure.article())]
    FigureNotAllowed {
        /// The figure's place in the list, from 0.
        index: usize,
        /// The figure.
        figure: Figure,
        /// The segment's kind.
        kind: SegmentKind,
    },
    /// A landscape document lists its tile sets and the caller gave sets as well.
    #[error(
        "the landscape lists `tilesets` and tile sets were given besides; give one or the other"
    )]
    SetsGivenTwice,
    /// The landscape's sets and figures hold more kinds of follower, or of companion, than
    /// one table does.
    #[error(
        "the landscape has more than {max} kinds of {role}",
        max = crate::player::MAX_FOLLOWER_KINDS
    )]
    TooManyFigureKinds {
        /// `"follower"` or `"companion"`.
        role: &'static str,
    },
    /// A player number beyond the most a game seats.
    #[error("figure {index}: player {player} is out of range; players are numbered 0 to 7")]
    PlayerOutOfRange {
        /// The figure's place in the list, from 0.
        index: usize,
        /// The number given.
        player: u8,
    },
}

/// A board snapshot to score: tiles from one or more sets, in any arrangement whose touching
/// edges match, and figures on their segments (several may share a feature).
///
/// ```
/// use carcassonne::{Catalog, Landscape, LandscapeFigure, LandscapeOptions, LandscapeTile};
/// use carcassonne::{Figure, PlayerId, Rotation};
///
/// // Two city caps facing each other: a completed two-tile city, 4 points.
/// let landscape = Landscape {
///     catalogs: vec![Catalog::builtin("base")?],
///     tiles: vec![
///         LandscapeTile { tile: "E".into(), x: 0, y: 0, rotation: Rotation::R0 },
///         LandscapeTile { tile: "E".into(), x: 0, y: 1, rotation: Rotation::R180 },
///     ],
///     figures: vec![LandscapeFigure {
///         player: PlayerId(1), figure: Figure::FOLLOWER, x: 0, y: 0, segment: 0,
///     }],
/// };
/// let score = landscape.score(&LandscapeOptions::default())?;
/// assert_eq!(score.total, [0, 4]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Landscape {
    /// The tile sets the tiles come from.
    pub catalogs: Vec<Catalog>,
    /// The tiles, placed in this order.
    pub tiles: Vec<LandscapeTile>,
    /// The figures.
    pub figures: Vec<LandscapeFigure>,
}

/// A landscape as JSON writes it, the form `carcassonne score` and the C API read:
///
/// `{"tilesets": ["base"], "tiles": [{"tile": "E", "x": 0, "y": 0, "rotation": 90}, ...],
/// "figures": [{"player": 0, "figure": "follower", "x": 0, "y": 0, "segment": 0}, ...]}`
///
/// `tilesets` is written as in a setup ([`CatalogList`]): built-in names, or whole tile
/// sets as TOML text, never a path, so a document from a stranger cannot make its reader
/// open a file. A program that lets its own user name tile set files loads them itself and
/// passes them to [`LandscapeDoc::into_landscape`].
///
/// ```
/// use carcassonne::{Catalog, LandscapeDoc, LandscapeOptions};
///
/// let doc: LandscapeDoc = serde_json::from_str(r#"{"tiles": [
///     {"tile": "E", "x": 0, "y": 0}, {"tile": "E", "x": 0, "y": 1, "rotation": 180}],
///     "figures": [{"player": 0, "x": 0, "y": 0, "segment": 0}]}"#)?;
/// let landscape = doc.into_landscape(Vec::new())?;
/// assert_eq!(landscape.catalogs, [Catalog::builtin("base")?]);
/// assert_eq!(landscape.score(&LandscapeOptions::default())?.total, [4]);
///
/// let named: Result<LandscapeDoc, _> =
///     serde_json::from_str(r#"{"tilesets": ["/etc/passwd"], "tiles": []}"#);
/// assert!(named.unwrap_err().to_string().contains("no built-in tile set is called `/etc/passwd`"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandscapeDoc {
    /// The tile sets, when the document lists them.
    #[serde(default)]
    pub tilesets: Option<CatalogList>,
    /// The tiles.
    pub tiles: Vec<LandscapeTile>,
    /// The figures.
    #[serde(default)]
    pub figures: Vec<LandscapeFigure>,
}

impl LandscapeDoc {
    /// The landscape, with the tile sets the document lists, or else `sets` (given from
    /// elsewhere: files the program's user named), or else the base set alone.
    ///
    /// # Errors
    /// [`LandscapeError::SetsGivenTwice`] when the document lists sets and `sets` is not
    /// empty.
    pub fn into_landscape(self, sets: Vec<Catalog>) -> Result<Landscape, LandscapeError> {
        let catalogs = match (self.tilesets, sets.is_empty()) {
            (Some(_), false) => return Err(LandscapeError::SetsGivenTwice),
            (Some(listed), true) => listed.0,
            (None, false) => sets,
            (None, true) => alloc::vec![crate::catalog::base()],
        };
        Ok(Landscape { catalogs, tiles: self.tiles, figures: self.figures })
    }
}

impl Landscape {
    /// Scores every feature with a figure on it (every feature, under `claim_all`), complete
    /// or not, as the end of a game would, fields included.
    ///
    /// # Errors
    /// The first problem found, naming the tile or figure by its place in the list.
    pub fn score(&self, options: &LandscapeOptions) -> Result<LandscapeScore, LandscapeError> {
        let (rulebook, tiles) = combine(&self.catalogs)?;
        let mut board = Board::new();
        let mut features = Features::with_capacity(0, 0, rulebook.marks().len());
        let mut placed: Vec<(Pos, TileIndex)> = Vec::with_capacity(self.tiles.len());
        // A map, not a scan: a hostile landscape may list 65,536 tiles of 65,535 types.
        let by_id: BTreeMap<&str, TileIndex> =
            tiles.iter().enumerate().map(|(index, tile)| (tile.id(), index as TileIndex)).collect();
        for (index, listed) in self.tiles.iter().enumerate() {
            let Some(&tile) = by_id.get(listed.tile.as_str()) else {
                let id = crate::limits::shorten(&listed.tile, crate::limits::MAX_LABEL);
                return Err(LandscapeError::UnknownTile { index, id: id.into_owned() });
            };
            let pos = Pos::new(listed.x, listed.y);
            let edges = tiles[usize::from(tile)].edges().rotated(listed.rotation);
            board
                .place_anywhere(pos, tile, listed.rotation, edges)
                .map_err(|error| LandscapeError::Placement { index, error })?;
            features.join_tile(&board, &tiles, pos);
            placed.push((pos, tile));
        }

        // Each tile's own set's occupants rules, and those that reach every set.
        let table =
            landscape_figures(&self.catalogs, self.figures.iter().map(|shown| shown.figure))
                .map_err(|too_many| LandscapeError::TooManyFigureKinds {
                    role: if too_many.followers { "follower" } else { "companion" },
                })?;
        let occupants = crate::setup::occupancy(&self.catalogs, &rulebook, &table);
        let mut figures = Vec::with_capacity(self.figures.len());
        let mut players = 1;
        for (index, figure) in self.figures.iter().enumerate() {
            let pos = Pos::new(figure.x, figure.y);
            let on = board.get(pos).ok_or(LandscapeError::NoTile { index, pos })?;
            let segment = figure.segment;
            let kind = tiles[usize::from(on.tile)]
                .segments()
                .get(usize::from(segment))
                .ok_or(LandscapeError::NoSuchSegment { index, pos, segment })?
                .kind();
            // The figure's declaration, then the occupants rules (only an abbot on a garden).
            let allowed = kind != SegmentKind::River
                && table.entry(figure.figure).is_some_and(|(slot, rule)| {
                    rule.stands_on.contains(kind)
                        && occupants[usize::from(on.tile)][kind as usize].contains(slot)
                });
            if !allowed {
                return Err(LandscapeError::FigureNotAllowed {
                    index,
                    figure: figure.figure,
                    kind,
                });
            }
            if figure.player.index() >= MAX_PLAYERS {
                return Err(LandscapeError::PlayerOutOfRange { index, player: figure.player.0 });
            }
            players = players.max(figure.player.index() + 1);
            let node = features.node(on.order, segment).expect("every segment of a placed tile");
            figures.push(Standing {
                player: figure.player,
                figure: figure.figure,
                pos,
                segment,
                node,
                kind,
            });
        }

        // The landscape options value the mark its sets call the pennant.
        let valuation = Valuation {
            options: options.rules,
            rulebook: &rulebook,
            plain: PlainOverride {
                mark: rulebook.mark_by_id("pennant"),
                complete: options.pennant_value,
                unfinished: options.unfinished_pennant_value,
            },
            claim_all: options.claim_all,
        };
        let scene = Scene::new(&board, &features, &tiles, &placed, &figures, &rulebook, &table);
        let mut scored = Vec::new();
        scene.final_scores(&valuation, &mut scored);
        let mut total = alloc::vec![0u32; if options.claim_all { 1 } else { players }];
        for score in &scored {
            for player in score.scorers.iter() {
                total[player.index()] = total[player.index()].saturating_add(score.points);
            }
        }
        Ok(LandscapeScore { total, features: scored, rulebook })
    }
}

/// The figures a landscape may show: those its sets declare, and any other as the built-in set
/// that brings it declares it. A landscape is a table seen from outside: its big follower
/// counts 2 whether or not it lists Inns & Cathedrals.
fn landscape_figures(
    catalogs: &[Catalog],
    shown: impl Iterator<Item = Figure>,
) -> Result<crate::rulebook::FigureTable, crate::rulebook::TooManyKinds> {
    let mut figures = crate::setup::combined_figures(catalogs);
    // Only a figure the landscape shows and its sets leave out is looked up in the built-in
    // sets, so a landscape no longer parses (or, with `std`, clones) all ten.
    for figure in shown {
        if Figure::PUBLISHED.contains(&figure) && figures.iter().all(|known| known.figure != figure)
        {
            figures.extend(crate::catalog::builtin_figure_rule(figure));
        }
    }
    crate::rulebook::FigureTable::new(figures)
}
