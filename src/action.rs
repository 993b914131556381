//! Actions a player takes, the phases of a turn that admit them, and why one is refused.

use serde::Serialize;

use crate::board::PlacementError;
use crate::geom::Rotation;
use crate::player::Figure;
use crate::pos::Pos;
use crate::rulebook::{BagToken, RuleId};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::tile::TileIndex;

/// One step of a turn. A game is fully described by its setup and the actions applied.
///
/// In files, an action is an object tagged by `action`:
/// ```
/// use carcassonne::{Action, Pos, Rotation};
/// let place = Action::Place { pos: Pos::new(1, 0), rotation: Rotation::R90 };
/// assert_eq!(
///     serde_json::to_string(&place)?,
///     r#"{"action":"place","pos":{"x":1,"y":0},"rotation":90}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// Read by hand (`tagged.rs`): any key order; missing, unknown and foreign fields refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Draw a random tile from the bag, by the game's seed.
    Draw,
    /// Draw this tile type, as named by the caller (a tile drawn on a real table, or a chance
    /// outcome a search explores). It must be one the bag could give now.
    DrawTile {
        /// The tile type, numbered across the game's tile sets.
        tile: TileIndex,
    },
    /// Place the drawn tile.
    Place {
        /// The cell.
        pos: Pos,
        /// How the tile is turned, clockwise.
        rotation: Rotation,
    },
    /// Put a figure from the supply on a segment of the tile just placed.
    Deploy {
        /// The segment, indexed in the tile type's segment list.
        segment: SegmentIndex,
        /// Which figure.
        figure: Figure,
    },
    /// Instead of deploying, take the player's abbot back from the monastery or garden at
    /// `pos`, scoring it as at the end of the game.
    RecallAbbot {
        /// Where the abbot stands.
        pos: Pos,
    },
    /// Deploy no figure.
    Skip,
    /// Draw this token from the bag the figure of the sheep phase draws from, as named by
    /// the caller (a replay, a test); [`Action::Draw`] draws one at random.
    DrawToken {
        /// The kind of token, by the id its bag declares.
        token: BagToken,
    },
    /// The player's shepherd's field was extended: draw another token for the flock.
    GrowFlock,
    /// The player's shepherd's field was extended: drive its flock to market, scoring every
    /// shepherd there a point a sheep.
    DriveFlock,
}

/// What the action does, in words: `draw`, `draw tile 5`, `place at (1, 0) turned 90°`,
/// `deploy a big follower on segment 2`, `recall the abbot at (0, 1)`, `skip`,
/// `draw the sheep 3 token`, `grow the flock`, `drive the flock to market`.
///
/// ```
/// use carcassonne::{Action, Figure, Pos, Rotation};
/// let place = Action::Place { pos: Pos::new(1, 0), rotation: Rotation::R90 };
/// assert_eq!(place.to_string(), "place at (1, 0) turned 90°");
/// let deploy = Action::Deploy { segment: 2, figure: Figure::BIG_FOLLOWER };
/// assert_eq!(deploy.to_string(), "deploy a big follower on segment 2");
/// ```
impl core::fmt::Display for Action {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Action::Draw => f.write_str("draw"),
            Action::DrawTile { tile } => write!(f, "draw tile {tile}"),
            Action::Place { pos, rotation } => write!(f, "place at {pos} turned {rotation}"),
            Action::Deploy { segment, figure } => {
                write!(f, "deploy {} {figure} on segment {segment}", figure.article())
            }
            Action::RecallAbbot { pos } => write!(f, "recall the abbot at {pos}"),
            Action::Skip => f.write_str("skip"),
            Action::DrawToken { token } => write!(f, "draw the {token} token"),
            Action::GrowFlock => f.write_str("grow the flock"),
            Action::DriveFlock => f.write_str("drive the flock to market"),
        }
    }
}

/// Where in the turn cycle a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The current player draws a tile ([`Action::Draw`] or [`Action::DrawTile`]).
    Draw,
    /// The current player places the drawn tile ([`Action::Place`]).
    Place {
        /// The drawn tile.
        tile: TileIndex,
    },
    /// The current player may deploy a figure on the placed tile, recall the abbot, or skip.
    Figure {
        /// Where the tile was placed.
        pos: Pos,
    },
    /// A token is drawn from a bag for the figure just deployed that draws from it (a
    /// shepherd), or for the hoard just added to ([`Action::Draw`] or
    /// [`Action::DrawToken`]).
    Sheep {
        /// Where the turn's tile was placed.
        pos: Pos,
    },
    /// The tile placed extended the field of the current player's shepherd: grow its flock
    /// or drive it to market ([`Action::GrowFlock`], [`Action::DriveFlock`]).
    Flock {
        /// Where the turn's tile was placed.
        pos: Pos,
    },
    /// The last tile is down and the final scores are in.
    GameOver,
}

