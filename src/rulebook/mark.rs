//! Marks: symbols a tile set prints on segments (a pennant, an inn, a trade good), each
//! declared in the set's file with how it adds up over a feature and what it is worth.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use crate::palette::Colour;
use crate::segment::SegmentKind;

/// The most marks one tile set, and one game, may declare: [`MarkSet`] is a 16-bit mask.
pub const MAX_MARKS: usize = 16;

/// A declared mark, by its number in the declarations of the set or game that owns it
/// ([`Catalog::marks`](crate::Catalog::marks), [`Game::marks`](crate::Game::marks)).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Mark(pub u8);

impl Mark {
    /// The mark's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// How several of one mark on a feature add up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Merge {
    /// Each one counts (pennants, trade goods).
    Count,
    /// One or many are the same: the feature has it or not (inns, cathedrals).
    Flag,
}

impl Merge {
    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Merge::Count => "count",
            Merge::Flag => "flag",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Merge> {
        [Merge::Count, Merge::Flag].into_iter().find(|merge| merge.name() == name)
    }
}

/// The shape pictures draw a mark with; its colour comes with the mark. The renderer knows
/// how to draw each glyph and nothing about any mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Glyph {
    /// A coat of arms (the base game's pennant).
    Shield,
    /// A house with a pitched roof (an inn).
    House,
    /// A church with a spire (a cathedral).
    Church,
    /// A barrel on its side (wine).
    Barrel,
    /// A bound sheaf (grain).
    Sheaf,
    /// A bolt of cloth.
    Cloth,
    /// A siege tower (a besieged city).
    Tower,
    /// A bunch of grapes (a vineyard).
    Grapes,
    /// A rounded hill.
    Hill,
    /// A five-pointed star.
    Star,
    /// A filled circle.
    Circle,
    /// A filled diamond.
    Diamond,
}

impl Glyph {
    /// Every glyph, in declaration order.
    pub const ALL: [Glyph; 12] = [
        Glyph::Shield,
        Glyph::House,
        Glyph::Church,
        Glyph::Barrel,
        Glyph::Sheaf,
        Glyph::Cloth,
        Glyph::Tower,
        Glyph::Grapes,
        Glyph::Hill,
        Glyph::Star,
        Glyph::Circle,
        Glyph::Diamond,
    ];

    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Glyph::Shield => "shield",
            Glyph::House => "house",
            Glyph::Church => "church",
            Glyph::Barrel => "barrel",
            Glyph::Sheaf => "sheaf",
            Glyph::Cloth => "cloth",
            Glyph::Tower => "tower",
            Glyph::Grapes => "grapes",
            Glyph::Hill => "hill",
            Glyph::Star => "star",
            Glyph::Circle => "circle",
            Glyph::Diamond => "diamond",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|glyph| glyph.name() == name)
    }
}

crate::bits::bit_set! {
    /// A set of segment kinds, as a bit mask over [`SegmentKind::ALL`]'s order.
    KindSet(u8) of SegmentKind, capacity SegmentKind::ALL.len(),
    index |kind| kind as usize,
    member |n| SegmentKind::ALL[n],
}

/// A mark as its tile set declares it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarkInfo {
    /// The id segments name it by, such as `"pennant"`; unique in the set and the game.
    pub id: String,
    /// The name shown to people.
    pub name: String,
    /// The segment kinds it may stand on.
    pub on: KindSet,
    /// Whether it may be printed on a whole tile rather than on a segment (`on = ["tile"]`
    /// in files: a hill, a vineyard).
    pub tile: bool,
    /// How several on one feature add up.
    pub merge: Merge,
    /// Points each one adds to a completed feature that carries it, where no declared value
    /// rule says otherwise.
    pub complete: u32,
    /// Points each one adds to a feature scored unfinished at the end of the game, where no
    /// declared value rule says otherwise.
    pub unfinished: u32,
    /// How pictures draw it.
    pub glyph: Glyph,
    /// The colour pictures draw it in.
    pub colour: Colour,
}

impl MarkInfo {
    /// How many of this mark count on a feature that carries `count` of them.
    #[must_use]
    pub const fn counted(&self, count: u32) -> u32 {
        match self.merge {
            Merge::Count => count,
            Merge::Flag => {
                if count > 0 {
                    1
                } else {
                    0
                }
            }
        }
    }
}

