//! What clients see, built from the engine's player view: tiles, players and the game state
//! in part 1's shapes, with 1.1's additions beside them. Nothing here reads the bag's order:
//! every function takes a `PlayerView` or tile data.

use carcassonne::{
    Dir, EdgeKind, Figure, Game, HalfEdge, MarkInfo, PlayerView, Rotation, SegmentKind, Supply,
    TileType,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use serde_json::value::RawValue;
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

/// A feature of a Tile: part 1's `{type, edges, id}`, and 1.1's `halfEdges` and `marks`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureShape {
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The sides it reaches (`NORTH`, …).
    pub edges: Vec<&'static str>,
    /// The segment's index: what `PLACE_MEEPLE.featureId` names.
    pub id: usize,
    pub half_edges: Vec<&'static str>,
    pub marks: Vec<String>,
}

/// Part 1's Tile: the unrotated tile type (its `rotation` travels beside it), every feature
/// with the sides it reaches and its `id`; 1.1 adds `name`, the fields' `halfEdges`, and
/// each feature's `marks`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TileShape {
    pub id: String,
    pub name: String,
    pub north: &'static str,
    pub east: &'static str,
    pub south: &'static str,
    pub west: &'static str,
    pub features: Vec<FeatureShape>,
    pub has_monastery: bool,
    pub has_shield: bool,
}

/// The Tile of a tile type.
/// `marks` are the declarations the tile's mark numbers index (its game's or its set's).
pub fn tile(tile: &TileType, marks: &[MarkInfo]) -> TileShape {
    let features = tile
        .segments()
        .iter()
        .enumerate()
        .map(|(index, segment)| FeatureShape {
            kind: segment_name(segment.kind()),
            edges: Dir::ALL
                .into_iter()
                .filter(|dir| {
                    segment.edges().contains(*dir)
                        || HalfEdge::halves(*dir)
                            .iter()
                            .any(|half| segment.half_edges().contains(*half))
                })
                .map(side_name)
                .collect(),
            id: index,
            half_edges: HalfEdge::ALL
                .into_iter()
                .filter(|half| segment.half_edges().contains(*half))
                .map(HalfEdge::name)
                .collect(),
            marks: segment
                .marks()
                .iter()
                .filter_map(|mark| marks.get(mark.index()))
                .map(|info| info.id.clone())
                .collect(),
        })
        .collect();
    let edges = tile.edges();
    TileShape {
        id: tile.id().to_owned(),
        name: tile.name().to_owned(),
        north: edge_name(edges[Dir::N]),
        east: edge_name(edges[Dir::E]),
        south: edge_name(edges[Dir::S]),
        west: edge_name(edges[Dir::W]),
        features,
        has_monastery: tile.count_segments(SegmentKind::Monastery) > 0,
        // Part 1's shield is the pennant, whichever set declares it.
        has_shield: tile.segments().iter().any(|segment| {
            segment
                .marks()
                .iter()
                .any(|mark| marks.get(mark.index()).is_some_and(|m| m.id == "pennant"))
        }),
    }
}

/// Part 1's Player `{id, name, color, meeples, score, isBot}`, with 1.1's `seat`,
/// `bigFollowers`, `abbots` and `connected`: the one shape of a player in every message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerOut {
    pub id: String,
    pub name: String,
    pub color: String,
    /// Followers in hand.
    pub meeples: u8,
    pub score: u32,
    pub is_bot: bool,
    pub seat: usize,
    pub big_followers: u8,
    pub abbots: u8,
    pub connected: bool,
    /// 1.1: tokens held, by the id of each kind the game's sets declare (Traders & Builders'
    /// goods); left out where no set declares tokens.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub tokens: Map<String, Value>,
    /// 1.1: the ids of the titles the player holds (King & Robber Baron's `king`,
    /// `robber_baron`); left out when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub titles: Vec<String>,
    /// 1.1: builders in hand (Traders & Builders); left out where no set in play brings one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub builders: Option<u8>,
    /// 1.1: pigs in hand, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pigs: Option<u8>,
    /// 1.1: shepherds in hand (Hills & Sheep), likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shepherds: Option<u8>,
    /// 1.1: the figures in hand that no built-in set brings (an author's set's own), by id;
    /// left out when the game has none.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub figures: Map<String, Value>,
}

