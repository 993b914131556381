//! What no single key of a set shows wrong, checked once every declaration has been read: a
//! rule that could never apply (it names a mark its feature cannot carry), a token kind or
//! title worth nothing, and a mark that nothing carries or names.
//!
//! Each would load and play, silently doing nothing or the wrong thing; an author who wrote
//! one meant something else.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::declare::Declared;
use super::diagnostic::{Code, Problems};
use super::raw::{Located, LocatedList, RawFile};
use crate::segment::SegmentKind;

/// The features completed during play, which give tokens when they carry their marks.
const COMPLETED_IN_PLAY: [SegmentKind; 4] =
    [SegmentKind::City, SegmentKind::Road, SegmentKind::Monastery, SegmentKind::Garden];

/// Reports every rule, token kind and title of `raw` that could never do anything, and every
/// mark of `declared` that nothing uses. Declarations already reported broken are left alone.
pub(crate) fn check(raw: &RawFile, declared: &Declared, problems: &mut Problems) {
    for value in &raw.values {
        let Some(kind) = value.feature.as_ref().and_then(|f| SegmentKind::from_name(&f.value))
        else {
            continue;
        };
        let named = listed(value.with.as_ref()).chain(value.per_mark.iter().map(|(name, _)| name));
        for name in named {
            carried_by(problems, declared, name, &[kind], "this value rule");
        }
    }
    for farm in &raw.farms {
        for name in listed(farm.with.as_ref()) {
            carried_by(problems, declared, name, &[SegmentKind::City], "this farm rule");
        }
    }
    for token in &raw.tokens {
        for name in listed(token.from.as_ref()) {
            carried_by(problems, declared, name, &COMPLETED_IN_PLAY, "this token kind");
        }
        if let Some(majority) = token.majority.as_ref().filter(|majority| majority.value == 0) {
            problems.report(
                Code::NeverApplies,
                majority.span.clone(),
                "a token kind whose majority pays 0 is worth nothing: give `majority` its points"
                    .into(),
            );
        }
    }
    for title in &raw.titles {
        let zero = |points: &Option<Located<i64>>| points.as_ref().is_some_and(|p| p.value == 0);
        if zero(&title.per_feature) && zero(&title.holding) {
            let span = title.id.as_ref().map_or(title.span.clone(), |id| id.span.clone());
            problems.report(
                Code::NeverApplies,
                span,
                "a title with `per_feature` and `holding` both 0 is worth nothing to its holder"
                    .into(),
            );
        }
    }
    unused_marks(raw, declared, problems);
}

/// The names in `list`, if it was given.
fn listed(list: Option<&LocatedList>) -> impl Iterator<Item = &Located<String>> {
    list.into_iter().flat_map(|list| list.value.iter())
}

/// Reports mark `name` when none of `kinds` can carry it: what `rule` counts would never be
/// there. An undeclared or broken mark was reported where it was declared or named.
fn carried_by(
    problems: &mut Problems,
    declared: &Declared,
    name: &Located<String>,
    kinds: &[SegmentKind],
    rule: &str,
) {
    let Some(info) = declared.book.mark_by_id(&name.value).and_then(|m| declared.book.mark(m))
    else {
        return;
    };
    if kinds.iter().any(|kind| info.on.contains(*kind)) {
        return;
    }
    let stands = if info.tile && info.on.is_empty() {
        "stands on whole tiles, never on a feature".into()
    } else {
        let on: Vec<&str> = info.on.iter().map(SegmentKind::name).collect();
        let tiles = if info.tile { " and whole tiles" } else { "" };
        format!("stands on {} segments{tiles}", either(&on, "and"))
    };
    let wanted: Vec<&str> = kinds.iter().map(|kind| kind.name()).collect();
    problems.report(
        Code::NeverApplies,
        name.span.clone(),
        format!(
            "mark `{}` {stands}: {rule} counts it on a {}, which never carries it, so it could never apply",
            info.id,
            either(&wanted, "or")
        ),
    );
}

/// `names` as a list read aloud: `a`, `a or b`, `a, b or c`.
fn either(names: &[&str], word: &str) -> String {
    match names.split_last() {
        Some((last, [])) => (*last).into(),
        Some((last, rest)) => format!("{} {word} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Reports each declared mark that no tile or segment of the set carries and no rule, token
/// kind or title names: a declaration that changes nothing.
fn unused_marks(raw: &RawFile, declared: &Declared, problems: &mut Problems) {
    let tiles = raw.tiles.iter().flat_map(|tile| {
        listed(tile.marks.as_ref())
            .chain(tile.segments.iter().flat_map(|segment| listed(segment.marks.as_ref())))
    });
    let lists = raw
        .values
        .iter()
        .flat_map(|value| {
            listed(value.with.as_ref()).chain(value.per_mark.iter().map(|(name, _)| name))
        })
        .chain(raw.farms.iter().flat_map(|farm| listed(farm.with.as_ref())))
        .chain(raw.tokens.iter().flat_map(|token| listed(token.from.as_ref())))
        .chain(raw.rivals.iter().flat_map(|rival| listed(rival.marks.as_ref())));
    let single = raw
        .neighbours
        .iter()
        .filter_map(|rule| rule.mark.as_ref())
        .chain(raw.tiebreaks.iter().filter_map(|rule| rule.mark.as_ref()))
        .chain(raw.hides.iter().filter_map(|rule| rule.mark.as_ref()));
    let used: Vec<&str> =
        tiles.chain(lists).chain(single).map(|name| name.value.as_str()).collect();
    for mark in &raw.marks {
        let Some(id) = &mark.id else { continue };
        if declared.book.mark_by_id(&id.value).is_none() || used.contains(&id.value.as_str()) {
            continue;
        }
        problems.report(
            Code::UnusedMark,
            id.span.clone(),
            format!(
                "mark `{}` is carried by no tile of this set and named by no rule: put it on the tiles or segments it marks, or leave it out",
                id.value
            ),
        );
    }
}
