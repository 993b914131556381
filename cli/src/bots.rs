//! Bots for `play` and `arena`: the built-in profiles, a user's profile file, and lists of
//! bot names.

use std::path::Path;

use carcassonne::limits::{MAX_FILE_BYTES, read_text_at_most};
use carcassonne_bots::{Profile, Profiles};

use crate::tileset::CommandError;

/// The built-in profiles, with those of `file` added (replacing any of the same name).
pub fn profiles(file: Option<&Path>) -> Result<Profiles, CommandError> {
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
