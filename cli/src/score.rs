//! `carcassonne score`: the end-of-game score of a landscape described in a JSON file.

use std::path::PathBuf;
use std::process::ExitCode;

use carcassonne::{LandscapeDoc, LandscapeOptions};

use crate::play::{RuleArgs, compact, load_set, one_per_line};
use crate::tileset::CommandError;

/// `carcassonne score`.
#[derive(clap::Args)]
pub struct ScoreArgs {
    /// The landscape: {"tilesets": [...], "tiles": [{tile, x, y, rotation}],
    /// "figures": [{player, figure, x, y, segment}]}; `-` reads standard input. Its
    /// `tilesets` are built-in names or inline TOML, never files.
    #[arg(value_name = "FILE.json")]
    file: PathBuf,
    /// The tile sets, when the landscape lists none: built-in names or tile set files
    /// (regular files of at most 1 MiB), comma-separated [default: base].
    #[arg(long, value_name = "SET,...", value_delimiter = ',')]
    tilesets: Vec<String>,
    /// Every feature counts for player 0, whatever stands on it (solo puzzles); fields
    /// only with farmers.
    #[arg(long)]
    claim_all: bool,
    /// Points per pennant in a completed city without a cathedral, in place of 2.
    #[arg(long, value_name = "N")]
    pennant_value: Option<u32>,
    /// Points per pennant in an unfinished city without a cathedral, in place of 1.
    #[arg(long, value_name = "N")]
    unfinished_pennant_value: Option<u32>,
    /// The published solo puzzles: --claim-all --no-farmers --pennant-value 0
    /// --unfinished-pennant-value 0 (cities 2 a tile complete, 1 unfinished; roads 1 a tile;
    /// monasteries 9 or 1 + neighbours; no fields).
    #[arg(long, conflicts_with_all = ["claim_all", "pennant_value", "unfinished_pennant_value"])]
    solo_puzzle: bool,
    #[command(flatten)]
    rules: RuleArgs,
    /// Also draw the landscape, with each player's points, to this file: PNG when its name
    /// ends in .png, else SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

impl ScoreArgs {
    /// The picture this command writes, if any.
    pub fn picture(&self) -> Option<&std::path::Path> {
        self.svg.as_deref()
    }

    fn options(&self) -> LandscapeOptions {
        if self.solo_puzzle {
            let rules = self.rules.options(false).with_farmers(false);
            return LandscapeOptions::solo_puzzle().with_rules(rules);
        }
        LandscapeOptions::default()
            .with_rules(self.rules.options(false))
            .with_claim_all(self.claim_all)
            .with_pennant_value(self.pennant_value)
            .with_unfinished_pennant_value(self.unfinished_pennant_value)
    }
}

pub fn score(args: &ScoreArgs) -> Result<ExitCode, CommandError> {
    let file = &args.file;
    let name = file.display();
    let text = crate::read_json_input(file, "a landscape")?;
    let doc: LandscapeDoc =
        serde_json::from_str(&text).map_err(|error| crate::json_error(file, &error))?;
    drop(text);
    let sets = args.tilesets.iter().map(|set| load_set(set)).collect::<Result<_, _>>()?;
    let landscape =
        doc.into_landscape(sets).map_err(|error| format!("{name}: {error} (--tilesets)"))?;
    let score = landscape.score(&args.options()).map_err(|error| format!("{name}: {error}"))?;
    if let Some(svg) = &args.svg {
        let picture = carcassonne_render::landscape_svg(&landscape, &args.options())
            .map_err(|error| format!("{name}: {error}"))?;
        crate::picture::write_picture(svg, &picture, false)?;
    }
    let json = format!(
        "{{\n  \"total\": {},\n  \"features\": {}\n}}\n",
        compact(&score.total)?,
        one_per_line(&score.features)?
    );
    crate::write_stdout(&json)?;
    Ok(ExitCode::SUCCESS)
}