/// The Player of `member` in seat `seat`, with `supply` in hand and `score`; the special
/// figures named where the supply holds any (before the game: where the sets bring them).
pub fn player_out(member: &Seat, seat: usize, supply: &Supply, score: u32) -> PlayerOut {
    let count = |figure| supply.count(figure);
    let some = |figure| (count(figure) > 0).then_some(count(figure));
    PlayerOut {
        id: member.player_id.clone(),
        name: member.name.clone(),
        color: member.color.clone(),
        meeples: count(Figure::FOLLOWER),
        score,
        is_bot: member.is_bot,
        seat,
        big_followers: count(Figure::BIG_FOLLOWER),
        abbots: count(Figure::ABBOT),
        connected: member.connected || member.is_bot,
        tokens: Map::new(),
        titles: Vec::new(),
        builders: some(Figure::BUILDER),
        pigs: some(Figure::PIG),
        shepherds: some(Figure::SHEPHERD),
        figures: supply
            .iter()
            .filter(|(figure, _)| !Figure::PUBLISHED.contains(figure))
            .map(|(figure, count)| (figure.id().to_owned(), Value::from(count)))
            .collect(),
    }
}

/// Whether players of `game` have `figure`, by its sets and options.
fn brings(game: &Game, figure: carcassonne::Figure) -> bool {
    game.figure_rule(figure).is_some_and(|rule| rule.per_player > 0)
}

/// The Player of seat `seat` in `game`, from its player view.
pub fn player(game: &Game, view: &PlayerView, seat: usize, member: &Seat) -> PlayerOut {
    let supply = view.supplies.get(seat).cloned().unwrap_or_default();
    let mut out = player_out(member, seat, &supply, view.scores.get(seat).copied().unwrap_or(0));
    if let Some(held) = view.tokens.get(seat) {
        out.tokens = game
            .tokens()
            .iter()
            .zip(held)
            .map(|(token, count)| (token.id.clone(), Value::from(*count)))
            .collect();
    }
    out.titles = game
        .titles()
        .iter()
        .zip(&view.titles)
        .filter(|(_, standing)| standing.holder.map(|player| player.index()) == Some(seat))
        .map(|(title, _)| title.id.clone())
        .collect();
    let named = |figure| brings(game, figure).then_some(supply.count(figure));
    out.builders = named(Figure::BUILDER);
    out.pigs = named(Figure::PIG);
    out.shepherds = named(Figure::SHEPHERD);
    out
}

/// The flock's bag as messages give it (1.1): `{sheep: {"1": n, ...}, wolves, tokens}`, the
/// counts of tokens by the sheep they show (kinds with none left out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SheepBagOut {
    sheep: Map<String, Value>,
    wolves: u8,
    tokens: u32,
}

/// What the game's bags hold as messages give it: kept tokens by their worth (the sheep
/// they show) and the tokens that send home (the wolves).
pub fn sheep_bag(game: &Game) -> SheepBagOut {
    let bag = game.bag();
    let (sheep, wolves) = bag.by_worth(game.bag_kinds());
    SheepBagOut { sheep: sheep_counts(&sheep), wolves, tokens: bag.total() }
}

/// Token counts by the sheep they show, `{"1": n, ...}`, kinds with none left out.
fn sheep_counts(counts: &[u8]) -> Map<String, Value> {
    counts
        .iter()
        .zip(1..)
        .filter(|(count, _)| **count > 0)
        .map(|(count, sheep): (&u8, u32)| (sheep.to_string(), Value::from(*count)))
        .collect()
}

/// A shepherd's flock in a game state (1.1).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FlockOut<'a> {
    player_id: Option<&'a str>,
    position: Position,
    feature_id: u8,
    sheep: u32,
    tokens: Map<String, Value>,
}

/// A Position `{x, y}`: x grows east, y north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    pub x: i16,
    pub y: i16,
}

/// `{x, y}`.
pub fn position(x: i16, y: i16) -> Position {
    Position { x, y }
}

