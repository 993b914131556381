//! The `carcassonne` command-line tool: tile sets, random games, replays and landscape scores.

mod analyze;
mod arena;
mod bots;
mod human;
mod names;
mod picture;
mod play;
mod replay;
mod score;
mod tileset;
mod train;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carcassonne::limits::{
    MAX_ERROR_MESSAGE, MAX_JSON_BYTES, read_text_at_most, shortened_display,
};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use crate::tileset::CommandError;

/// Carcassonne rules engine: tools for tile sets and games.
#[derive(Parser)]
#[command(name = "carcassonne", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check, export and draw tile set files.
    #[command(subcommand)]
    Tileset(TilesetCommand),
    /// Plays a whole game between random players or bots and prints every move, the board
    /// and the scores (or, with --json, a save file for `replay`).
    Play(play::PlayArgs),
    /// Bots play paired games (each tile order once per seat rotation); prints wins, scores,
    /// margins, time per turn and Elo differences with 95% intervals.
    Arena(arena::ArenaArgs),
    /// Learns the evaluator's weights from self-play (by default SPSA tuning: perturbed
    /// weights play each other and move by the margins they win; or a regression of the
    /// margins to come on each position's signals) and writes them as a weights file.
    TrainEvaluator(train::TrainArgs),
    /// Ranks the moves of a saved game's player to move (or of any turn) by the final margin
    /// and win chance they lead to, over rollouts on fresh shuffles of the tiles; --svg draws
    /// the board shaded by each cell's best move, --all reviews every turn.
    Analyze(analyze::AnalyzeArgs),
    /// Replays a saved game (as `play --json` writes it), checking every action, and prints
    /// the same report as `play`.
    Replay {
        /// The saved game; `-` reads standard input.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Also draw the final board to this file: PNG when its name ends in .png, else SVG.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Draws the board of a saved game (as `play --json` writes it) at any turn, with the
    /// figures, the last move and the scores, as SVG or PNG.
    Render(picture::RenderArgs),
    /// Scores a landscape (tiles and figures in a JSON file) as at the end of a game and
    /// prints the totals and every feature's score as JSON.
    Score(score::ScoreArgs),
}

