//! Reading: from TOML text to the raw shape, reporting syntax, unknown keys, missing keys
//! and wrong types. Meaning is checked later, by `validate`.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::diagnostic::{Code, Problems};
use super::raw::{
    Located, LocatedList, RawBag, RawBagToken, RawChain, RawDeck, RawEdges, RawFarm, RawFigure,
    RawFigures, RawFile, RawHide, RawMark, RawNeighbours, RawOccupants, RawPig, RawRival,
    RawSegment, RawSet, RawTieBreak, RawTile, RawTitle, RawToken, RawValue,
};
use crate::geom::ByDir;

const ROOT_KEYS: &[&str] = &[
    "set",
    "deck",
    "figures",
    "figure",
    "mark",
    "value",
    "farm",
    "neighbours",
    "tiebreak",
    "rival",
    "chain",
    "occupants",
    "pig",
    "bag",
    "hide",
    "token",
    "title",
    "tile",
];
const MARK_KEYS: &[&str] =
    &["id", "name", "on", "merge", "complete", "unfinished", "glyph", "colour"];
const VALUE_KEYS: &[&str] =
    &["id", "feature", "state", "with", "tiles", "option", "precedence", "per_tile", "per_mark"];
const FARM_KEYS: &[&str] = &["id", "with", "times", "precedence"];
const NEIGHBOUR_KEYS: &[&str] = &["id", "feature", "state", "mark", "each"];
const TIEBREAK_KEYS: &[&str] = &["id", "mark", "by"];
const RIVAL_KEYS: &[&str] = &["id", "feature", "marks", "at_most"];
const CHAIN_KEYS: &[&str] = &["id", "edge", "turns"];
const OCCUPANT_KEYS: &[&str] = &["id", "feature", "figures", "reach"];
const PIG_KEYS: &[&str] = &["id", "per_city"];
const BAG_KEYS: &[&str] = &["id", "points", "tokens"];
const BAG_TOKEN_KEYS: &[&str] = &["id", "count", "worth", "then"];
const HIDE_KEYS: &[&str] = &["id", "mark"];
const TITLE_KEYS: &[&str] = &["id", "name", "feature", "per_feature", "holding"];
const TOKEN_KEYS: &[&str] = &["id", "name", "from", "taken_by", "majority", "glyph", "colour"];
const SET_KEYS: &[&str] = &["id", "name", "edition"];
const DECK_KEYS: &[&str] = &["start", "stage", "first", "last"];
const FIGURE_KEYS: &[&str] = &["followers", "colours"];
const DECLARED_FIGURE_KEYS: &[&str] = &[
    "id",
    "per_player",
    "role",
    "strength",
    "stands_on",
    "farmer",
    "option",
    "recall",
    "joins",
    "alone",
    "extended",
    "farm_bonus",
    "draws",
];
const TILE_KEYS: &[&str] = &["id", "name", "count", "edges", "marks", "segments"];
const EDGE_KEYS: &[&str] = &["N", "E", "S", "W"];
const SEGMENT_KEYS: &[&str] = &["kind", "edges", "half_edges", "cities", "marks"];

