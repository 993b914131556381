//! Events: what an action did, in order, so a UI, a server, a replay and a test all read
//! the same story of a turn.

use serde::{Deserialize, Serialize};

use crate::geom::Rotation;
use crate::player::{Figure, PlayerId, PlayerSet};
use crate::pos::Pos;
use crate::rulebook::{BagToken, MarkCounts, RuleId, TitleId, TokenId};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::tile::TileIndex;

/// When a feature scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreReason {
    /// It was completed during play.
    Completed,
    /// Its abbot was recalled before it was complete.
    AbbotRecalled,
    /// The game ended; it may be complete (fields, landscapes) or not.
    GameEnd,
    /// A rival next to it was completed first (a declared rivalry: The Cult's shrines and
    /// monasteries): its figures went home with nothing, and it scores nothing.
    Defeated,
    /// A field's flock was driven to market (Hills & Sheep): every shepherd there scores its
    /// sheep, `points` being the sheep times the declared points a sheep.
    Market,
}

/// One feature's score: what it is, why it scored, how much and to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureScore {
    /// City, road, monastery, garden, or field (for `per_city_4` farm scoring, the kind is
    /// `City` and the entry is the city's payout to farmers).
    pub kind: SegmentKind,
    /// A cell holding a segment of the feature.
    pub pos: Pos,
    /// That segment's index in its tile type.
    pub segment: SegmentIndex,
    /// When it scored.
    pub reason: ScoreReason,
    /// Whether it was complete (a closed city or road, a surrounded monastery or garden).
    pub complete: bool,
    /// Distinct tiles it covers (for a monastery or garden: itself and its neighbours).
    pub tiles: u32,
    /// How many of each declared mark it carries, by mark number
    /// ([`Game::marks`](crate::Game::marks)).
    pub marks: MarkCounts,
    /// For fields: the completed cities that pay out.
    pub cities: u32,
    /// The declared rule that set the value, by number ([`Game::rules`](crate::Game::rules));
    /// `None` for the plain value (and then left out when written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleId>,
    /// Whether the score goes to farmers (a field, or a city paying its farmers).
    pub farmers: bool,
    /// The points each scorer receives.
    pub points: u32,
    /// The players with the most strength on the feature; each scores `points`.
    pub scorers: PlayerSet,
}

/// A player's points by the kind of feature that paid them ([`Game::points_by_kind`]).
///
/// [`Game::points_by_kind`]: crate::Game::points_by_kind
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct PointsByKind {
    /// Cities (to their majority).
    pub city: u32,
    /// Roads.
    pub road: u32,
    /// Monasteries, abbots' among them.
    pub monastery: u32,
    /// Gardens.
    pub garden: u32,
    /// Farmers: fields, and the cities paid to farmers under `per_city_4`.
    pub farms: u32,
    /// Token majorities at the end of the game (Traders & Builders' goods); absent from
    /// files written before tokens were declared.
    #[serde(default)]
    pub tokens: u32,
    /// Titles held at the end of the game (King & Robber Baron); absent from files written
    /// before titles were declared.
    #[serde(default)]
    pub titles: u32,
    /// Flocks driven to market (Hills & Sheep); absent where nobody scored any.
    #[serde(default, skip_serializing_if = "crate::skip::is_default")]
    pub flocks: u32,
}

impl PointsByKind {
    /// The points of every kind together.
    #[must_use]
    pub const fn total(&self) -> u32 {
        self.city
            + self.road
            + self.monastery
            + self.garden
            + self.farms
            + self.tokens
            + self.titles
            + self.flocks
    }

    /// Counts `score` under its kind, once (for one of its scorers).
    pub(crate) fn add(&mut self, score: &FeatureScore) {
        let kind = match score.kind {
            _ if score.reason == ScoreReason::Market => &mut self.flocks,
            _ if score.farmers => &mut self.farms,
            SegmentKind::City => &mut self.city,
            SegmentKind::Road => &mut self.road,
            SegmentKind::Monastery => &mut self.monastery,
            SegmentKind::Garden => &mut self.garden,
            SegmentKind::Field | SegmentKind::River => &mut self.farms,
        };
        *kind += score.points;
    }
}

