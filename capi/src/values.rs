//! The `#[repr(C)]` values: positions, actions, events, scores, rules, and the kinds they name.
//!
//! Every kind is a `uint32_t` typedef with `#define`d constants rather than a C enum: a struct
//! field the caller fills may then hold any number, and the library checks it
//! (`CARC_RESULT_INVALID_ENUM`) instead of trusting it.

use carcassonne::{
    Action, EdgeKind, Event, FarmScoring, FeatureScore, Figure, Game, MarkInfo, Phase, PlayerId,
    PlayerSet, Pos, Rotation, Rule, RuleOptions, ScoreReason, SegmentKind, UnfinishedMarks,
};

use crate::boundary::{Failure, Out, plain_boundary};
use crate::result::carc_result;

/// The most players a game seats; sets of players are `uint8_t` bitmasks, bit `p` for player
/// `p`.
pub const CARC_MAX_PLAYERS: usize = 8;

/// The most segments a tile type has; segments are numbered from 0 below this.
pub const CARC_MAX_SEGMENTS_PER_TILE: usize = 32;

/// Where the turn cycle stands.
pub type carc_phase = u32;
/// The current player draws a tile.
pub const CARC_PHASE_DRAW: carc_phase = 0;
/// The current player places the drawn tile.
pub const CARC_PHASE_PLACE: carc_phase = 1;
/// The current player may deploy a figure on the placed tile, recall an abbot, or skip.
pub const CARC_PHASE_FIGURE: carc_phase = 2;
/// The last tile is down and the final scores are in.
pub const CARC_PHASE_GAME_OVER: carc_phase = 3;
/// A token is drawn from the flock's bag for the shepherd just deployed or the flock just
/// grown: `DRAW`, `DRAW_SHEEP` or `DRAW_WOLF` (Hills & Sheep) (ABI 1.9).
pub const CARC_PHASE_SHEEP: carc_phase = 4;
/// The tile placed extended the field of the current player's shepherd: `GROW_FLOCK` or
/// `DRIVE_FLOCK` (ABI 1.9).
pub const CARC_PHASE_FLOCK: carc_phase = 5;

/// What a `carc_action` does.
pub type carc_action_kind = u32;
/// Draw a random tile from the bag, by the game's seed.
pub const CARC_ACTION_KIND_DRAW: carc_action_kind = 0;
/// Draw the tile type `tile`, which the bag must be able to give now (a real table's draw, or
/// a chance outcome a search explores).
pub const CARC_ACTION_KIND_DRAW_TILE: carc_action_kind = 1;
/// Place the drawn tile at `pos`, turned `rotation` degrees clockwise.
pub const CARC_ACTION_KIND_PLACE: carc_action_kind = 2;
/// Put `figure` from the supply on segment `segment` of the tile just placed.
pub const CARC_ACTION_KIND_DEPLOY: carc_action_kind = 3;
/// Instead of deploying, take the player's abbot back from the monastery or garden at `pos`.
pub const CARC_ACTION_KIND_RECALL_ABBOT: carc_action_kind = 4;
/// Deploy no figure.
pub const CARC_ACTION_KIND_SKIP: carc_action_kind = 5;
/// Draw the token showing `tile` sheep from the flock's bag, which must hold one (ABI 1.9).
/// For a set's own `[[bag]]`: its kept token of worth `tile`.
pub const CARC_ACTION_KIND_DRAW_SHEEP: carc_action_kind = 6;
/// Draw a wolf from the flock's bag, which must hold one (ABI 1.9). For a set's own
/// `[[bag]]`: its token that sends the figure home.
pub const CARC_ACTION_KIND_DRAW_WOLF: carc_action_kind = 7;
/// Grow the flock of the player's shepherd whose field the tile extended (ABI 1.9).
pub const CARC_ACTION_KIND_GROW_FLOCK: carc_action_kind = 8;
/// Drive that flock to market: every shepherd of the field scores its sheep (ABI 1.9).
pub const CARC_ACTION_KIND_DRIVE_FLOCK: carc_action_kind = 9;

/// A figure a player puts on a feature.
pub type carc_figure = u32;
/// An ordinary follower (a farmer on a field).
pub const CARC_FIGURE_FOLLOWER: carc_figure = 0;
/// The big follower of Inns & Cathedrals: counts as two for majorities.
pub const CARC_FIGURE_BIG_FOLLOWER: carc_figure = 1;
/// The abbot: only on a monastery or garden, and may be recalled early.
pub const CARC_FIGURE_ABBOT: carc_figure = 2;
/// The builder (Traders & Builders): on a road or city holding its owner's follower; a later
/// tile of its owner there gives a second turn. Not a follower (ABI 1.9).
pub const CARC_FIGURE_BUILDER: carc_figure = 3;
/// The pig (Traders & Builders): on a field holding its owner's farmer; each completed city
/// pays its owner more there. Not a follower (ABI 1.9).
pub const CARC_FIGURE_PIG: carc_figure = 4;
/// The shepherd (Hills & Sheep): on a field, with a flock of sheep tokens. Not a follower
/// (ABI 1.9).
pub const CARC_FIGURE_SHEPHERD: carc_figure = 5;
/// The number of the first figure of a game that no built-in set brings, a figure of an
/// author's set (ABI 1.10): the game's `n`-th such figure, in the order
/// `carc_game_figure_info` lists the game's figures, is `CARC_FIGURE_DECLARED + n`. Its id and
/// rules are in its `carc_figure_info`.
pub const CARC_FIGURE_DECLARED: carc_figure = 64;

