//! The unvalidated shape of a tile set file: every value as written, with its byte span.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::geom::ByDir;

/// A value and the byte range of the text it was read from.
#[derive(Clone, Debug)]
pub(crate) struct Located<T> {
    pub(crate) value: T,
    pub(crate) span: Range<usize>,
}

/// A list and the span of the whole list, with each item's own span.
pub(crate) type LocatedList = Located<Vec<Located<String>>>;

#[derive(Default)]
pub(crate) struct RawFile {
    pub(crate) set: Option<RawSet>,
    pub(crate) deck: RawDeck,
    pub(crate) figures: RawFigures,
    pub(crate) declared_figures: Vec<RawFigure>,
    pub(crate) tiles: Vec<RawTile>,
    pub(crate) marks: Vec<RawMark>,
    pub(crate) values: Vec<RawValue>,
    pub(crate) farms: Vec<RawFarm>,
    pub(crate) tokens: Vec<RawToken>,
    pub(crate) titles: Vec<RawTitle>,
    pub(crate) neighbours: Vec<RawNeighbours>,
    pub(crate) tiebreaks: Vec<RawTieBreak>,
    pub(crate) rivals: Vec<RawRival>,
    pub(crate) chains: Vec<RawChain>,
    pub(crate) occupants: Vec<RawOccupants>,
    pub(crate) pigs: Vec<RawPig>,
    pub(crate) bags: Vec<RawBag>,
    pub(crate) hides: Vec<RawHide>,
    /// Where a missing `[[tile]]` would be reported: the end of the file.
    pub(crate) end: usize,
}

pub(crate) struct RawSet {
    pub(crate) id: Option<Located<String>>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) edition: Option<Located<i64>>,
}

#[derive(Default)]
pub(crate) struct RawDeck {
    pub(crate) start: Option<Located<String>>,
    pub(crate) stage: Option<Located<i64>>,
    pub(crate) last: Option<LocatedList>,
    pub(crate) first: Option<LocatedList>,
}

#[derive(Default)]
pub(crate) struct RawFigures {
    /// `followers = n`: the plain follower, as a `[[figure]]` would declare it, `n` a player.
    pub(crate) followers: Option<Located<i64>>,
    pub(crate) colours: Option<LocatedList>,
}

pub(crate) struct RawTile {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) count: Option<Located<i64>>,
    pub(crate) edges: Option<RawEdges>,
    /// Marks printed on the whole tile.
    pub(crate) marks: Option<LocatedList>,
    pub(crate) segments: Vec<RawSegment>,
    pub(crate) segments_span: Option<Range<usize>>,
    /// False when reading the segment list reported a problem; coverage is then not judged.
    pub(crate) segments_well_formed: bool,
}

pub(crate) struct RawEdges {
    pub(crate) span: Range<usize>,
    pub(crate) kinds: ByDir<Option<Located<String>>>,
}

pub(crate) struct RawSegment {
    pub(crate) span: Range<usize>,
    pub(crate) kind: Option<Located<String>>,
    pub(crate) edges: Option<LocatedList>,
    pub(crate) half_edges: Option<LocatedList>,
    pub(crate) cities: Option<LocatedList>,
    pub(crate) marks: Option<LocatedList>,
    /// False when reading the segment reported a problem (wrong type, unknown key).
    pub(crate) well_formed: bool,
}

/// A `[[mark]]` declaration.
pub(crate) struct RawMark {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) on: Option<LocatedList>,
    pub(crate) merge: Option<Located<String>>,
    pub(crate) complete: Option<Located<i64>>,
    pub(crate) unfinished: Option<Located<i64>>,
    pub(crate) glyph: Option<Located<String>>,
    pub(crate) colour: Option<Located<String>>,
}

