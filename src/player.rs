//! Players: their numbers, sets of them, per-player tables, and the figures each one owns.

use core::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

/// The most players a game may seat; [`PlayerSet`] is an 8-bit mask.
pub const MAX_PLAYERS: usize = 8;

/// A player, numbered from 0 in turn order.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// The player's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl core::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "player {}", self.0)
    }
}

crate::bits::bit_set! {
    /// A set of players, as a bit mask in turn order: who scored a feature, who won.
    PlayerSet(u8) of PlayerId, capacity MAX_PLAYERS,
    index |player| player.index(),
    member |n| PlayerId(n as u8),
}

impl Serialize for PlayerSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for PlayerSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PlayerSet, D::Error> {
        let players = alloc::vec::Vec::<PlayerId>::deserialize(deserializer)?;
        if let Some(player) = players.iter().find(|player| player.index() >= MAX_PLAYERS) {
            return Err(serde::de::Error::custom(alloc::format!(
                "player {} is out of range; there are at most {MAX_PLAYERS} players",
                player.0
            )));
        }
        Ok(players.into_iter().collect())
    }
}

/// One value per seat, indexed by [`PlayerId`]; seats beyond the game's players stay at their
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByPlayer<T>(pub [T; MAX_PLAYERS]);

impl<T> Index<PlayerId> for ByPlayer<T> {
    type Output = T;

    fn index(&self, player: PlayerId) -> &T {
        &self.0[player.index()]
    }
}

impl<T> IndexMut<PlayerId> for ByPlayer<T> {
    fn index_mut(&mut self, player: PlayerId) -> &mut T {
        &mut self.0[player.index()]
    }
}

/// A figure a player puts on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    /// An ordinary follower: a thief on a road, a knight in a city, a monk in a monastery,
    /// a farmer in a field.
    Follower,
    /// The big follower of Inns & Cathedrals: counts as two followers for majority, scores
    /// no more. Never on a garden.
    BigFollower,
    /// The abbot: only on a monastery or a garden, and may be recalled early.
    Abbot,
    /// The builder of Traders & Builders: on a road or city where its owner has a follower;
    /// each later tile its owner adds to that feature gives them a second turn. Not a
    /// follower: it neither occupies, counts for majority nor scores.
    Builder,
    /// The pig of Traders & Builders: on a field where its owner has a farmer; each completed
    /// city that field pays its owner is worth more. Not a follower.
    Pig,
    /// The shepherd of Hills & Sheep: on a field, with a flock of sheep tokens drawn from a
    /// hidden bag, driven to market for a point a sheep. Not a follower.
    Shepherd,
}

impl Figure {
    /// All figures in declaration order: the followers, then the special figures.
    pub const ALL: [Figure; 6] = [
        Figure::Follower,
        Figure::BigFollower,
        Figure::Abbot,
        Figure::Builder,
        Figure::Pig,
        Figure::Shepherd,
    ];

    /// The figures whose deployments are listed first, segment by segment: the followers of
    /// the published sets. Their sets declare them with `role = "follower"`.
    pub const FOLLOWERS: [Figure; 3] = [Figure::Follower, Figure::BigFollower, Figure::Abbot];

    /// The figures whose deployments are listed after [`Figure::FOLLOWERS`]': the companions
    /// of the published sets, declared with `role = "companion"`.
    pub const SPECIAL: [Figure; 3] = [Figure::Builder, Figure::Pig, Figure::Shepherd];

    /// "a" or "an", as the figure's name needs.
    #[must_use]
    pub const fn article(self) -> &'static str {
        match self {
            Figure::Abbot => "an",
            _ => "a",
        }
    }

    /// The name used in files and messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Figure::Follower => "follower",
            Figure::BigFollower => "big follower",
            Figure::Abbot => "abbot",
            Figure::Builder => "builder",
            Figure::Pig => "pig",
            Figure::Shepherd => "shepherd",
        }
    }
}

crate::bits::bit_set! {
    /// A set of figures, as a bit mask over [`Figure::ALL`]'s order.
    FigureSet(u8) of Figure, capacity Figure::ALL.len(),
    index |figure| figure as usize,
    member |n| Figure::ALL[n],
}

impl Figure {
    /// Parses the name files give a figure: `follower`, `big_follower`, `abbot`, `builder`,
    /// `pig`, `shepherd`.
    #[must_use]
    pub fn from_file_name(name: &str) -> Option<Figure> {
        Figure::ALL.into_iter().find(|figure| figure.file_name() == name)
    }

    /// The name files give the figure: `follower`, `big_follower`, `abbot`, `builder`, `pig`,
    /// `shepherd`.
    #[must_use]
    pub const fn file_name(self) -> &'static str {
        match self {
            Figure::BigFollower => "big_follower",
            other => other.name(),
        }
    }
}

impl core::fmt::Display for Figure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The figures a player has in hand, not on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Supply {
    /// Ordinary followers.
    pub followers: u8,
    /// Big followers.
    pub big_followers: u8,
    /// Abbots.
    pub abbots: u8,
    /// Builders (Traders & Builders).
    #[serde(default, skip_serializing_if = "crate::skip::is_default")]
    pub builders: u8,
    /// Pigs (Traders & Builders).
    #[serde(default, skip_serializing_if = "crate::skip::is_default")]
    pub pigs: u8,
    /// Shepherds (Hills & Sheep).
    #[serde(default, skip_serializing_if = "crate::skip::is_default")]
    pub shepherds: u8,
}

impl Supply {
    /// How many of `figure` the supply holds.
    #[must_use]
    pub const fn count(self, figure: Figure) -> u8 {
        match figure {
            Figure::Follower => self.followers,
            Figure::BigFollower => self.big_followers,
            Figure::Abbot => self.abbots,
            Figure::Builder => self.builders,
            Figure::Pig => self.pigs,
            Figure::Shepherd => self.shepherds,
        }
    }

    /// The slot holding `figure`.
    pub(crate) fn slot(&mut self, figure: Figure) -> &mut u8 {
        match figure {
            Figure::Follower => &mut self.followers,
            Figure::BigFollower => &mut self.big_followers,
            Figure::Abbot => &mut self.abbots,
            Figure::Builder => &mut self.builders,
            Figure::Pig => &mut self.pigs,
            Figure::Shepherd => &mut self.shepherds,
        }
    }

    /// All figures, whatever their kind.
    #[must_use]
    pub const fn total(self) -> u32 {
        self.followers as u32
            + self.big_followers as u32
            + self.abbots as u32
            + self.builders as u32
            + self.pigs as u32
            + self.shepherds as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_sets_hold_eight_players() {
        let set: PlayerSet = [PlayerId(0), PlayerId(7), PlayerId(8)].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert_eq!(set.iter().collect::<alloc::vec::Vec<_>>(), [PlayerId(0), PlayerId(7)]);
        assert!(!set.contains(PlayerId(9)));
    }

    #[test]
    fn messages_read_as_english() {
        let error = crate::ActionError::FigureNotAllowed {
            figure: Figure::Abbot,
            kind: crate::SegmentKind::City,
            why: crate::Forbidden::StandsOnlyOn(
                [crate::SegmentKind::Monastery, crate::SegmentKind::Garden].into_iter().collect(),
            ),
        };
        assert_eq!(
            alloc::string::ToString::to_string(&error),
            "an abbot cannot stand on a city; it stands only on a monastery or a garden"
        );
    }
}
