//! Titles: held by one player at a time, won by completing the largest feature of a kind so
//! far, and scored by their holder at the end (King & Robber Baron's King and Robber Baron).
//! Declared in a set's file; one mechanism moves and scores every title.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use crate::segment::SegmentKind;

/// The most titles one tile set, and one game, may declare.
pub const MAX_TITLES: usize = 8;

/// A declared title, by its number in the declarations of the set or game that owns it
/// ([`Catalog::titles`](crate::Catalog::titles), [`Game::titles`](crate::Game::titles)).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct TitleId(pub u8);

impl TitleId {
    /// The title's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A title as its tile set declares it (`[[title]]` in files).
///
/// The player who completes a feature of `feature`'s kind (whoever holds the feature, and
/// even if nobody does) takes the title when it covers more tiles than every feature of that
/// kind completed before; a feature only as large leaves it where it is. At the end of the
/// game its holder scores `per_feature` for every feature of the kind completed in the whole
/// game, by anyone, and `holding` for holding it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TitleInfo {
    /// The id events and messages name it by, such as `"king"`.
    pub id: String,
    /// The name shown to people ("The King").
    pub name: String,
    /// City or road: the features that win it and that it scores.
    pub feature: SegmentKind,
    /// Points at the end per feature of the kind completed in the game.
    pub per_feature: u32,
    /// Points at the end for holding it.
    pub holding: u32,
}

/// Where a title stands in a game: who holds it, the largest feature of its kind completed so
/// far, and how many have been completed (public: every player sees it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TitleStanding {
    /// The player holding it; nobody before a feature of its kind is completed.
    pub holder: Option<crate::player::PlayerId>,
    /// Tiles of the largest feature of its kind completed so far (0 before any).
    pub largest: u32,
    /// Features of its kind completed so far, by anyone.
    pub completed: u32,
}
