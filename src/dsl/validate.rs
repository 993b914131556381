//! Validation: from the raw shape to a [`Catalog`], reporting every broken rule of the format.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use super::declare::Declared;
use super::diagnostic::{Code, Problems, line_of};
use super::limits;
use super::raw::{Located, LocatedList, RawFile, RawSegment, RawTile};
use crate::catalog::{Catalog, DeckRules, SetInfo};
use crate::edge::{EdgeKind, HalfEdge};
use crate::geom::{ByDir, Dir};
use crate::rulebook::{Mark, MarkSet};
use crate::segment::{MAX_SEGMENTS_PER_TILE, Segment, SegmentIndex, SegmentKind, SegmentSet};
use crate::tile::{TileIndex, TileType};

/// Checks `raw` and builds the catalog when nothing is wrong. Problems go to `problems`.
pub(crate) fn validate(raw: RawFile, text: &str, problems: &mut Problems) -> Option<Catalog> {
    let rulebook = super::declare::validate_rulebook(&raw, text, problems);
    super::strict::check(&raw, &rulebook, problems);
    let info = raw.set.and_then(|set| {
        let id = set.id.and_then(|id| {
            check_id(problems, id, "set id", limits::is_set_id_char, "a-z, 0-9 and _")
        });
        let name =
            set.name.and_then(|name| check_text(problems, name, "set name", limits::MAX_NAME));
        let edition =
            set.edition.and_then(|edition| check_range(problems, &edition, "edition", 1, 99));
        Some(SetInfo { id: id?, name: name?, edition: u8::try_from(edition?).ok()? })
    });

    let tiles = validate_tiles(&raw.tiles, raw.end, text, &rulebook, problems);
    let rulebook = rulebook.book;
    let deck = validate_deck(&raw.deck, &tiles, problems);
    let figures = super::figure::validate_figures(&raw.figures, &raw.declared_figures, problems);

    let tiles: Option<Vec<TileType>> = tiles.into_iter().collect();
    if !problems.is_empty() {
        return None;
    }
    Some(Catalog { info: info?, deck, figures, rulebook, tiles: tiles? })
}

fn validate_tiles(
    raw: &[RawTile],
    end: usize,
    text: &str,
    book: &Declared,
    problems: &mut Problems,
) -> Vec<Option<TileType>> {
    if raw.is_empty() {
        problems.report(
            Code::MissingKey,
            end..end,
            "a tile set needs at least one [[tile]]".to_owned(),
        );
    }
    let mut total: u64 = 0;
    let mut seen_ids: Vec<(&str, Range<usize>)> = Vec::new();
    raw.iter()
        .enumerate()
        .map(|(number, tile)| {
            if number == limits::MAX_TILE_TYPES {
                problems.report(
                    Code::TooLarge,
                    tile.span.clone(),
                    format!("a tile set may have at most {} tile types", limits::MAX_TILE_TYPES),
                );
            }
            if let Some(id) = &tile.id {
                if let Some((_, first)) = seen_ids.iter().find(|(seen, _)| *seen == id.value) {
                    problems.report(
                        Code::DuplicateTileId,
                        id.span.clone(),
                        format!(
                            "tile id `{}` is already used by the tile on line {}",
                            id.value,
                            line_of(text, first.start)
                        ),
                    );
                } else {
                    seen_ids.push((&id.value, id.span.clone()));
                }
            }
            let count = tile.count.as_ref().and_then(|count| {
                let checked =
                    check_range(problems, count, "count", 1, i64::from(limits::MAX_COPIES))?;
                let before = total;
                total += checked.unsigned_abs();
                if before <= limits::MAX_TILES && total > limits::MAX_TILES {
                    problems.report(
                        Code::TooLarge,
                        count.span.clone(),
                        format!("a tile set may have at most {} tiles in all", limits::MAX_TILES),
                    );
                }
                u16::try_from(checked).ok()
            });
            let tile_type = validate_tile(tile, problems);
            let (id, name) = tile_type?;
            let marks = tile_marks(tile, book, problems);
            let (edges, segments) = validate_layout(tile, book, problems)?;
            Some(TileType::new(id, name, count?, edges, segments, marks?))
        })
        .collect()
}

fn validate_tile(tile: &RawTile, problems: &mut Problems) -> Option<(String, String)> {
    let id = tile.id.clone().and_then(|id| {
        check_id(problems, id, "tile id", limits::is_tile_id_char, "A-Z, a-z, 0-9, _ and -")
    });
    let name = tile
        .name
        .clone()
        .and_then(|name| check_text(problems, name, "tile name", limits::MAX_NAME));
    Some((id?, name?))
}

