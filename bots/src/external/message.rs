//! The protocol's messages (docs/bot-protocol.md): what the engine writes, one JSON object a
//! line, and how it reads the bot's answers.

use carcassonne::{Action, Game, PlayerId, PlayerView};
use serde::{Deserialize, Serialize};

/// The protocol's version, in `hello`; raised when a message changes meaning.
pub const PROTOCOL_VERSION: u32 = 1;

/// The first message to a started bot.
#[derive(Serialize)]
pub(crate) struct Hello<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    protocol: u32,
    engine: &'a str,
}

impl Hello<'_> {
    pub(crate) fn line() -> String {
        let engine = concat!("carcassonne-bots ", env!("CARGO_PKG_VERSION"));
        to_line(&Hello { kind: "hello", protocol: PROTOCOL_VERSION, engine })
    }
}

/// A decision to make: everything a player may know, and the actions to choose from.
#[derive(Serialize)]
pub(crate) struct Turn<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    /// The seat to move.
    seat: PlayerId,
    /// How long the bot has, from when the line is written.
    time_ms: u64,
    /// The legal actions; the answer is one of them, by index or in full.
    legal: &'a [Action],
    /// The position as everyone sees it.
    view: PlayerView,
    /// The game so far as a saved game with a seed of 0 and every draw named: what the
    /// players have seen, never the bag's order.
    game: Game,
}

impl Turn<'_> {
    pub(crate) fn line(game: &Game, seat: PlayerId, time_ms: u64, legal: &[Action]) -> String {
        to_line(&Turn {
            kind: "turn",
            seat,
            time_ms,
            legal,
            view: game.view(),
            game: game.reshuffled(0),
        })
    }
}

fn to_line(message: &impl Serialize) -> String {
    let mut line = serde_json::to_string(message).unwrap_or_default();
    line.push('\n');
    line
}

/// A line from the bot, read as the protocol's answer.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    #[serde(rename = "type")]
    kind: String,
    index: Option<u64>,
    action: Option<Action>,
    name: Option<String>,
}

/// What a `ready` line says.
#[derive(Debug)]
pub(crate) struct Ready {
    /// The name the bot gives itself, if any.
    pub(crate) name: Option<String>,
}

/// Reads a `ready` line.
pub(crate) fn ready(line: &str) -> Result<Ready, String> {
    let answer = answer(line)?;
    match answer {
        Answer { kind, index: None, action: None, name } if kind == "ready" => Ok(Ready { name }),
        Answer { kind, .. } if kind == "ready" => {
            Err("`ready` has no `index` or `action`".to_owned())
        }
        Answer { kind, .. } => {
            Err(format!("expected `ready` after `hello`, not `{}`", short(&kind)))
        }
    }
}

/// What a `play` line chooses.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// An index into the turn's `legal` list.
    Index(u64),
    /// An action written out.
    Action(Action),
}

/// Reads a `play` line.
pub(crate) fn play(line: &str) -> Result<Choice, String> {
    let answer = answer(line)?;
    if answer.kind != "play" {
        return Err(format!("expected `play`, not `{}`", short(&answer.kind)));
    }
    match answer {
        Answer { name: Some(_), .. } => Err("`play` has no `name`".to_owned()),
        Answer { index: Some(index), action: None, .. } => Ok(Choice::Index(index)),
        Answer { index: None, action: Some(action), .. } => Ok(Choice::Action(action)),
        Answer { index: None, action: None, .. } => {
            Err("`play` needs an `index` or an `action`".to_owned())
        }
        Answer { .. } => Err("`play` has an `index` or an `action`, not both".to_owned()),
    }
}

fn answer(line: &str) -> Result<Answer, String> {
    serde_json::from_str(line).map_err(|error| format!("`{}`: {error}", short(line)))
}

/// `text` cut to a length fit for a report.
pub(crate) fn short(text: &str) -> std::borrow::Cow<'_, str> {
    carcassonne::limits::shorten(text, 120)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each answer the protocol allows is read, and each mistake is named.
    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(play(r#"{"type":"play","index":3}"#), Ok(Choice::Index(3)));
        assert_eq!(
            play(r#"{"action":{"action":"skip"},"type":"play"}"#),
            Ok(Choice::Action(Action::Skip))
        );
        for (line, needle) in [
            (r#"{"type":"play"}"#, "needs an `index` or an `action`"),
            (r#"{"type":"play","index":1,"action":{"action":"skip"}}"#, "not both"),
            (r#"{"type":"move","index":1}"#, "expected `play`, not `move`"),
            (r#"{"type":"play","index":-1}"#, "invalid value"),
            (r#"{"type":"play","index":1,"why":"best"}"#, "unknown field `why`"),
            (r#"{"type":"play","action":{"action":"fly"}}"#, "fly"),
            ("e2e4", "`e2e4`"),
            ("", "EOF"),
        ] {
            let error = play(line).unwrap_err();
            assert!(error.contains(needle), "{line}: {error}");
        }
        assert_eq!(
            ready(r#"{"type":"ready","name":"mine"}"#).unwrap().name.as_deref(),
            Some("mine")
        );
        assert!(ready(r#"{"type":"ready"}"#).unwrap().name.is_none());
        assert!(ready(r#"{"type":"play","index":0}"#).unwrap_err().contains("expected `ready`"));
    }

    /// A turn tells the bot the tiles drawn but not the bag's order: two games that differ only
    /// in that order write the same line.
    #[test]
    fn a_turn_never_shows_the_bags_order() {
        let setup =
            carcassonne::GameSetup::new(vec![carcassonne::Catalog::builtin("base").unwrap()], 2);
        let mut game = Game::new(setup).unwrap();
        for _ in 0..9 {
            let action = game.legal_actions()[0];
            game.apply(action).unwrap();
        }
        let twin = game.reshuffled(12345);
        assert_ne!(game, twin);
        let (seat, legal) = (game.current_player(), game.legal_actions());
        let line = Turn::line(&game, seat, 100, &legal);
        assert_eq!(line, Turn::line(&twin, seat, 100, &legal));
        assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["type"], "turn");
        assert_eq!(value["game"]["setup"]["seed"], 0);
        let loaded: Game = serde_json::from_value(value["game"].clone()).unwrap();
        assert_eq!(loaded.view(), game.view());
    }
}
