//! Bots for `play` and `arena`: the built-in profiles, a user's profile file, and lists of
//! bot names.

use std::path::Path;

use carcassonne::limits::{MAX_FILE_BYTES, read_text_at_most};
use carcassonne_bots::{Profile, Profiles};

use crate::tileset::CommandError;

/// Bots in any language, named on the command line.
#[derive(clap::Args, Default)]
pub struct ExternalArgs {
    /// An external bot, as NAME=COMMAND: a program that speaks the bot protocol
    /// (docs/bot-protocol.md), under a name to use among the bots. The command line is split
    /// into words as a shell would and run without one. May be given more than once.
    #[arg(long = "bot", id = "external_bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// How long an external bot may think about one move, in milliseconds; a slower answer
    /// loses the move to a random one.
    #[arg(long = "bot-ms", default_value_t = 5000, value_name = "MS")]
    move_ms: u64,
}

/// The built-in profiles, with those of `file` and then the external bots of `external`
/// added (each replacing any of the same name).
pub fn profiles(file: Option<&Path>, external: &ExternalArgs) -> Result<Profiles, CommandError> {
    let mut profiles = from_file(file)?;
    for bot in &external.bots {
        profiles.insert(Profile::from_bot_argument(bot, external.move_ms)?);
    }
    Ok(profiles)
}

/// The moves each external bot lost, a line each, for standard error; empty when none.
pub fn fault_lines<'a>(bots: impl Iterator<Item = (&'a str, carcassonne_bots::Faults)>) -> String {
    let mut out = String::new();
    for (name, faults) in bots {
        if faults.total() > 0 {
            out.push_str(&format!("bot {name}: {}\n", describe_faults(&faults)));
        }
    }
    out
}

/// `faults` in words: how many moves went to a random one, by cause, and the first.
pub fn describe_faults(faults: &carcassonne_bots::Faults) -> String {
    let causes: Vec<String> = [
        (faults.slow, "slow"),
        (faults.exited, "exited"),
        (faults.garbage, "garbage"),
        (faults.illegal, "illegal"),
        (faults.abandoned, "not asked after its starts were spent"),
    ]
    .iter()
    .filter(|(count, _)| *count > 0)
    .map(|(count, cause)| format!("{count} {cause}"))
    .collect();
    let first = faults.first.as_deref().unwrap_or("");
    format!("{} moves lost to a random one ({}); first: {first}", faults.total(), causes.join(", "))
}

/// The built-in profiles, with those of `file` added (replacing any of the same name).
fn from_file(file: Option<&Path>) -> Result<Profiles, CommandError> {
    let Some(file) = file else { return Ok(Profiles::builtin().clone()) };
    let name = file.display();
    let reader =
        std::fs::File::open(file).map_err(|error| format!("cannot read {name}: {error}"))?;
    let text = read_text_at_most(reader, MAX_FILE_BYTES)
        .map_err(|error| format!("cannot read {name}: {error}"))?
        .ok_or_else(|| format!("{name} is over {MAX_FILE_BYTES} bytes; a profile file may be at most {MAX_FILE_BYTES}"))?;
    let mine = Profiles::from_toml(&name.to_string(), &text).map_err(|error| error.to_string())?;
    Ok(Profiles::builtin().with(&mine))
}

/// The profiles a comma-separated list names, in order.
pub fn named(profiles: &Profiles, names: &[String]) -> Result<Vec<Profile>, CommandError> {
    names
        .iter()
        .map(|name| profiles.find(name.trim()).cloned().map_err(|error| error.to_string()))
        .collect()
}