/// The edges and segments of one tile, checked against each other.
fn validate_layout(
    tile: &RawTile,
    book: &Declared,
    problems: &mut Problems,
) -> Option<(ByDir<EdgeKind>, Vec<Segment>)> {
    let declared: ByDir<Option<EdgeKind>> = match &tile.edges {
        Some(edges) => ByDir::from_fn(|dir| {
            let name = edges.kinds[dir].as_ref()?;
            let kind = EdgeKind::from_name(&name.value);
            if kind.is_none() {
                problems.report(
                    Code::UnknownEdgeKind,
                    name.span.clone(),
                    format!(
                        "`{}` is not an edge kind; expected city, road, field or river",
                        name.value
                    ),
                );
            }
            kind
        }),
        None => ByDir([None; 4]),
    };

    if tile.segments.len() > MAX_SEGMENTS_PER_TILE {
        let span = tile.segments_span.clone().unwrap_or_else(|| tile.span.clone());
        problems.report(
            Code::TooLarge,
            span,
            format!(
                "a tile may have at most {MAX_SEGMENTS_PER_TILE} segments, this one has {}",
                tile.segments.len()
            ),
        );
        return None;
    }

    let segments: Vec<Option<CheckedSegment>> = tile
        .segments
        .iter()
        .map(|segment| validate_segment(segment, &declared, book, problems))
        .collect();

    if !tile.segments_well_formed {
        return None;
    }
    check_edge_coverage(tile, &declared, &segments, problems);
    check_half_edge_coverage(tile, &declared, &segments, problems);
    let cities = resolve_cities(&segments, problems);

    let edges = ByDir([declared[Dir::N]?, declared[Dir::E]?, declared[Dir::S]?, declared[Dir::W]?]);
    let segments: Option<Vec<Segment>> = segments
        .into_iter()
        .zip(cities)
        .map(|(segment, cities)| {
            let checked = segment?;
            Some(Segment {
                kind: checked.kind,
                edges: checked.edges.iter().map(|(dir, _)| *dir).collect(),
                half_edges: checked.half_edges.iter().map(|(half, _)| *half).collect(),
                marks: checked.marks,
                cities: cities?,
            })
        })
        .collect();
    Some((edges, segments?))
}

/// A segment whose names all parsed, with the span of every edge and half-edge it lists.
struct CheckedSegment {
    kind: SegmentKind,
    edges: Vec<(Dir, Range<usize>)>,
    half_edges: Vec<(HalfEdge, Range<usize>)>,
    cities: Vec<(Dir, Range<usize>)>,
    marks: MarkSet,
}