/// Parses `text` as TOML and reads the tile set shape out of it. Returns `None` when the TOML
/// itself is broken, after reporting every syntax error the parser recovered from.
pub(crate) fn read(text: &str, problems: &mut Problems) -> Option<RawFile> {
    // No TOML document starts with `{`; a JSON one does, and the TOML parser would report a
    // hundred syntax errors on it instead of saying so.
    if let Some(start) = text.find(|c: char| !c.is_whitespace())
        && text[start..].starts_with('{')
    {
        problems.report(
            Code::Syntax,
            start..start + 1,
            "this is not TOML but looks like JSON; a tile set is a TOML file (see \
             tilesets/README.md)"
                .to_owned(),
        );
        return None;
    }
    let (root, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        for error in errors {
            let span = error.span().unwrap_or(0..0);
            problems.report(Code::Syntax, span, error.message().trim_end_matches('\n').to_owned());
        }
        return None;
    }
    let span = root.span();
    let root_table = root.into_inner();
    let root = Table { table: &root_table, span, context: "the top level" };
    root.check_keys(problems, ROOT_KEYS);

    let set = root.table(problems, "set", "[set]").map(|set| {
        set.check_keys(problems, SET_KEYS);
        RawSet {
            id: set.string(problems, "id", true),
            name: set.string(problems, "name", true),
            edition: set.integer(problems, "edition", true),
        }
    });
    if set.is_none() && root.get("set").is_none() {
        problems.report(
            Code::MissingKey,
            0..0,
            "a tile set needs a [set] table with id, name and edition".to_owned(),
        );
    }

    let deck = root
        .table(problems, "deck", "[deck]")
        .map(|deck| {
            deck.check_keys(problems, DECK_KEYS);
            RawDeck {
                start: deck.string(problems, "start", false),
                stage: deck.integer(problems, "stage", false),
                last: deck.string_list(problems, "last", false),
                first: deck.string_list(problems, "first", false),
            }
        })
        .unwrap_or_default();

    let figures = root
        .table(problems, "figures", "[figures]")
        .map(|figures| {
            figures.check_keys_hinting(
                problems,
                FIGURE_KEYS,
                " (any figure but the plain follower is declared in a [[figure]] table, with \
                 its `per_player` count)",
            );
            RawFigures {
                followers: figures.integer(problems, "followers", false),
                colours: figures.string_list(problems, "colours", false),
            }
        })
        .unwrap_or_default();

    let declared_figures = root
        .table_list(problems, "figure", "[[figure]]")
        .into_iter()
        .map(|figure| {
            figure.check_keys(problems, DECLARED_FIGURE_KEYS);
            RawFigure {
                span: figure.span.clone(),
                id: figure.string(problems, "id", true),
                per_player: figure.integer(problems, "per_player", true),
                role: figure.string(problems, "role", true),
                strength: figure.integer(problems, "strength", false),
                stands_on: figure.string_list(problems, "stands_on", true),
                farmer: figure.boolean(problems, "farmer"),
                options: figure.entries(problems, "option", "`option`", as_option_value),
                recall: figure.boolean(problems, "recall"),
                joins: figure.string(problems, "joins", false),
                alone: figure.string(problems, "alone", false),
                extended: figure.string(problems, "extended", false),
                farm_bonus: figure.boolean(problems, "farm_bonus"),
                draws: figure.string(problems, "draws", false),
            }
        })
        .collect();

    let tiles = root
        .table_list(problems, "tile", "[[tile]]")
        .into_iter()
        .map(|tile| read_tile(&tile, problems))
        .collect();

    let marks = root
        .table_list(problems, "mark", "[[mark]]")
        .into_iter()
        .map(|mark| {
            mark.check_keys(problems, MARK_KEYS);
            RawMark {
                span: mark.span.clone(),
                id: mark.string(problems, "id", true),
                name: mark.string(problems, "name", true),
                on: mark.string_list(problems, "on", true),
                merge: mark.string(problems, "merge", true),
                complete: mark.integer(problems, "complete", false),
                unfinished: mark.integer(problems, "unfinished", false),
                glyph: mark.string(problems, "glyph", true),
                colour: mark.string(problems, "colour", true),
            }
        })
        .collect();
    let values = root
        .table_list(problems, "value", "[[value]]")
        .into_iter()
        .map(|value| {
            value.check_keys(problems, VALUE_KEYS);
            RawValue {
                span: value.span.clone(),
                id: value.string(problems, "id", true),
                feature: value.string(problems, "feature", true),
                state: value.string(problems, "state", false),
                with: value.string_list(problems, "with", false),
                tiles: value.integer(problems, "tiles", false),
                options: value.entries(problems, "option", "`option`", as_option_value),
                precedence: value.integer(problems, "precedence", false),
                per_tile: value.integer(problems, "per_tile", true),
                per_mark: value.entries(problems, "per_mark", "`per_mark`", as_integer),
            }
        })
        .collect();
    let farms = root
        .table_list(problems, "farm", "[[farm]]")
        .into_iter()
        .map(|farm| {
            farm.check_keys(problems, FARM_KEYS);
            RawFarm {
                span: farm.span.clone(),
                id: farm.string(problems, "id", true),
                with: farm.string_list(problems, "with", true),
                times: farm.integer(problems, "times", true),
                precedence: farm.integer(problems, "precedence", false),
            }
        })
        .collect();

    let tokens = root
        .table_list(problems, "token", "[[token]]")
        .into_iter()
        .map(|token| {
            token.check_keys(problems, TOKEN_KEYS);
            RawToken {
                span: token.span.clone(),
                id: token.string(problems, "id", true),
                name: token.string(problems, "name", true),
                from: token.string_list(problems, "from", true),
                taken_by: token.string(problems, "taken_by", true),
                majority: token.integer(problems, "majority", false),
                glyph: token.string(problems, "glyph", false),
                colour: token.string(problems, "colour", false),
            }
        })
        .collect();

    let neighbours = root
        .table_list(problems, "neighbours", "[[neighbours]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, NEIGHBOUR_KEYS);
            RawNeighbours {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                feature: rule.string(problems, "feature", true),
                state: rule.string(problems, "state", false),
                mark: rule.string(problems, "mark", true),
                each: rule.integer(problems, "each", true),
            }
        })
        .collect();
    let tiebreaks = root
        .table_list(problems, "tiebreak", "[[tiebreak]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, TIEBREAK_KEYS);
            RawTieBreak {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                mark: rule.string(problems, "mark", true),
                by: rule.string(problems, "by", true),
            }
        })
        .collect();
    let rivals = root
        .table_list(problems, "rival", "[[rival]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, RIVAL_KEYS);
            RawRival {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                feature: rule.string(problems, "feature", true),
                marks: rule.string_list(problems, "marks", true),
                at_most: rule.integer(problems, "at_most", false),
            }
        })
        .collect();
    let chains = root
        .table_list(problems, "chain", "[[chain]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, CHAIN_KEYS);
            RawChain {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                edge: rule.string(problems, "edge", true),
                turns: rule.string(problems, "turns", false),
            }
        })
        .collect();
    let occupants = root
        .table_list(problems, "occupants", "[[occupants]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, OCCUPANT_KEYS);
            RawOccupants {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                feature: rule.string(problems, "feature", true),
                figures: rule.string_list(problems, "figures", true),
                reach: rule.string(problems, "reach", false),
            }
        })
        .collect();
    let pigs = root
        .table_list(problems, "pig", "[[pig]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, PIG_KEYS);
            RawPig {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                per_city: rule.integer(problems, "per_city", true),
            }
        })
        .collect();
    let bags = root
        .table_list(problems, "bag", "[[bag]]")
        .into_iter()
        .map(|bag| {
            bag.check_keys(problems, BAG_KEYS);
            let tokens_span = bag.get("tokens").map(Spanned::span);
            if tokens_span.is_none() {
                bag.missing(problems, "tokens");
            }
            let tokens = bag
                .table_list(problems, "tokens", "a bag's token")
                .into_iter()
                .map(|token| {
                    token.check_keys(problems, BAG_TOKEN_KEYS);
                    RawBagToken {
                        span: token.span.clone(),
                        id: token.string(problems, "id", true),
                        count: token.integer(problems, "count", true),
                        worth: token.integer(problems, "worth", false),
                        then: token.string(problems, "then", false),
                    }
                })
                .collect();
            RawBag {
                span: bag.span.clone(),
                id: bag.string(problems, "id", true),
                points: bag.integer(problems, "points", false),
                tokens_span,
                tokens,
            }
        })
        .collect();
    let hides = root
        .table_list(problems, "hide", "[[hide]]")
        .into_iter()
        .map(|rule| {
            rule.check_keys(problems, HIDE_KEYS);
            RawHide {
                span: rule.span.clone(),
                id: rule.string(problems, "id", true),
                mark: rule.string(problems, "mark", true),
            }
        })
        .collect();

    let titles = root
        .table_list(problems, "title", "[[title]]")
        .into_iter()
        .map(|title| {
            title.check_keys(problems, TITLE_KEYS);
            RawTitle {
                span: title.span.clone(),
                id: title.string(problems, "id", true),
                name: title.string(problems, "name", true),
                feature: title.string(problems, "feature", true),
                per_feature: title.integer(problems, "per_feature", false),
                holding: title.integer(problems, "holding", false),
            }
        })
        .collect();

    Some(RawFile {
        set,
        deck,
        figures,
        declared_figures,
        tiles,
        marks,
        values,
        farms,
        neighbours,
        tiebreaks,
        rivals,
        chains,
        occupants,
        pigs,
        bags,
        hides,
        tokens,
        titles,
        end: text.len(),
    })
}