#[derive(Subcommand)]
enum TilesetCommand {
    /// Lists the tile sets built into the library.
    List,
    /// Checks tile set files and prints every problem, then whether they can be played
    /// together as a game would combine them (every clash, as `dsl-sets-clash`); exits with 1
    /// if any file is invalid or any two clash.
    Check {
        /// Tile set files (or names of built-in sets).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Checks each file alone, not the files together: for a folder of sets that are
        /// alternatives to each other (the two editions of the base game).
        #[arg(long)]
        each: bool,
    },
    /// Prints the validated catalog, as JSON (default) or as canonical tile set TOML.
    Export {
        /// A built-in set name (base, base_c2, river, inns_and_cathedrals, cathars) or a file.
        #[arg(value_name = "NAME|FILE")]
        set: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Draws every tile of a set from its segment data as a sheet (SVG, or PNG for a .png
    /// file).
    Render {
        /// A built-in set name or a file.
        #[arg(value_name = "NAME|FILE")]
        set: String,
        /// Where to write the sheet: PNG when its name ends in .png, else SVG.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

/// How `tileset export` writes a catalog.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// The export schema documented in tilesets/README.md.
    Json,
    /// The tile set format itself, in canonical layout.
    Toml,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A picture's format comes from its file's name; a name that contradicts --png is a
    // usage error, refused before any work as clap refuses its own (exit code 2).
    if let Some((path, flag, file, png)) = picture_of(&cli.command)
        && let Err(message) = picture::picture_format(file, png, flag)
    {
        usage_error(path, message);
    }
    let result = match cli.command {
        Command::Tileset(TilesetCommand::List) => tileset::list(),
        Command::Tileset(TilesetCommand::Check { files, each }) => tileset::check(&files, each),
        Command::Tileset(TilesetCommand::Export { set, format, output }) => {
            tileset::export(&set, format, output.as_deref())
        }
        Command::Tileset(TilesetCommand::Render { set, output }) => tileset::render(&set, &output),
        Command::Play(args) => play::play(&args),
        Command::Arena(args) => arena::arena(&args),
        Command::TrainEvaluator(args) => train::train(&args),
        Command::Analyze(args) => analyze::analyze_command(&args),
        Command::Replay { file, svg } => replay::replay(&file, svg.as_deref()),
        Command::Render(args) => picture::render(&args),
        Command::Score(args) => score::score(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            write_stderr(&format!("error: {message}\n"));
            ExitCode::FAILURE
        }
    }
}

/// The picture file `command` writes, if any: the subcommand's path, the option naming the
/// file, the file, and whether --png was given.
fn picture_of(command: &Command) -> Option<(&'static [&'static str], &'static str, &Path, bool)> {
    match command {
        Command::Render(args) => {
            let (file, png) = args.picture();
            Some((&["render"][..], "-o", file, png))
        }
        Command::Analyze(args) => {
            args.picture().map(|(file, png)| (&["analyze"][..], "--svg", file, png))
        }
        Command::Replay { svg, .. } => {
            svg.as_deref().map(|file| (&["replay"][..], "--svg", file, false))
        }
        Command::Play(args) => args.picture().map(|file| (&["play"][..], "--svg", file, false)),
        Command::Score(args) => args.picture().map(|file| (&["score"][..], "--svg", file, false)),
        Command::Tileset(TilesetCommand::Render { output, .. }) => {
            Some((&["tileset", "render"][..], "-o", output.as_path(), false))
        }
        Command::Tileset(_) | Command::Arena(_) | Command::TrainEvaluator(_) => None,
    }
}

/// Refuses the command line as clap refuses a bad one: the message, the subcommand's usage,
/// exit code 2.
fn usage_error(path: &[&str], message: String) -> ! {
    let mut command = Cli::command();
    // Built, every subcommand knows its whole name ("carcassonne render") for its usage.
    command.build();
    for name in path {
        let Some(found) = command.find_subcommand(name) else { break };
        command = found.clone();
    }
    command.error(ErrorKind::ArgumentConflict, message).exit()
}

/// The text of a JSON file the user names, `-` for standard input (`what` says which kind,
/// for messages). Any file will do, a pipe or `/dev/stdin` too, but no more than the library
/// reads is ever read: one byte over [`MAX_JSON_BYTES`] and it is refused.
fn read_json_input(file: &Path, what: &str) -> Result<String, CommandError> {
    let name = file.display();
    let cannot = |error| format!("cannot read {name}: {error}");
    let text = if file == Path::new("-") {
        read_text_at_most(std::io::stdin().lock(), MAX_JSON_BYTES)
    } else {
        read_text_at_most(std::fs::File::open(file).map_err(cannot)?, MAX_JSON_BYTES)
    };
    text.map_err(cannot)?.ok_or_else(|| {
        format!("{name} is over {MAX_JSON_BYTES} bytes; {what} may be at most {MAX_JSON_BYTES}")
    })
}

/// A JSON error in a file the user named, cut to a readable length: serde_json quotes an
/// unknown key whole, and a hostile file's key may be megabytes long.
fn json_error(file: &Path, error: &serde_json::Error) -> CommandError {
    let what = match error.classify() {
        serde_json::error::Category::Data => "",
        _ => " is not JSON",
    };
    format!("{}{what}: {}", file.display(), shortened_display(error, MAX_ERROR_MESSAGE))
}

/// A progress bar with an ETA on standard error for `len` of `unit` ("games", "turns"),
/// hidden when standard error is not a terminal (a log or a pipe gets no redraws).
fn progress_bar(len: u64, unit: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} spent, ETA {{eta}}");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Writes `text` to standard error, come what may: when standard error is closed (a pipe
/// whose reader is gone), there is nobody left to tell, and `eprintln!` would panic.
fn write_stderr(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush());
}

/// Writes a command's whole output at once; a closed pipe (`| head`) is not worth a panic.
fn write_stdout(text: &str) -> Result<(), CommandError> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to standard output: {error}"))
        }
        _ => Ok(()),
    }
}