/// A placement `{position, rotation}` (rotation clockwise in degrees).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub position: Position,
    pub rotation: u16,
}

/// A figure choice `{featureId, figure}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeepleOption {
    pub feature_id: u8,
    pub figure: Figure,
}

/// Every tile type of a game as its Tile JSON, indexed as the game's tiles.
pub type TileJson = Arc<[Box<RawValue>]>;

/// Every tile type of the game as its Tile JSON, serialised once for all games on the same
/// tile sets: a game state repeats a board's tiles every turn, and serialising them anew each
/// time was most of the server's work.
pub fn tile_json(game: &Game) -> TileJson {
    static CACHE: OnceLock<Mutex<HashMap<Vec<String>, TileJson>>> = OnceLock::new();
    let key: Vec<String> =
        game.catalogs().iter().map(|catalog| catalog.info().id.clone()).collect();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(cache) = cache.lock()
        && let Some(found) = cache.get(&key)
    {
        return Arc::clone(found);
    }
    let built: TileJson = game
        .tiles()
        .iter()
        .map(|tile_type| {
            serde_json::value::to_raw_value(&tile(tile_type, game.marks()))
                .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
        })
        .collect();
    if let Ok(mut cache) = cache.lock() {
        cache.insert(key, Arc::clone(&built));
    }
    built
}

/// A figure on a tile in a game state.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MeepleOut<'a> {
    player_id: Option<&'a str>,
    feature_id: u8,
    figure: Figure,
}

/// A tile on the board in a game state.
#[derive(Serialize)]
struct TileOut<'a> {
    tile: &'a RawValue,
    position: Position,
    rotation: u16,
    meeples: Vec<MeepleOut<'a>>,
}

/// The board's tiles keyed by "x,y".
struct TilesOut<'a>(Vec<(String, TileOut<'a>)>);

impl Serialize for TilesOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, tile) in &self.0 {
            map.serialize_entry(key, tile)?;
        }
        map.end()
    }
}

/// Part 1's GameState.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameStateOut<'a> {
    tiles: TilesOut<'a>,
    current_tile: Option<&'a RawValue>,
    players: Vec<PlayerOut>,
    current_player: Option<&'a str>,
    game_started: bool,
    game_ended: bool,
    scores: Map<String, Value>,
    tiles_left: u32,
    remaining: Map<String, Value>,
    phase: &'static str,
    last_placed: Option<Placement>,
    /// 1.1: the shepherds' flocks; left out when none stands.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    flocks: Vec<FlockOut<'a>>,
    /// 1.1: the flock's bag; left out where no set in play has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    sheep_bag: Option<SheepBagOut>,
    /// 1.1: tiles hidden under hills, counted in `remaining` and never drawn; left out at 0.
    #[serde(skip_serializing_if = "is_zero")]
    hidden_tiles: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(count: &u32) -> bool {
    *count == 0
}

