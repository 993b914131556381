//! The first C ABI's fixed marks and modifiers, read from the declared ones.
//!
//! Before tile sets declared their marks, the C ABI named three (`CARC_MARK_*` bits) and six
//! rules (`CARC_MODIFIER_*`). Programs built against it keep working: those numbers are the
//! built-in sets' marks and rules, found by their ids. A mark or rule another set declares
//! has no old number and reads as 0 here (and a count of pennants is
//! [`MarkCounts::count_of`](carcassonne::MarkCounts::count_of) the mark called `pennant`).

use carcassonne::{MarkInfo, MarkSet, Rule, RuleId};

use crate::values::{
    CARC_MARK_CATHEDRAL, CARC_MARK_INN, CARC_MARK_PENNANT, CARC_MODIFIER_CATHEDRAL,
    CARC_MODIFIER_INN, CARC_MODIFIER_NONE, CARC_MODIFIER_TINY_CITY,
    CARC_MODIFIER_UNFINISHED_CATHEDRAL, CARC_MODIFIER_UNFINISHED_INN, carc_modifier,
};

/// The old mark bits and the ids of the marks they stand for.
const MARKS: [(&str, u8); 3] =
    [("pennant", CARC_MARK_PENNANT), ("cathedral", CARC_MARK_CATHEDRAL), ("inn", CARC_MARK_INN)];

/// The old modifier numbers and the ids of the rules they stand for.
const MODIFIERS: [(&str, carc_modifier); 5] = [
    ("inn", CARC_MODIFIER_INN),
    ("cathedral", CARC_MODIFIER_CATHEDRAL),
    ("unfinished_inn", CARC_MODIFIER_UNFINISHED_INN),
    ("unfinished_cathedral", CARC_MODIFIER_UNFINISHED_CATHEDRAL),
    ("tiny_city", CARC_MODIFIER_TINY_CITY),
];

/// `marks` as `CARC_MARK_*` bits, `declared` being what their numbers index.
pub(crate) fn mark_bits(marks: MarkSet, declared: &[MarkInfo]) -> u8 {
    marks
        .iter()
        .filter_map(|mark| declared.get(mark.index()))
        .filter_map(|info| MARKS.iter().find(|(id, _)| *id == info.id))
        .fold(0, |bits, (_, bit)| bits | bit)
}

/// The `CARC_MODIFIER_*` number of `rule`, `declared` being what rule numbers index.
pub(crate) fn modifier(rule: Option<RuleId>, declared: &[Rule]) -> carc_modifier {
    let Some(rule) = rule.and_then(|rule| declared.get(rule.index())) else {
        return CARC_MODIFIER_NONE;
    };
    MODIFIERS
        .iter()
        .find(|(id, _)| *id == rule.id)
        .map_or(CARC_MODIFIER_NONE, |(_, number)| *number)
}
