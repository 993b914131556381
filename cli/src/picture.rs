//! `carcassonne render`: the board of a saved game at any turn, as SVG or PNG; the final
//! board that `play --svg` and `replay --svg` write; and how every command that writes a
//! picture chooses its format from the file's name.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use carcassonne::{Action, Game, GameSetup, Phase};
use carcassonne_render::{BoardOptions, board_svg};

use crate::tileset::CommandError;

/// The largest PNG drawn, in pixels; a bigger board is scaled down to fit.
const MAX_PIXELS: f64 = 40_000_000.0;

#[derive(clap::Args)]
pub struct RenderArgs {
    /// The saved game (as `play --json` writes it); `-` reads standard input.
    #[arg(value_name = "SAVE")]
    file: PathBuf,
    /// Where to write the picture: PNG when the name ends in .png, SVG when it ends in .svg
    /// (or in anything else, unless --png is given).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The board once this many turns are over (0: the start tile alone); the last by default.
    #[arg(long, value_name = "N")]
    turn: Option<usize>,
    /// Write a PNG, whatever the name ends in (a .png name needs no --png; a .svg name with
    /// --png is refused).
    #[arg(long)]
    png: bool,
}

impl RenderArgs {
    /// The picture this command writes, and whether --png was given.
    pub fn picture(&self) -> (&Path, bool) {
        (&self.output, self.png)
    }
}

pub fn render(args: &RenderArgs) -> Result<ExitCode, CommandError> {
    let (setup, actions) = crate::replay::load(&args.file)?;
    let game = at_turn(setup, &actions, args.turn)
        .map_err(|error| format!("{}: {error}", args.file.display()))?;
    let svg = board_svg(&game, &BoardOptions::default());
    write_picture(&args.output, &svg, args.png)?;
    let turns = game.placements().len().saturating_sub(1);
    crate::write_stdout(&format!(
        "wrote {} (the board after {turns} turn{})\n",
        args.output.display(),
        if turns == 1 { "" } else { "s" }
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The game once `turn` turns are over (each turn a placement and its figure action), or at
/// the end of `actions` when `turn` is `None`; every action is checked as it is applied.
pub fn at_turn(setup: GameSetup, actions: &[Action], turn: Option<usize>) -> Result<Game, String> {
    let mut game = Game::new(setup).map_err(|error| format!("cannot set up the game: {error}"))?;
    let mut turns = 0;
    for (index, action) in actions.iter().enumerate() {
        if turn.is_some_and(|turn| turns >= turn) {
            break;
        }
        game.apply(*action).map_err(|error| format!("action {index} ({action}): {error}"))?;
        // A turn is over when the next player is to draw, or the game is.
        if matches!(game.phase(), Phase::Draw | Phase::GameOver)
            && matches!(action, Action::Deploy { .. } | Action::RecallAbbot { .. } | Action::Skip)
        {
            turns += 1;
        }
    }
    match turn {
        Some(turn) if turn > turns => {
            Err(format!("--turn {turn} asks for more turns than the game's {turns}"))
        }
        _ => Ok(game),
    }
}

/// How a picture is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    Svg,
    Png,
}

/// The format of a picture written to `path`: its name's ending says, `.png` (PNG) or `.svg`
/// (SVG) in any case; a name ending otherwise is SVG, or PNG when `png` (`--png`) is set.
/// `--png` with a `.svg` name, or a name that asks for a format this tool cannot write
/// (`.jpg`...), is refused with a message naming `flag`, the option that named the file.
pub fn picture_format(path: &Path, png: bool, flag: &str) -> Result<PictureFormat, CommandError> {
    let extension = path.extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase);
    let name = path.display();
    match extension.as_deref() {
        Some("png") => Ok(PictureFormat::Png),
        Some("svg") if png => Err(format!(
            "--png asks for a PNG, but {flag} {name} ends in .svg: drop --png for an SVG, or \
             name a .png file"
        )),
        Some("svg") => Ok(PictureFormat::Svg),
        Some(
            other @ ("jpg" | "jpeg" | "gif" | "webp" | "bmp" | "tif" | "tiff" | "pdf" | "eps"),
        ) => Err(format!(
            "{flag} {name}: cannot write .{other} pictures; name a .svg or a .png file"
        )),
        _ if png => Ok(PictureFormat::Png),
        _ => Ok(PictureFormat::Svg),
    }
}

/// Writes `svg` to `path` in the format [`picture_format`] gives for it.
pub fn write_picture(path: &Path, svg: &str, png: bool) -> Result<(), CommandError> {
    let written = match picture_format(path, png, "the picture")? {
        PictureFormat::Png => std::fs::write(path, to_png(svg)?),
        PictureFormat::Svg => std::fs::write(path, svg),
    };
    written.map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// `svg` drawn as a PNG, at its own size or scaled down to [`MAX_PIXELS`].
fn to_png(svg: &str) -> Result<Vec<u8>, CommandError> {
    carcassonne_render::raster::png(svg, MAX_PIXELS)
        .map_err(|error| format!("cannot draw the PNG: {error}"))
}