/// What kind of feature a segment is part of.
pub type carc_segment_kind = u32;
/// A city.
pub const CARC_SEGMENT_KIND_CITY: carc_segment_kind = 0;
/// A road.
pub const CARC_SEGMENT_KIND_ROAD: carc_segment_kind = 1;
/// A field.
pub const CARC_SEGMENT_KIND_FIELD: carc_segment_kind = 2;
/// The river: never occupied or scored.
pub const CARC_SEGMENT_KIND_RIVER: carc_segment_kind = 3;
/// A monastery.
pub const CARC_SEGMENT_KIND_MONASTERY: carc_segment_kind = 4;
/// A garden: scored as a monastery is; the sets that bring one let only an abbot stand on it.
pub const CARC_SEGMENT_KIND_GARDEN: carc_segment_kind = 5;

/// What an edge of a tile shows.
pub type carc_edge_kind = u32;
/// A city edge.
pub const CARC_EDGE_KIND_CITY: carc_edge_kind = 0;
/// A road crosses the edge.
pub const CARC_EDGE_KIND_ROAD: carc_edge_kind = 1;
/// Open land.
pub const CARC_EDGE_KIND_FIELD: carc_edge_kind = 2;
/// A river crosses the edge.
pub const CARC_EDGE_KIND_RIVER: carc_edge_kind = 3;

/// Bit of the north edge in a set of edges; edges are listed N, E, S, W everywhere.
pub const CARC_DIR_N: u8 = 1;
/// Bit of the east edge.
pub const CARC_DIR_E: u8 = 2;
/// Bit of the south edge.
pub const CARC_DIR_S: u8 = 4;
/// Bit of the west edge.
pub const CARC_DIR_W: u8 = 8;

/// Bit of the western half of the north edge in a set of half-edges (where fields touch); the
/// eight halves go clockwise from the north-west corner.
pub const CARC_HALF_EDGE_N_W: u8 = 1;
/// Bit of the eastern half of the north edge.
pub const CARC_HALF_EDGE_N_E: u8 = 2;
/// Bit of the northern half of the east edge.
pub const CARC_HALF_EDGE_E_N: u8 = 4;
/// Bit of the southern half of the east edge.
pub const CARC_HALF_EDGE_E_S: u8 = 8;
/// Bit of the eastern half of the south edge.
pub const CARC_HALF_EDGE_S_E: u8 = 16;
/// Bit of the western half of the south edge.
pub const CARC_HALF_EDGE_S_W: u8 = 32;
/// Bit of the southern half of the west edge.
pub const CARC_HALF_EDGE_W_S: u8 = 64;
/// Bit of the northern half of the west edge.
pub const CARC_HALF_EDGE_W_N: u8 = 128;

/// Bit of a pennant in a set of marks.
pub const CARC_MARK_PENNANT: u8 = 1;
/// Bit of a cathedral (Inns & Cathedrals).
pub const CARC_MARK_CATHEDRAL: u8 = 2;
/// Bit of an inn (Inns & Cathedrals).
pub const CARC_MARK_INN: u8 = 4;