crate::bits::bit_set! {
    /// A set of marks, as a bit mask over [`Mark`] numbers.
    MarkSet(u16) of Mark, capacity MAX_MARKS,
    index |mark| mark.index(),
    member |n| Mark(n as u8),
}

/// How many of each mark a feature carries, by [`Mark`] number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MarkCounts(pub [u32; MAX_MARKS]);

impl MarkCounts {
    /// How many of `mark`.
    #[must_use]
    pub fn get(&self, mark: Mark) -> u32 {
        self.0.get(mark.index()).copied().unwrap_or(0)
    }

    /// The marks present, with their counts, in increasing order of mark.
    pub fn iter(&self) -> impl Iterator<Item = (Mark, u32)> + '_ {
        self.present().iter().map(|mark| (mark, self.get(mark)))
    }

    /// The marks present.
    #[must_use]
    pub fn present(&self) -> MarkSet {
        self.present_among(MAX_MARKS)
    }

    /// The marks present among the first `declared` (a game's declared marks: the others are
    /// never counted).
    #[must_use]
    pub fn present_among(&self, declared: usize) -> MarkSet {
        // Branch-free over the counts: scoring asks this of every feature it values.
        let counts = &self.0[..declared.min(MAX_MARKS)];
        let bits = counts
            .iter()
            .enumerate()
            .fold(0u16, |bits, (at, count)| bits | (u16::from(*count != 0) << at));
        MarkSet::from_bits(bits)
    }

    /// How many of the mark `declared` calls `id`; 0 when it declares none of that id.
    ///
    /// ```
    /// use carcassonne::{Catalog, MarkCounts};
    /// let base = Catalog::builtin("base")?;
    /// let mut counts = MarkCounts::default();
    /// counts.0[base.mark_by_id("pennant").unwrap().index()] = 2;
    /// assert_eq!(counts.count_of(base.marks(), "pennant"), 2);
    /// assert_eq!(counts.count_of(base.marks(), "inn"), 0);
    /// # Ok::<(), carcassonne::UnknownBuiltin>(())
    /// ```
    #[must_use]
    pub fn count_of(&self, declared: &[MarkInfo], id: &str) -> u32 {
        declared.iter().position(|mark| mark.id == id).map_or(0, |at| self.0[at])
    }

    /// Whether no mark is present.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|count| *count == 0)
    }
}

/// Written as the list of counts by mark number, without trailing zeros: `[1]` is one of
/// mark 0, `[]` none.
impl Serialize for MarkCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let used = self.0.iter().rposition(|count| *count > 0).map_or(0, |last| last + 1);
        serializer.collect_seq(&self.0[..used])
    }
}

impl<'de> Deserialize<'de> for MarkCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MarkCounts, D::Error> {
        let counts: alloc::vec::Vec<u32> = Deserialize::deserialize(deserializer)?;
        if counts.len() > MAX_MARKS {
            return Err(serde::de::Error::invalid_length(counts.len(), &"at most 16 mark counts"));
        }
        let mut out = MarkCounts::default();
        out.0[..counts.len()].copy_from_slice(&counts);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for glyph in Glyph::ALL {
            assert_eq!(Glyph::from_name(glyph.name()), Some(glyph));
        }
        assert_eq!(Merge::from_name("flag"), Some(Merge::Flag));
        assert_eq!(Merge::from_name("sum"), None);
    }

    #[test]
    fn mark_set_ignores_numbers_past_the_limit() {
        let set = MarkSet::EMPTY.with(Mark(0)).with(Mark(15)).with(Mark(16));
        assert_eq!(set.iter().collect::<alloc::vec::Vec<_>>(), [Mark(0), Mark(15)]);
        assert!(set.contains_all(MarkSet::EMPTY.with(Mark(15))));
        assert!(!set.contains_all(MarkSet::EMPTY.with(Mark(3))));
    }

    #[test]
    fn counts_serialise_without_trailing_zeros() {
        let mut counts = MarkCounts::default();
        assert_eq!(serde_json::to_string(&counts).unwrap(), "[]");
        counts.0[2] = 3;
        assert_eq!(serde_json::to_string(&counts).unwrap(), "[0,0,3]");
        assert_eq!(serde_json::from_str::<MarkCounts>("[0,0,3]").unwrap(), counts);
        assert!(serde_json::from_str::<MarkCounts>(&alloc::format!("{:?}", [0; 17])).is_err());
    }
}
