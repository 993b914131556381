//! `carcassonne replay`: load a saved game, check every action again, and print its report.

use std::path::Path;
use std::process::ExitCode;

use carcassonne::{Action, Event, GameSetup, PlayerSet, SAVE_FORMAT};
use serde::Deserialize;

use crate::play::Transcript;
use crate::tileset::CommandError;

/// A saved game as `play --json` writes it: the save itself (`format`, `setup`, `actions`),
/// which is all any save of the library has, and what `play` recorded beside it, read to be
/// checked, not trusted. Read straight into these types: an untyped JSON tree of a hostile
/// file took ninety times the file's size.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    format: u32,
    setup: GameSetup,
    /// Who sat in each seat, by bot profile or `human`, as `play` names them.
    players: Option<Vec<String>>,
    actions: Vec<Action>,
    /// The ids of the marks and rules the events' numbers index, as `play` wrote them.
    marks: Option<Vec<String>>,
    rules: Option<Vec<String>>,
    events: Option<Vec<Event>>,
    scores: Option<Vec<u32>>,
    winners: Option<PlayerSet>,
}

/// The setup and actions of the saved game in `file` (`-`: standard input), with its format
/// checked; what `play` recorded beside them is dropped.
pub fn load(file: &Path) -> Result<(GameSetup, Vec<Action>), CommandError> {
    let record = read(file)?;
    Ok((record.setup, record.actions))
}

fn read(file: &Path) -> Result<Record, CommandError> {
    let name = file.display();
    let text = crate::read_json_input(file, "a saved game")?;
    let record: Record =
        serde_json::from_str(&text).map_err(|error| crate::json_error(file, &error))?;
    drop(text);
    if record.format != SAVE_FORMAT {
        return Err(format!(
            "{name}: saved-game format {} is not supported; this version reads format {SAVE_FORMAT}",
            record.format
        ));
    }
    Ok(record)
}

pub fn replay(file: &Path, svg: Option<&Path>) -> Result<ExitCode, CommandError> {
    let name = file.display();
    let record = read(file)?;
    // Loading a game replays it: every action is checked again, and a refused one is named
    // by its index and reason.
    let players = record.players.unwrap_or_default();
    check_players(&players, record.setup.players).map_err(|error| format!("{name}: {error}"))?;
    let mut transcript = Transcript::replay(record.setup, &record.actions)
        .map_err(|error| format!("{name}: {error}"))?;
    transcript.players = players;

    if let Some(events) = &record.events
        && let Some(at) = first_difference(events, &transcript.events)
    {
        return Err(format!(
            "{name}: the recorded events differ from the replay's from event {at} on; \
             the file was edited or written by another version of the rules"
        ));
    }
    let ids = |names: &[String], known: Vec<&str>| names.iter().map(String::as_str).eq(known);
    if let Some(marks) = &record.marks
        && !ids(marks, transcript.game.marks().iter().map(|m| m.id.as_str()).collect())
    {
        return Err(format!("{name}: the recorded marks differ from those the sets declare"));
    }
    if let Some(rules) = &record.rules
        && !ids(rules, transcript.game.rules().iter().map(|r| r.id.as_str()).collect())
    {
        return Err(format!("{name}: the recorded rules differ from those the sets declare"));
    }
    if let Some(scores) = &record.scores
        && scores != transcript.game.scores()
    {
        return Err(format!(
            "{name}: the recorded scores {scores:?} differ from the replay's {:?}",
            transcript.game.scores()
        ));
    }
    if let Some(winners) = record.winners
        && winners != transcript.winners()
    {
        return Err(format!("{name}: the recorded winners differ from the replay's"));
    }
    if let Some(svg) = svg {
        let picture = carcassonne_render::board_svg(&transcript.game, &Default::default());
        crate::picture::write_picture(svg, &picture, false)?;
    }
    crate::write_stdout(&transcript.report())?;
    Ok(ExitCode::SUCCESS)
}

/// The longest player name read from a save: a bot profile's name is at most 64 bytes.
const MAX_PLAYER_NAME: usize = 64;

/// A save's `players` is printed, so it is checked first: one name a seat (or none at all),
/// each 1 to 64 bytes of printable characters without commas or spaces, as profile names are.
fn check_players(players: &[String], seats: u8) -> Result<(), CommandError> {
    if !players.is_empty() && players.len() != usize::from(seats) {
        return Err(format!("players lists {} names for a game of {seats} players", players.len()));
    }
    for (seat, player) in players.iter().enumerate() {
        let printable = player.chars().all(|c| !c.is_control() && !c.is_whitespace() && c != ',');
        if player.is_empty() || player.len() > MAX_PLAYER_NAME || !printable {
            return Err(format!(
                "players: the name of seat {seat} is not 1 to {MAX_PLAYER_NAME} bytes without \
                 spaces, commas or control characters"
            ));
        }
    }
    Ok(())
}

/// The index of the first event that differs, counting a missing one as a difference.
fn first_difference(recorded: &[Event], replayed: &[Event]) -> Option<usize> {
    let common = recorded.iter().zip(replayed).position(|(a, b)| a != b);
    common.or((recorded.len() != replayed.len()).then(|| recorded.len().min(replayed.len())))
}
