//! Reading the enums files tag by a key (`Action` by `action`, `Event` by `event`, `Phase` by
//! `phase`) without an untyped buffer.
//!
//! serde's derived reader for an internally tagged enum reads the whole object into an untyped
//! tree until it meets the tag, then reads the variant from the tree: a saved game whose one
//! action had millions of keys before its tag took eleven times its size, and keys a unit
//! variant does not have were ignored. Here each enum is read as one flat struct of every
//! field any of its variants has, each optional, with unknown keys refused where they stand;
//! the tag then picks the variant, which refuses fields it lacks and fields it does not have.
//! Written output is unchanged: the derived `Serialize` writes the tag first.

use core::fmt;

use serde::de::Error;
use serde::{Deserialize, Deserializer};

use crate::action::{Action, Phase};
use crate::event::{Event, FeatureScore, ScoreReason};
use crate::geom::Rotation;
use crate::player::{Figure, PlayerId, PlayerSet};
use crate::pos::Pos;
use crate::rulebook::{BagToken, MarkCounts, RuleId, TitleId, TokenId};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::tile::TileIndex;

/// A field the variant needs.
fn required<T, E: Error>(value: &mut Option<T>, field: &'static str) -> Result<T, E> {
    value.take().ok_or_else(|| E::missing_field(field))
}