/// An option's value as text: a boolean or a string, as `option = { tiny_city = true }` or
/// `{ inn_cathedral_unfinished = "zero" }` write them.
fn as_option_value(
    value: &Spanned<DeValue<'_>>,
    key: &str,
    problems: &mut Problems,
) -> Option<Located<String>> {
    let span = value.span();
    match value.get_ref() {
        DeValue::Boolean(on) => Some(Located { value: format!("{on}"), span }),
        DeValue::String(text) => Some(Located { value: text.as_ref().to_owned(), span }),
        other => {
            wrong_type(problems, span, key, "a boolean or a string", other);
            None
        }
    }
}

/// An integer value: of a key, or of a table of names as `per_mark = { pennant = 3 }` writes
/// them.
fn as_integer(
    value: &Spanned<DeValue<'_>>,
    key: &str,
    problems: &mut Problems,
) -> Option<Located<i64>> {
    let span = value.span();
    match value.get_ref() {
        DeValue::Integer(integer) => match i64::from_str_radix(integer.as_str(), integer.radix()) {
            Ok(number) => Some(Located { value: number, span }),
            Err(_) => {
                problems.report(Code::OutOfRange, span, format!("`{key}` is far too large"));
                None
            }
        },
        other => {
            wrong_type(problems, span, key, "an integer", other);
            None
        }
    }
}

