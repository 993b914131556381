//! The catalog as plain data (serde `Serialize`), for `tileset export --format json` and any
//! program that wants the tiles without parsing TOML.

use alloc::string::String;
use alloc::vec::Vec;

use serde::ser::{Serialize, Serializer};

use crate::catalog::Catalog;
use crate::geom::Dir;
use crate::rulebook::{Effect, Extended, FigureRole, FigureRule, Mark, MarkInfo, Rule, Rulebook};
use crate::segment::{Segment, SegmentIndex, SegmentKind};
use crate::tile::TileType;

/// The schema version of the exported form; raised whenever a key changes meaning.
pub const EXPORT_FORMAT: u32 = 4;

#[derive(serde::Serialize)]
struct CatalogDoc<'a> {
    format: u32,
    set: SetDoc<'a>,
    deck: DeckDoc<'a>,
    figures: FiguresDoc<'a>,
    marks: Vec<MarkDoc<'a>>,
    rules: Vec<RuleDoc<'a>>,
    tokens: Vec<TokenDoc<'a>>,
    titles: Vec<TitleDoc<'a>>,
    tiles: Vec<TileDoc<'a>>,
}

/// A title: the keys of its `[[title]]` table.
#[derive(serde::Serialize)]
struct TitleDoc<'a> {
    id: &'a str,
    name: &'a str,
    feature: &'static str,
    per_feature: u32,
    holding: u32,
}

/// A token kind: the keys of its `[[token]]` table.
#[derive(serde::Serialize)]
struct TokenDoc<'a> {
    id: &'a str,
    name: &'a str,
    from: Vec<&'a str>,
    taken_by: &'static str,
    majority: u32,
    glyph: &'static str,
    colour: &'static str,
}

#[derive(serde::Serialize)]
struct MarkDoc<'a> {
    id: &'a str,
    name: &'a str,
    on: Vec<&'static str>,
    merge: &'static str,
    complete: u32,
    unfinished: u32,
    glyph: &'static str,
    colour: &'static str,
}

/// A rule: `value`, `farm`, `neighbours` or `tiebreak` in `type`, and the keys of its table
/// in the tile set format.
#[derive(serde::Serialize)]
struct RuleDoc<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    feature: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'static str>,
    with: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    option: Vec<(&'static str, &'static str)>,
    precedence: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_tile: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    per_mark: Vec<(&'a str, u32)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    times: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mark: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    each: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    marks: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_most: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edge: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turns: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    figures: Vec<crate::Figure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reach: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_city: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tokens: Vec<crate::BagTokenRule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<u32>,
}

#[derive(serde::Serialize)]
struct SetDoc<'a> {
    id: &'a str,
    name: &'a str,
    edition: u8,
}

#[derive(serde::Serialize)]
struct DeckDoc<'a> {
    start: Option<&'a str>,
    stage: i8,
    last: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    first: Vec<&'a str>,
}

#[derive(serde::Serialize)]
struct FiguresDoc<'a> {
    declared: Vec<FigureDoc>,
    colours: &'a [alloc::string::String],
}

/// A figure: the keys of its `[[figure]]` table, every one written out.
#[derive(serde::Serialize)]
struct FigureDoc {
    id: crate::Figure,
    per_player: u8,
    role: &'static str,
    strength: u8,
    stands_on: Vec<&'static str>,
    farmer: bool,
    option: Vec<(&'static str, &'static str)>,
    recall: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    joins: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alone: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extended: Option<&'static str>,
    farm_bonus: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    draws: Option<String>,
}

fn figure_doc(rule: &FigureRule) -> FigureDoc {
    let (role, recall, joins, alone, extended, farm_bonus) = match rule.role {
        FigureRole::Follower { recall, .. } => ("follower", recall, None, None, None, false),
        FigureRole::Companion { joins, alone, extended, farm_bonus } => (
            "companion",
            false,
            Some(joins.name()),
            Some(alone.name()),
            extended.map(Extended::name),
            farm_bonus,
        ),
    };
    FigureDoc {
        id: rule.figure,
        per_player: rule.per_player,
        role,
        strength: rule.strength(),
        stands_on: rule.stands_on.iter().map(SegmentKind::name).collect(),
        farmer: rule.farmer,
        option: rule.options.iter().map(|test| (test.name(), test.value_name())).collect(),
        recall,
        joins,
        alone,
        extended,
        farm_bonus,
        draws: rule.draws.clone(),
    }
}