/// Fails on the first field still present: one the variant `tag` does not have.
fn none_left<E: Error>(what: &str, tag: &str, fields: &[(&'static str, bool)]) -> Result<(), E> {
    match fields.iter().find(|(_, present)| *present) {
        Some((field, _)) => Err(E::custom(FieldOfOther { what, tag, field })),
        None => Ok(()),
    }
}

/// The message of [`none_left`], written without an allocation of its own.
struct FieldOfOther<'a> {
    what: &'a str,
    tag: &'a str,
    field: &'a str,
}

impl fmt::Display for FieldOfOther<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}` has no field `{}`", self.what, self.tag, self.field)
    }
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActionTag {
    Draw,
    DrawTile,
    Place,
    Deploy,
    RecallAbbot,
    Skip,
    DrawToken,
    GrowFlock,
    DriveFlock,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionDoc {
    action: ActionTag,
    tile: Option<TileIndex>,
    pos: Option<Pos>,
    rotation: Option<Rotation>,
    segment: Option<SegmentIndex>,
    figure: Option<Figure>,
    token: Option<BagToken>,
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Action, D::Error> {
        let mut doc = ActionDoc::deserialize(deserializer)?;
        let (action, tag) = match doc.action {
            ActionTag::Draw => (Action::Draw, "draw"),
            ActionTag::DrawTile => {
                (Action::DrawTile { tile: required(&mut doc.tile, "tile")? }, "draw_tile")
            }
            ActionTag::Place => {
                let pos = required(&mut doc.pos, "pos")?;
                (Action::Place { pos, rotation: required(&mut doc.rotation, "rotation")? }, "place")
            }
            ActionTag::Deploy => {
                let segment = required(&mut doc.segment, "segment")?;
                (Action::Deploy { segment, figure: required(&mut doc.figure, "figure")? }, "deploy")
            }
            ActionTag::RecallAbbot => {
                (Action::RecallAbbot { pos: required(&mut doc.pos, "pos")? }, "recall_abbot")
            }
            ActionTag::Skip => (Action::Skip, "skip"),
            ActionTag::DrawToken => {
                (Action::DrawToken { token: required(&mut doc.token, "token")? }, "draw_token")
            }
            ActionTag::GrowFlock => (Action::GrowFlock, "grow_flock"),
            ActionTag::DriveFlock => (Action::DriveFlock, "drive_flock"),
        };
        none_left(
            "an action",
            tag,
            &[
                ("tile", doc.tile.is_some()),
                ("pos", doc.pos.is_some()),
                ("rotation", doc.rotation.is_some()),
                ("segment", doc.segment.is_some()),
                ("figure", doc.figure.is_some()),
                ("token", doc.token.is_some()),
            ],
        )?;
        Ok(action)
    }
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhaseTag {
    Draw,
    Place,
    Figure,
    Sheep,
    Flock,
    GameOver,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseDoc {
    phase: PhaseTag,
    tile: Option<TileIndex>,
    pos: Option<Pos>,
}

impl<'de> Deserialize<'de> for Phase {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Phase, D::Error> {
        let mut doc = PhaseDoc::deserialize(deserializer)?;
        let (phase, tag) = match doc.phase {
            PhaseTag::Draw => (Phase::Draw, "draw"),
            PhaseTag::Place => (Phase::Place { tile: required(&mut doc.tile, "tile")? }, "place"),
            PhaseTag::Figure => (Phase::Figure { pos: required(&mut doc.pos, "pos")? }, "figure"),
            PhaseTag::Sheep => (Phase::Sheep { pos: required(&mut doc.pos, "pos")? }, "sheep"),
            PhaseTag::Flock => (Phase::Flock { pos: required(&mut doc.pos, "pos")? }, "flock"),
            PhaseTag::GameOver => (Phase::GameOver, "game_over"),
        };
        none_left("a phase", tag, &[("tile", doc.tile.is_some()), ("pos", doc.pos.is_some())])?;
        Ok(phase)
    }
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum EventTag {
    TileDrawn,
    TileDiscarded,
    TilePlaced,
    FigurePlaced,
    AbbotRecalled,
    FeatureScored,
    TokensTaken,
    TokensScored,
    TitleTaken,
    TitleScored,
    FigureReturned,
    TileHidden,
    TokenDrawn,
    ExtraTurn,
    TurnStarted,
    GameOver,
}

/// Every field of every event, [`FeatureScore`]'s included (a `feature_scored` event writes
/// them beside its tag).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventDoc {
    event: EventTag,
    player: Option<PlayerId>,
    tile: Option<TileIndex>,
    pos: Option<Pos>,
    rotation: Option<Rotation>,
    figure: Option<Figure>,
    segment: Option<SegmentIndex>,
    winners: Option<PlayerSet>,
    kind: Option<SegmentKind>,
    reason: Option<ScoreReason>,
    complete: Option<bool>,
    tiles: Option<u32>,
    marks: Option<MarkCounts>,
    cities: Option<u32>,
    /// Absent for the plain value, as it is written.
    rule: Option<RuleId>,
    farmers: Option<bool>,
    points: Option<u32>,
    scorers: Option<PlayerSet>,
    token: Option<TokenId>,
    count: Option<u32>,
    held: Option<u32>,
    title: Option<TitleId>,
    features: Option<u32>,
    drawn: Option<BagToken>,
}

impl EventDoc {
    fn score<E: Error>(&mut self) -> Result<FeatureScore, E> {
        Ok(FeatureScore {
            kind: required(&mut self.kind, "kind")?,
            pos: required(&mut self.pos, "pos")?,
            segment: required(&mut self.segment, "segment")?,
            reason: required(&mut self.reason, "reason")?,
            complete: required(&mut self.complete, "complete")?,
            tiles: required(&mut self.tiles, "tiles")?,
            marks: required(&mut self.marks, "marks")?,
            cities: required(&mut self.cities, "cities")?,
            rule: self.rule.take(),
            farmers: required(&mut self.farmers, "farmers")?,
            points: required(&mut self.points, "points")?,
            scorers: required(&mut self.scorers, "scorers")?,
        })
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Event, D::Error> {
        let mut doc = EventDoc::deserialize(deserializer)?;
        let d = &mut doc;
        let (event, tag) = match d.event {
            EventTag::TileDrawn => (
                Event::TileDrawn {
                    player: required(&mut d.player, "player")?,
                    tile: required(&mut d.tile, "tile")?,
                },
                "tile_drawn",
            ),
            EventTag::TileDiscarded => (
                Event::TileDiscarded {
                    player: required(&mut d.player, "player")?,
                    tile: required(&mut d.tile, "tile")?,
                },
                "tile_discarded",
            ),
            EventTag::TilePlaced => (
                Event::TilePlaced {
                    player: required(&mut d.player, "player")?,
                    tile: required(&mut d.tile, "tile")?,
                    pos: required(&mut d.pos, "pos")?,
                    rotation: required(&mut d.rotation, "rotation")?,
                },
                "tile_placed",
            ),
            EventTag::FigurePlaced => (
                Event::FigurePlaced {
                    player: required(&mut d.player, "player")?,
                    figure: required(&mut d.figure, "figure")?,
                    pos: required(&mut d.pos, "pos")?,
                    segment: required(&mut d.segment, "segment")?,
                },
                "figure_placed",
            ),
            EventTag::AbbotRecalled => (
                Event::AbbotRecalled {
                    player: required(&mut d.player, "player")?,
                    pos: required(&mut d.pos, "pos")?,
                },
                "abbot_recalled",
            ),
            EventTag::FeatureScored => (Event::FeatureScored(d.score()?), "feature_scored"),
            EventTag::TokensTaken => (
                Event::TokensTaken {
                    player: required(&mut d.player, "player")?,
                    token: required(&mut d.token, "token")?,
                    count: required(&mut d.count, "count")?,
                    pos: required(&mut d.pos, "pos")?,
                    segment: required(&mut d.segment, "segment")?,
                },
                "tokens_taken",
            ),
            EventTag::TokensScored => (
                Event::TokensScored {
                    token: required(&mut d.token, "token")?,
                    held: required(&mut d.held, "held")?,
                    points: required(&mut d.points, "points")?,
                    scorers: required(&mut d.scorers, "scorers")?,
                },
                "tokens_scored",
            ),
            EventTag::TitleTaken => (
                Event::TitleTaken {
                    player: required(&mut d.player, "player")?,
                    title: required(&mut d.title, "title")?,
                    tiles: required(&mut d.tiles, "tiles")?,
                    pos: required(&mut d.pos, "pos")?,
                    segment: required(&mut d.segment, "segment")?,
                },
                "title_taken",
            ),
            EventTag::TitleScored => (
                Event::TitleScored {
                    title: required(&mut d.title, "title")?,
                    player: required(&mut d.player, "player")?,
                    features: required(&mut d.features, "features")?,
                    points: required(&mut d.points, "points")?,
                },
                "title_scored",
            ),
            EventTag::FigureReturned => (
                Event::FigureReturned {
                    player: required(&mut d.player, "player")?,
                    figure: required(&mut d.figure, "figure")?,
                    pos: required(&mut d.pos, "pos")?,
                    segment: required(&mut d.segment, "segment")?,
                },
                "figure_returned",
            ),
            EventTag::TileHidden => (
                Event::TileHidden {
                    player: required(&mut d.player, "player")?,
                    pos: required(&mut d.pos, "pos")?,
                },
                "tile_hidden",
            ),
            EventTag::TokenDrawn => (
                Event::TokenDrawn {
                    player: required(&mut d.player, "player")?,
                    pos: required(&mut d.pos, "pos")?,
                    segment: required(&mut d.segment, "segment")?,
                    drawn: required(&mut d.drawn, "drawn")?,
                },
                "token_drawn",
            ),
            EventTag::ExtraTurn => {
                (Event::ExtraTurn { player: required(&mut d.player, "player")? }, "extra_turn")
            }
            EventTag::TurnStarted => {
                (Event::TurnStarted { player: required(&mut d.player, "player")? }, "turn_started")
            }
            EventTag::GameOver => {
                (Event::GameOver { winners: required(&mut d.winners, "winners")? }, "game_over")
            }
        };
        none_left(
            "an event",
            tag,
            &[
                ("player", doc.player.is_some()),
                ("tile", doc.tile.is_some()),
                ("pos", doc.pos.is_some()),
                ("rotation", doc.rotation.is_some()),
                ("figure", doc.figure.is_some()),
                ("segment", doc.segment.is_some()),
                ("winners", doc.winners.is_some()),
                ("kind", doc.kind.is_some()),
                ("reason", doc.reason.is_some()),
                ("complete", doc.complete.is_some()),
                ("tiles", doc.tiles.is_some()),
                ("marks", doc.marks.is_some()),
                ("cities", doc.cities.is_some()),
                ("rule", doc.rule.is_some()),
                ("farmers", doc.farmers.is_some()),
                ("points", doc.points.is_some()),
                ("scorers", doc.scorers.is_some()),
                ("token", doc.token.is_some()),
                ("count", doc.count.is_some()),
                ("held", doc.held.is_some()),
                ("title", doc.title.is_some()),
                ("features", doc.features.is_some()),
                ("drawn", doc.drawn.is_some()),
            ],
        )?;
        Ok(event)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec::Vec;

    use super::*;

    /// Every variant reads back what it writes.
    #[test]
    fn what_is_written_reads_back() {
        let pos = Pos::new(-3, 7);
        let actions = [
            Action::Draw,
            Action::DrawTile { tile: 5 },
            Action::Place { pos, rotation: Rotation::R270 },
            Action::Deploy { segment: 2, figure: Figure::BIG_FOLLOWER },
            Action::RecallAbbot { pos },
            Action::Skip,
        ];
        for action in actions {
            let json = serde_json::to_string(&action).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), action, "{json}");
        }
        for phase in [Phase::Draw, Phase::Place { tile: 3 }, Phase::Figure { pos }, Phase::GameOver]
        {
            let json = serde_json::to_string(&phase).unwrap();
            assert_eq!(serde_json::from_str::<Phase>(&json).unwrap(), phase, "{json}");
        }
        let player = PlayerId(2);
        let score = FeatureScore {
            kind: SegmentKind::City,
            pos,
            segment: 1,
            reason: ScoreReason::GameEnd,
            complete: true,
            tiles: 4,
            marks: MarkCounts([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            cities: 0,
            rule: Some(RuleId(1)),
            farmers: false,
            points: 15,
            scorers: PlayerSet::EMPTY.with(player),
        };
        let events = [
            Event::TileDrawn { player, tile: 1 },
            Event::TileDiscarded { player, tile: 1 },
            Event::TilePlaced { player, tile: 1, pos, rotation: Rotation::R90 },
            Event::FigurePlaced { player, figure: Figure::ABBOT, pos, segment: 0 },
            Event::AbbotRecalled { player, pos },
            Event::FeatureScored(score),
            Event::TokensTaken { player, token: TokenId(2), count: 3, pos, segment: 1 },
            Event::TokensScored {
                token: TokenId(1),
                held: 4,
                points: 10,
                scorers: PlayerSet::EMPTY.with(player),
            },
            Event::TitleTaken { player, title: TitleId(1), tiles: 7, pos, segment: 2 },
            Event::TitleScored { title: TitleId(0), player, features: 5, points: 5 },
            Event::FigureReturned { player, figure: Figure::FOLLOWER, pos, segment: 3 },
            Event::TurnStarted { player },
            Event::GameOver { winners: PlayerSet::EMPTY.with(player) },
        ];
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), event, "{json}");
        }
    }

    /// Keys in any order; missing, foreign and unknown fields refused by name.
    #[test]
    fn fields_are_checked_against_the_variant() {
        let place: Action =
            serde_json::from_str(r#"{"rotation":90,"pos":{"x":1,"y":0},"action":"place"}"#)
                .unwrap();
        assert_eq!(place, Action::Place { pos: Pos::new(1, 0), rotation: Rotation::R90 });
        let refusals = [
            (r#"{"action":"place","pos":{"x":1,"y":0}}"#, "missing field `rotation`"),
            (r#"{"action":"draw","pos":{"x":1,"y":0}}"#, "an action `draw` has no field `pos`"),
            (r#"{"action":"skip","a":0}"#, "unknown field `a`"),
            (r#"{"a":0,"action":"skip"}"#, "unknown field `a`"),
            (r#"{"action":"fly"}"#, "unknown variant `fly`"),
            (r#"{"pos":{"x":1,"y":0}}"#, "missing field `action`"),
        ];
        for (json, expected) in refusals {
            let error = serde_json::from_str::<Action>(json).unwrap_err().to_string();
            assert!(error.contains(expected), "{json}: {error}");
        }
        let error =
            serde_json::from_str::<Event>(r#"{"event":"turn_started","player":0,"tile":3}"#);
        assert!(
            error.unwrap_err().to_string().contains("an event `turn_started` has no field `tile`")
        );
        let error = serde_json::from_str::<Phase>(r#"{"phase":"place"}"#);
        assert!(error.unwrap_err().to_string().contains("missing field `tile`"));
    }

    /// A list of actions with thousands of unknown keys before the tag stops at the first
    /// (capi/tests/bounded_input.rs measures millions).
    #[test]
    fn unknown_keys_stop_the_reading_at_once() {
        let keys: Vec<&str> = core::iter::repeat_n("\"a\":0", 1 << 12).collect();
        let json = alloc::format!("[{{{},\"action\":\"draw\"}}]", keys.join(","));
        let error = serde_json::from_str::<Vec<Action>>(&json).unwrap_err();
        assert_eq!(error.column(), 5, "{error}");
    }
}