fn validate_segment(
    raw: &RawSegment,
    declared: &ByDir<Option<EdgeKind>>,
    book: &Declared,
    problems: &mut Problems,
) -> Option<CheckedSegment> {
    let kind_name = raw.kind.as_ref()?;
    // A segment whose lists had wrong types is not judged further: what remains of it would
    // only produce follow-on errors.
    if !raw.well_formed {
        return None;
    }
    let Some(kind) = SegmentKind::from_name(&kind_name.value) else {
        problems.report(
            Code::UnknownSegmentKind,
            kind_name.span.clone(),
            format!(
                "`{}` is not a segment kind; expected city, road, field, river, monastery or garden",
                kind_name.value
            ),
        );
        return None;
    };

    let mut ok = true;
    let joins_edges = kind.edge_kind().is_some();
    let is_field = kind == SegmentKind::Field;
    for (key, list, allowed, instead) in [
        (
            "edges",
            &raw.edges,
            joins_edges,
            if is_field { "; fields list `half_edges`" } else { "" },
        ),
        (
            "half_edges",
            &raw.half_edges,
            is_field,
            if joins_edges { "; list the edges it joins in `edges`" } else { "" },
        ),
        ("cities", &raw.cities, is_field, ""),
    ] {
        if let (Some(list), false) = (list, allowed) {
            problems.report(
                Code::KeyNotAllowed,
                list.span.clone(),
                format!("a {kind} segment does not take `{key}`{instead}"),
            );
            ok = false;
        }
    }

    let edges = parse_list(
        problems,
        raw.edges.as_ref().filter(|_| joins_edges),
        "edge",
        Dir::from_name,
        |name| format!("`{name}` is not an edge; expected N, E, S or W"),
    );
    let half_edges = parse_list(
        problems,
        raw.half_edges.as_ref().filter(|_| is_field),
        "half-edge",
        HalfEdge::from_name,
        |name| {
            format!(
                "`{name}` is not a half-edge; expected one of N_w, N_e, E_n, E_s, S_e, S_w, W_s, W_n"
            )
        },
    );
    let cities = parse_list(
        problems,
        raw.cities.as_ref().filter(|_| is_field),
        "city",
        Dir::from_name,
        |name| {
            format!(
                "`{name}` is not an edge; a field names each city it borders by one of the city's edges (N, E, S or W)"
            )
        },
    );
    let marks = parse_marks(problems, raw.marks.as_ref(), book);
    let (Some(edges), Some(half_edges), Some(cities), Some(marks)) =
        (edges, half_edges, cities, marks)
    else {
        return None;
    };

    if let Some(edge_kind) = kind.edge_kind() {
        if edges.is_empty() && raw.edges.as_ref().is_none_or(|list| list.value.is_empty()) {
            let span =
                raw.edges.as_ref().map_or_else(|| raw.span.clone(), |list| list.span.clone());
            problems.report(
                Code::EmptySegment,
                span,
                format!("a {kind} segment must list at least one edge in `edges`"),
            );
            ok = false;
        }
        for (dir, span) in &edges {
            if let Some(actual) = declared[*dir]
                && actual != edge_kind
            {
                problems.report(
                    Code::EdgeKindMismatch,
                    span.clone(),
                    format!("edge {dir} is declared `{actual}` in `edges`, but this {kind} segment lists it"),
                );
                ok = false;
            }
        }
    }

    for (half, span) in &half_edges {
        if declared[half.dir()] == Some(EdgeKind::City) {
            problems.report(
                Code::FieldOnCityEdge,
                span.clone(),
                format!("half-edge {half} lies on edge {}, which is a city edge; fields touch no half of a city edge", half.dir()),
            );
            ok = false;
        }
    }

    for (mark, span) in &marks {
        let Some(info) = book.book.mark(*mark) else { continue };
        if !info.on.contains(kind) {
            let kinds: Vec<&str> = info.on.iter().map(SegmentKind::name).collect();
            let message = if kinds.is_empty() {
                format!(
                    "mark `{}` stands on whole tiles (the tile's own `marks`), not on a {kind} segment",
                    info.id
                )
            } else {
                format!(
                    "mark `{}` stands on {} segments, not on a {kind} segment",
                    info.id,
                    kinds.join(" or ")
                )
            };
            problems.report(Code::MarkOnWrongKind, span.clone(), message);
            ok = false;
        }
    }

    ok.then(|| CheckedSegment {
        kind,
        edges,
        half_edges,
        cities,
        marks: marks.iter().map(|(mark, _): &(Mark, _)| *mark).collect::<MarkSet>(),
    })
}

/// The marks a tile prints on itself (`marks` of `[[tile]]`), each declared to stand on a
/// whole tile (`on = ["tile"]`).
fn tile_marks(tile: &RawTile, book: &Declared, problems: &mut Problems) -> Option<MarkSet> {
    let marks = parse_marks(problems, tile.marks.as_ref(), book)?;
    let mut ok = true;
    for (mark, span) in &marks {
        let Some(info) = book.book.mark(*mark) else { continue };
        if !info.tile {
            problems.report(
                Code::MarkOnWrongKind,
                span.clone(),
                format!(
                    "mark `{}` stands on segments, not on a whole tile; declare it with `on = [\"tile\"]` to print it on tiles",
                    info.id
                ),
            );
            ok = false;
        }
    }
    ok.then(|| marks.iter().map(|(mark, _)| *mark).collect())
}

/// The declared marks a segment names, reporting undeclared and repeated ones (a mark whose
/// declaration was broken is not reported again). `None` if any failed.
fn parse_marks(
    problems: &mut Problems,
    list: Option<&LocatedList>,
    declared: &Declared,
) -> Option<Vec<(Mark, Range<usize>)>> {
    let Some(list) = list else { return Some(Vec::new()) };
    let mut parsed: Vec<(Mark, Range<usize>)> = Vec::new();
    let mut ok = true;
    for item in &list.value {
        match declared.resolve(problems, item) {
            None => ok = false,
            Some(mark) if parsed.iter().any(|(seen, _)| *seen == mark) => {
                problems.report(
                    Code::Duplicate,
                    item.span.clone(),
                    format!("mark `{}` is listed twice in this segment", item.value),
                );
                ok = false;
            }
            Some(mark) => parsed.push((mark, item.span.clone())),
        }
    }
    ok.then_some(parsed)
}

