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

/// The longest figure id, in characters.
pub const MAX_FIGURE_ID: usize = crate::id::ID_LEN;

/// The most kinds of figure one game may have: at most [`MAX_FOLLOWER_KINDS`] followers and
/// as many companions.
pub const MAX_FIGURE_KINDS: usize = 2 * MAX_FOLLOWER_KINDS;

/// The most kinds of follower (or of companion) one game may have: the width of a segment's
/// deployments.
pub const MAX_FOLLOWER_KINDS: usize = 8;

/// A figure a player puts on a feature, known by the id its tile set declares it with
/// (`[[figure]] id = "..."`): 1 to [`MAX_FIGURE_ID`] characters of `a`–`z`, `0`–`9` and `_`,
/// starting with a letter. What a figure does is its set's declaration
/// ([`crate::FigureRule`]); the engine knows none by name. The published sets' figures have
/// constants.
///
/// In files and JSON a figure is its id:
/// ```
/// use carcassonne::Figure;
/// let wagon = Figure::from_id("wagon").unwrap();
/// assert_eq!(serde_json::to_string(&wagon)?, r#""wagon""#);
/// assert_eq!(serde_json::from_str::<Figure>(r#""big_follower""#)?, Figure::BIG_FOLLOWER);
/// assert_eq!(Figure::BIG_FOLLOWER.to_string(), "big follower");
/// assert!(Figure::from_id("Wagon").is_none());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Figure {
    /// The id's bytes, padded with zeros.
    id: [u8; MAX_FIGURE_ID],
}

impl Figure {
    /// The ordinary follower: a thief on a road, a knight in a city, a monk in a monastery, a
    /// farmer in a field.
    pub const FOLLOWER: Figure = Figure::known("follower");
    /// The big follower of Inns & Cathedrals.
    pub const BIG_FOLLOWER: Figure = Figure::known("big_follower");
    /// The abbot of the base game's 2nd edition.
    pub const ABBOT: Figure = Figure::known("abbot");
    /// The builder of Traders & Builders.
    pub const BUILDER: Figure = Figure::known("builder");
    /// The pig of Traders & Builders.
    pub const PIG: Figure = Figure::known("pig");
    /// The shepherd of Hills & Sheep.
    pub const SHEPHERD: Figure = Figure::known("shepherd");

    /// The figures of the built-in sets, in the order a game lists them when several are of
    /// one role: the followers, then the companions.
    pub const PUBLISHED: [Figure; 6] = [
        Figure::FOLLOWER,
        Figure::BIG_FOLLOWER,
        Figure::ABBOT,
        Figure::BUILDER,
        Figure::PIG,
        Figure::SHEPHERD,
    ];

    /// The followers among [`Figure::PUBLISHED`], in its order: the built-in sets declare
    /// them with `role = "follower"`, and other layers (C's constants, Python's action slots)
    /// know them so.
    pub const PUBLISHED_FOLLOWERS: [Figure; 3] =
        [Figure::FOLLOWER, Figure::BIG_FOLLOWER, Figure::ABBOT];

    /// The companions among [`Figure::PUBLISHED`], in its order.
    pub const PUBLISHED_COMPANIONS: [Figure; 3] = [Figure::BUILDER, Figure::PIG, Figure::SHEPHERD];

    /// What a figure id is, in words, for messages that refuse one.
    pub const ID_RULE: &str = "1 to 16 characters of a-z, 0-9 and _, starting with a letter";

    /// The figure with this id, checked at compile time.
    const fn known(id: &str) -> Figure {
        match Figure::from_id(id) {
            Some(figure) => figure,
            None => panic!("not a figure id"),
        }
    }

    /// The figure with this id, or `None` if `id` is not one (empty, too long, or with a
    /// character other than `a`–`z`, `0`–`9` and `_`, or not starting with a letter).
    #[must_use]
    pub const fn from_id(id: &str) -> Option<Figure> {
        match crate::id::pack(id) {
            Some(id) => Some(Figure { id }),
            None => None,
        }
    }