/// What a `carc_event` reports.
pub type carc_event_kind = u32;
/// `player` drew `tile`.
pub const CARC_EVENT_KIND_TILE_DRAWN: carc_event_kind = 0;
/// The tile `tile` drawn by `player` fits nowhere and leaves the game; the player draws again.
pub const CARC_EVENT_KIND_TILE_DISCARDED: carc_event_kind = 1;
/// `player` placed `tile` at `pos`, turned `rotation` degrees clockwise.
pub const CARC_EVENT_KIND_TILE_PLACED: carc_event_kind = 2;
/// `player` put `figure` on segment `segment` of the tile at `pos`.
pub const CARC_EVENT_KIND_FIGURE_PLACED: carc_event_kind = 3;
/// `player` took their abbot back from `pos` (its score follows as `FEATURE_SCORED`).
pub const CARC_EVENT_KIND_ABBOT_RECALLED: carc_event_kind = 4;
/// A feature scored: `score` says what, why, how much and to whom.
pub const CARC_EVENT_KIND_FEATURE_SCORED: carc_event_kind = 5;
/// `figure` of `player` went back to the supply from segment `segment` at `pos`.
pub const CARC_EVENT_KIND_FIGURE_RETURNED: carc_event_kind = 6;
/// The turn of `player` begins.
pub const CARC_EVENT_KIND_TURN_STARTED: carc_event_kind = 7;
/// The game is over; `winners` holds the players with the highest score.
pub const CARC_EVENT_KIND_GAME_OVER: carc_event_kind = 8;
/// `player` took `score.points` tokens of kind `declared` from the feature completed at `pos`,
/// segment `segment` (`score.scorers` holds that player's bit) (ABI 1.7).
pub const CARC_EVENT_KIND_TOKENS_TAKEN: carc_event_kind = 9;
/// At the end of the game, the players in `score.scorers` held the most tokens of kind
/// `declared`, `score.tiles` each, and scored `score.points` each (ABI 1.7).
pub const CARC_EVENT_KIND_TOKENS_SCORED: carc_event_kind = 10;
/// `player` completed the feature at `pos`, segment `segment`, of `score.tiles` tiles, larger
/// than every one of its kind before, and took (or kept) title `declared` (ABI 1.7).
pub const CARC_EVENT_KIND_TITLE_TAKEN: carc_event_kind = 11;
/// At the end of the game, `player` held title `declared` and scored `score.points` for it,
/// with `score.cities` features of its kind completed in the game (ABI 1.7).
pub const CARC_EVENT_KIND_TITLE_SCORED: carc_event_kind = 12;
/// A tile went face down under the tile `player` placed at `pos`, out of the game, unseen
/// (Hills & Sheep's hills) (ABI 1.9).
pub const CARC_EVENT_KIND_TILE_HIDDEN: carc_event_kind = 13;
/// A token showing `tile` sheep joined the flock of `player`'s shepherd at `pos`, segment
/// `segment` (ABI 1.9); for a set's own `[[bag]]`, a kept token of worth `tile`.
pub const CARC_EVENT_KIND_SHEEP_DRAWN: carc_event_kind = 14;
/// A wolf was drawn for the flock of `player`'s shepherd at `pos`, segment `segment`: the
/// shepherds it sends home follow as `FIGURE_RETURNED` (ABI 1.9); for a set's own `[[bag]]`,
/// a token that sends the figure home.
pub const CARC_EVENT_KIND_WOLF_DRAWN: carc_event_kind = 15;
/// `player` extended a road or city holding their builder and takes a second turn at once;
/// a `TURN_STARTED` for the same player follows (ABI 1.9).
pub const CARC_EVENT_KIND_EXTRA_TURN: carc_event_kind = 16;

/// When a feature scored.
pub type carc_score_reason = u32;
/// It was completed during play.
pub const CARC_SCORE_REASON_COMPLETED: carc_score_reason = 0;
/// Its abbot was recalled before it was complete.
pub const CARC_SCORE_REASON_ABBOT_RECALLED: carc_score_reason = 1;
/// The game ended (or a landscape was scored); it may be complete or not.
pub const CARC_SCORE_REASON_GAME_END: carc_score_reason = 2;
/// A rival beside it was completed first (a declared rivalry: The Cult's shrines and
/// monasteries): its figures went home with 0 points (ABI 1.8).
pub const CARC_SCORE_REASON_DEFEATED: carc_score_reason = 3;
/// A field's flock was driven to market: every shepherd there scores its sheep (Hills &
/// Sheep) (ABI 1.9).
pub const CARC_SCORE_REASON_MARKET: carc_score_reason = 4;

/// A rule that changed a feature's value from the plain one.
pub type carc_modifier = u32;
/// The plain value.
pub const CARC_MODIFIER_NONE: carc_modifier = 0;
/// A completed road with an inn: 2 per tile.
pub const CARC_MODIFIER_INN: carc_modifier = 1;
/// A completed city with a cathedral: 3 per tile and pennant.
pub const CARC_MODIFIER_CATHEDRAL: carc_modifier = 2;
/// An unfinished road with an inn: nothing.
pub const CARC_MODIFIER_UNFINISHED_INN: carc_modifier = 3;
/// An unfinished city with a cathedral: nothing.
pub const CARC_MODIFIER_UNFINISHED_CATHEDRAL: carc_modifier = 4;
/// A completed city of two tiles under the `tiny_city` rule: 1 per tile and pennant.
pub const CARC_MODIFIER_TINY_CITY: carc_modifier = 5;

/// How fields score at the end of the game.
pub type carc_farm_scoring = u32;
/// Each field scores 3 per completed city it borders, to its majority (current rules).
pub const CARC_FARM_SCORING_PER_FIELD: carc_farm_scoring = 0;
/// As `PER_FIELD`, but each player scores each city at most once (second edition).
pub const CARC_FARM_SCORING_PER_FIELD_ONCE: carc_farm_scoring = 1;
/// Per completed city, the players with most farmers in all the fields around it score 4
/// (first edition).
pub const CARC_FARM_SCORING_PER_CITY_4: carc_farm_scoring = 2;