/// Parses every name in `list`, reporting unknown and repeated ones. `None` if any failed.
fn parse_list<T: PartialEq + Copy>(
    problems: &mut Problems,
    list: Option<&LocatedList>,
    what: &str,
    parse: impl Fn(&str) -> Option<T>,
    unknown: impl Fn(&str) -> String,
) -> Option<Vec<(T, Range<usize>)>> {
    let Some(list) = list else { return Some(Vec::new()) };
    let mut parsed: Vec<(T, Range<usize>)> = Vec::new();
    let mut ok = true;
    for item in &list.value {
        match parse(&item.value) {
            None => {
                let code = match what {
                    "half-edge" => Code::UnknownHalfEdge,
                    _ => Code::UnknownEdge,
                };
                problems.report(code, item.span.clone(), unknown(&item.value));
                ok = false;
            }
            Some(value) if parsed.iter().any(|(seen, _)| *seen == value) => {
                problems.report(
                    Code::Duplicate,
                    item.span.clone(),
                    format!("{what} `{}` is listed twice in this segment", item.value),
                );
                ok = false;
            }
            Some(value) => parsed.push((value, item.span.clone())),
        }
    }
    ok.then_some(parsed)
}

/// Every city, road and river edge in exactly one segment; no edge in two segments.
fn check_edge_coverage(
    tile: &RawTile,
    declared: &ByDir<Option<EdgeKind>>,
    segments: &[Option<CheckedSegment>],
    problems: &mut Problems,
) {
    let mut covered = ByDir([None::<usize>; 4]);
    for (index, segment) in segments.iter().enumerate() {
        let Some(segment) = segment else { continue };
        for (dir, span) in &segment.edges {
            match covered[*dir] {
                Some(first) => problems.report(
                    Code::EdgeCoveredTwice,
                    span.clone(),
                    format!("edge {dir} already belongs to segment {first} of this tile; an edge belongs to one segment"),
                ),
                None => covered[*dir] = Some(index),
            }
        }
    }
    // Uncovered edges can only be judged when every segment parsed.
    if segments.iter().any(Option::is_none) {
        return;
    }
    for dir in Dir::ALL {
        let Some(kind) = declared[dir] else { continue };
        if kind != EdgeKind::Field && covered[dir].is_none() {
            problems.report(
                Code::EdgeUncovered,
                edge_span(tile, dir),
                format!("edge {dir} is a {kind} edge, but no {kind} segment lists it"),
            );
        }
    }
}

/// Every half of a field, road or river edge in exactly one field.
fn check_half_edge_coverage(
    tile: &RawTile,
    declared: &ByDir<Option<EdgeKind>>,
    segments: &[Option<CheckedSegment>],
    problems: &mut Problems,
) {
    let mut covered = [None::<usize>; 8];
    for (index, segment) in segments.iter().enumerate() {
        let Some(segment) = segment else { continue };
        for (half, span) in &segment.half_edges {
            match covered[half.index()] {
                Some(first) => problems.report(
                    Code::HalfEdgeCoveredTwice,
                    span.clone(),
                    format!("half-edge {half} already belongs to field segment {first} of this tile; a half-edge belongs to one field"),
                ),
                None => covered[half.index()] = Some(index),
            }
        }
    }
    if segments.iter().any(Option::is_none) {
        return;
    }
    for half in HalfEdge::ALL {
        let Some(kind) = declared[half.dir()] else { continue };
        if kind.has_field_halves() && covered[half.index()].is_none() {
            problems.report(
                Code::HalfEdgeUncovered,
                edge_span(tile, half.dir()),
                format!("half-edge {half} of {kind} edge {} belongs to no field", half.dir()),
            );
        }
    }
}

/// Turns each field's `cities` (edges) into the indices of the city segments they name.
fn resolve_cities(
    segments: &[Option<CheckedSegment>],
    problems: &mut Problems,
) -> Vec<Option<SegmentSet>> {
    let city_at = |dir: Dir| -> Option<SegmentIndex> {
        let index = segments.iter().position(|segment| {
            segment.as_ref().is_some_and(|s| {
                s.kind == SegmentKind::City && s.edges.iter().any(|(d, _)| *d == dir)
            })
        })?;
        SegmentIndex::try_from(index).ok()
    };
    segments
        .iter()
        .map(|segment| {
            let segment = segment.as_ref()?;
            let mut set = SegmentSet::EMPTY;
            let mut ok = true;
            let mut named: Vec<(SegmentIndex, Dir)> = Vec::new();
            for (dir, span) in &segment.cities {
                match city_at(*dir) {
                    None => {
                        problems.report(
                            Code::UnknownCity,
                            span.clone(),
                            format!("no city segment of this tile reaches edge {dir}"),
                        );
                        ok = false;
                    }
                    Some(city) => {
                        if let Some((_, first)) = named.iter().find(|(seen, _)| *seen == city) {
                            problems.report(
                                Code::Duplicate,
                                span.clone(),
                                format!(
                                    "`{dir}` names the same city as `{first}`; name each city once"
                                ),
                            );
                            ok = false;
                        } else {
                            named.push((city, *dir));
                            set = set.with(city);
                        }
                    }
                }
            }
            ok.then_some(set)
        })
        .collect()
}

