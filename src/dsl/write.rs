//! Writing a catalog back in the tile set format, in the layout of the built-in files.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::catalog::Catalog;
use crate::geom::Dir;
use crate::player::Figure;
use crate::rulebook::{
    Alone, Effect, FeatureState, FigureRole, FigureRule, Joins, Mark, OptionTest, Reach, Rulebook,
};
use crate::segment::{Segment, SegmentKind};
use crate::tile::TileType;

/// The catalog as tile set text; loading it gives back an equal catalog.
pub(crate) fn write(catalog: &Catalog) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_catalog(&mut out, catalog);
    out
}

fn write_catalog(out: &mut String, catalog: &Catalog) -> core::fmt::Result {
    let info = catalog.info();
    writeln!(out, "[set]")?;
    writeln!(out, "id = {}", quoted(&info.id))?;
    writeln!(out, "name = {}", quoted(&info.name))?;
    writeln!(out, "edition = {}", info.edition)?;

    let deck = catalog.deck();
    if deck.start.is_some() || deck.stage != 0 || !deck.last.is_empty() || !deck.first.is_empty() {
        writeln!(out, "\n[deck]")?;
        if let Some(start) = catalog.start_tile() {
            writeln!(out, "start = {}", quoted(start.id()))?;
        }
        if deck.stage != 0 {
            writeln!(out, "stage = {}", deck.stage)?;
        }
        if !deck.first.is_empty() {
            let ids =
                deck.first.iter().filter_map(|index| catalog.tile(*index)).map(|tile| tile.id());
            writeln!(out, "first = {}", list(ids))?;
        }
        if !deck.last.is_empty() {
            let ids =
                deck.last.iter().filter_map(|index| catalog.tile(*index)).map(|tile| tile.id());
            writeln!(out, "last = {}", list(ids))?;
        }
    }

    let figures = catalog.figures();
    if !figures.colours.is_empty() {
        writeln!(out, "\n[figures]")?;
        writeln!(out, "colours = {}", list(figures.colours.iter().map(String::as_str)))?;
    }
    for figure in &figures.declared {
        write_figure(out, figure)?;
    }

    write_rulebook(out, catalog.rulebook())?;
    for tile in catalog.tiles() {
        write_tile(out, tile, catalog.rulebook())?;
    }
    Ok(())
}