/// How inns and cathedrals on features left unfinished score at the end.
pub type carc_unfinished_marks = u32;
/// An unfinished road with an inn or city with a cathedral scores 0 (the published rule).
pub const CARC_UNFINISHED_MARKS_ZERO: carc_unfinished_marks = 0;
/// They score as plain unfinished roads and cities (a house rule).
pub const CARC_UNFINISHED_MARKS_NORMAL: carc_unfinished_marks = 1;

/// A cell of the board: `x` grows east, `y` grows north; the start tile lies at (0, 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_pos {
    /// Column, growing east.
    pub x: i16,
    /// Row, growing north.
    pub y: i16,
}

/// One step of a turn. `kind` says which fields count; the others are 0 in actions the
/// library writes and ignored in actions it reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_action {
    /// A `CARC_ACTION_KIND_*` constant.
    pub kind: carc_action_kind,
    /// `DEPLOY`: a `CARC_FIGURE_*` constant.
    pub figure: carc_figure,
    /// `PLACE`: the cell; `RECALL_ABBOT`: where the abbot stands.
    pub pos: carc_pos,
    /// `DRAW_TILE`: the tile type, numbered across the game's tile sets.
    pub tile: u16,
    /// `PLACE`: degrees clockwise, 0, 90, 180 or 270.
    pub rotation: u16,
    /// `DEPLOY`: the segment of the placed tile, as numbered in its tile type.
    pub segment: u8,
}

/// Everything the rules leave open; `carc_rules_default` gives the published rules. The title
/// scoring variants (King & Robber Baron's published house rules) are not here, to keep this
/// struct's layout: a JSON setup chooses them with `"title_scoring"`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct carc_rules {
    /// 1 if followers may go on fields as farmers (default 1), else 0.
    pub farmers: u8,
    /// How fields score, a `CARC_FARM_SCORING_*` constant (default `PER_FIELD`).
    pub farm_scoring: carc_farm_scoring,
    /// 1 for the first-edition rule: a completed city of two tiles scores 1 per tile and
    /// pennant (default 0).
    pub tiny_city: u8,
    /// How inns and cathedrals on unfinished features score, a `CARC_UNFINISHED_MARKS_*`
    /// constant (default `ZERO`).
    pub inn_cathedral_unfinished: carc_unfinished_marks,
    /// 1 if each player has an abbot (default 0), else 0.
    pub abbots: u8,
}

/// One feature's score: what it is, why it scored, how much and to whom.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_feature_score {
    /// A `CARC_SEGMENT_KIND_*` constant; with `CARC_FARM_SCORING_PER_CITY_4`, a city's payout
    /// to farmers has kind `CITY` and `farmers` true.
    pub kind: carc_segment_kind,
    /// A cell holding a segment of the feature.
    pub pos: carc_pos,
    /// That segment's number in its tile type.
    pub segment: u8,
    /// 1 if it was complete (a closed city or road, a surrounded monastery or garden), else 0.
    pub complete: u8,
    /// 1 if the score goes to farmers (a field, or a city paying its farmers), else 0.
    pub farmers: u8,
    /// The players who score, bit `p` for player `p`; each receives `points`.
    pub scorers: u8,
    /// When it scored, a `CARC_SCORE_REASON_*` constant.
    pub reason: carc_score_reason,
    /// The rule that changed its value, a `CARC_MODIFIER_*` constant.
    pub modifier: carc_modifier,
    /// Distinct tiles it covers (for a monastery or garden: itself and its neighbours).
    pub tiles: u32,
    /// Pennants in a city.
    pub pennants: u32,
    /// For fields: the completed cities that pay out.
    pub cities: u32,
    /// The points each scorer receives.
    pub points: u32,
}

/// Something that happened during an action. `kind` says which fields count; the others
/// are 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_event {
    /// A `CARC_EVENT_KIND_*` constant.
    pub kind: carc_event_kind,
    /// Who acted, or whose figure, turn or title it is (all kinds but `FEATURE_SCORED`,
    /// `TOKENS_SCORED` and `GAME_OVER`).
    pub player: u8,
    /// `GAME_OVER`: the players with the highest score, bit `p` for player `p`.
    pub winners: u8,
    /// `TILE_DRAWN`, `TILE_DISCARDED`, `TILE_PLACED`: the tile type.
    pub tile: u16,
    /// `TILE_PLACED`, `FIGURE_PLACED`, `ABBOT_RECALLED`, `FIGURE_RETURNED`: the cell.
    pub pos: carc_pos,
    /// `TILE_PLACED`: degrees clockwise.
    pub rotation: u16,
    /// `FIGURE_PLACED`, `FIGURE_RETURNED`, `TOKENS_TAKEN`, `TITLE_TAKEN`: the segment.
    pub segment: u8,
    /// `TOKENS_TAKEN`, `TOKENS_SCORED`: the token kind, numbered as `carc_game_token_info`
    /// lists them; `TITLE_TAKEN`, `TITLE_SCORED`: the title, numbered as
    /// `carc_game_title_info` lists them (ABI 1.7; the byte was padding before);
    /// `FEATURE_SCORED`: 1 + the declared rule that set the score, numbered as
    /// `carc_game_rule_info` lists them, or 0 for the plain value (ABI 1.8).
    pub declared: u8,
    /// `FIGURE_PLACED`, `FIGURE_RETURNED`: a `CARC_FIGURE_*` constant.
    pub figure: carc_figure,
    /// `FEATURE_SCORED`: the score. `TOKENS_TAKEN`, `TOKENS_SCORED`: who received what, as
    /// the kinds say (the other fields 0).
    pub score: carc_feature_score,
}