/// Something that happened during an action. In files, an object tagged by `event`, read by
/// hand (`tagged.rs`): any key order; missing, unknown and foreign fields refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A player drew a tile.
    TileDrawn {
        /// Who drew.
        player: PlayerId,
        /// What.
        tile: TileIndex,
    },
    /// The drawn tile fits nowhere and leaves the game; the same player draws again.
    TileDiscarded {
        /// Who drew it.
        player: PlayerId,
        /// What.
        tile: TileIndex,
    },
    /// A tile went down.
    TilePlaced {
        /// Who placed it.
        player: PlayerId,
        /// What.
        tile: TileIndex,
        /// Where.
        pos: Pos,
        /// Turned how.
        rotation: Rotation,
    },
    /// A figure went onto a segment.
    FigurePlaced {
        /// Whose.
        player: PlayerId,
        /// Which figure.
        figure: Figure,
        /// The cell.
        pos: Pos,
        /// The segment.
        segment: SegmentIndex,
    },
    /// A player took their abbot back early.
    AbbotRecalled {
        /// Whose.
        player: PlayerId,
        /// From where.
        pos: Pos,
    },
    /// A feature scored.
    FeatureScored(FeatureScore),
    /// A player took tokens from a feature completed during play: one per mark that gives
    /// them ([`TokenInfo::from`](crate::TokenInfo::from)), after the feature scored.
    TokensTaken {
        /// Who took them.
        player: PlayerId,
        /// Which kind, by number ([`Game::tokens`](crate::Game::tokens)).
        token: TokenId,
        /// How many.
        count: u32,
        /// A cell holding a segment of the feature they came from.
        pos: Pos,
        /// That segment's index in its tile type.
        segment: SegmentIndex,
    },
    /// At the end of the game, the players holding the most tokens of a kind scored its
    /// majority, each in full.
    TokensScored {
        /// Which kind.
        token: TokenId,
        /// How many each of the scorers holds: the most anyone holds.
        held: u32,
        /// The points each scorer receives.
        points: u32,
        /// The players holding that many.
        scorers: PlayerSet,
    },
    /// A player completed a feature larger than every one of its kind before and took (or
    /// kept) the title it wins, after the feature scored.
    TitleTaken {
        /// Who holds it now.
        player: PlayerId,
        /// Which title, by number ([`Game::titles`](crate::Game::titles)).
        title: TitleId,
        /// Tiles of the feature that won it: the size to beat now.
        tiles: u32,
        /// A cell holding a segment of that feature.
        pos: Pos,
        /// That segment's index in its tile type.
        segment: SegmentIndex,
    },
    /// At the end of the game, a title's holder scored it.
    TitleScored {
        /// Which title.
        title: TitleId,
        /// Its holder.
        player: PlayerId,
        /// Features of its kind completed in the game.
        features: u32,
        /// The points the holder receives.
        points: u32,
    },
    /// A figure went back to its owner's supply.
    FigureReturned {
        /// Whose.
        player: PlayerId,
        /// Which figure.
        figure: Figure,
        /// The cell it left.
        pos: Pos,
        /// The segment it left.
        segment: SegmentIndex,
    },
    /// A tile went face down under the tile just placed, out of the game, unseen (Hills &
    /// Sheep's hills): one tile fewer is left to draw.
    TileHidden {
        /// Who placed the tile.
        player: PlayerId,
        /// Where it lies.
        pos: Pos,
    },
    /// A token was drawn from a bag for a figure that draws from it. What it does follows
    /// from its declaration ([`crate::Drawn`]): a kept one joins the figure's hoard; one that
    /// sends home is followed by the [`Event::FigureReturned`] of the figures it sent.
    TokenDrawn {
        /// Whose figure.
        player: PlayerId,
        /// The figure's cell.
        pos: Pos,
        /// The figure's segment.
        segment: SegmentIndex,
        /// The kind of token drawn.
        drawn: BagToken,
    },
    /// The player extended a road or city holding their builder and takes a second turn at
    /// once (Traders & Builders); a [`Event::TurnStarted`] for the same player follows.
    ExtraTurn {
        /// Whose.
        player: PlayerId,
    },
    /// The next player's turn begins.
    TurnStarted {
        /// Whose turn.
        player: PlayerId,
    },
    /// The game is over; final scores are in.
    GameOver {
        /// The players with the highest score.
        winners: PlayerSet,
    },
}
