//! Names a player reads: players by their colour, segments by where they lie on the tile as
//! it lies on the board ("the city to the east", "the road west to east", "the field to the
//! south-east"), features by such a segment and its cell, which no other feature shares.

use carcassonne::{
    Dir, DirSet, Game, HalfEdge, PlayerId, Pos, Rotation, SegmentIndex, SegmentKind, TileType,
};

/// The colour `player` plays ("red"), or "player 3" where the sets name no colour for it.
pub fn player(game: &Game, player: PlayerId) -> String {
    game.player_colour(player).map_or_else(|| player.to_string(), str::to_owned)
}

/// Segment `segment` of `tile` turned by `rotation`, as a player points at it: "the city to
/// the north", "the road west to east", "the field to the south-east", "the monastery". Two
/// segments of one tile that would read the same are told apart by the sides they touch:
/// "the field to the south, along the east half of the south side"; and, should those be the
/// same too (two meadows touching no side, between the same cities), by their order on the
/// tile: "the second field in the middle".
pub fn segment(tile: &TileType, rotation: Rotation, segment: SegmentIndex) -> String {
    let name = |index: usize| tile.segments().get(index).map(|s| plain_name(s.rotated(rotation)));
    let Some(this) = name(usize::from(segment)) else {
        return format!("segment {segment}");
    };
    let twins: Vec<usize> =
        (0..tile.segments().len()).filter(|index| name(*index).as_ref() == Some(&this)).collect();
    if twins.len() < 2 {
        return this;
    }
    let along = |index: usize| {
        tile.segments().get(index).map(|s| touched_sides(s.rotated(rotation))).unwrap_or_default()
    };
    let mine = along(usize::from(segment));
    let shared: Vec<usize> = twins.iter().copied().filter(|index| along(*index) == mine).collect();
    // Twins the tile's data cannot tell apart at all are named by their order on the tile.
    let nth = || {
        let rank = shared.iter().position(|index| *index == usize::from(segment)).unwrap_or(0);
        let ordinal = ORDINALS.get(rank).map_or_else(|| format!("{}th", rank + 1), |o| (*o).into());
        format!("the {ordinal} {}", this.strip_prefix("the ").unwrap_or(&this))
    };
    match (mine.is_empty(), shared.len()) {
        (false, 1) => format!("{this}, along {mine}"),
        (false, _) => format!("{}, along {mine}", nth()),
        (true, _) => nth(),
    }
}

const ORDINALS: [&str; 8] =
    ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

/// The tile type at `pos` in `game` and how it is turned, if a tile lies there.
pub fn placed(game: &Game, pos: Pos) -> Option<(&TileType, Rotation)> {
    let placed = game.board().get(pos)?;
    Some((game.tile(placed.tile)?, placed.rotation))
}

/// Segment `at` of the tile at `pos` in `game`, as [`segment`] names it ("segment 3" where no
/// tile lies).
pub fn segment_at(game: &Game, pos: Pos, at: SegmentIndex) -> String {
    placed(game, pos)
        .map_or_else(|| format!("segment {at}"), |(tile, rotation)| segment(tile, rotation, at))
}

/// A segment at `pos` in `game`, as [`segment`] names it, with its cell: "the field to the
/// south at (-1, 0)". No two features share a segment, so no two share this label.
pub fn feature(game: &Game, pos: Pos, at: SegmentIndex) -> String {
    format!("{} at {pos}", segment_at(game, pos, at))
}

fn plain_name(segment: carcassonne::Segment) -> String {
    let kind = segment.kind();
    match kind {
        SegmentKind::Monastery | SegmentKind::Garden => format!("the {kind}"),
        SegmentKind::Field => format!("the field {}", field_place(segment.half_edges().iter())),
        SegmentKind::City => format!("the city {}", city_place(segment.edges())),
        SegmentKind::Road | SegmentKind::River => {
            format!("the {kind} {}", path_place(segment.edges()))
        }
    }
}