fn write_rulebook(out: &mut String, book: &Rulebook) -> core::fmt::Result {
    let mark_id = |mark: Mark| book.mark(mark).map_or("", |info| info.id.as_str());
    for mark in book.marks() {
        writeln!(out, "\n[[mark]]")?;
        writeln!(out, "id = {}", quoted(&mark.id))?;
        writeln!(out, "name = {}", quoted(&mark.name))?;
        let tile = mark.tile.then_some("tile");
        writeln!(out, "on = {}", list(mark.on.iter().map(SegmentKind::name).chain(tile)))?;
        writeln!(out, "merge = {}", quoted(mark.merge.name()))?;
        if mark.complete != 0 {
            writeln!(out, "complete = {}", mark.complete)?;
        }
        if mark.unfinished != 0 {
            writeln!(out, "unfinished = {}", mark.unfinished)?;
        }
        writeln!(out, "glyph = {}", quoted(mark.glyph.name()))?;
        writeln!(out, "colour = {}", quoted(mark.colour.name()))?;
    }
    for rule in book.rules() {
        match &rule.effect {
            Effect::Value(value) => {
                writeln!(out, "\n[[value]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "feature = {}", quoted(value.feature.name()))?;
                if value.state != FeatureState::Any {
                    writeln!(out, "state = {}", quoted(value.state.name()))?;
                }
                if !value.with.is_empty() {
                    writeln!(out, "with = {}", list(value.with.iter().map(mark_id)))?;
                }
                if let Some(tiles) = value.tiles {
                    writeln!(out, "tiles = {tiles}")?;
                }
                if !value.options.is_empty() {
                    let tests: Vec<String> =
                        value.options.iter().map(|test| option_entry(*test)).collect();
                    writeln!(out, "option = {{ {} }}", tests.join(", "))?;
                }
                if value.precedence != 0 {
                    writeln!(out, "precedence = {}", value.precedence)?;
                }
                writeln!(out, "per_tile = {}", value.per_tile)?;
                if !value.per_mark.is_empty() {
                    let entries: Vec<String> = value
                        .per_mark
                        .iter()
                        .map(|(mark, points)| alloc::format!("{} = {points}", mark_id(*mark)))
                        .collect();
                    writeln!(out, "per_mark = {{ {} }}", entries.join(", "))?;
                }
            }
            Effect::Farm(farm) => {
                writeln!(out, "\n[[farm]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "with = {}", list(farm.with.iter().map(mark_id)))?;
                writeln!(out, "times = {}", farm.times)?;
                if farm.precedence != 0 {
                    writeln!(out, "precedence = {}", farm.precedence)?;
                }
            }
            Effect::Neighbours(bonus) => {
                writeln!(out, "\n[[neighbours]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "feature = {}", quoted(bonus.feature.name()))?;
                writeln!(out, "state = {}", quoted(bonus.state.name()))?;
                writeln!(out, "mark = {}", quoted(mark_id(bonus.mark)))?;
                writeln!(out, "each = {}", bonus.each)?;
            }
            Effect::TieBreak(tiebreak) => {
                writeln!(out, "\n[[tiebreak]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "mark = {}", quoted(mark_id(tiebreak.mark)))?;
                writeln!(out, "by = {}", quoted(tiebreak.by.name()))?;
            }
            Effect::Occupants(occupants) => {
                writeln!(out, "\n[[occupants]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "feature = {}", quoted(occupants.feature.name()))?;
                writeln!(
                    out,
                    "figures = {}",
                    list(occupants.figures.as_slice().iter().map(Figure::id))
                )?;
                if occupants.reach != Reach::ThisSet {
                    writeln!(out, "reach = {}", quoted(occupants.reach.name()))?;
                }
            }
            Effect::Pig(pig) => {
                writeln!(out, "\n[[pig]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "per_city = {}", pig.per_city)?;
            }
            Effect::Bag(bag) => {
                writeln!(out, "\n[[bag]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "points = {}", bag.points)?;
                writeln!(out, "tokens = [")?;
                for token in &bag.tokens {
                    write!(out, "  {{ id = {}, count = {}", quoted(token.token.id()), token.count)?;
                    match token.then {
                        crate::rulebook::Drawn::Keep => write!(out, ", worth = {}", token.worth)?,
                        then => write!(out, ", then = {}", quoted(then.name()))?,
                    }
                    writeln!(out, " }},")?;
                }
                writeln!(out, "]")?;
            }
            Effect::Hide(hide) => {
                writeln!(out, "\n[[hide]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "mark = {}", quoted(mark_id(hide.mark)))?;
            }
            Effect::Chain(chain) => {
                writeln!(out, "\n[[chain]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "edge = {}", quoted(chain.edge.name()))?;
                writeln!(out, "turns = {}", quoted(chain.turns.name()))?;
            }
            Effect::Rival(rival) => {
                writeln!(out, "\n[[rival]]")?;
                writeln!(out, "id = {}", quoted(&rule.id))?;
                writeln!(out, "feature = {}", quoted(rival.feature.name()))?;
                writeln!(out, "marks = {}", list(rival.marks.iter().map(mark_id)))?;
                if let Some(at_most) = rival.at_most {
                    writeln!(out, "at_most = {at_most}")?;
                }
            }
        }
    }
    for title in book.titles() {
        writeln!(out, "\n[[title]]")?;
        writeln!(out, "id = {}", quoted(&title.id))?;
        writeln!(out, "name = {}", quoted(&title.name))?;
        writeln!(out, "feature = {}", quoted(title.feature.name()))?;
        writeln!(out, "per_feature = {}", title.per_feature)?;
        writeln!(out, "holding = {}", title.holding)?;
    }
    for token in book.tokens() {
        writeln!(out, "\n[[token]]")?;
        writeln!(out, "id = {}", quoted(&token.id))?;
        writeln!(out, "name = {}", quoted(&token.name))?;
        writeln!(out, "from = {}", list(token.from.iter().map(mark_id)))?;
        writeln!(out, "taken_by = {}", quoted(token.taker.name()))?;
        writeln!(out, "majority = {}", token.majority)?;
        writeln!(out, "glyph = {}", quoted(token.glyph.name()))?;
        writeln!(out, "colour = {}", quoted(token.colour.name()))?;
    }
    Ok(())
}

fn write_figure(out: &mut String, figure: &FigureRule) -> core::fmt::Result {
    writeln!(out, "\n[[figure]]")?;
    writeln!(out, "id = {}", quoted(figure.figure.id()))?;
    writeln!(out, "per_player = {}", figure.per_player)?;
    let kinds = list(figure.stands_on.iter().map(SegmentKind::name));
    match figure.role {
        FigureRole::Follower { strength, recall } => {
            writeln!(out, "role = \"follower\"")?;
            if strength != 1 {
                writeln!(out, "strength = {strength}")?;
            }
            writeln!(out, "stands_on = {kinds}")?;
            if recall {
                writeln!(out, "recall = true")?;
            }
        }
        FigureRole::Companion { joins, alone, extended, farm_bonus } => {
            writeln!(out, "role = \"companion\"")?;
            writeln!(out, "stands_on = {kinds}")?;
            if joins != Joins::Any {
                writeln!(out, "joins = {}", quoted(joins.name()))?;
            }
            if alone != Alone::Owner {
                writeln!(out, "alone = {}", quoted(alone.name()))?;
            }
            if let Some(extended) = extended {
                writeln!(out, "extended = {}", quoted(extended.name()))?;
            }
            if farm_bonus {
                writeln!(out, "farm_bonus = true")?;
            }
            if let Some(bag) = &figure.draws {
                writeln!(out, "draws = {}", quoted(bag))?;
            }
        }
    }
    if figure.farmer {
        writeln!(out, "farmer = true")?;
    }
    if !figure.options.is_empty() {
        let tests: Vec<String> = figure.options.iter().map(|test| option_entry(*test)).collect();
        writeln!(out, "option = {{ {} }}", tests.join(", "))?;
    }
    Ok(())
}

/// An option test as `option = { ... }` writes it: a switch bare, any other value quoted.
fn option_entry(test: OptionTest) -> String {
    let value = test.value_name();
    let value = if test.is_switch() { value.into() } else { quoted(value) };
    alloc::format!("{} = {value}", test.name())
}

fn write_tile(out: &mut String, tile: &TileType, book: &Rulebook) -> core::fmt::Result {
    writeln!(out, "\n[[tile]]")?;
    writeln!(out, "id = {}", quoted(tile.id()))?;
    writeln!(out, "name = {}", quoted(tile.name()))?;
    writeln!(out, "count = {}", tile.count())?;
    let edges: Vec<String> = tile
        .edges()
        .iter()
        .map(|(dir, kind)| alloc::format!("{dir} = {}", quoted(kind.name())))
        .collect();
    writeln!(out, "edges = {{ {} }}", edges.join(", "))?;
    if !tile.marks().is_empty() {
        let ids = tile.marks().iter().filter_map(|mark| book.mark(mark)).map(|m| m.id.as_str());
        writeln!(out, "marks = {}", list(ids))?;
    }
    writeln!(out, "segments = [")?;
    for segment in tile.segments() {
        writeln!(out, "  {},", segment_table(tile, segment, book))?;
    }
    writeln!(out, "]")
}

fn segment_table(tile: &TileType, segment: &Segment, book: &Rulebook) -> String {
    let mut parts = alloc::vec![alloc::format!("kind = {}", quoted(segment.kind().name()))];
    if segment.kind().edge_kind().is_some() {
        parts.push(alloc::format!("edges = {}", list(segment.edges().iter().map(Dir::name))));
    }
    if segment.kind() == SegmentKind::Field {
        parts.push(alloc::format!(
            "half_edges = {}",
            list(segment.half_edges().iter().map(|half| half.name()))
        ));
        if !segment.cities().is_empty() {
            // A city is named by its first edge; every city segment reaches at least one.
            let names = segment.cities().iter().filter_map(|city| {
                let city = tile.segments().get(usize::from(city))?;
                city.edges().iter().next().map(Dir::name)
            });
            parts.push(alloc::format!("cities = {}", list(names)));
        }
    }
    if !segment.marks().is_empty() {
        parts.push(alloc::format!(
            "marks = {}",
            list(segment.marks().iter().filter_map(|mark| book.mark(mark)).map(|m| m.id.as_str()))
        ));
    }
    alloc::format!("{{ {} }}", parts.join(", "))
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.map(quoted).collect();
    alloc::format!("[{}]", quoted.join(", "))
}

/// A TOML basic string holding `text` exactly.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_what_toml_requires() {
        assert_eq!(quoted(r#"a "b" \c"#), r#""a \"b\" \\c""#);
        assert_eq!(quoted("tab\there"), "\"tab\\u0009here\"");
    }
}
