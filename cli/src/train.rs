//! `carcassonne train-evaluator`: learns the evaluator's weights from self-play and writes them
//! as a weights file a profile can name.

use std::path::PathBuf;
use std::process::ExitCode;

use carcassonne::GameSetup;
use carcassonne_bots::arena::{self, ArenaConfig};
use carcassonne_bots::training::{self, Method, TrainConfig, TrainProgress};
use carcassonne_bots::{BotKind, EvaluatorWeights, Profile};

use crate::tileset::CommandError;

/// `carcassonne train-evaluator`.
#[derive(clap::Args)]
pub struct TrainArgs {
    /// Where to write the weights (a TOML file; a profile names it with
    /// `evaluator = { learned = "FILE" }`).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// How: `tuning` (SPSA: perturbed weights play each other, moved by the margins they
    /// win) or `regression` (a fit of the margins to come on every position's signals).
    #[arg(long, value_enum, default_value_t = MethodArg::Tuning)]
    method: MethodArg,
    /// Tuning: steps.
    #[arg(long, default_value_t = 600, value_name = "N")]
    steps: u32,
    /// Tuning: tile orders a step, each played with the seats every way.
    #[arg(long, default_value_t = 8, value_name = "N")]
    deals: u32,
    /// Regression: games a round.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    games: u64,
    /// Regression: rounds, the first playing --policy, each later one greedy bots on the
    /// weights the round before learned.
    #[arg(long, default_value_t = 3, value_name = "N")]
    rounds: u32,
    /// Afterwards, measure the weights: N paired games of the greedy bot on them against the
    /// greedy bot on the hand-set weights (the result goes into the file's comment too).
    #[arg(long, default_value_t = 0, value_name = "N")]
    check: u64,
    /// The seed of every game and bot; the weights depend on it alone.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Games played at once; the weights do not depend on it.
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// Players a game.
    #[arg(long, default_value_t = 2, value_name = "N")]
    players: u8,
    /// Regression: the first round's players, by profile name.
    #[arg(long, default_value = "medium", value_name = "BOT")]
    policy: String,
    /// A profile file whose bots join the built-in ones (for --policy).
    #[arg(long, value_name = "FILE")]
    profiles: Option<PathBuf>,
    /// Regression: points of noise on each value of the later rounds' greedy players.
    #[arg(long, default_value_t = 1.0, value_name = "POINTS")]
    noise: f32,
    #[command(flatten)]
    sets: crate::play::SetsArgs,
}

/// `--method`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum MethodArg {
    Tuning,
    Regression,
}

pub fn train(args: &TrainArgs) -> Result<ExitCode, CommandError> {
    let profiles = crate::bots::profiles(args.profiles.as_deref(), &Default::default())?;
    let policy = profiles.find(args.policy.trim()).map_err(|error| error.to_string())?.clone();
    let setup = args.sets.setup(args.players)?;
    if args.threads == 0 || args.threads > 1024 {
        return Err("--threads is from 1 to 1024".into());
    }
    if !(0.0..=1000.0).contains(&args.noise) {
        return Err("--noise is from 0 to 1000 points".into());
    }
    let method = match args.method {
        MethodArg::Tuning => Method::Tuning { steps: args.steps, deals: args.deals },
        MethodArg::Regression => Method::Regression { rounds: args.rounds, games: args.games },
    };
    let config = TrainConfig::new(setup.clone())
        .map_err(|error| error.to_string())?
        .with_method(method)
        .with_seed(args.seed)
        .with_threads(args.threads)
        .with_policy(policy)
        .with_noise(args.noise)
        .with_ridge(1e-3);
    let bar = crate::progress_bar(0, "games");
    let report = training::train(&config, &|progress: TrainProgress| {
        bar.set_length(progress.games_planned);
        bar.set_position(progress.games_done);
    })
    .map_err(|error| error.to_string())?;
    bar.finish_and_clear();
    let mut comment = format!(
        "Learned evaluator weights: the expected points still to come for a player are the sum of\n\
         their signals times these weights (bots/src/evaluator/signals.rs says what each is).\n\
         Made by `carcassonne train-evaluator {}` in {:.0} s ({} games).\n",
        std::env::args().skip(2).collect::<Vec<_>>().join(" "),
        report.seconds,
        report.games
    );
    if report.rounds.is_empty() {
        let names: Vec<&str> = report.tuned.iter().map(|signal| signal.name()).collect();
        comment.push_str(&format!(
            "Tuned: {}; the other signals keep their hand-set weights.\n",
            names.join(", ")
        ));
    }
    let mut summary = String::new();
    for (index, round) in report.rounds.iter().enumerate() {
        let line = format!(
            "round {}: {} games, {} positions, R² {:.3}, RMSE {:.2} points\n",
            index + 1,
            round.games,
            round.positions,
            round.r2,
            round.rmse
        );
        comment.push_str(&line);
        summary.push_str(&line);
    }
    if args.check > 0 {
        let line = check(&setup, report.weights, args.check, args.seed, args.threads)?;
        comment.push_str(&line);
        summary.push_str(&line);
    }
    let text = report.weights.to_toml(&comment);
    std::fs::write(&args.output, text)
        .map_err(|error| format!("cannot write {}: {error}", args.output.display()))?;
    summary.push_str(&format!(
        "weights written to {} in {:.1} s\n",
        args.output.display(),
        report.seconds
    ));
    crate::write_stdout(&summary)?;
    Ok(ExitCode::SUCCESS)
}

/// Plays `games` paired games of the greedy bot on `weights` against the greedy bot on the
/// hand-set weights; the result as a line.
fn check(
    setup: &GameSetup,
    weights: carcassonne_bots::LearnedWeights,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<String, CommandError> {
    let greedy = |name: &str, learned| Profile {
        name: name.to_owned(),
        description: String::new(),
        kind: BotKind::Greedy {
            evaluator: EvaluatorWeights::default().with_learned(learned),
            noise: 0.0,
        },
    };
    let entrants = [greedy("learned", Some(weights)), greedy("hand-set", None)];
    let bar = crate::progress_bar(games, "check games");
    // Tile orders apart from the training's.
    let config = ArenaConfig::new(setup.clone())
        .with_games(games)
        .with_seed(carcassonne_bots::derive_seed(seed, u64::MAX - 1))
        .with_threads(threads);
    let report = arena::run(&entrants, &config, &|progress| bar.set_position(progress.games_done))
        .map_err(|error| error.to_string())?;
    bar.finish_and_clear();
    let pair = &report.pairs[0];
    Ok(format!(
        "check: greedy on these weights against greedy on the hand-set ones, {} paired games: \
         Elo {:+.0} (95% {:+.0} to {:+.0}), win rate {:.1}%\n",
        report.games,
        pair.elo,
        pair.elo_interval.0,
        pair.elo_interval.1,
        100.0 * report.entrants[0].win_rate
    ))
}