/// Part 1's GameState from the player view, serialised: every tile with its figures, the
/// current tile, players, scores, tiles left; 1.1 adds `remaining` (tile counts by type,
/// never the order), `phase` and `lastPlaced`.
pub fn game_state(
    game: &Game,
    view: &PlayerView,
    seats: &[Seat],
    tiles: &[Box<RawValue>],
) -> Box<RawValue> {
    let player_id = |player: carcassonne::PlayerId| {
        seats.get(player.index()).map(|seat| seat.player_id.as_str())
    };
    let board = view
        .tiles
        .iter()
        .filter_map(|placed| {
            let tile = tiles.get(usize::from(placed.tile))?;
            let meeples = view
                .figures
                .iter()
                .filter(|figure| figure.pos == placed.pos)
                .map(|figure| MeepleOut {
                    player_id: player_id(figure.player),
                    feature_id: figure.segment,
                    figure: figure.figure,
                })
                .collect();
            Some((
                format!("{},{}", placed.pos.x, placed.pos.y),
                TileOut {
                    tile,
                    position: position(placed.pos.x, placed.pos.y),
                    rotation: placed.rotation.degrees(),
                    meeples,
                },
            ))
        })
        .collect();
    let current = tile_in_play(game, view);
    let last = view.tiles.last().filter(|_| view.tiles.len() > 1);
    let out = GameStateOut {
        tiles: TilesOut(board),
        current_tile: current.and_then(|index| tiles.get(usize::from(index))).map(AsRef::as_ref),
        players: seats
            .iter()
            .enumerate()
            .map(|(index, member)| player(game, view, index, member))
            .collect(),
        current_player: player_id(view.current_player),
        game_started: true,
        game_ended: matches!(view.phase, carcassonne::Phase::GameOver),
        scores: seats
            .iter()
            .enumerate()
            .map(|(index, member)| {
                (member.player_id.clone(), json!(view.scores.get(index).copied().unwrap_or(0)))
            })
            .collect(),
        tiles_left: view.tiles_left,
        remaining: view
            .remaining
            .iter()
            .enumerate()
            .filter(|(_, count)| **count > 0)
            .filter_map(|(index, count)| {
                game.tile(index as u16).map(|tile| (tile.id().to_owned(), json!(count)))
            })
            .collect(),
        phase: phase_name(view.phase),
        last_placed: last.map(|placed| Placement {
            position: position(placed.pos.x, placed.pos.y),
            rotation: placed.rotation.degrees(),
        }),
        flocks: view
            .hoards
            .iter()
            .map(|flock| FlockOut {
                player_id: player_id(flock.player),
                position: position(flock.pos.x, flock.pos.y),
                feature_id: flock.segment,
                sheep: flock.worth,
                tokens: sheep_counts(&flock.tokens.by_worth(game.bag_kinds()).0),
            })
            .collect(),
        sheep_bag: (!game.bag_kinds().is_empty()).then(|| sheep_bag(game)),
        hidden_tiles: view.hidden_tiles,
    };
    raw(&out)
}

/// `value` serialised once, to be embedded as it is.
pub fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

/// The tile type waiting to be placed, or the one just placed while its figure is chosen.
fn tile_in_play(game: &Game, view: &PlayerView) -> Option<u16> {
    match view.phase {
        carcassonne::Phase::Place { tile } => Some(tile),
        carcassonne::Phase::Figure { pos } => game.board().get(pos).map(|placed| placed.tile),
        _ => None,
    }
}

/// The tile waiting to be placed, or the one just placed while its figure is chosen.
pub fn current_tile(game: &Game, view: &PlayerView) -> Option<TileShape> {
    tile_in_play(game, view)
        .and_then(|index| game.tile(index))
        .map(|shape| tile(shape, game.marks()))
}

fn phase_name(phase: carcassonne::Phase) -> &'static str {
    match phase {
        carcassonne::Phase::Draw => "draw",
        carcassonne::Phase::Place { .. } => "place",
        carcassonne::Phase::Figure { .. } => "figure",
        carcassonne::Phase::Sheep { .. } => "sheep",
        carcassonne::Phase::Flock { .. } => "flock",
        carcassonne::Phase::GameOver => "game_over",
    }
}

/// The legal placements of the drawn tile: `[{position, rotation}]`.
pub fn valid_placements(game: &Game) -> Vec<Placement> {
    game.legal_actions()
        .into_iter()
        .filter_map(|action| match action {
            carcassonne::Action::Place { pos, rotation } => {
                Some(Placement { position: position(pos.x, pos.y), rotation: rotation.degrees() })
            }
            _ => None,
        })
        .collect()
}

/// The figure actions open after a placement: `[{featureId, figure}]`.
pub fn meeple_options(game: &Game) -> Vec<MeepleOption> {
    game.legal_actions()
        .into_iter()
        .filter_map(|action| match action {
            carcassonne::Action::Deploy { segment, figure } => {
                Some(MeepleOption { feature_id: segment, figure })
            }
            _ => None,
        })
        .collect()
}

/// The abbots the player may recall instead of placing a figure: their tiles' positions.
pub fn abbot_recalls(game: &Game) -> Vec<Position> {
    game.legal_actions()
        .into_iter()
        .filter_map(|action| match action {
            carcassonne::Action::RecallAbbot { pos } => Some(position(pos.x, pos.y)),
            _ => None,
        })
        .collect()
}

