//! `carcassonne score`: the end-of-game score of a landscape described in a JSON file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carcassonne::{BUILTIN_NAMES, Landscape, LandscapeFigure, LandscapeOptions, LandscapeTile};
use serde::Deserialize;

use crate::play::{RuleArgs, compact, load_set, one_per_line};
use crate::tileset::CommandError;

/// `carcassonne score`.
#[derive(clap::Args)]
pub struct ScoreArgs {
    /// The landscape: {"tilesets": [...], "tiles": [{tile, x, y, rotation}],
    /// "figures": [{player, figure, x, y, segment}]}.
    #[arg(value_name = "FILE.json")]
    file: PathBuf,
    /// Every feature counts for player 0, whatever stands on it (solo puzzles).
    #[arg(long)]
    claim_all: bool,
    /// Points per pennant in a completed city without a cathedral, in place of 2.
    #[arg(long, value_name = "N")]
    pennant_value: Option<u32>,
    #[command(flatten)]
    rules: RuleArgs,
}

/// A landscape file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LandscapeFile {
    /// Built-in set names or tile set files (relative to the landscape file).
    #[serde(default = "base_only")]
    tilesets: Vec<String>,
    tiles: Vec<LandscapeTile>,
    #[serde(default)]
    figures: Vec<LandscapeFigure>,
}

fn base_only() -> Vec<String> {
    vec!["base".into()]
}

pub fn score(args: &ScoreArgs) -> Result<ExitCode, CommandError> {
    let file = &args.file;
    let name = file.display();
    let text = crate::read_json_file(file, "a landscape")?;
    let parsed: LandscapeFile =
        serde_json::from_str(&text).map_err(|error| format!("{name}: {error}"))?;
    let catalogs =
        parsed.tilesets.iter().map(|set| load_set(&beside(file, set))).collect::<Result<_, _>>()?;
    let landscape = Landscape { catalogs, tiles: parsed.tiles, figures: parsed.figures };
    let options = LandscapeOptions {
        rules: args.rules.options(false),
        claim_all: args.claim_all,
        pennant_value: args.pennant_value,
    };
    let score = landscape.score(&options).map_err(|error| format!("{name}: {error}"))?;
    let json = format!(
        "{{\n  \"total\": {},\n  \"features\": {}\n}}\n",
        compact(&score.total)?,
        one_per_line(&score.features)?
    );
    crate::write_stdout(&json)?;
    Ok(ExitCode::SUCCESS)
}

/// A built-in name as it is; a relative path as seen from the landscape file's folder, so
/// the file can name a tile set next to it wherever the tool runs.
fn beside(file: &Path, set: &str) -> String {
    let path = Path::new(set);
    if BUILTIN_NAMES.contains(&set) || path.is_absolute() {
        return set.to_string();
    }
    match file.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.join(path).display().to_string(),
        _ => set.to_string(),
    }
}