/// The figures a player has in hand.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_supply {
    /// Ordinary followers.
    pub followers: u8,
    /// Big followers.
    pub big_followers: u8,
    /// Abbots.
    pub abbots: u8,
}

/// Writes the published rules to `*out`: farmers on, `PER_FIELD` farm scoring, no tiny city,
/// unfinished inns and cathedrals score zero, no abbots.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` when `out` is NULL.
///
/// # Safety
/// `out` is NULL or points to a writable `carc_rules`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_rules_default(out: *mut carc_rules) -> carc_result {
    plain_boundary(|| {
        // SAFETY: the caller promises NULL or a writable `carc_rules`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(rules_to_c(&RuleOptions::default()));
        Ok(())
    })
}

// ----- Conversions -----

pub(crate) fn invalid_enum(what: &str, value: u32) -> Failure {
    Failure::new(carc_result::InvalidEnum, format!("{value} is not a {what} constant"))
}

/// A flag the caller wrote: 0 or 1, as every flag of this ABI.
pub(crate) fn flag_from_c(value: u8, name: &str) -> Result<bool, Failure> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::new(
            carc_result::InvalidArgument,
            format!("`{name}` is {value}; a flag is 0 or 1"),
        )),
    }
}

pub(crate) fn pos_from_c(pos: carc_pos) -> Pos {
    Pos::new(pos.x, pos.y)
}

pub(crate) fn pos_to_c(pos: Pos) -> carc_pos {
    carc_pos { x: pos.x, y: pos.y }
}

pub(crate) fn players_to_c(players: PlayerSet) -> u8 {
    players.iter().fold(0, |bits, player| bits | 1 << player.0)
}

pub(crate) fn phase_to_c(phase: Phase) -> carc_phase {
    match phase {
        Phase::Draw => CARC_PHASE_DRAW,
        Phase::Place { .. } => CARC_PHASE_PLACE,
        Phase::Figure { .. } => CARC_PHASE_FIGURE,
        Phase::Sheep { .. } => CARC_PHASE_SHEEP,
        Phase::Flock { .. } => CARC_PHASE_FLOCK,
        Phase::GameOver => CARC_PHASE_GAME_OVER,
    }
}

/// The figures of `game` that no built-in set brings, in the game's order: C numbers them from
/// `CARC_FIGURE_DECLARED`.
fn declared_figures(game: &Game) -> impl Iterator<Item = Figure> + '_ {
    game.figure_kinds().filter(|figure| !Figure::PUBLISHED.contains(figure))
}

/// `figure`'s number in C: a `CARC_FIGURE_*` constant for a published figure, else
/// `CARC_FIGURE_DECLARED` plus its place among `game`'s other figures (a figure the game does
/// not have, which no event or legal action names, reads as `CARC_FIGURE_DECLARED` plus the
/// number of those).
pub(crate) fn figure_to_c(figure: Figure, game: &Game) -> carc_figure {
    match figure {
        Figure::FOLLOWER => CARC_FIGURE_FOLLOWER,
        Figure::BIG_FOLLOWER => CARC_FIGURE_BIG_FOLLOWER,
        Figure::ABBOT => CARC_FIGURE_ABBOT,
        Figure::BUILDER => CARC_FIGURE_BUILDER,
        Figure::PIG => CARC_FIGURE_PIG,
        Figure::SHEPHERD => CARC_FIGURE_SHEPHERD,
        other => {
            let place = declared_figures(game).position(|known| known == other);
            let place = place.unwrap_or_else(|| declared_figures(game).count());
            CARC_FIGURE_DECLARED + place as carc_figure
        }
    }
}