#[derive(serde::Serialize)]
struct TileDoc<'a> {
    id: &'a str,
    name: &'a str,
    count: u16,
    /// Edge kinds in N, E, S, W order.
    edges: [&'static str; 4],
    /// Marks printed on the whole tile.
    marks: Vec<&'a str>,
    segments: Vec<SegmentDoc<'a>>,
}

#[derive(serde::Serialize)]
struct SegmentDoc<'a> {
    index: SegmentIndex,
    kind: &'static str,
    edges: Vec<&'static str>,
    half_edges: Vec<&'static str>,
    marks: Vec<&'a str>,
    /// For a field, the indices of the city segments of the same tile it borders.
    cities: Vec<SegmentIndex>,
}

impl Serialize for Catalog {
    /// The exported form: `format`, `set`, `deck` (start and last as tile ids), `figures`,
    /// `marks`, `rules`, `tokens`, `titles` (each as its table in the tile set format), and
    /// `tiles`, each with `id`, `name`, `count`, `edges` (kinds in N, E, S, W order) and
    /// `segments` (`index`, `kind`, `edges`, `half_edges`, `marks`, and `cities` as segment
    /// indices).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let id_of = |index: &u16| self.tile(*index).map(TileType::id);
        let doc = CatalogDoc {
            format: EXPORT_FORMAT,
            set: SetDoc { id: &self.info.id, name: &self.info.name, edition: self.info.edition },
            deck: DeckDoc {
                start: self.deck.start.as_ref().and_then(id_of),
                stage: self.deck.stage,
                last: self.deck.last.iter().filter_map(id_of).collect(),
                first: self.deck.first.iter().filter_map(id_of).collect(),
            },
            figures: FiguresDoc {
                declared: self.figures.declared.iter().map(figure_doc).collect(),
                colours: &self.figures.colours,
            },
            marks: self.rulebook.marks().iter().map(mark_doc).collect(),
            rules: self
                .rulebook
                .rules()
                .iter()
                .map(|rule| rule_doc(&self.rulebook, rule))
                .collect(),
            tokens: self
                .rulebook
                .tokens()
                .iter()
                .map(|token| TokenDoc {
                    id: &token.id,
                    name: &token.name,
                    from: token
                        .from
                        .iter()
                        .filter_map(|mark| self.rulebook.mark(mark))
                        .map(|info| info.id.as_str())
                        .collect(),
                    taken_by: token.taker.name(),
                    majority: token.majority,
                    glyph: token.glyph.name(),
                    colour: token.colour.name(),
                })
                .collect(),
            titles: self
                .rulebook
                .titles()
                .iter()
                .map(|title| TitleDoc {
                    id: &title.id,
                    name: &title.name,
                    feature: title.feature.name(),
                    per_feature: title.per_feature,
                    holding: title.holding,
                })
                .collect(),
            tiles: self.tiles.iter().map(|tile| tile_doc(tile, &self.rulebook)).collect(),
        };
        doc.serialize(serializer)
    }
}

fn mark_doc(mark: &MarkInfo) -> MarkDoc<'_> {
    MarkDoc {
        id: &mark.id,
        name: &mark.name,
        on: mark.on.iter().map(SegmentKind::name).chain(mark.tile.then_some("tile")).collect(),
        merge: mark.merge.name(),
        complete: mark.complete,
        unfinished: mark.unfinished,
        glyph: mark.glyph.name(),
        colour: mark.colour.name(),
    }
}

