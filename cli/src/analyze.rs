//! `carcassonne analyze`: the moves of a saved game's player to move ranked by the margin and
//! win chance they lead to, a board with every candidate cell shaded, and a review of a whole
//! game's moves.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use carcassonne::{Action, Game, Phase, PlayerId};
use carcassonne_bots::analysis::{
    Analysis, AnalysisConfig, Continuation, MoveStats, Stop, TurnReview, analyze_pinned, review,
};
use carcassonne_render::{BoardOptions, Overlay, Suggestion, board_svg};
use clap::builder::TypedValueParser as _;
use indicatif::ProgressBar;
use serde_json::json;

use crate::names;
use crate::picture::{at_turn, write_picture};
use crate::play::{figure_on, plural, tile_id};
use crate::tileset::CommandError;

/// Rollouts for one position, and for each turn of a review, when no budget is named.
const DEFAULT_ROLLOUTS: u64 = 20_000;
const DEFAULT_REVIEW_ROLLOUTS: u64 = 2_000;

/// Moves kept in the race to the end when --keep does not say: the library's default.
const DEFAULT_KEEP: usize = 5;

#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The saved game (as `play --json` writes it); `-` reads standard input.
    #[arg(value_name = "SAVE")]
    file: PathBuf,
    /// Analyse the move of this turn (1 is the first tile after the start tile); by default
    /// the move the save stops at.
    #[arg(long, value_name = "N", conflicts_with = "all")]
    turn: Option<usize>,
    /// Rollouts in all (for each turn with --all); 20,000 (2,000) unless --seconds is given.
    #[arg(long, value_name = "N")]
    iterations: Option<u64>,
    /// Think for this long (each turn with --all); with --iterations, whichever ends first.
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// The seed of the shuffles and dice: the same seed and --iterations give the same
    /// analysis on any number of threads.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Moves shown (with --all: turns shown), each of the first ones (up to --keep) with a
    /// continuation. Only the display: the ranking does not depend on it.
    #[arg(long, value_name = "K", default_value_t = 5)]
    top: usize,
    /// Moves the race keeps to the end: after 8, 16, 32 … rollouts each the worse half of the
    /// moves drops out, never leaving fewer than this. More spreads the budget wider.
    #[arg(long, value_name = "K", default_value_t = DEFAULT_KEEP,
          value_parser = clap::value_parser!(u16).range(1..=1000).map(usize::from))]
    keep: usize,
    /// Threads; every core by default.
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// How the game is played on after each move: random (fast) or greedy (sensible, about
    /// a thousand times slower a rollout).
    #[arg(long, value_enum, default_value_t = Policy::Random)]
    continuation: Policy,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Draw the board with each candidate cell shaded by its best move's margin and the best
    /// move drawn in: PNG when the file's name ends in .png, SVG when it ends in .svg.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    svg: Option<PathBuf>,
    /// Write the --svg picture as PNG whatever its name ends in (a .png name needs no --png;
    /// a .svg name with --png is refused).
    #[arg(long, requires = "svg")]
    png: bool,
    /// Review every turn of the game and list the moves that gave away the most.
    #[arg(long)]
    all: bool,
}