/// A `[[value]]` rule.
pub(crate) struct RawValue {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) feature: Option<Located<String>>,
    pub(crate) state: Option<Located<String>>,
    pub(crate) with: Option<LocatedList>,
    pub(crate) tiles: Option<Located<i64>>,
    /// `option = { name = value }`: each name with its value written as text (`true`,
    /// `"zero"`).
    pub(crate) options: Vec<(Located<String>, Located<String>)>,
    pub(crate) precedence: Option<Located<i64>>,
    pub(crate) per_tile: Option<Located<i64>>,
    pub(crate) per_mark: Vec<(Located<String>, Located<i64>)>,
}

/// A `[[farm]]` rule.
pub(crate) struct RawFarm {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) with: Option<LocatedList>,
    pub(crate) times: Option<Located<i64>>,
    pub(crate) precedence: Option<Located<i64>>,
}

/// A `[[token]]` declaration.
pub(crate) struct RawToken {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) from: Option<LocatedList>,
    pub(crate) taken_by: Option<Located<String>>,
    pub(crate) majority: Option<Located<i64>>,
    pub(crate) glyph: Option<Located<String>>,
    pub(crate) colour: Option<Located<String>>,
}

/// A `[[neighbours]]` rule.
pub(crate) struct RawNeighbours {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) feature: Option<Located<String>>,
    pub(crate) state: Option<Located<String>>,
    pub(crate) mark: Option<Located<String>>,
    pub(crate) each: Option<Located<i64>>,
}

/// A `[[tiebreak]]` rule.
pub(crate) struct RawTieBreak {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) mark: Option<Located<String>>,
    pub(crate) by: Option<Located<String>>,
}

/// A `[[rival]]` rule.
pub(crate) struct RawRival {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) feature: Option<Located<String>>,
    pub(crate) marks: Option<LocatedList>,
    pub(crate) at_most: Option<Located<i64>>,
}

/// A `[[chain]]` rule.
pub(crate) struct RawChain {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) edge: Option<Located<String>>,
    pub(crate) turns: Option<Located<String>>,
}

/// An `[[occupants]]` rule.
pub(crate) struct RawOccupants {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) feature: Option<Located<String>>,
    pub(crate) figures: Option<LocatedList>,
    pub(crate) reach: Option<Located<String>>,
}

/// A `[[figure]]` declaration.
pub(crate) struct RawFigure {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) per_player: Option<Located<i64>>,
    pub(crate) role: Option<Located<String>>,
    pub(crate) strength: Option<Located<i64>>,
    pub(crate) stands_on: Option<LocatedList>,
    pub(crate) farmer: Option<Located<bool>>,
    /// `option = { name = value }`, as a value rule's.
    pub(crate) options: Vec<(Located<String>, Located<String>)>,
    pub(crate) recall: Option<Located<bool>>,
    pub(crate) joins: Option<Located<String>>,
    pub(crate) alone: Option<Located<String>>,
    pub(crate) extended: Option<Located<String>>,
    pub(crate) farm_bonus: Option<Located<bool>>,
    pub(crate) draws: Option<Located<String>>,
}

/// A `[[pig]]` rule.
pub(crate) struct RawPig {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) per_city: Option<Located<i64>>,
}

/// A `[[bag]]` of tokens.
pub(crate) struct RawBag {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) points: Option<Located<i64>>,
    /// Where `tokens` is written, when it is.
    pub(crate) tokens_span: Option<Range<usize>>,
    pub(crate) tokens: Vec<RawBagToken>,
}

/// One kind of token of a `[[bag]]`.
pub(crate) struct RawBagToken {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) count: Option<Located<i64>>,
    pub(crate) worth: Option<Located<i64>>,
    pub(crate) then: Option<Located<String>>,
}

/// A `[[hide]]` rule.
pub(crate) struct RawHide {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) mark: Option<Located<String>>,
}

/// A `[[title]]` declaration.
pub(crate) struct RawTitle {
    pub(crate) span: Range<usize>,
    pub(crate) id: Option<Located<String>>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) feature: Option<Located<String>>,
    pub(crate) per_feature: Option<Located<i64>>,
    pub(crate) holding: Option<Located<i64>>,
}
