//! What clients see, built from the engine's player view: tiles, players and the game state
//! in part 1's shapes, with 1.1's additions beside them. Nothing here reads the bag's order:
//! every function takes a `PlayerView` or tile data.

use carcassonne::{
    Dir, EdgeKind, Figure, Game, HalfEdge, Mark, PlayerView, Rotation, SegmentKind, TileType,
};
use serde_json::{Map, Value, json};

/// A seat as the room knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub player_id: String,
    pub name: String,
    pub color: String,
    pub is_bot: bool,
    pub connected: bool,
}

fn side_name(dir: Dir) -> &'static str {
    match dir {
        Dir::N => "NORTH",
        Dir::E => "EAST",
        Dir::S => "SOUTH",
        Dir::W => "WEST",
    }
}

fn edge_name(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::City => "CITY",
        EdgeKind::Road => "ROAD",
        EdgeKind::Field => "FIELD",
        EdgeKind::River => "RIVER",
    }
}

fn segment_name(kind: SegmentKind) -> &'static str {
    match kind {
        SegmentKind::City => "CITY",
        SegmentKind::Road => "ROAD",
        SegmentKind::Field => "FIELD",
        SegmentKind::Monastery => "MONASTERY",
        SegmentKind::Garden => "GARDEN",
        SegmentKind::River => "RIVER",
    }
}

/// Part 1's Tile: the unrotated tile type (its `rotation` travels beside it), every feature
/// with the sides it reaches and its `id` (the segment index `PLACE_MEEPLE` names). 1.1 adds
/// `name`, the fields' `halfEdges`, and each feature's `marks`.
pub fn tile(tile: &TileType) -> Value {
    let features: Vec<Value> = tile
        .segments()
        .iter()
        .enumerate()
        .map(|(index, segment)| {
            let sides: Vec<&str> = Dir::ALL
                .into_iter()
                .filter(|dir| {
                    segment.edges().contains(*dir)
                        || HalfEdge::halves(*dir)
                            .iter()
                            .any(|half| segment.half_edges().contains(*half))
                })
                .map(side_name)
                .collect();
            let halves: Vec<&str> = HalfEdge::ALL
                .into_iter()
                .filter(|half| segment.half_edges().contains(*half))
                .map(HalfEdge::name)
                .collect();
            let marks: Vec<&str> = segment.marks().iter().map(Mark::name).collect();
            json!({
                "type": segment_name(segment.kind()),
                "edges": sides,
                "id": index,
                "halfEdges": halves,
                "marks": marks,
            })
        })
        .collect();
    let edges = tile.edges();
    json!({
        "id": tile.id(),
        "name": tile.name(),
        "north": edge_name(edges[Dir::N]),
        "east": edge_name(edges[Dir::E]),
        "south": edge_name(edges[Dir::S]),
        "west": edge_name(edges[Dir::W]),
        "features": features,
        "hasMonastery": tile.count_segments(SegmentKind::Monastery) > 0,
        "hasShield": tile.count_marks(Mark::Pennant) > 0,
    })
}

/// A figure's name in messages.
pub fn figure_name(figure: Figure) -> &'static str {
    match figure {
        Figure::Follower => "follower",
        Figure::BigFollower => "big_follower",
        Figure::Abbot => "abbot",
    }
}

/// The figure a name gives; a follower when none is named.
pub fn figure_of(name: Option<&str>) -> Figure {
    match name {
        Some("big_follower") => Figure::BigFollower,
        Some("abbot") => Figure::Abbot,
        _ => Figure::Follower,
    }
}

/// Part 1's Player, with 1.1's `seat`, `bigFollowers`, `abbots` and `connected`.
pub fn player(view: &PlayerView, seat: usize, member: &Seat) -> Value {
    let supply = view.supplies.get(seat).copied().unwrap_or_default();
    json!({
        "id": member.player_id,
        "name": member.name,
        "color": member.color,
        "meeples": supply.followers,
        "score": view.scores.get(seat).copied().unwrap_or(0),
        "isBot": member.is_bot,
        "seat": seat,
        "bigFollowers": supply.big_followers,
        "abbots": supply.abbots,
        "connected": member.connected || member.is_bot,
    })
}

/// Players of a room before its game: no scores yet.
pub fn waiting_player(member: &Seat, seat: usize, followers: u8) -> Value {
    json!({
        "id": member.player_id,
        "name": member.name,
        "color": member.color,
        "meeples": followers,
        "score": 0,
        "isBot": member.is_bot,
        "seat": seat,
        "connected": member.connected || member.is_bot,
    })
}