impl AnalyzeArgs {
    /// The picture this command writes, if any, and whether --png was given.
    pub fn picture(&self) -> Option<(&std::path::Path, bool)> {
        self.svg.as_deref().map(|svg| (svg, self.png))
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Policy {
    Random,
    Greedy,
}

pub fn analyze_command(args: &AnalyzeArgs) -> Result<ExitCode, CommandError> {
    let (setup, actions) = crate::replay::load(&args.file)?;
    let name = args.file.display();
    let config = config(args)?;
    if args.all {
        let game = at_turn(setup, &actions, None).map_err(|error| format!("{name}: {error}"))?;
        return review_command(args, &game, &config);
    }
    let game = position(setup, &actions, args.turn).map_err(|error| format!("{name}: {error}"))?;
    let live = !args.json && std::io::stderr().is_terminal();
    let mut table = LiveTable::default();
    // The move the save goes on with, when it does, is measured too and marked.
    let next = |offset: usize| actions.get(game.actions().len() + offset).copied();
    let played = match (game.phase(), next(0), next(1)) {
        (Phase::Place { .. }, Some(place), Some(figure)) => Some((Some(place), figure)),
        (Phase::Figure { .. }, Some(figure), _) => Some((None, figure)),
        _ => None,
    };
    let analysis = analyze_pinned(
        &game,
        &config,
        played,
        |partial| {
            if live {
                table.show(&game, partial, args.top);
            }
        },
        &AtomicBool::new(false),
    )
    .map_err(|error| format!("{name}: {error}"))?;
    table.clear();
    if let Some(svg) = &args.svg {
        write_picture(svg, &heat_map(&game, &analysis), args.png)?;
    }
    let text = if args.json {
        serde_json::to_string_pretty(&analysis_json(&game, &analysis, args.top.min(config.keep)))
            .map_err(|error| format!("cannot write JSON: {error}"))?
            + "\n"
    } else {
        report(&game, &analysis, &config, args.top)
    };
    crate::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn config(args: &AnalyzeArgs) -> Result<AnalysisConfig, CommandError> {
    let time = match args.seconds {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0 => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(seconds) => {
            return Err(format!("--seconds {seconds}: give a time above 0 and up to a day"));
        }
        None => None,
    };
    let default = if args.all { DEFAULT_REVIEW_ROLLOUTS } else { DEFAULT_ROLLOUTS };
    let rollouts = match (args.iterations, time) {
        (Some(0), _) => return Err("--iterations 0: give at least one rollout".to_owned()),
        (Some(iterations), _) => Some(iterations),
        (None, Some(_)) => None,
        (None, None) => Some(default),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .clamp(1, 256);
    let continuation = match args.continuation {
        Policy::Random => Continuation::Random { figure_chance: 0.5 },
        Policy::Greedy => Continuation::Greedy,
    };
    Ok(AnalysisConfig::default()
        .with_rollouts(rollouts)
        .with_time(time)
        .with_seed(args.seed)
        .with_threads(threads)
        .with_continuation(continuation)
        // The race's own setting: how many rows are shown must not change the answer.
        .with_keep(args.keep))
}

/// The game where the move of turn `turn` is to be chosen (its tile drawn), or where the
/// save stops.
fn position(
    setup: carcassonne::GameSetup,
    actions: &[Action],
    turn: Option<usize>,
) -> Result<Game, String> {
    let Some(turn) = turn else {
        let game = at_turn(setup, actions, None)?;
        return match game.phase() {
            Phase::Place { .. } | Phase::Figure { .. } | Phase::Flock { .. } => Ok(game),
            Phase::Draw | Phase::Sheep { .. } | Phase::GameOver => Err(format!(
                "the save stops between turns ({} made): name one with --turn N, or review \
                 them all with --all",
                game.placements().len().saturating_sub(1)
            )),
        };
    };
    if turn == 0 {
        return Err("--turn 0: turns count from 1, the first tile after the start tile".into());
    }
    let whole = at_turn(setup.clone(), actions, None)?;
    let made = whole.placements().len().saturating_sub(1);
    if turn > made + 1 || (turn == made + 1 && !matches!(whole.phase(), Phase::Draw)) {
        return Err(format!(
            "--turn {turn}: the save has {} (and no tile drawn after)",
            plural(u32::try_from(made).unwrap_or(u32::MAX), "turn")
        ));
    }
    let mut game = at_turn(setup, actions, Some(turn - 1))?;
    // The draws that open the turn, discarded tiles included, up to the tile to be placed.
    while game.phase() == Phase::Draw {
        let Some(action) = actions.get(game.actions().len()) else {
            return Err(format!("--turn {turn}: the save stops before that turn's tile is drawn"));
        };
        game.apply(*action).map_err(|error| format!("action {action}: {error}"))?;
    }
    if game.is_over() {
        return Err(format!("--turn {turn}: the game was over by then"));
    }
    Ok(game)
}

/// "tile at (1, 2) turned 90°, a follower on the city to the north".
fn describe_move(game: &Game, stats: &MoveStats) -> String {
    describe(game, stats.place, stats.figure)
}

/// `place` (if any) then `figure` in `game`, as a player says them.
pub fn describe(game: &Game, place: Option<Action>, figure: Action) -> String {
    let mut placed = game.clone();
    let mut text = String::new();
    if let Some(Action::Place { pos, rotation }) = place {
        let _ = write!(text, "at {pos} turned {rotation}, ");
        if placed.apply(Action::Place { pos, rotation }).is_err() {
            return format!("{text}{figure}");
        }
    }
    let Phase::Figure { pos } = placed.phase() else { return format!("{text}{figure}") };
    text.push_str(&match figure {
        Action::Deploy { segment, figure } => figure_on(&placed, figure, pos, segment),
        Action::RecallAbbot { pos } => format!("recalls the abbot from {pos}"),
        _ => "no figure".to_owned(),
    });
    text
}

/// The continuation as turns: "blue draws V: at (1, 3) turned 0°, no figure".
fn describe_line(game: &Game, stats: &MoveStats) -> Vec<String> {
    let mut after = game.clone();
    if stats.place.is_some_and(|place| after.apply(place).is_err())
        || after.apply(stats.figure).is_err()
    {
        return Vec::new();
    }
    let mut turns = Vec::new();
    let mut actions = stats.continuation.iter().copied().peekable();
    while let Some(action) = actions.next() {
        let player = names::player(&after, after.current_player());
        let Action::DrawTile { tile } = action else { break };
        if after.apply(action).is_err() {
            break;
        }
        let id = tile_id(&after, tile).to_owned();
        if after.phase() == Phase::Draw || after.is_over() {
            turns.push(format!("{player} draws {id}, which fits nowhere"));
            continue;
        }
        let (Some(place), Some(figure)) = (actions.next(), actions.next()) else { break };
        turns.push(format!("{player} draws {id}: {}", describe(&after, Some(place), figure)));
        if after.apply(place).is_err() || after.apply(figure).is_err() {
            break;
        }
    }
    turns
}

fn report(game: &Game, analysis: &Analysis, config: &AnalysisConfig, top: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} to move with tile {}: {} compared over {} rollouts in {:.2} s ({} continuation, \
         seed {}){}",
        names::player(game, analysis.player),
        tile_id(game, analysis.tile),
        plural(u32::try_from(analysis.moves.len()).unwrap_or(u32::MAX), "move"),
        analysis.rollouts,
        analysis.elapsed.as_secs_f64(),
        config.continuation.name(),
        config.seed,
        match analysis.stop {
            Stop::Time => ", stopped by the clock",
            Stop::Cancelled => ", cancelled",
            Stop::Forced => ": the only move",
            Stop::Budget | Stop::Running => "",
        }
    );
    out.push_str(&table(game, analysis, top));
    for (rank, stats) in analysis.moves.iter().take(top).enumerate() {
        let line = describe_line(game, stats);
        if !line.is_empty() {
            let _ = writeln!(out, "\nafter move {}, on one shuffle of the tiles:", rank + 1);
            for turn in line {
                let _ = writeln!(out, "    {turn}");
            }
        }
    }
    out
}

/// The ranked moves as a table: margin and win share with their standard errors.
fn table(game: &Game, analysis: &Analysis, top: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "  #  margin         win           rollouts  move");
    let played = analysis.moves.iter().position(|stats| stats.pinned);
    let shown = (0..analysis.moves.len()).take(top).chain(played.filter(|rank| *rank >= top));
    for rank in shown {
        let stats = &analysis.moves[rank];
        let _ = writeln!(
            out,
            "{:>3}  {:>+6.1} ± {:<4.1}  {:>5.1}% ± {:<4.1}  {:>8}  {}{}",
            rank + 1,
            stats.margin,
            finite(stats.margin_se),
            stats.win * 100.0,
            finite(stats.win_se) * 100.0,
            stats.rollouts,
            describe_move(game, stats),
            if stats.pinned { "  (played)" } else { "" }
        );
    }
    out
}

/// A standard error for printing: unknown (fewer than two rollouts) shows as 0.
fn finite(value: f64) -> f64 {
    if value.is_finite() { value } else { 0.0 }
}

/// The ranking so far on standard error, redrawn in place on a terminal.
#[derive(Default)]
struct LiveTable {
    lines: usize,
}

impl LiveTable {
    fn show(&mut self, game: &Game, partial: &Analysis, top: usize) {
        let text = format!(
            "{} rollouts, {:.1} s\n{}",
            partial.rollouts,
            partial.elapsed.as_secs_f64(),
            table(game, partial, top)
        );
        self.clear();
        self.lines = text.lines().count();
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    fn clear(&mut self) {
        if self.lines > 0 {
            // Up to the table's first line, then erase to the end of the screen.
            let _ = write!(std::io::stderr(), "\x1b[{}F\x1b[J", self.lines);
            self.lines = 0;
        }
    }
}

fn action_json(action: Action) -> serde_json::Value {
    serde_json::to_value(action).unwrap_or(serde_json::Value::Null)
}

/// The analysis as JSON, every move ranked; the first `continued` with their continuation.
fn analysis_json(game: &Game, analysis: &Analysis, continued: usize) -> serde_json::Value {
    let moves: Vec<serde_json::Value> = analysis
        .moves
        .iter()
        .enumerate()
        .map(|(rank, stats)| {
            json!({
                "rank": rank + 1,
                "place": stats.place.map(action_json),
                "figure": action_json(stats.figure),
                "description": describe_move(game, stats),
                "rollouts": stats.rollouts,
                "margin": stats.margin,
                "margin_se": stats.margin_se.is_finite().then_some(stats.margin_se),
                "win": stats.win,
                "win_se": stats.win_se.is_finite().then_some(stats.win_se),
                "score": stats.score,
                "played": stats.pinned,
                "continuation": (rank < continued).then(|| {
                    stats.continuation.iter().copied().map(action_json).collect::<Vec<_>>()
                }),
            })
        })
        .collect();
    json!({
        "player": analysis.player.0,
        "colour": names::player(game, analysis.player),
        "tile": tile_id(game, analysis.tile),
        "rollouts": analysis.rollouts,
        "seconds": analysis.elapsed.as_secs_f64(),
        "stop": format!("{:?}", analysis.stop).to_lowercase(),
        "moves": moves,
    })
}

/// The board with every cell a move could use shaded by the best margin there, labelled,
/// and the best move drawn in.
fn heat_map(game: &Game, analysis: &Analysis) -> String {
    let candidates = analysis.moves.iter().filter_map(|stats| match stats.place {
        Some(Action::Place { pos, .. }) => Some((pos, stats.margin)),
        _ => None,
    });
    let best = analysis
        .moves
        .first()
        .and_then(|best| Suggestion::of_move(analysis.tile, best.place, best.figure));
    let options = BoardOptions::default().with_overlay(Overlay::heat_map(candidates, best, None));
    board_svg(game, &options)
}

fn review_command(
    args: &AnalyzeArgs,
    game: &Game,
    config: &AnalysisConfig,
) -> Result<ExitCode, CommandError> {
    let bar = if args.json { ProgressBar::hidden() } else { crate::progress_bar(0, "turns") };
    let turns = review(
        game,
        config,
        |progress| {
            bar.set_length(progress.turns as u64);
            bar.set_position(progress.done as u64);
        },
        &AtomicBool::new(false),
    )
    .map_err(|error| format!("{}: {error}", args.file.display()))?;
    bar.finish_and_clear();
    let mut costly: Vec<&TurnReview> = turns.iter().collect();
    costly.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.turn.cmp(&b.turn)));
    let text = if args.json {
        let list: Vec<serde_json::Value> = costly
            .iter()
            .map(|turn| {
                json!({
                    "turn": turn.turn,
                    "player": turn.player.0,
                    "tile": tile_id(game, turn.tile),
                    "loss": turn.loss,
                    "candidates": turn.candidates,
                    "played": { "place": turn.played.place.map(action_json),
                                "figure": action_json(turn.played.figure),
                                "margin": turn.played.margin, "win": turn.played.win },
                    "best": { "place": turn.best.place.map(action_json),
                              "figure": action_json(turn.best.figure),
                              "margin": turn.best.margin, "win": turn.best.win },
                })
            })
            .collect();
        serde_json::to_string_pretty(&json!({ "turns": list }))
            .map_err(|error| format!("cannot write JSON: {error}"))?
            + "\n"
    } else {
        review_report(game, &turns, &costly, config, args.top)
    };
    crate::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn review_report(
    game: &Game,
    turns: &[TurnReview],
    costly: &[&TurnReview],
    config: &AnalysisConfig,
    top: usize,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} reviewed, {} rollouts each ({} continuation, seed {})",
        plural(u32::try_from(turns.len()).unwrap_or(u32::MAX), "turn"),
        config.rollouts.map_or_else(|| "as many".to_owned(), |rollouts| rollouts.to_string()),
        config.continuation.name(),
        config.seed
    );
    out.push_str("\nexpected margin given away, by player:\n");
    for player in 0..game.players() {
        let mine = turns.iter().filter(|turn| turn.player == PlayerId(player));
        let (count, loss) =
            mine.fold((0, 0.0), |(count, loss), turn| (count + 1, loss + turn.loss));
        let _ = writeln!(
            out,
            "    {:<8} {loss:>6.1} points over {count} turns",
            names::player(game, PlayerId(player))
        );
    }
    let _ = writeln!(out, "\nthe {} costliest moves:", top.min(costly.len()));
    for turn in costly.iter().take(top) {
        let before = replayed_to(game, turn.turn);
        let _ = writeln!(
            out,
            "turn {:>3}, {} with tile {}: gave away {:.1} points of margin\n    played {} \
             ({:+.1}, win {:.0}%)\n    best   {} ({:+.1}, win {:.0}%)",
            turn.turn,
            names::player(game, turn.player),
            tile_id(game, turn.tile),
            turn.loss,
            before.as_ref().map_or_else(|| "?".to_owned(), |at| describe_move(at, &turn.played)),
            turn.played.margin,
            turn.played.win * 100.0,
            before.as_ref().map_or_else(|| "?".to_owned(), |at| describe_move(at, &turn.best)),
            turn.best.margin,
            turn.best.win * 100.0,
        );
    }
    out
}

/// `game` replayed up to the placement of turn `turn`, to name that turn's moves.
fn replayed_to(game: &Game, turn: usize) -> Option<Game> {
    position(game.setup(), game.actions(), Some(turn)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_race_keeps_the_librarys_default() {
        assert_eq!(DEFAULT_KEEP, AnalysisConfig::default().keep);
    }
}