fn dir_name(dir: Dir) -> &'static str {
    match dir {
        Dir::N => "north",
        Dir::E => "east",
        Dir::S => "south",
        Dir::W => "west",
    }
}

/// "to the north", "north and west", "north, east and west", "on every side".
fn city_place(edges: DirSet) -> String {
    let names: Vec<&str> = edges.iter().map(dir_name).collect();
    match names.as_slice() {
        [] => "in the middle".to_owned(),
        [one] => format!("to the {one}"),
        [first, second] => format!("{first} and {second}"),
        [first, second, third] => format!("{first}, {second} and {third}"),
        _ => "on every side".to_owned(),
    }
}

/// A road or river by its ends: "west to east", "north to south", "south to west" (a
/// curve), "to the south" (one end on this tile), "north, east and west" (a junction piece).
fn path_place(edges: DirSet) -> String {
    let dirs: Vec<Dir> = edges.iter().collect();
    match dirs.as_slice() {
        [one] => format!("to the {}", dir_name(*one)),
        [Dir::E, Dir::W] => "west to east".to_owned(),
        [first, second] => format!("{} to {}", dir_name(*first), dir_name(*second)),
        _ => city_place(edges),
    }
}

/// A field by where its half-edges lie, on average: "to the north-east"; "all around" when
/// they surround the tile, "in the middle" when it touches no edge (between two cities). A
/// field whose half-edges point between a side and a corner (one half-edge alone, say) is
/// named by the side: a field on the east half of the north side lies "to the north".
fn field_place(halves: impl Iterator<Item = HalfEdge>) -> String {
    const OCTANTS: [&str; 8] =
        ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];
    let (mut east, mut north, mut count) = (0.0f64, 0.0f64, 0);
    for half in halves {
        // Clockwise from north, N_w (index 0) at -22.5 degrees.
        let degrees = 45.0 * half as u8 as f64 - 22.5;
        east += degrees.to_radians().sin();
        north += degrees.to_radians().cos();
        count += 1;
    }
    if count == 0 {
        return "in the middle".to_owned();
    }
    if east.hypot(north) < 0.2 * f64::from(count) {
        return "all around".to_owned();
    }
    let degrees = east.atan2(north).to_degrees().rem_euclid(360.0);
    // Octant k spans (k - 0.5) to (k + 0.5) eighths of a turn from north; the sides are the
    // even octants. On a border exactly, the side wins, whichever way rounding fell.
    let eighths = (degrees + 22.5) / 45.0;
    let border = eighths.round();
    let octant = if (eighths - border).abs() < 1e-9 {
        let border = border as usize;
        border - border % 2
    } else {
        eighths.floor() as usize
    };
    format!("to the {}", OCTANTS[octant % 8])
}

/// The sides a segment touches, to tell apart two that read the same: "the north side", "the
/// east half of the south side", "the north half of the east side and the west half of the
/// south side"; empty when it touches none.
fn touched_sides(segment: carcassonne::Segment) -> String {
    let mut parts = Vec::new();
    for dir in [Dir::N, Dir::E, Dir::S, Dir::W] {
        let side = dir_name(dir);
        let halves = HalfEdge::halves(dir);
        let touched: Vec<HalfEdge> = if segment.kind() == SegmentKind::Field {
            halves.into_iter().filter(|half| segment.half_edges().contains(*half)).collect()
        } else if segment.edges().contains(dir) {
            halves.to_vec()
        } else {
            Vec::new()
        };
        match touched.as_slice() {
            [] => {}
            [half] => parts.push(format!("the {} half of the {side} side", half_name(*half))),
            _ => parts.push(format!("the {side} side")),
        }
    }
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Which half of its side a half-edge is: "west" for N_w.
fn half_name(half: HalfEdge) -> &'static str {
    match half {
        HalfEdge::E_n | HalfEdge::W_n => "north",
        HalfEdge::N_e | HalfEdge::S_e => "east",
        HalfEdge::E_s | HalfEdge::W_s => "south",
        HalfEdge::N_w | HalfEdge::S_w => "west",
    }
}