fn read_tile(tile: &Table<'_, '_>, problems: &mut Problems) -> RawTile {
    tile.check_keys(problems, TILE_KEYS);
    let edges = tile.table(problems, "edges", "`edges`").map(|edges| {
        edges.check_keys(problems, EDGE_KEYS);
        RawEdges {
            span: edges.span.clone(),
            kinds: ByDir::from_fn(|dir| {
                if edges.get(dir.name()).is_none() {
                    problems.report(
                        Code::MissingKey,
                        edges.span.clone(),
                        format!("`edges` has no kind for edge {dir}"),
                    );
                }
                edges.string(problems, dir.name(), false)
            }),
        }
    });
    if tile.get("edges").is_none() {
        problems.report(
            Code::MissingKey,
            tile.span.clone(),
            "this tile has no `edges`; give the kind of N, E, S and W".to_owned(),
        );
    }
    let segments_span = tile.get("segments").map(Spanned::span);
    let before_segments = problems.reported();
    let segments: Vec<RawSegment> = tile
        .table_list(problems, "segments", "a segment")
        .into_iter()
        .map(|segment| {
            let before = problems.reported();
            segment.check_keys(problems, SEGMENT_KEYS);
            let mut raw = RawSegment {
                span: segment.span.clone(),
                kind: segment.string(problems, "kind", true),
                edges: segment.string_list(problems, "edges", false),
                half_edges: segment.string_list(problems, "half_edges", false),
                cities: segment.string_list(problems, "cities", false),
                marks: segment.string_list(problems, "marks", false),
                well_formed: true,
            };
            raw.well_formed = problems.reported() == before;
            raw
        })
        .collect();
    let segments_well_formed = problems.reported() == before_segments;
    RawTile {
        span: tile.span.clone(),
        id: tile.string(problems, "id", true),
        name: tile.string(problems, "name", true),
        count: tile.integer(problems, "count", true),
        edges,
        marks: tile.string_list(problems, "marks", false),
        segments,
        segments_span,
        segments_well_formed,
    }
}

/// A TOML table being read, with where it is and how messages should name it.
struct Table<'a, 'i> {
    table: &'a DeTable<'i>,
    span: Range<usize>,
    context: &'static str,
}