pub(crate) fn figure_from_c(figure: carc_figure, game: &Game) -> Result<Figure, Failure> {
    if let Some(place) = figure.checked_sub(CARC_FIGURE_DECLARED) {
        return declared_figures(game)
            .nth(place as usize)
            .ok_or_else(|| invalid_enum("carc_figure", figure));
    }
    Ok(match figure {
        CARC_FIGURE_FOLLOWER => Figure::FOLLOWER,
        CARC_FIGURE_BIG_FOLLOWER => Figure::BIG_FOLLOWER,
        CARC_FIGURE_ABBOT => Figure::ABBOT,
        CARC_FIGURE_BUILDER => Figure::BUILDER,
        CARC_FIGURE_PIG => Figure::PIG,
        CARC_FIGURE_SHEPHERD => Figure::SHEPHERD,
        _ => return Err(invalid_enum("carc_figure", figure)),
    })
}

pub(crate) fn segment_kind_to_c(kind: SegmentKind) -> carc_segment_kind {
    match kind {
        SegmentKind::City => CARC_SEGMENT_KIND_CITY,
        SegmentKind::Road => CARC_SEGMENT_KIND_ROAD,
        SegmentKind::Field => CARC_SEGMENT_KIND_FIELD,
        SegmentKind::River => CARC_SEGMENT_KIND_RIVER,
        SegmentKind::Monastery => CARC_SEGMENT_KIND_MONASTERY,
        SegmentKind::Garden => CARC_SEGMENT_KIND_GARDEN,
    }
}

pub(crate) fn edge_kind_to_c(kind: EdgeKind) -> carc_edge_kind {
    match kind {
        EdgeKind::City => CARC_EDGE_KIND_CITY,
        EdgeKind::Road => CARC_EDGE_KIND_ROAD,
        EdgeKind::Field => CARC_EDGE_KIND_FIELD,
        EdgeKind::River => CARC_EDGE_KIND_RIVER,
    }
}

fn rotation_to_c(rotation: Rotation) -> u16 {
    rotation.degrees()
}

pub(crate) fn rotation_from_c(degrees: u16) -> Result<Rotation, Failure> {
    Rotation::from_degrees(degrees).ok_or_else(|| {
        Failure::new(
            carc_result::InvalidArgument,
            format!("a rotation of {degrees} degrees is not 0, 90, 180 or 270"),
        )
    })
}

/// As [`action_to_c`], with placements, which make up nearly every long list, on a straight
/// path: the list of legal actions is converted in a loop that otherwise jumps through a
/// table for every action.
#[inline]
pub(crate) fn listed_action_to_c(action: Action, game: &Game) -> carc_action {
    match action {
        Action::Place { pos, rotation } => carc_action {
            kind: CARC_ACTION_KIND_PLACE,
            figure: 0,
            pos: pos_to_c(pos),
            tile: 0,
            rotation: rotation_to_c(rotation),
            segment: 0,
        },
        other => action_to_c(other, game),
    }
}

#[inline(never)]
pub(crate) fn action_to_c(action: Action, game: &Game) -> carc_action {
    let none = carc_action::default();
    match action {
        Action::Draw => carc_action { kind: CARC_ACTION_KIND_DRAW, ..none },
        Action::DrawTile { tile } => carc_action { kind: CARC_ACTION_KIND_DRAW_TILE, tile, ..none },
        Action::Place { pos, rotation } => carc_action {
            kind: CARC_ACTION_KIND_PLACE,
            pos: pos_to_c(pos),
            rotation: rotation_to_c(rotation),
            ..none
        },
        Action::Deploy { segment, figure } => carc_action {
            kind: CARC_ACTION_KIND_DEPLOY,
            segment,
            figure: figure_to_c(figure, game),
            ..none
        },
        Action::RecallAbbot { pos } => {
            carc_action { kind: CARC_ACTION_KIND_RECALL_ABBOT, pos: pos_to_c(pos), ..none }
        }
        Action::Skip => carc_action { kind: CARC_ACTION_KIND_SKIP, ..none },
        Action::DrawToken { token } => match crate::flock::shape_of(game, token) {
            Some(worth) => {
                carc_action { kind: CARC_ACTION_KIND_DRAW_SHEEP, tile: u16::from(worth), ..none }
            }
            None => carc_action { kind: CARC_ACTION_KIND_DRAW_WOLF, ..none },
        },
        Action::GrowFlock => carc_action { kind: CARC_ACTION_KIND_GROW_FLOCK, ..none },
        Action::DriveFlock => carc_action { kind: CARC_ACTION_KIND_DRIVE_FLOCK, ..none },
    }
}

