//! `carcassonne arena`: bots play paired games; a table of their strength with intervals.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use carcassonne_bots::arena::{
    self, ArenaConfig, ArenaProgress, ArenaReport, Journal, Sprt, SprtVerdict,
};

use crate::tileset::CommandError;

/// `carcassonne arena`.
#[derive(clap::Args)]
pub struct ArenaArgs {
    /// The bots, by profile name (random, greedy, easy, medium, hard, expert, anchor, one of
    /// --profiles or a --bot); one player each, and a name may come twice.
    #[arg(required = true, num_args = 2.., value_name = "BOT")]
    bots: Vec<String>,
    /// Games to play, rounded up to whole deals (one deal is one tile order played once per
    /// seat rotation).
    #[arg(long, default_value_t = 100, value_name = "N")]
    games: u64,
    /// Games played at once; the results do not depend on it.
    #[arg(long, default_value_t = 1, value_name = "T")]
    threads: usize,
    /// The seed of every tile order and every bot.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    #[command(flatten)]
    sets: crate::play::SetsArgs,
    /// A profile file whose bots join the built-in ones.
    #[arg(long, value_name = "FILE")]
    profiles: Option<PathBuf>,
    #[command(flatten)]
    external: crate::bots::ExternalArgs,
    /// Stop early once an SPRT between the two bots decides: ELO0,ELO1 (alpha = beta = 0.05).
    #[arg(long, value_delimiter = ',', value_name = "ELO0,ELO1")]
    sprt: Option<Vec<f64>>,
    /// Record each finished deal in FILE, and take the deals FILE already holds as played: an
    /// arena stopped part-way goes on where it stopped (the same bots, sets and seed only; a
    /// journal of fewer games serves the first deals of more).
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn arena(args: &ArenaArgs) -> Result<ExitCode, CommandError> {
    let profiles = crate::bots::profiles(args.profiles.as_deref(), &args.external)?;
    let entrants = crate::bots::named(&profiles, &args.bots)?;
    let setup = args.sets.setup(2)?;
    let sprt = match args.sprt.as_deref() {
        None => None,
        Some(&[elo0, elo1]) => Some(Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }),
        Some(_) => return Err("--sprt takes two Elo differences, ELO0,ELO1 (as 0,50)".into()),
    };
    if args.threads == 0 || args.threads > 1024 {
        return Err("--threads is from 1 to 1024".into());
    }
    let config = ArenaConfig::new(setup)
        .with_games(args.games)
        .with_seed(args.seed)
        .with_threads(args.threads)
        .with_sprt(sprt);
    let bar = crate::progress_bar(config.deals(entrants.len()) * entrants.len() as u64, "games");
    let (journal, played) = match &args.journal {
        Some(path) => {
            let (journal, played) =
                Journal::open(path, &entrants, &config).map_err(|error| error.to_string())?;
            (Some(journal), played)
        }
        None => (None, Vec::new()),
    };
    let report = arena::resume(
        &entrants,
        &config,
        played,
        &|progress: ArenaProgress| {
            bar.set_length(progress.games_planned);
            bar.set_position(progress.games_done);
        },
        &|deal| journal.as_ref().map_or(Ok(()), |journal| journal.record(deal)),
    )
    .map_err(|error| error.to_string())?;
    bar.finish_and_clear();
    let text = if args.json {
        serde_json::to_string_pretty(&report).map_err(|error| error.to_string())? + "\n"
    } else {
        table(&report)
    };
    crate::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The report for people.
fn table(report: &ArenaReport) -> String {
    let mut out = String::new();
    let width = report.entrants.iter().map(|e| e.name.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{} games in {} deals (one tile order per deal, every seat rotation), {:.1} s\n",
        report.games, report.deals, report.seconds
    );
    let _ = writeln!(
        out,
        "{:<width$}  {:>7}  {:>6}  {:>15}  {:>6}  {:>7}  {:>9}  {:>9}",
        "bot", "wins", "rate", "95% (Wilson)", "score", "margin", "ms/turn", "max ms"
    );
    for e in &report.entrants {
        let _ = writeln!(
            out,
            "{:<width$}  {:>7.1}  {:>5.1}%  {:>6.1}% – {:>4.1}%  {:>6.1}  {:>+7.1}  {:>9.2}  {:>9.1}",
            e.name,
            e.wins,
            100.0 * e.win_rate,
            100.0 * e.win_rate_interval.0,
            100.0 * e.win_rate_interval.1,
            e.mean_score,
            e.mean_margin,
            e.ms_per_turn,
            e.max_ms_per_turn,
        );
    }
    out.push('\n');
    for pair in &report.pairs {
        let _ = writeln!(
            out,
            "{} vs {}: pairwise score {:.3} (95% {:.3} – {:.3}), Elo {:+.0} (95% {:+.0} – {:+.0})",
            pair.first,
            pair.second,
            pair.score,
            pair.score_interval.0,
            pair.score_interval.1,
            pair.elo,
            pair.elo_interval.0,
            pair.elo_interval.1,
        );
    }
    let faults = crate::bots::fault_lines(
        report.entrants.iter().map(|entrant| (entrant.name.as_str(), entrant.faults.clone())),
    );
    if !faults.is_empty() {
        out.push('\n');
        out.push_str(&faults);
    }
    if let Some((sprt, verdict)) = report.sprt {
        let verdict = match verdict {
            SprtVerdict::AcceptH1 => format!("H1 accepted: at least {:+} Elo", sprt.elo1),
            SprtVerdict::AcceptH0 => format!("H0 accepted: at most {:+} Elo", sprt.elo0),
            SprtVerdict::Continue => "no decision within the games".to_string(),
        };
        let _ = writeln!(
            out,
            "SPRT ({:+}, {:+}), alpha = beta = 0.05: {verdict}",
            sprt.elo0, sprt.elo1
        );
    }
    out
}
