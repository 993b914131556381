//! `carcassonne replay`: load a saved game, check every action again, and print its report.

use std::path::Path;
use std::process::ExitCode;

use carcassonne::{Event, Game, PlayerSet};
use serde::de::DeserializeOwned;

use crate::play::Transcript;
use crate::tileset::CommandError;

pub fn replay(file: &Path) -> Result<ExitCode, CommandError> {
    let name = file.display();
    let text = crate::read_json_file(file, "a saved game")?;
    let mut document: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| format!("{name} is not JSON: {error}"))?;
    let Some(fields) = document.as_object_mut() else {
        return Err(format!(
            "{name}: a saved game is a JSON object with format, setup and actions"
        ));
    };
    // What `play --json` adds after the save itself: read to check it, not to trust it.
    let events = fields.remove("events");
    let scores = fields.remove("scores");
    let winners = fields.remove("winners");

    // Loading a game replays it: every action is checked again, and a refused one is named
    // by its index and reason.
    let game: Game =
        serde_json::from_value(document).map_err(|error| format!("{name}: {error}"))?;
    let transcript = Transcript::replay(game.setup(), game.actions())
        .map_err(|error| format!("{name}: {error}"))?;

    let label = name.to_string();
    if let Some(events) = recorded::<Vec<Event>>(&label, "events", events)?
        && let Some(at) = first_difference(&events, &transcript.events)
    {
        return Err(format!(
            "{name}: the recorded events differ from the replay's from event {at} on; \
             the file was edited or written by another version of the rules"
        ));
    }
    if let Some(scores) = recorded::<Vec<u32>>(&label, "scores", scores)?
        && scores != transcript.game.scores()
    {
        return Err(format!(
            "{name}: the recorded scores {scores:?} differ from the replay's {:?}",
            transcript.game.scores()
        ));
    }
    if let Some(winners) = recorded::<PlayerSet>(&label, "winners", winners)?
        && winners != transcript.winners()
    {
        return Err(format!("{name}: the recorded winners differ from the replay's"));
    }
    crate::write_stdout(&transcript.report())?;
    Ok(ExitCode::SUCCESS)
}

/// A part of the record `play --json` writes, if present.
fn recorded<T: DeserializeOwned>(
    name: &str,
    key: &str,
    value: Option<serde_json::Value>,
) -> Result<Option<T>, CommandError> {
    value
        .map(|value| {
            serde_json::from_value(value).map_err(|error| format!("{name}: `{key}`: {error}"))
        })
        .transpose()
}

/// The index of the first event that differs, counting a missing one as a difference.
fn first_difference(recorded: &[Event], replayed: &[Event]) -> Option<usize> {
    let common = recorded.iter().zip(replayed).position(|(a, b)| a != b);
    common.or((recorded.len() != replayed.len()).then(|| recorded.len().min(replayed.len())))
}