    /// The id files give the figure: `follower`, `big_follower`, `wagon`.
    #[must_use]
    pub fn id(&self) -> &str {
        crate::id::unpack(&self.id)
    }

    /// "a" or "an", as the figure's name needs: "an" before a vowel.
    #[must_use]
    pub const fn article(self) -> &'static str {
        match self.id[0] {
            b'a' | b'e' | b'i' | b'o' | b'u' => "an",
            _ => "a",
        }
    }

    /// Where the figure comes among [`Figure::PUBLISHED`]; after them for any other.
    fn rank(self) -> usize {
        Figure::PUBLISHED.iter().position(|known| *known == self).unwrap_or(Figure::PUBLISHED.len())
    }
}

/// The published figures in [`Figure::PUBLISHED`]'s order, then every other by its id.
impl Ord for Figure {
    fn cmp(&self, other: &Figure) -> core::cmp::Ordering {
        (self.rank(), self.id).cmp(&(other.rank(), other.id))
    }
}

impl PartialOrd for Figure {
    fn partial_cmp(&self, other: &Figure) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The name used in messages: the id with spaces for underscores ("big follower").
impl core::fmt::Display for Figure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::id::write_words(self.id(), f)
    }
}

impl core::fmt::Debug for Figure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Figure({})", self.id())
    }
}

impl Serialize for Figure {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Figure {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Figure, D::Error> {
        struct Id;
        impl serde::de::Visitor<'_> for Id {
            type Value = Figure;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "a figure id: {}", Figure::ID_RULE)
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<Figure, E> {
                Figure::from_id(id)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(id), &self))
            }
        }
        deserializer.deserialize_str(Id)
    }
}

/// The most figures a [`FigureList`] holds: few enough that a refusal naming them stays small
/// to return.
const LISTED: usize = 6;

/// A few figures named together, at most [`FigureList::CAPACITY`], in the order given: the
/// figures an `[[occupants]]` rule lets stand on a kind of segment. Two lists of the same
/// figures are equal in any order, as two sets' declarations of one rule must be.
#[derive(Clone, Copy)]
pub struct FigureList {
    figures: [Figure; LISTED],
    len: u8,
}

impl FigureList {
    /// The empty list.
    pub const EMPTY: FigureList = FigureList { figures: [Figure::FOLLOWER; LISTED], len: 0 };

    /// The most figures a list holds.
    pub const CAPACITY: usize = LISTED;

    /// The list with `figure` added at the end; unchanged if it holds `figure` already or is
    /// full.
    #[must_use]
    pub fn with(mut self, figure: Figure) -> FigureList {
        if !self.contains(figure) && usize::from(self.len) < LISTED {
            self.figures[usize::from(self.len)] = figure;
            self.len += 1;
        }
        self
    }

    /// Whether `figure` is in the list.
    #[must_use]
    pub fn contains(&self, figure: Figure) -> bool {
        self.as_slice().contains(&figure)
    }

    /// How many figures the list holds.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The figures, in the order given.
    #[must_use]
    pub fn as_slice(&self) -> &[Figure] {
        &self.figures[..usize::from(self.len)]
    }

    /// The figures, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = Figure> + '_ {
        self.as_slice().iter().copied()
    }
}

impl PartialEq for FigureList {
    fn eq(&self, other: &FigureList) -> bool {
        self.len == other.len && self.iter().all(|figure| other.contains(figure))
    }
}

impl Eq for FigureList {}

/// In [`Figure`]'s order, so that equal lists hash alike.
impl core::hash::Hash for FigureList {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let mut sorted = self.figures;
        sorted[..self.len()].sort();
        sorted[..self.len()].hash(state);
    }
}

impl core::fmt::Debug for FigureList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl FromIterator<Figure> for FigureList {
    fn from_iter<I: IntoIterator<Item = Figure>>(iter: I) -> FigureList {
        iter.into_iter().fold(FigureList::EMPTY, FigureList::with)
    }
}

/// The figures a player has in hand, not on the board: a count for every figure the game
/// has, in the game's order ([`crate::Game::figure_kinds`]).
///
/// In JSON, an object from figure id to count: `{"follower": 7, "abbot": 1}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Supply {
    counts: alloc::vec::Vec<(Figure, u8)>,
}

