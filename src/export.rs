//! The catalog as plain data (serde `Serialize`), for `tileset export --format json` and any
//! program that wants the tiles without parsing TOML.

use alloc::vec::Vec;

use serde::ser::{Serialize, Serializer};

use crate::catalog::Catalog;
use crate::geom::Dir;
use crate::segment::{Segment, SegmentIndex};
use crate::tile::TileType;

/// The schema version of the exported form; raised whenever a key changes meaning.
pub const EXPORT_FORMAT: u32 = 1;

#[derive(serde::Serialize)]
struct CatalogDoc<'a> {
    format: u32,
    set: SetDoc<'a>,
    deck: DeckDoc<'a>,
    figures: FiguresDoc<'a>,
    tiles: Vec<TileDoc<'a>>,
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
}

#[derive(serde::Serialize)]
struct FiguresDoc<'a> {
    followers: u8,
    big_followers: u8,
    colours: &'a [alloc::string::String],
}

#[derive(serde::Serialize)]
struct TileDoc<'a> {
    id: &'a str,
    name: &'a str,
    count: u16,
    /// Edge kinds in N, E, S, W order.
    edges: [&'static str; 4],
    segments: Vec<SegmentDoc>,
}

#[derive(serde::Serialize)]
struct SegmentDoc {
    index: SegmentIndex,
    kind: &'static str,
    edges: Vec<&'static str>,
    half_edges: Vec<&'static str>,
    marks: Vec<&'static str>,
    /// For a field, the indices of the city segments of the same tile it borders.
    cities: Vec<SegmentIndex>,
}

impl Serialize for Catalog {
    /// The exported form: `format`, `set`, `deck` (start and last as tile ids), `figures`,
    /// and `tiles`, each with `id`, `name`, `count`, `edges` (kinds in N, E, S, W order) and
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
            },
            figures: FiguresDoc {
                followers: self.figures.followers,
                big_followers: self.figures.big_followers,
                colours: &self.figures.colours,
            },
            tiles: self.tiles.iter().map(tile_doc).collect(),
        };
        doc.serialize(serializer)
    }
}

fn tile_doc(tile: &TileType) -> TileDoc<'_> {
    TileDoc {
        id: tile.id(),
        name: tile.name(),
        count: tile.count(),
        edges: tile.edges().0.map(|kind| kind.name()),
        segments: tile
            .segments()
            .iter()
            .zip(0..)
            .map(|(segment, index)| segment_doc(index, segment))
            .collect(),
    }
}

fn segment_doc(index: SegmentIndex, segment: &Segment) -> SegmentDoc {
    SegmentDoc {
        index,
        kind: segment.kind().name(),
        edges: segment.edges().iter().map(Dir::name).collect(),
        half_edges: segment.half_edges().iter().map(|half| half.name()).collect(),
        marks: segment.marks().iter().map(|mark| mark.name()).collect(),
        cities: segment.cities().iter().collect(),
    }
}