fn edge_span(tile: &RawTile, dir: Dir) -> Range<usize> {
    tile.edges
        .as_ref()
        .map(|edges| {
            edges.kinds[dir].as_ref().map_or_else(|| edges.span.clone(), |kind| kind.span.clone())
        })
        .unwrap_or_else(|| tile.span.clone())
}

fn validate_deck(
    raw: &super::raw::RawDeck,
    tiles: &[Option<TileType>],
    problems: &mut Problems,
) -> DeckRules {
    let mut find = |name: &Located<String>, what: &str| -> Option<TileIndex> {
        let index =
            tiles.iter().position(|tile| tile.as_ref().is_some_and(|tile| tile.id == name.value));
        if index.is_none() && tiles.iter().all(Option::is_some) {
            problems.report(
                Code::UnknownTile,
                name.span.clone(),
                format!("{what} `{}` is not a tile of this set", name.value),
            );
        }
        TileIndex::try_from(index?).ok()
    };
    let start = raw.start.as_ref().and_then(|start| find(start, "start tile"));
    let mut listed = |list: &Option<LocatedList>, other: &[TileIndex]| {
        let mut tiles: Vec<TileIndex> = Vec::new();
        let mut repeated = Vec::new();
        for name in list.iter().flat_map(|list| &list.value) {
            if let Some(index) = find(name, "tile") {
                if tiles.contains(&index) || other.contains(&index) {
                    repeated.push(name.clone());
                } else {
                    tiles.push(index);
                }
            }
        }
        (tiles, repeated)
    };
    let (last, repeated_last) = listed(&raw.last, &[]);
    let (first, repeated_first) = listed(&raw.first, &last);
    for name in repeated_last {
        problems.report(
            Code::Duplicate,
            name.span,
            format!("tile `{}` is listed twice in `last`", name.value),
        );
    }
    for name in repeated_first {
        problems.report(
            Code::Duplicate,
            name.span,
            format!(
                "tile `{}` is listed twice in `first`, or in both `first` and `last`",
                name.value
            ),
        );
    }
    let stage = raw
        .stage
        .as_ref()
        .and_then(|stage| {
            check_range(problems, stage, "stage", -limits::MAX_STAGE, limits::MAX_STAGE)
        })
        .and_then(|stage| i8::try_from(stage).ok())
        .unwrap_or(0);
    DeckRules { start, stage, last, first }
}

pub(crate) fn check_id(
    problems: &mut Problems,
    id: Located<String>,
    what: &str,
    allowed: fn(char) -> bool,
    alphabet: &str,
) -> Option<String> {
    let length = id.value.chars().count();
    if length == 0 || length > limits::MAX_ID || !id.value.chars().all(allowed) {
        problems.report(
            Code::InvalidId,
            id.span,
            format!(
                "{what} `{}` must be 1 to {} characters from {alphabet}",
                shorten(&id.value),
                limits::MAX_ID
            ),
        );
        return None;
    }
    Some(id.value)
}

pub(crate) fn check_text(
    problems: &mut Problems,
    text: Located<String>,
    what: &str,
    max: usize,
) -> Option<String> {
    let length = text.value.chars().count();
    if length == 0 || length > max || text.value.chars().any(char::is_control) {
        problems.report(
            Code::InvalidString,
            text.span,
            format!("{what} must be 1 to {max} characters without control characters"),
        );
        return None;
    }
    Some(text.value)
}

pub(crate) fn check_range(
    problems: &mut Problems,
    value: &Located<i64>,
    what: &str,
    min: i64,
    max: i64,
) -> Option<i64> {
    if value.value < min || value.value > max {
        problems.report(
            Code::OutOfRange,
            value.span.clone(),
            format!("`{what}` must be from {min} to {max}, not {}", value.value),
        );
        return None;
    }
    Some(value.value)
}

/// The first characters of a hostile string, so a message stays readable.
pub(crate) fn shorten(text: &str) -> String {
    const SHOWN: usize = 40;
    if text.chars().count() <= SHOWN {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(SHOWN).collect();
        short.push('…');
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_keeps_short_text_and_cuts_long_text() {
        assert_eq!(shorten("D"), "D");
        assert_eq!(shorten(&"x".repeat(100)).chars().count(), 41);
    }
}