impl Phase {
    /// Whether chance acts now, not a player: the tile bag or the flock's bag gives what
    /// [`Action::Draw`] draws.
    #[must_use]
    pub const fn is_chance(self) -> bool {
        matches!(self, Phase::Draw | Phase::Sheep { .. })
    }
}

impl Phase {
    /// The phase's name in messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Phase::GameOver => "game over",
            other => other.tag(),
        }
    }
}

impl Phase {
    /// The phase's tag in its JSON form (`"phase"`), as the bindings name it: `draw`,
    /// `place`, `figure`, `sheep`, `flock` or `game_over`.
    ///
    /// ```
    /// use carcassonne::Phase;
    /// assert_eq!(Phase::GameOver.tag(), "game_over");
    /// ```
    #[must_use]
    pub const fn tag(self) -> &'static str {
        match self {
            Phase::Draw => "draw",
            Phase::Place { .. } => "place",
            Phase::Figure { .. } => "figure",
            Phase::Sheep { .. } => "sheep",
            Phase::Flock { .. } => "flock",
            Phase::GameOver => "game_over",
        }
    }
}

impl Phase {
    /// What the phase waits for, as a phrase for messages.
    #[must_use]
    pub const fn expects(self) -> &'static str {
        match self {
            Phase::Draw => "draw a tile first",
            Phase::Place { .. } => "place the drawn tile first",
            Phase::Figure { .. } => "deploy a figure, recall the abbot or skip",
            Phase::Sheep { .. } => "draw a token for the flock",
            Phase::Flock { .. } => "grow the flock or drive it to market",
            Phase::GameOver => "the game is over",
        }
    }
}

/// The kinds of action, without their details: what a refusal for the wrong phase names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// [`Action::Draw`] or [`Action::DrawTile`].
    Draw,
    /// [`Action::Place`].
    Place,
    /// [`Action::Deploy`].
    Deploy,
    /// [`Action::RecallAbbot`].
    RecallAbbot,
    /// [`Action::Skip`].
    Skip,
    /// [`Action::GrowFlock`] or [`Action::DriveFlock`].
    Flock,
}

impl ActionKind {
    /// The kind of `action`.
    #[must_use]
    pub const fn of(action: Action) -> ActionKind {
        match action {
            Action::Draw | Action::DrawTile { .. } | Action::DrawToken { .. } => ActionKind::Draw,
            Action::GrowFlock | Action::DriveFlock => ActionKind::Flock,
            Action::Place { .. } => ActionKind::Place,
            Action::Deploy { .. } => ActionKind::Deploy,
            Action::RecallAbbot { .. } => ActionKind::RecallAbbot,
            Action::Skip => ActionKind::Skip,
        }
    }

    /// The action as a gerund for messages ("placing a tile").
    #[must_use]
    pub const fn doing(self) -> &'static str {
        match self {
            ActionKind::Draw => "drawing",
            ActionKind::Place => "placing a tile",
            ActionKind::Deploy => "deploying a figure",
            ActionKind::RecallAbbot => "recalling the abbot",
            ActionKind::Skip => "skipping",
            ActionKind::Flock => "tending a flock",
        }
    }
}

/// Why a figure may never stand on a kind of segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Nothing ever stands on the river.
    River,
    /// The tile sets let only these figures stand on such a segment (`[[occupants]]`: only an
    /// abbot on a garden).
    OnlyDeclared(crate::player::FigureList),
    /// Its declaration (`[[figure]]`, `stands_on`) puts the figure only on these kinds.
    StandsOnlyOn(crate::rulebook::KindSet),
    /// Farmers are off in this game, and on a field the figure is a farmer.
    NoFarmers,
}