#[cfg(test)]
mod tests {
    use carcassonne::Catalog;

    use super::*;

    fn names(id: &str, rotation: Rotation) -> Vec<String> {
        let base = Catalog::builtin("base").unwrap();
        let (_, tile) = base.tile_by_id(id).unwrap();
        (0..tile.segments().len() as SegmentIndex)
            .map(|index| segment(tile, rotation, index))
            .collect()
    }

    #[test]
    fn segments_are_named_by_where_they_lie() {
        // D, the start tile: city north, road west to east, a field each side of the road.
        assert_eq!(
            names("D", Rotation::R0),
            [
                "the city to the north",
                "the road west to east",
                "the field to the north",
                "the field to the south"
            ]
        );
        // Turned a quarter clockwise, the city faces east.
        assert_eq!(names("D", Rotation::R90)[0], "the city to the east");
        assert_eq!(names("D", Rotation::R90)[1], "the road north to south");
        // X: four roads ending on the tile, four corner fields.
        let x = names("X", Rotation::R0);
        assert_eq!(
            &x[..4],
            [
                "the road to the north",
                "the road to the east",
                "the road to the south",
                "the road to the west"
            ]
        );
        assert_eq!(
            &x[4..],
            [
                "the field to the north-east",
                "the field to the south-east",
                "the field to the south-west",
                "the field to the north-west"
            ]
            .map(String::from)
        );
        // B: a monastery in a field all around it; V: a curve and its two fields.
        assert_eq!(names("B", Rotation::R0), ["the monastery", "the field all around"]);
        assert_eq!(
            names("V", Rotation::R0),
            [
                "the road south to west",
                "the field to the north-east",
                "the field to the south-west"
            ]
        );
        // M: a city north and west with its field.
        assert_eq!(names("M", Rotation::R0)[0], "the city north and west");
    }

    #[test]
    fn a_tiles_names_are_distinct_without_numbers() {
        for set in carcassonne::BUILTIN_NAMES {
            let catalog = Catalog::builtin(set).unwrap();
            for tile in catalog.tiles() {
                for rotation in Rotation::ALL {
                    let names: Vec<String> = (0..tile.segments().len() as SegmentIndex)
                        .map(|index| segment(tile, rotation, index))
                        .collect();
                    let mut sorted = names.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted.len(), names.len(), "{set} {}: {names:?}", tile.id());
                    // The sides tell every built-in twin apart; a number means nothing to a
                    // player.
                    assert!(
                        names.iter().all(|name| !name.contains("segment")),
                        "{set} {} {rotation}: {names:?}",
                        tile.id()
                    );
                }
            }
        }
    }

    #[test]
    fn twins_are_told_apart_by_the_sides_they_touch() {
        // O: a city north and west, a road curving east to south, a field each side of the
        // curve, both to the south-east.
        assert_eq!(
            names("O", Rotation::R0)[2..],
            [
                "the field to the south-east, along the north half of the east side and the \
                 west half of the south side",
                "the field to the south-east, along the south half of the east side and the \
                 east half of the south side"
            ]
        );
        // S: a road ending south, a field each side of it, each on one half of that side,
        // named by the side whichever way the tile is turned.
        for (rotation, side) in Rotation::ALL.into_iter().zip(["south", "west", "north", "east"]) {
            let fields = &names("S", rotation)[2..];
            assert!(
                fields.iter().all(|name| name.starts_with(&format!("the field to the {side}, "))),
                "{rotation}: {fields:?}"
            );
        }
        assert_eq!(
            names("S", Rotation::R0)[2..],
            [
                "the field to the south, along the east half of the south side",
                "the field to the south, along the west half of the south side"
            ]
        );
    }
}