impl Supply {
    /// The supply holding these counts, in this order; a figure named twice keeps its first.
    pub fn new(counts: impl IntoIterator<Item = (Figure, u8)>) -> Supply {
        let mut supply = Supply::default();
        for (figure, count) in counts {
            if supply.counts.iter().all(|(known, _)| *known != figure) {
                supply.counts.push((figure, count));
            }
        }
        supply
    }

    /// How many of `figure` the supply holds: 0 for a figure the game does not have.
    #[must_use]
    pub fn count(&self, figure: Figure) -> u8 {
        self.counts.iter().find(|(known, _)| *known == figure).map_or(0, |(_, count)| *count)
    }

    /// All figures, whatever their kind.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|(_, count)| u32::from(*count)).sum()
    }

    /// Every figure the game has with its count, in the game's order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Figure, u8)> + '_ {
        self.counts.iter().copied()
    }
}

impl Serialize for Supply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.counts.iter().map(|(figure, count)| (figure.id(), count)))
    }
}

impl<'de> Deserialize<'de> for Supply {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Supply, D::Error> {
        struct Counts;
        impl<'de> serde::de::Visitor<'de> for Counts {
            type Value = Supply;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "an object from figure id to count, at most {MAX_FIGURE_KINDS} figures")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Supply, M::Error> {
                let mut counts = alloc::vec::Vec::new();
                while let Some((figure, count)) = map.next_entry::<Figure, u8>()? {
                    if counts.len() == MAX_FIGURE_KINDS {
                        return Err(serde::de::Error::custom("a supply holds at most 16 figures"));
                    }
                    counts.push((figure, count));
                }
                Ok(Supply::new(counts))
            }
        }
        deserializer.deserialize_map(Counts)
    }
}

/// The set type of a game's figures by place; not every operation of the shared set type
/// is needed for it.
mod slots {
    #![allow(dead_code)]
    crate::bits::bit_set! {
        /// A set of a game's figures, as a bit mask over their places in the game's figure
        /// table.
        Slots(u16) of usize, capacity super::MAX_FIGURE_KINDS,
        index |slot| slot,
        member |n| n,
    }
}
pub(crate) use slots::Slots;

/// A player's figures in hand as the game keeps them: a count per place in the game's figure
/// table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Hand(pub(crate) [u8; MAX_FIGURE_KINDS]);

impl Hand {
    /// All figures, whatever their kind.
    pub(crate) fn total(self) -> u32 {
        self.0.iter().map(|count| u32::from(*count)).sum()
    }

    /// The places in the table of the figures it holds at least one of.
    pub(crate) fn held(self) -> Slots {
        (0..MAX_FIGURE_KINDS).filter(|slot| self.0[*slot] > 0).collect()
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
    fn the_published_figures_are_their_followers_then_their_companions() {
        let joined: alloc::vec::Vec<Figure> =
            Figure::PUBLISHED_FOLLOWERS.into_iter().chain(Figure::PUBLISHED_COMPANIONS).collect();
        assert_eq!(joined, Figure::PUBLISHED);
        assert!(Figure::ID_RULE.starts_with(&alloc::format!("1 to {MAX_FIGURE_ID} ")));
    }

    #[test]
    fn figure_lists_are_equal_in_any_order() {
        use core::hash::{Hash, Hasher};
        let one: FigureList = [Figure::ABBOT, Figure::FOLLOWER].into_iter().collect();
        let other: FigureList = [Figure::FOLLOWER, Figure::ABBOT].into_iter().collect();
        assert_eq!(one, other);
        let hash = |list: &FigureList| {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            list.hash(&mut hasher);
            hasher.finish()
        };
        assert_eq!(hash(&one), hash(&other));
        assert_ne!(one, FigureList::EMPTY.with(Figure::ABBOT));
        assert_eq!(one.with(Figure::ABBOT).len(), 2, "a figure listed once");
    }

    #[test]
    fn messages_read_as_english() {
        let error = crate::ActionError::FigureNotAllowed {
            figure: Figure::ABBOT,
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