/// A rotation from degrees (already checked to be a multiple of 90).
pub fn rotation(degrees: u16) -> Rotation {
    Rotation::ALL[usize::from(degrees / 90) % 4]
}

/// The engine's events as the protocol writes them (docs/protocol.md, 1.1): each as the
/// engine's JSON, but a `feature_scored` event's mark counts named by the marks' ids
/// (`marks`), the rule that set its value named by its id (`modifier`, `none` for the plain
/// value: the built-in sets' rule ids are part 1.1's modifier names), and `pennants` kept for
/// clients of part 1.1 (the count of the mark called `pennant`); a `tokens_taken` or
/// `tokens_scored` event's kind named by its id (`token`), and a `title_taken` or
/// `title_scored` event's title likewise (`title`).
pub struct EventsOut<'a> {
    /// The game the events happened in: what their numbers index.
    pub game: &'a Game,
    /// The events, in order.
    pub events: &'a [carcassonne::Event],
}

impl serde::Serialize for EventsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let mut seq = serializer.serialize_seq(Some(self.events.len()))?;
        for event in self.events {
            let mut value = serde_json::to_value(event).map_err(S::Error::custom)?;
            if let (carcassonne::Event::FeatureScored(score), Some(fields)) =
                (event, value.as_object_mut())
            {
                let marks = self.game.marks();
                let named: serde_json::Map<String, serde_json::Value> = score
                    .marks
                    .iter()
                    .filter_map(|(mark, count)| {
                        Some((marks.get(mark.index())?.id.clone(), count.into()))
                    })
                    .collect();
                let pennants = score.marks.count_of(marks, "pennant");
                let rule = score
                    .rule
                    .and_then(|rule| self.game.rules().get(rule.index()))
                    .map_or("none", |rule| rule.id.as_str());
                fields.remove("rule");
                fields.insert("marks".into(), named.into());
                fields.insert("pennants".into(), pennants.into());
                fields.insert("modifier".into(), rule.into());
            }
            if let (
                carcassonne::Event::TokensTaken { token, .. }
                | carcassonne::Event::TokensScored { token, .. },
                Some(fields),
            ) = (event, value.as_object_mut())
                && let Some(info) = self.game.tokens().get(token.index())
            {
                fields.insert("token".into(), info.id.clone().into());
            }
            if let (
                carcassonne::Event::TitleTaken { title, .. }
                | carcassonne::Event::TitleScored { title, .. },
                Some(fields),
            ) = (event, value.as_object_mut())
                && let Some(info) = self.game.titles().get(title.index())
            {
                fields.insert("title".into(), info.id.clone().into());
            }
            if let (carcassonne::Event::TokenDrawn { drawn, .. }, Some(fields)) =
                (event, value.as_object_mut())
            {
                token_drawn(self.game, *drawn, fields);
            }
            seq.serialize_element(&value)?;
        }
        seq.end()
    }
}

/// A token drawn from a bag as part 1.1 writes it, by what the token does: `sheep_drawn`
/// with the `sheep` a kept token counts (its worth), or `wolf_drawn` for one that sends the
/// figure home; with the token's id (`token`) and its bag's (`bag`).
fn token_drawn(
    game: &Game,
    drawn: carcassonne::BagToken,
    fields: &mut serde_json::Map<String, serde_json::Value>,
) {
    let kind = game.bag_kind(drawn);
    fields.remove("drawn");
    fields.insert("token".into(), drawn.id().into());
    if let Some(kind) = kind {
        fields.insert("bag".into(), kind.bag_id.clone().into());
    }
    match kind.map(|kind| kind.rule) {
        Some(rule) if rule.then == carcassonne::Drawn::Keep => {
            fields.insert("event".into(), "sheep_drawn".into());
            fields.insert("sheep".into(), rule.worth.into());
        }
        _ => {
            fields.insert("event".into(), "wolf_drawn".into());
        }
    }
}

#[cfg(test)]
mod tests {
    use carcassonne::{Catalog, Event, Game, GameSetup, MarkCounts};

    use super::EventsOut;