impl<'a, 'i> Table<'a, 'i> {
    fn get(&self, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    fn check_keys(&self, problems: &mut Problems, allowed: &[&str]) {
        self.check_keys_hinting(problems, allowed, "");
    }

    /// As `check_keys`, each report ending with `hint`.
    fn check_keys_hinting(&self, problems: &mut Problems, allowed: &[&str], hint: &str) {
        for (key, _) in self.table.iter() {
            if !allowed.contains(&key.get_ref().as_ref()) {
                problems.report(
                    Code::UnknownKey,
                    key.span(),
                    format!(
                        "unknown key `{}` in {}; expected one of {}{hint}",
                        key.get_ref(),
                        self.context,
                        allowed.join(", ")
                    ),
                );
            }
        }
    }

    fn missing(&self, problems: &mut Problems, key: &str) {
        problems.report(
            Code::MissingKey,
            self.span.clone(),
            format!("{} has no `{key}`", self.context),
        );
    }

    fn string(
        &self,
        problems: &mut Problems,
        key: &str,
        required: bool,
    ) -> Option<Located<String>> {
        let Some(value) = self.get(key) else {
            if required {
                self.missing(problems, key);
            }
            return None;
        };
        as_string(value, key, false, problems)
    }

    fn integer(&self, problems: &mut Problems, key: &str, required: bool) -> Option<Located<i64>> {
        let Some(value) = self.get(key) else {
            if required {
                self.missing(problems, key);
            }
            return None;
        };
        as_integer(value, key, problems)
    }

    /// The optional boolean at `key`.
    fn boolean(&self, problems: &mut Problems, key: &str) -> Option<Located<bool>> {
        let value = self.get(key)?;
        match value.get_ref() {
            DeValue::Boolean(on) => Some(Located { value: *on, span: value.span() }),
            other => {
                wrong_type(problems, value.span(), key, "true or false", other);
                None
            }
        }
    }

    fn string_list(
        &self,
        problems: &mut Problems,
        key: &str,
        required: bool,
    ) -> Option<LocatedList> {
        self.list(problems, key, required, "a list of strings", |item, problems| {
            as_string(item, key, true, problems)
        })
    }

    /// The list at `key`, each item read by `item` (which reports its own problems); a
    /// missing key is a problem when `required`, anything but an array is `what` expected.
    fn list<T>(
        &self,
        problems: &mut Problems,
        key: &str,
        required: bool,
        what: &str,
        mut item: impl FnMut(&Spanned<DeValue<'_>>, &mut Problems) -> Option<T>,
    ) -> Option<Located<Vec<T>>> {
        let Some(value) = self.get(key) else {
            if required {
                self.missing(problems, key);
            }
            return None;
        };
        let span = value.span();
        let DeValue::Array(array) = value.get_ref() else {
            wrong_type(problems, span, key, what, value.get_ref());
            return None;
        };
        let items = array.iter().filter_map(|entry| item(entry, problems)).collect();
        Some(Located { value: items, span })
    }

    fn table(
        &self,
        problems: &mut Problems,
        key: &str,
        context: &'static str,
    ) -> Option<Table<'a, 'i>> {
        let value = self.get(key)?;
        match value.get_ref() {
            DeValue::Table(table) => Some(Table { table, span: value.span(), context }),
            other => {
                wrong_type(problems, value.span(), key, "a table", other);
                None
            }
        }
    }

    /// The entries of the table at `key`, each name with its value read by `read`.
    fn entries<T>(
        &self,
        problems: &mut Problems,
        key: &str,
        context: &'static str,
        read: impl Fn(&Spanned<DeValue<'i>>, &str, &mut Problems) -> Option<Located<T>>,
    ) -> Vec<(Located<String>, Located<T>)> {
        let Some(table) = self.table(problems, key, context) else { return Vec::new() };
        table
            .table
            .iter()
            .filter_map(|(name, value)| {
                let name_text = name.get_ref().as_ref().to_owned();
                let read = read(value, &name_text, problems)?;
                Some((Located { value: name_text, span: name.span() }, read))
            })
            .collect()
    }

    fn table_list(
        &self,
        problems: &mut Problems,
        key: &str,
        context: &'static str,
    ) -> Vec<Table<'a, 'i>> {
        let Some(value) = self.get(key) else { return Vec::new() };
        let DeValue::Array(array) = value.get_ref() else {
            wrong_type(problems, value.span(), key, "a list of tables", value.get_ref());
            return Vec::new();
        };
        array
            .iter()
            .filter_map(|item| match item.get_ref() {
                DeValue::Table(table) => Some(Table { table, span: item.span(), context }),
                other => {
                    wrong_type(problems, item.span(), key, "a table", other);
                    None
                }
            })
            .collect()
    }
}

/// A string value; `in_list` words the type error for an entry of a list.
fn as_string(
    value: &Spanned<DeValue<'_>>,
    key: &str,
    in_list: bool,
    problems: &mut Problems,
) -> Option<Located<String>> {
    match value.get_ref() {
        DeValue::String(text) => {
            Some(Located { value: text.as_ref().to_owned(), span: value.span() })
        }
        other => {
            let subject =
                if in_list { format!("each entry of `{key}`") } else { format!("`{key}`") };
            problems.report(
                Code::WrongType,
                value.span(),
                format!("{subject} must be a string, found {}", describe(other)),
            );
            None
        }
    }
}

fn wrong_type(
    problems: &mut Problems,
    span: Range<usize>,
    key: &str,
    expected: &str,
    found: &DeValue<'_>,
) {
    problems.report(
        Code::WrongType,
        span,
        format!("`{key}` must be {expected}, found {}", describe(found)),
    );
}

fn describe(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}