impl core::fmt::Display for Forbidden {
    /// The reason as the end of a refusal's message, starting with its separator; empty for
    /// the river, which needs no reason.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Forbidden::OnlyDeclared(figures) = self {
            f.write_str("; the tile sets let only ")?;
            for (index, figure) in figures.iter().enumerate() {
                let separator = if index == 0 { "" } else { " or " };
                write!(f, "{separator}{} {figure}", figure.article())?;
            }
            return f.write_str(" stand there");
        }
        match self {
            Forbidden::River | Forbidden::OnlyDeclared(_) => Ok(()),
            Forbidden::StandsOnlyOn(kinds) => {
                f.write_str("; it stands only on ")?;
                let count = kinds.len();
                for (index, kind) in kinds.iter().enumerate() {
                    let separator = match index {
                        0 => "",
                        _ if index + 1 == count => " or ",
                        _ => ", ",
                    };
                    write!(f, "{separator}a {kind}")?;
                }
                Ok(())
            }
            Forbidden::NoFarmers => f.write_str("; farmers are off in this game"),
        }
    }
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ActionError {
    /// The action belongs to another phase of the turn.
    #[error(
        "{} is not possible in the {} phase; {}",
        action.doing(),
        phase.name(),
        phase.expects()
    )]
    WrongPhase {
        /// The phase the game is in.
        phase: Phase,
        /// The kind of action refused.
        action: ActionKind,
    },
    /// No tile type has this number.
    #[error("no tile type has number {tile}")]
    UnknownTile {
        /// The number given.
        tile: TileIndex,
    },
    /// Every copy of the named tile has been drawn.
    #[error("no copy of tile {tile} is left in the bag")]
    TileNotInBag {
        /// The tile type.
        tile: TileIndex,
    },
    /// The named tile belongs to a later stage (land tiles before the River is done).
    #[error("tile {tile} cannot be drawn yet: tiles of an earlier stage are still in the bag")]
    TileOfLaterStage {
        /// The tile type.
        tile: TileIndex,
    },
    /// The named tile comes last in its stage (the lake) and others remain.
    #[error("tile {tile} comes last in its stage and other tiles of the stage are left")]
    TileComesLast {
        /// The tile type.
        tile: TileIndex,
    },
    /// Tiles that come first in the named tile's stage (The River II's fork) are left.
    #[error("tile {tile} must wait: tiles that come first in its stage are left")]
    TilesComeFirst {
        /// The tile type.
        tile: TileIndex,
    },
    /// The tile cannot lie there.
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// A river tile must continue the river: one of its river edges against an open river end.
    #[error("a river tile at {pos} must continue the river, river edge against river edge")]
    RiverNotContinued {
        /// The cell.
        pos: Pos,
    },
    /// Two river curves in a row may not turn the same way.
    #[error("the river at {pos} would turn the same way as the previous curve")]
    RiverTurnsBack {
        /// The cell.
        pos: Pos,
    },
    /// A river tile may continue only one open end of the river: its branches never join (The
    /// River II).
    #[error("a river tile at {pos} would join two branches of the river")]
    RiverBranchesJoin {
        /// The cell.
        pos: Pos,
    },
    /// A declared rivalry limits how many rivals a monastery or garden may have among its
    /// eight neighbours (The Cult: a shrine may not adjoin several monasteries, nor a
    /// monastery several shrines), and the tile there would exceed it, for its own feature
    /// or for a neighbour's.
    #[error("a tile at {pos} would leave a {feature} with more than {at_most} rival neighbours")]
    TooManyRivals {
        /// The cell.
        pos: Pos,
        /// The rivalry, by its number in the game's rules.
        rule: RuleId,
        /// The kind of feature the rivalry is about.
        feature: SegmentKind,
        /// The most rivals it allows.
        at_most: u8,
    },
    /// The placed tile has no segment with this index.
    #[error("the placed tile has no segment {segment}")]
    NoSuchSegment {
        /// The index given.
        segment: SegmentIndex,
    },
    /// This figure may not stand on this kind of segment.
    #[error("{} {figure} cannot stand on a {kind}{why}", figure.article())]
    FigureNotAllowed {
        /// The figure.
        figure: Figure,
        /// The segment's kind.
        kind: SegmentKind,
        /// Why not.
        why: Forbidden,
    },
    /// Another figure already stands somewhere on the feature.
    #[error("segment {segment} belongs to a feature another figure already occupies")]
    FeatureOccupied {
        /// The segment.
        segment: SegmentIndex,
    },
    /// A builder or a pig goes only where its owner already has a follower (a farmer for the
    /// pig) on the feature.
    #[error("{} {figure} needs a follower of its owner on the feature of segment {segment}", figure.article())]
    NeedsOwnFollower {
        /// The figure.
        figure: Figure,
        /// The segment.
        segment: SegmentIndex,
    },
    /// The feature already has this figure: the player's own builder or pig, or any
    /// player's shepherd.
    #[error("the feature of segment {segment} already has {} {figure}", figure.article())]
    FigureAlreadyThere {
        /// The figure.
        figure: Figure,
        /// The segment.
        segment: SegmentIndex,
    },
    /// The bag being drawn from has no such token left, or none of that kind at all.
    #[error("the bag holds no {token} token")]
    TokenNotInBag {
        /// The kind of token named.
        token: BagToken,
        /// What a token of that kind does, where the bag has the kind; `None` where it has not.
        then: Option<crate::rulebook::Drawn>,
    },
    /// The flock's bag is empty: the flock cannot grow.
    #[error("the flock's bag is empty; drive the flock to market")]
    FlockBagEmpty,
    /// The player has none of this figure in hand.
    #[error("the player has no {figure} left")]
    NoneLeft {
        /// The figure.
        figure: Figure,
    },
    /// The player's abbot does not stand at this cell.
    #[error("the player's abbot does not stand at {pos}")]
    NoAbbotThere {
        /// The cell.
        pos: Pos,
    },
    /// The abbot's monastery or garden is complete: it scores 9 and returns the abbot at the
    /// end of this turn, so there is nothing to recall it from.
    #[error("the abbot at {pos} stands on a completed feature; it scores and returns anyway")]
    AbbotFeatureComplete {
        /// The cell.
        pos: Pos,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl ActionError {
    /// The rule that refused, as a stable snake-case name for programs (`edge_mismatch`,
    /// `feature_occupied`, `wrong_phase`...): what bindings and servers report as a reason.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Game, GameSetup};
    /// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// assert_eq!(game.check(Action::Skip).unwrap_err().reason(), "wrong_phase");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn reason(&self) -> &'static str {
        match self {
            ActionError::WrongPhase { .. } => "wrong_phase",
            ActionError::UnknownTile { .. } => "unknown_tile",
            ActionError::TileNotInBag { .. } => "tile_not_in_bag",
            ActionError::TileOfLaterStage { .. } => "tile_of_later_stage",
            ActionError::TileComesLast { .. } => "tile_comes_last",
            ActionError::TilesComeFirst { .. } => "tiles_come_first",
            ActionError::Placement(placement) => match placement {
                PlacementError::Occupied { .. } => "occupied",
                PlacementError::NoNeighbour { .. } => "no_neighbour",
                PlacementError::EdgeMismatch { .. } => "edge_mismatch",
                PlacementError::BoardFull => "board_full",
                PlacementError::OutOfBounds { .. } => "out_of_bounds",
            },
            ActionError::RiverNotContinued { .. } => "river_not_continued",
            ActionError::RiverTurnsBack { .. } => "river_turns_back",
            ActionError::RiverBranchesJoin { .. } => "river_branches_join",
            ActionError::TooManyRivals { .. } => "too_many_rivals",
            ActionError::NoSuchSegment { .. } => "no_such_segment",
            ActionError::FigureNotAllowed { .. } => "figure_not_allowed",
            ActionError::FeatureOccupied { .. } => "feature_occupied",
            ActionError::NoneLeft { .. } => "none_left",
            ActionError::NeedsOwnFollower { .. } => "needs_own_follower",
            ActionError::FigureAlreadyThere { .. } => "figure_already_there",
            ActionError::TokenNotInBag { .. } => "token_not_in_bag",
            ActionError::FlockBagEmpty => "flock_bag_empty",
            ActionError::NoAbbotThere { .. } => "no_abbot_there",
            ActionError::AbbotFeatureComplete { .. } => "abbot_feature_complete",
            ActionError::GameOver => "game_over",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deployment carries its figure's 16-byte id, so an action is that and a few bytes; a
    /// random 2-player base game ran as fast with them as with 8-byte actions (29.94 against
    /// 29.95 µs a game, medians of 7 runs, 2026-12-03, this 2-core machine).
    /// Refusals are returned by every check, so they stay small: clippy's limit for an error.
    #[test]
    fn refusals_are_small() {
        assert!(core::mem::size_of::<ActionError>() <= 128);
    }

    #[test]
    fn actions_are_small() {
        assert!(core::mem::size_of::<Action>() <= 4 + core::mem::size_of::<Figure>());
    }

    /// The bindings' phase names are the JSON form's tags.
    #[test]
    fn a_phase_tag_is_its_json_tag() {
        let pos = crate::Pos { x: 1, y: -2 };
        for phase in [
            Phase::Draw,
            Phase::Place { tile: 3 },
            Phase::Figure { pos },
            Phase::Sheep { pos },
            Phase::Flock { pos },
            Phase::GameOver,
        ] {
            let json = serde_json::to_value(phase).unwrap();
            assert_eq!(json["phase"], phase.tag());
        }
    }
}