pub(crate) fn action_from_c(action: &carc_action, game: &Game) -> Result<Action, Failure> {
    Ok(match action.kind {
        CARC_ACTION_KIND_DRAW => Action::Draw,
        CARC_ACTION_KIND_DRAW_TILE => Action::DrawTile { tile: action.tile },
        CARC_ACTION_KIND_PLACE => Action::Place {
            pos: pos_from_c(action.pos),
            rotation: rotation_from_c(action.rotation)?,
        },
        CARC_ACTION_KIND_DEPLOY => {
            Action::Deploy { segment: action.segment, figure: figure_from_c(action.figure, game)? }
        }
        CARC_ACTION_KIND_RECALL_ABBOT => Action::RecallAbbot { pos: pos_from_c(action.pos) },
        CARC_ACTION_KIND_SKIP => Action::Skip,
        CARC_ACTION_KIND_DRAW_SHEEP => {
            let worth = u8::try_from(action.tile).map_err(|_| {
                Failure::new(
                    carc_result::InvalidArgument,
                    format!("a token cannot show {} sheep", action.tile),
                )
            })?;
            Action::DrawToken { token: crate::flock::token_of_shape(game, Some(worth)) }
        }
        CARC_ACTION_KIND_DRAW_WOLF if crate::flock::drawing_without_wolf(game) => {
            return Err(Failure::new(
                carc_result::NoWolfInBag,
                "the bag being drawn from holds no token that sends home",
            ));
        }
        CARC_ACTION_KIND_DRAW_WOLF => {
            Action::DrawToken { token: crate::flock::token_of_shape(game, None) }
        }
        CARC_ACTION_KIND_GROW_FLOCK => Action::GrowFlock,
        CARC_ACTION_KIND_DRIVE_FLOCK => Action::DriveFlock,
        kind => return Err(invalid_enum("carc_action_kind", kind)),
    })
}

/// `score` for C; `marks` and `rules` are what its mark and rule numbers index.
pub(crate) fn score_to_c(
    score: &FeatureScore,
    marks: &[MarkInfo],
    rules: &[Rule],
) -> carc_feature_score {
    carc_feature_score {
        kind: segment_kind_to_c(score.kind),
        pos: pos_to_c(score.pos),
        segment: score.segment,
        complete: score.complete.into(),
        farmers: score.farmers.into(),
        scorers: players_to_c(score.scorers),
        reason: match score.reason {
            ScoreReason::Completed => CARC_SCORE_REASON_COMPLETED,
            ScoreReason::AbbotRecalled => CARC_SCORE_REASON_ABBOT_RECALLED,
            ScoreReason::GameEnd => CARC_SCORE_REASON_GAME_END,
            ScoreReason::Defeated => CARC_SCORE_REASON_DEFEATED,
            ScoreReason::Market => CARC_SCORE_REASON_MARKET,
        },
        modifier: crate::legacy::modifier(score.rule, rules),
        tiles: score.tiles,
        pennants: score.marks.count_of(marks, "pennant"),
        cities: score.cities,
        points: score.points,
    }
}