/// `{x, y}`.
pub fn position(x: i16, y: i16) -> Value {
    json!({ "x": x, "y": y })
}

/// Part 1's GameState from the player view: every tile with its figures, the current tile,
/// players, scores, tiles left; 1.1 adds `remaining` (tile counts by type, never the order),
/// `phase` and `lastPlaced`.
pub fn game_state(game: &Game, view: &PlayerView, seats: &[Seat]) -> Value {
    let mut tiles = Map::new();
    for placed in &view.tiles {
        let Some(tile_type) = game.tile(placed.tile) else { continue };
        let meeples: Vec<Value> = view
            .figures
            .iter()
            .filter(|figure| figure.pos == placed.pos)
            .map(|figure| {
                json!({
                    "playerId": seats.get(figure.player.index()).map(|seat| seat.player_id.as_str()),
                    "featureId": figure.segment,
                    "figure": figure_name(figure.figure),
                })
            })
            .collect();
        tiles.insert(
            format!("{},{}", placed.pos.x, placed.pos.y),
            json!({
                "tile": tile(tile_type),
                "position": position(placed.pos.x, placed.pos.y),
                "rotation": placed.rotation.degrees(),
                "meeples": meeples,
            }),
        );
    }
    let current_tile = current_tile(game, view);
    let players: Vec<Value> =
        seats.iter().enumerate().map(|(index, member)| player(view, index, member)).collect();
    let scores: Map<String, Value> = seats
        .iter()
        .enumerate()
        .map(|(index, member)| {
            (member.player_id.clone(), json!(view.scores.get(index).copied().unwrap_or(0)))
        })
        .collect();
    let remaining: Map<String, Value> = view
        .remaining
        .iter()
        .enumerate()
        .filter(|(_, count)| **count > 0)
        .filter_map(|(index, count)| {
            game.tile(index as u16).map(|tile| (tile.id().to_owned(), json!(count)))
        })
        .collect();
    let over = matches!(view.phase, carcassonne::Phase::GameOver);
    let last = view.tiles.last().filter(|_| view.tiles.len() > 1);
    json!({
        "tiles": tiles,
        "currentTile": current_tile,
        "players": players,
        "currentPlayer": seats.get(view.current_player.index()).map(|seat| seat.player_id.as_str()),
        "gameStarted": true,
        "gameEnded": over,
        "scores": scores,
        "tilesLeft": view.tiles_left,
        "remaining": remaining,
        "phase": phase_name(view.phase),
        "lastPlaced": last.map(|placed| json!({
            "position": position(placed.pos.x, placed.pos.y),
            "rotation": placed.rotation.degrees(),
        })),
    })
}

/// The tile waiting to be placed, or the one just placed while its figure is chosen.
pub fn current_tile(game: &Game, view: &PlayerView) -> Value {
    let index = match view.phase {
        carcassonne::Phase::Place { tile } => Some(tile),
        carcassonne::Phase::Figure { pos } => game.board().get(pos).map(|placed| placed.tile),
        _ => None,
    };
    index.and_then(|index| game.tile(index)).map_or(Value::Null, tile)
}

fn phase_name(phase: carcassonne::Phase) -> &'static str {
    match phase {
        carcassonne::Phase::Draw => "draw",
        carcassonne::Phase::Place { .. } => "place",
        carcassonne::Phase::Figure { .. } => "figure",
        carcassonne::Phase::GameOver => "game_over",
    }
}

/// The legal placements of the drawn tile: `[{position, rotation}]`.
pub fn valid_placements(game: &Game) -> Vec<Value> {
    game.legal_actions()
        .into_iter()
        .filter_map(|action| match action {
            carcassonne::Action::Place { pos, rotation } => {
                Some(json!({ "position": position(pos.x, pos.y), "rotation": rotation.degrees() }))
            }
            _ => None,
        })
        .collect()
}

/// The figure actions open after a placement: `[{featureId, figure}]`.
pub fn meeple_options(game: &Game) -> Vec<Value> {
    game.legal_actions()
        .into_iter()
        .filter_map(|action| match action {
            carcassonne::Action::Deploy { segment, figure } => {
                Some(json!({ "featureId": segment, "figure": figure_name(figure) }))
            }
            _ => None,
        })
        .collect()
}

/// A rotation from degrees (already checked to be a multiple of 90).
pub fn rotation(degrees: u16) -> Rotation {
    Rotation::ALL[usize::from(degrees / 90) % 4]
}