    /// A score event names its marks and rule by the ids the sets declare, and keeps part
    /// 1.1's `pennants` and `modifier`.
    #[test]
    fn score_events_name_marks_and_rules_by_id() {
        let sets = ["base", "inns_and_cathedrals"].map(|name| Catalog::builtin(name).unwrap());
        let game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let at = |id: &str| game.marks().iter().position(|mark| mark.id == id).unwrap();
        let cathedral = game.rules().iter().position(|rule| rule.id == "cathedral").unwrap();
        let mut marks = MarkCounts::default();
        marks.0[at("pennant")] = 2;
        marks.0[at("cathedral")] = 1;
        let score = carcassonne::FeatureScore {
            kind: carcassonne::SegmentKind::City,
            pos: carcassonne::Pos::ORIGIN,
            segment: 0,
            reason: carcassonne::ScoreReason::Completed,
            complete: true,
            tiles: 4,
            marks,
            cities: 0,
            rule: Some(carcassonne::RuleId(cathedral as u8)),
            farmers: false,
            points: 18,
            scorers: carcassonne::PlayerSet::EMPTY,
        };
        let plain = carcassonne::FeatureScore { rule: None, marks: MarkCounts::default(), ..score };
        let events = [Event::FeatureScored(score), Event::FeatureScored(plain)];
        let json = serde_json::to_value(EventsOut { game: &game, events: &events }).unwrap();
        assert_eq!(json[0]["marks"], serde_json::json!({ "pennant": 2, "cathedral": 1 }));
        assert_eq!(
            (json[0]["pennants"].clone(), json[0]["modifier"].clone()),
            (2.into(), "cathedral".into())
        );
        assert_eq!(
            (json[1]["pennants"].clone(), json[1]["modifier"].clone()),
            (0.into(), "none".into())
        );
        assert!(json[0].get("rule").is_none(), "the rule travels by its id, as `modifier`");
    }

    /// Token events name their kind by the id the sets declare.
    #[test]
    fn token_events_name_their_kind_by_id() {
        let sets = ["base", "traders_and_builders"].map(|name| Catalog::builtin(name).unwrap());
        let game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let grain = game.tokens().iter().position(|token| token.id == "grain").unwrap();
        let token = carcassonne::TokenId(grain as u8);
        let events = [
            Event::TokensTaken {
                player: carcassonne::PlayerId(1),
                token,
                count: 2,
                pos: carcassonne::Pos::ORIGIN,
                segment: 0,
            },
            Event::TokensScored {
                token,
                held: 2,
                points: 10,
                scorers: carcassonne::PlayerSet::EMPTY.with(carcassonne::PlayerId(1)),
            },
        ];
        let json = serde_json::to_value(EventsOut { game: &game, events: &events }).unwrap();
        assert_eq!(json[0]["event"], "tokens_taken");
        assert_eq!(
            (json[0]["token"].clone(), json[0]["count"].clone()),
            ("grain".into(), 2.into())
        );
        assert_eq!(json[1]["token"], "grain");
        assert_eq!(json[1]["scorers"], serde_json::json!([1]));
    }

    /// A bag token drawn keeps part 1.1's `sheep_drawn` and `wolf_drawn`, by what the token
    /// does, and names the token and its bag.
    #[test]
    fn bag_draws_keep_their_part_one_names() {
        let sets = ["base", "hills_and_sheep"].map(|name| Catalog::builtin(name).unwrap());
        let game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let drawn = |id| Event::TokenDrawn {
            player: carcassonne::PlayerId(1),
            pos: carcassonne::Pos::ORIGIN,
            segment: 2,
            drawn: carcassonne::BagToken::from_id(id).unwrap(),
        };
        let events = [drawn("sheep_3"), drawn("wolf")];
        let json = serde_json::to_value(EventsOut { game: &game, events: &events }).unwrap();
        assert_eq!(
            json[0],
            serde_json::json!({"event": "sheep_drawn", "player": 1, "pos": {"x": 0, "y": 0},
                "segment": 2, "sheep": 3, "token": "sheep_3", "bag": "flock"})
        );
        assert_eq!(
            json[1],
            serde_json::json!({"event": "wolf_drawn", "player": 1, "pos": {"x": 0, "y": 0},
                "segment": 2, "token": "wolf", "bag": "flock"})
        );
    }
}