/// `event` of `game` for C: the game's marks and rules are what its mark and rule numbers
/// index, its figures what its figure numbers do.
pub(crate) fn event_to_c(event: &Event, game: &Game) -> carc_event {
    let (marks, rules) = (game.marks(), game.rules());
    let none = carc_event::default();
    let player = |player: &PlayerId| player.0;
    match event {
        Event::TileDrawn { player: who, tile } => carc_event {
            kind: CARC_EVENT_KIND_TILE_DRAWN,
            player: player(who),
            tile: *tile,
            ..none
        },
        Event::TileDiscarded { player: who, tile } => carc_event {
            kind: CARC_EVENT_KIND_TILE_DISCARDED,
            player: player(who),
            tile: *tile,
            ..none
        },
        Event::TilePlaced { player: who, tile, pos, rotation } => carc_event {
            kind: CARC_EVENT_KIND_TILE_PLACED,
            player: player(who),
            tile: *tile,
            pos: pos_to_c(*pos),
            rotation: rotation_to_c(*rotation),
            ..none
        },
        Event::FigurePlaced { player: who, figure, pos, segment } => carc_event {
            kind: CARC_EVENT_KIND_FIGURE_PLACED,
            player: player(who),
            figure: figure_to_c(*figure, game),
            pos: pos_to_c(*pos),
            segment: *segment,
            ..none
        },
        Event::AbbotRecalled { player: who, pos } => carc_event {
            kind: CARC_EVENT_KIND_ABBOT_RECALLED,
            player: player(who),
            pos: pos_to_c(*pos),
            ..none
        },
        Event::FeatureScored(score) => carc_event {
            kind: CARC_EVENT_KIND_FEATURE_SCORED,
            score: score_to_c(score, marks, rules),
            declared: score.rule.map_or(0, |rule| rule.0.saturating_add(1)),
            ..none
        },
        Event::FigureReturned { player: who, figure, pos, segment } => carc_event {
            kind: CARC_EVENT_KIND_FIGURE_RETURNED,
            player: player(who),
            figure: figure_to_c(*figure, game),
            pos: pos_to_c(*pos),
            segment: *segment,
            ..none
        },
        Event::TokensTaken { player: who, token, count, pos, segment } => carc_event {
            kind: CARC_EVENT_KIND_TOKENS_TAKEN,
            player: player(who),
            pos: pos_to_c(*pos),
            segment: *segment,
            declared: token.0,
            score: carc_feature_score {
                scorers: players_to_c(PlayerSet::EMPTY.with(*who)),
                points: *count,
                ..carc_feature_score::default()
            },
            ..none
        },
        Event::TokensScored { token, held, points, scorers } => carc_event {
            kind: CARC_EVENT_KIND_TOKENS_SCORED,
            declared: token.0,
            score: carc_feature_score {
                scorers: players_to_c(*scorers),
                tiles: *held,
                points: *points,
                ..carc_feature_score::default()
            },
            ..none
        },
        Event::TitleTaken { player: who, title, tiles, pos, segment } => carc_event {
            kind: CARC_EVENT_KIND_TITLE_TAKEN,
            player: player(who),
            pos: pos_to_c(*pos),
            segment: *segment,
            declared: title.0,
            score: carc_feature_score { tiles: *tiles, ..carc_feature_score::default() },
            ..none
        },
        Event::TitleScored { title, player: who, features, points } => carc_event {
            kind: CARC_EVENT_KIND_TITLE_SCORED,
            player: player(who),
            declared: title.0,
            score: carc_feature_score {
                scorers: players_to_c(PlayerSet::EMPTY.with(*who)),
                cities: *features,
                points: *points,
                ..carc_feature_score::default()
            },
            ..none
        },
        Event::TurnStarted { player: who } => {
            carc_event { kind: CARC_EVENT_KIND_TURN_STARTED, player: player(who), ..none }
        }
        Event::TileHidden { player: who, pos } => carc_event {
            kind: CARC_EVENT_KIND_TILE_HIDDEN,
            player: player(who),
            pos: pos_to_c(*pos),
            ..none
        },
        Event::TokenDrawn { player: who, pos, segment, drawn } => {
            let (kind, tile) = match crate::flock::shape_of(game, *drawn) {
                Some(worth) => (CARC_EVENT_KIND_SHEEP_DRAWN, u16::from(worth)),
                None => (CARC_EVENT_KIND_WOLF_DRAWN, 0),
            };
            carc_event {
                kind,
                player: player(who),
                pos: pos_to_c(*pos),
                segment: *segment,
                tile,
                ..none
            }
        }
        Event::ExtraTurn { player: who } => {
            carc_event { kind: CARC_EVENT_KIND_EXTRA_TURN, player: player(who), ..none }
        }
        Event::GameOver { winners } => {
            carc_event { kind: CARC_EVENT_KIND_GAME_OVER, winners: players_to_c(*winners), ..none }
        }
    }
}

pub(crate) fn rules_to_c(options: &RuleOptions) -> carc_rules {
    carc_rules {
        farmers: options.farmers.into(),
        farm_scoring: match options.farm_scoring {
            FarmScoring::PerField => CARC_FARM_SCORING_PER_FIELD,
            FarmScoring::PerFieldOnce => CARC_FARM_SCORING_PER_FIELD_ONCE,
            FarmScoring::PerCity4 => CARC_FARM_SCORING_PER_CITY_4,
        },
        tiny_city: options.tiny_city.into(),
        inn_cathedral_unfinished: match options.inn_cathedral_unfinished {
            UnfinishedMarks::Zero => CARC_UNFINISHED_MARKS_ZERO,
            UnfinishedMarks::Normal => CARC_UNFINISHED_MARKS_NORMAL,
        },
        abbots: options.abbots.into(),
    }
}

pub(crate) fn rules_from_c(rules: &carc_rules) -> Result<RuleOptions, Failure> {
    let farm_scoring = match rules.farm_scoring {
        CARC_FARM_SCORING_PER_FIELD => FarmScoring::PerField,
        CARC_FARM_SCORING_PER_FIELD_ONCE => FarmScoring::PerFieldOnce,
        CARC_FARM_SCORING_PER_CITY_4 => FarmScoring::PerCity4,
        other => return Err(invalid_enum("carc_farm_scoring", other)),
    };
    let inn_cathedral_unfinished = match rules.inn_cathedral_unfinished {
        CARC_UNFINISHED_MARKS_ZERO => UnfinishedMarks::Zero,
        CARC_UNFINISHED_MARKS_NORMAL => UnfinishedMarks::Normal,
        other => return Err(invalid_enum("carc_unfinished_marks", other)),
    };
    // The struct's layout is the ABI's; the variants of title scoring are chosen in a JSON
    // setup (`"title_scoring"`), which every other option can use too: printed here.
    Ok(RuleOptions::default()
        .with_farmers(flag_from_c(rules.farmers, "rules.farmers")?)
        .with_farm_scoring(farm_scoring)
        .with_tiny_city(flag_from_c(rules.tiny_city, "rules.tiny_city")?)
        .with_inn_cathedral_unfinished(inn_cathedral_unfinished)
        .with_abbots(flag_from_c(rules.abbots, "rules.abbots")?)
        .with_title_scoring(carcassonne::TitleScoring::Printed))
}