fn rule_doc<'a>(book: &'a Rulebook, rule: &'a Rule) -> RuleDoc<'a> {
    let mark_id = |mark: Mark| book.mark(mark).map_or("", |info| info.id.as_str());
    let mut doc = RuleDoc {
        id: &rule.id,
        kind: "value",
        feature: None,
        state: None,
        with: Vec::new(),
        tiles: None,
        option: Vec::new(),
        precedence: 0,
        per_tile: None,
        per_mark: Vec::new(),
        times: None,
        mark: None,
        each: None,
        by: None,
        marks: Vec::new(),
        at_most: None,
        edge: None,
        turns: None,
        figures: Vec::new(),
        reach: None,
        per_city: None,
        tokens: Vec::new(),
        points: None,
    };
    match &rule.effect {
        Effect::Value(value) => {
            doc.feature = Some(value.feature.name());
            doc.state = Some(value.state.name());
            doc.with = value.with.iter().map(mark_id).collect();
            doc.tiles = value.tiles;
            doc.option =
                value.options.iter().map(|test| (test.name(), test.value_name())).collect();
            doc.precedence = value.precedence;
            doc.per_tile = Some(value.per_tile);
            doc.per_mark =
                value.per_mark.iter().map(|(mark, points)| (mark_id(*mark), *points)).collect();
        }
        Effect::Farm(farm) => {
            doc.kind = "farm";
            doc.with = farm.with.iter().map(mark_id).collect();
            doc.precedence = farm.precedence;
            doc.times = Some(farm.times);
        }
        Effect::Neighbours(bonus) => {
            doc.kind = "neighbours";
            doc.feature = Some(bonus.feature.name());
            doc.state = Some(bonus.state.name());
            doc.mark = Some(mark_id(bonus.mark));
            doc.each = Some(bonus.each);
        }
        Effect::TieBreak(tiebreak) => {
            doc.kind = "tiebreak";
            doc.mark = Some(mark_id(tiebreak.mark));
            doc.by = Some(tiebreak.by.name());
        }
        Effect::Occupants(occupants) => {
            doc.kind = "occupants";
            doc.feature = Some(occupants.feature.name());
            doc.figures = occupants.figures.iter().collect();
            doc.reach = (occupants.reach != crate::Reach::ThisSet).then(|| occupants.reach.name());
        }
        Effect::Pig(pig) => {
            doc.kind = "pig";
            doc.per_city = Some(pig.per_city);
        }
        Effect::Bag(bag) => {
            doc.kind = "bag";
            doc.tokens.clone_from(&bag.tokens);
            doc.points = Some(bag.points);
        }
        Effect::Hide(hide) => {
            doc.kind = "hide";
            doc.mark = Some(mark_id(hide.mark));
        }
        Effect::Chain(chain) => {
            doc.kind = "chain";
            doc.edge = Some(chain.edge.name());
            doc.turns = Some(chain.turns.name());
        }
        Effect::Rival(rival) => {
            doc.kind = "rival";
            doc.feature = Some(rival.feature.name());
            doc.marks = rival.marks.iter().map(mark_id).collect();
            doc.at_most = rival.at_most;
        }
    }
    doc
}

fn tile_doc<'a>(tile: &'a TileType, book: &'a Rulebook) -> TileDoc<'a> {
    TileDoc {
        id: tile.id(),
        name: tile.name(),
        count: tile.count(),
        edges: tile.edges().0.map(|kind| kind.name()),
        marks: tile
            .marks()
            .iter()
            .filter_map(|mark| book.mark(mark))
            .map(|m| m.id.as_str())
            .collect(),
        segments: tile
            .segments()
            .iter()
            .zip(0..)
            .map(|(segment, index)| segment_doc(index, segment, book))
            .collect(),
    }
}

fn segment_doc<'a>(index: SegmentIndex, segment: &Segment, book: &'a Rulebook) -> SegmentDoc<'a> {
    SegmentDoc {
        index,
        kind: segment.kind().name(),
        edges: segment.edges().iter().map(Dir::name).collect(),
        half_edges: segment.half_edges().iter().map(|half| half.name()).collect(),
        marks: segment
            .marks()
            .iter()
            .filter_map(|mark| book.mark(mark))
            .map(|m| m.id.as_str())
            .collect(),
        cities: segment.cities().iter().collect(),
    }
}
