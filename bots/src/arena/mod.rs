//! The arena: bots play paired games, and their strength is measured with intervals.
//!
//! Games come in deals. A deal is one tile order (one bag seed) played once per seat
//! rotation: with two bots, each plays each seat of the same tiles; with more, every bot sits
//! in every seat once. The luck of the draw then falls on every bot alike and drops out of
//! the comparison.

mod journal;
mod stats;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use web_time::Instant;

use carcassonne::{Game, GameSetup, Phase, SetupError};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use journal::{Journal, JournalError};
pub use stats::{Sprt, SprtVerdict, Z95, elo, expected_score, mean_interval, wilson};

use crate::Faults;
use crate::profile::Profile;
use crate::seeds::derive;

/// What to play.
///
/// Made with [`ArenaConfig::new`] and changed with its `with_` methods or by assigning fields: it
/// is `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ArenaConfig {
    /// Tile sets and rule options; the players are the entrants and the seed is each deal's.
    pub setup: GameSetup,
    /// Games to play, rounded up to whole deals.
    pub games: u64,
    /// The seed of every tile order and every bot.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Stop early when this test between the first two entrants decides (two entrants only).
    pub sprt: Option<Sprt>,
}

impl ArenaConfig {
    /// An arena of `setup`'s sets and rules: 100 games, seed 0, one thread, no SPRT.
    #[must_use]
    pub fn new(setup: GameSetup) -> ArenaConfig {
        ArenaConfig { setup, games: 100, seed: 0, threads: 1, sprt: None }
    }

    /// Sets [`games`](Self::games), for chaining.
    #[must_use]
    pub fn with_games(mut self, games: u64) -> ArenaConfig {
        self.games = games;
        self
    }

    /// Sets [`seed`](Self::seed), for chaining.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> ArenaConfig {
        self.seed = seed;
        self
    }

    /// Sets [`threads`](Self::threads), for chaining.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> ArenaConfig {
        self.threads = threads;
        self
    }

    /// Sets [`sprt`](Self::sprt), for chaining.
    #[must_use]
    pub fn with_sprt(mut self, sprt: Option<Sprt>) -> ArenaConfig {
        self.sprt = sprt;
        self
    }
    /// The deals these games make with `players` entrants: whole deals, at least one.
    #[must_use]
    pub fn deals(&self, players: usize) -> u64 {
        self.games.div_ceil(players.max(1) as u64).max(1)
    }
}

/// Where the arena has got to, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArenaProgress {
    /// Games finished.
    pub games_done: u64,
    /// Games planned (fewer are played when the SPRT stops early).
    pub games_planned: u64,
}

/// Why the arena cannot play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// The setup, with one player per entrant, makes no game.
    #[error("cannot set up a game of {players} players: {error}")]
    Setup {
        /// The players.
        players: usize,
        /// The setup's reason.
        error: SetupError,
    },
    /// An SPRT compares two entrants.
    #[error("an SPRT needs exactly two entrants, not {0}")]
    SprtNeedsTwo(usize),
    /// The SPRT's bounds make no test.
    #[error("the SPRT needs elo0 < elo1 and alpha, beta strictly between 0 and 0.5")]
    SprtBounds,
    /// The thread pool could not start.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// A deal taken as played does not fit the arena.
    #[error("played deal {deal} does not fit this arena: {reason}")]
    Played {
        /// The deal.
        deal: u64,
        /// What does not fit.
        reason: String,
    },
    /// Recording a finished deal failed.
    #[error("cannot record a finished deal: {0}")]
    Journal(String),
    /// A bot failed to answer; this is a bug in the bot.
    #[error("bot `{bot}` failed in deal {deal}: {message}")]
    Bot {
        /// The bot's profile.
        bot: String,
        /// The deal.
        deal: u64,
        /// What went wrong.
        message: String,
    },
}

/// One entrant's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct EntrantReport {
    /// The profile's name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Wins; a win shared by k players counts 1/k.
    pub wins: f64,
    /// Wins over games.
    pub win_rate: f64,
    /// The Wilson 95% interval of the win rate.
    pub win_rate_interval: (f64, f64),
    /// Mean final score.
    pub mean_score: f64,
    /// Mean of the score less the best other player's.
    pub mean_margin: f64,
    /// Mean thinking time per turn, in milliseconds.
    pub ms_per_turn: f64,
    /// The slowest turn, in milliseconds.
    pub max_ms_per_turn: f64,
    /// The moves it lost to a random legal one by failing to answer (external bots only).
    pub faults: Faults,
}

/// How one entrant fared against another, game by game: in each game, 1 for the higher
/// score, ½ for equal scores.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PairReport {
    /// The first entrant's name.
    pub first: String,
    /// The second entrant's name.
    pub second: String,
    /// The first's mean pairwise score.
    pub score: f64,
    /// Its 95% interval, from per-deal means.
    pub score_interval: (f64, f64),
    /// The Elo difference, first over second.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_interval: (f64, f64),
}

/// The arena's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ArenaReport {
    /// Deals played.
    pub deals: u64,
    /// Games played.
    pub games: u64,
    /// Per entrant, in the order given.
    pub entrants: Vec<EntrantReport>,
    /// Per pair of entrants.
    pub pairs: Vec<PairReport>,
    /// The SPRT and its verdict, when one ran.
    pub sprt: Option<(Sprt, SprtVerdict)>,
    /// Wall-clock time.
    pub seconds: f64,
}

/// One game's outcome, by entrant (in the order the entrants were given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Each seat's entrant, and the tiles drawn in order: what the pairing test checks.
    #[cfg(test)]
    #[serde(skip)]
    seated: Vec<usize>,
    #[cfg(test)]
    #[serde(skip)]
    drawn: Vec<carcassonne::TileIndex>,
    /// Flock choices made and builders' second tiles placed: what the turn test checks.
    #[cfg(test)]
    #[serde(skip)]
    shape: (usize, usize),
    /// Final scores.
    pub scores: Vec<f64>,
    /// Thinking time, all turns together.
    pub think: Vec<Duration>,
    /// Whole turns played.
    pub turns: Vec<u32>,
    /// The slowest whole turn.
    pub slowest: Vec<Duration>,
    /// Moves lost to a random legal one (external bots only).
    pub faults: Vec<Faults>,
}

/// One deal's games, one per seat rotation: what a [`Journal`] keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealRecord {
    /// The deal's number; its tile order and bot seeds derive from it and the arena's seed.
    pub deal: u64,
    /// Its games, in rotation order.
    pub games: Vec<GameRecord>,
}

/// Plays the arena and reports; `progress` hears after every game (from the worker threads).
///
/// ```
/// use carcassonne::{Catalog, GameSetup};
/// use carcassonne_bots::Profile;
/// use carcassonne_bots::arena::{self, ArenaConfig};
///
/// let entrants = [Profile::builtin("medium")?, Profile::builtin("random")?];
/// let setup = GameSetup::new(vec![Catalog::builtin("base")?], 2);
/// let config = ArenaConfig::new(setup).with_games(4).with_seed(1);
/// let report = arena::run(&entrants, &config, &|_| {})?;
/// assert_eq!((report.deals, report.games), (2, 4));
/// assert!(report.entrants[0].win_rate > report.entrants[1].win_rate);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ArenaError`] for a setup that makes no game, a bad SPRT, or a bot that fails.
pub fn run(
    entrants: &[Profile],
    config: &ArenaConfig,
    progress: &(dyn Fn(ArenaProgress) + Sync),
) -> Result<ArenaReport, ArenaError> {
    resume(entrants, config, Vec::new(), progress, &|_| Ok(()))
}

/// Plays the arena as [`run`] does, taking the deals in `played` as already played (from a
/// [`Journal`] of an arena stopped part-way) and handing each deal it plays to `finished` as
/// it ends, from the worker threads. The report is the one an uninterrupted run gives, save
/// `seconds`, which counts this call only. Played deals past the planned ones are left out.
///
/// # Errors
/// As [`run`]; [`ArenaError::Played`] for a played deal that is not one of these entrants'
/// (another number of games or players, or a deal given twice); [`ArenaError::Journal`] when
/// `finished` fails, which stops the arena.
pub fn resume(
    entrants: &[Profile],
    config: &ArenaConfig,
    played: Vec<DealRecord>,
    progress: &(dyn Fn(ArenaProgress) + Sync),
    finished: &(dyn Fn(&DealRecord) -> Result<(), String> + Sync),
) -> Result<ArenaReport, ArenaError> {
    let started = Instant::now();
    let players = entrants.len();
    let mut setup = config.setup.clone();
    setup.players = u8::try_from(players).unwrap_or(u8::MAX);
    let template = Game::new(setup).map_err(|error| ArenaError::Setup { players, error })?;
    if let Some(sprt) = config.sprt {
        if players != 2 {
            return Err(ArenaError::SprtNeedsTwo(players));
        }
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(sprt.elo0 < sprt.elo1 && rate(sprt.alpha) && rate(sprt.beta)) {
            return Err(ArenaError::SprtBounds);
        }
    }
    let threads = config.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| ArenaError::Threads { threads, message: error.to_string() })?;
    let entrants: Vec<Profile> = entrants.iter().map(|profile| profile.with_threads(1)).collect();
    let deals_planned = config.deals(players);
    let games_planned = deals_planned * players as u64;
    let mut deals: BTreeMap<u64, Vec<GameRecord>> = BTreeMap::new();
    for record in played {
        if record.deal >= deals_planned {
            continue;
        }
        check_played(&record, players)?;
        if deals.insert(record.deal, record.games).is_some() {
            return Err(ArenaError::Played { deal: record.deal, reason: "given twice".into() });
        }
    }
    let done = AtomicU64::new(deals.len() as u64 * players as u64);
    let failure: Mutex<Option<ArenaError>> = Mutex::new(None);
    let to_play: Vec<u64> = (0..deals_planned).filter(|deal| !deals.contains_key(deal)).collect();

    // Deals run in batches; an SPRT is judged deal by deal in order, so where it stops does
    // not depend on the thread count (nor on which deals a journal held), only how much work
    // past that point is thrown away.
    let batch = (threads * 4).max(8);
    let mut judge = Judge::new(config.sprt);
    judge.advance(&deals);
    for chunk in to_play.chunks(batch) {
        if judge.decided.is_some() {
            break;
        }
        let results: Vec<Option<DealRecord>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&deal| {
                    let fail =
                        |error| *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(error);
                    let games = play_deal(&template, &entrants, config.seed, deal, &|| {
                        let games_done = done.fetch_add(1, Ordering::Relaxed) + 1;
                        progress(ArenaProgress { games_done, games_planned });
                    })
                    .map_err(fail)
                    .ok()?;
                    let record = DealRecord { deal, games };
                    finished(&record).map_err(|message| fail(ArenaError::Journal(message))).ok()?;
                    Some(record)
                })
                .collect()
        });
        if let Some(error) = failure.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(error);
        }
        for record in results.into_iter().flatten() {
            deals.insert(record.deal, record.games);
        }
        judge.advance(&deals);
    }
    // Stopped early: the deals up to the one that decided, in order.
    let (upto, verdict) = match (config.sprt, judge.decided) {
        (_, Some((upto, sprt, verdict))) => (upto, Some((sprt, verdict))),
        (Some(sprt), None) => (deals.len(), Some((sprt, SprtVerdict::Continue))),
        (None, None) => (deals.len(), None),
    };
    let in_order: Vec<Vec<GameRecord>> = deals.into_values().take(upto).collect();
    Ok(report(&entrants, &in_order, verdict, started.elapsed()))
}

/// A played deal fits these entrants: one game per rotation, one value per entrant.
fn check_played(record: &DealRecord, players: usize) -> Result<(), ArenaError> {
    let reason = if record.games.len() != players {
        Some(format!(
            "{} games where a deal of {players} players has {players}",
            record.games.len()
        ))
    } else {
        record.games.iter().find_map(|game| {
            let lengths = [
                game.scores.len(),
                game.think.len(),
                game.turns.len(),
                game.slowest.len(),
                game.faults.len(),
            ];
            lengths
                .iter()
                .any(|length| *length != players)
                .then(|| format!("a game with values for other than {players} players"))
        })
    };
    match reason {
        Some(reason) => Err(ArenaError::Played { deal: record.deal, reason }),
        None => Ok(()),
    }
}

/// The SPRT, judging the deals played in order from deal 0 up to the first one not yet
/// played, each deal once: its samples so far, and where it decided.
struct Judge {
    sprt: Option<Sprt>,
    samples: Vec<f64>,
    decided: Option<(usize, Sprt, SprtVerdict)>,
}

impl Judge {
    fn new(sprt: Option<Sprt>) -> Judge {
        Judge { sprt, samples: Vec::new(), decided: None }
    }

    /// Judges the deals that now follow those judged without a gap; `decided` once it has.
    fn advance(&mut self, deals: &BTreeMap<u64, Vec<GameRecord>>) {
        let Some(sprt) = self.sprt else { return };
        while self.decided.is_none() {
            let Some(games) = deals.get(&(self.samples.len() as u64)) else { return };
            self.samples.push(deal_score(games, 0, 1));
            match sprt.verdict(&self.samples) {
                SprtVerdict::Continue => {}
                verdict => self.decided = Some((self.samples.len(), sprt, verdict)),
            }
        }
    }
}

/// Plays deal `deal`: one tile order, every seat rotation.
fn play_deal(
    template: &Game,
    entrants: &[Profile],
    seed: u64,
    deal: u64,
    finished: &dyn Fn(),
) -> Result<Vec<GameRecord>, ArenaError> {
    let players = entrants.len();
    let deal_seed = derive(seed, deal);
    let mut results = Vec::with_capacity(players);
    for rotation in 0..players {
        // Seat s holds entrant (s + rotation) mod n.
        let seated: Vec<usize> = (0..players).map(|seat| (seat + rotation) % players).collect();
        let bots: Vec<_> = seated
            .iter()
            .map(|entrant| entrants[*entrant].bot(derive(deal_seed, 1 + *entrant as u64)))
            .collect();
        let mut game = template.restarted(deal_seed);
        let mut think = vec![Duration::ZERO; players];
        let mut slowest = vec![Duration::ZERO; players];
        let mut turn_time = vec![Duration::ZERO; players];
        let mut turns = vec![0u32; players];
        while !game.is_over() {
            let seat = game.current_player();
            let entrant = seated[seat.index()];
            let asked = Instant::now();
            let action =
                bots[seat.index()].choose(&game, seat).map_err(|error| ArenaError::Bot {
                    bot: entrants[entrant].name.clone(),
                    deal,
                    message: error.to_string(),
                })?;
            let took = asked.elapsed();
            game.apply(action).map_err(|error| ArenaError::Bot {
                bot: entrants[entrant].name.clone(),
                deal,
                message: format!("chose {action}, which the game refused: {error}"),
            })?;
            turn_time[entrant] += took;
            think[entrant] += took;
            // A turn ends where the next tile is to be drawn (a builder's second tile is a turn
            // of its own, as the rules call it) or the game ends. A flock's token is drawn last
            // in its turn, so the turn's end is looked for after every action, draws included.
            if game.phase() == Phase::Draw || game.is_over() {
                turns[entrant] += 1;
                slowest[entrant] = slowest[entrant].max(turn_time[entrant]);
                turn_time[entrant] = Duration::ZERO;
            }
        }
        let mut scores = vec![0.0; players];
        let mut faults = vec![Faults::default(); players];
        for (seat, entrant) in seated.iter().enumerate() {
            scores[*entrant] = f64::from(game.scores()[seat]);
            faults[*entrant] = bots[seat].faults();
        }
        results.push(GameRecord {
            #[cfg(test)]
            seated: seated.clone(),
            #[cfg(test)]
            drawn: drawn_tiles(&game),
            #[cfg(test)]
            shape: turn_shape(&template.restarted(deal_seed), &game),
            scores,
            think,
            turns,
            slowest,
            faults,
        });
        finished();
    }
    Ok(results)
}

/// How many flock choices a game held, and how many builders' second tiles.
#[cfg(test)]
fn turn_shape(start: &Game, played: &Game) -> (usize, usize) {
    let mut game = start.clone();
    let (mut flocks, mut second_tiles) = (0, 0);
    for action in played.actions() {
        match game.phase() {
            Phase::Flock { .. } => flocks += 1,
            Phase::Place { .. } if game.is_second_turn() => second_tiles += 1,
            _ => {}
        }
        game.apply(*action).unwrap();
    }
    (flocks, second_tiles)
}

/// The tiles a game drew, in order (its reshuffled copy names every draw).
#[cfg(test)]
fn drawn_tiles(game: &Game) -> Vec<carcassonne::TileIndex> {
    let named = game.reshuffled(0);
    named
        .actions()
        .iter()
        .filter_map(|action| match action {
            carcassonne::Action::DrawTile { tile } => Some(*tile),
            _ => None,
        })
        .collect()
}

/// Entrant `i`'s pairwise score against `j` in one game.
fn pairwise(result: &GameRecord, i: usize, j: usize) -> f64 {
    let (a, b) = (result.scores[i], result.scores[j]);
    if a > b {
        1.0
    } else if a < b {
        0.0
    } else {
        0.5
    }
}

/// Entrant `i`'s mean pairwise score against `j` over one deal's games.
fn deal_score(games: &[GameRecord], i: usize, j: usize) -> f64 {
    games.iter().map(|game| pairwise(game, i, j)).sum::<f64>() / games.len() as f64
}

/// Per deal, entrant `i`'s mean pairwise score against `j`.
fn pair_samples(deals: &[Vec<GameRecord>], i: usize, j: usize) -> Vec<f64> {
    deals.iter().map(|games| deal_score(games, i, j)).collect()
}

fn report(
    entrants: &[Profile],
    deals: &[Vec<GameRecord>],
    sprt: Option<(Sprt, SprtVerdict)>,
    elapsed: Duration,
) -> ArenaReport {
    let games: Vec<&GameRecord> = deals.iter().flatten().collect();
    let count = games.len() as f64;
    let mut reports = Vec::new();
    for (index, profile) in entrants.iter().enumerate() {
        let mut wins = 0.0;
        let (mut score, mut margin) = (0.0, 0.0);
        let (mut think, mut turns, mut slowest) = (Duration::ZERO, 0u64, Duration::ZERO);
        let mut faults = Faults::default();
        for game in &games {
            let best = game.scores.iter().copied().fold(f64::MIN, f64::max);
            let sharing = game.scores.iter().filter(|s| **s >= best).count() as f64;
            if game.scores[index] >= best {
                wins += 1.0 / sharing;
            }
            score += game.scores[index];
            let best_other = game
                .scores
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != index)
                .map(|(_, s)| *s)
                .fold(f64::MIN, f64::max);
            margin += game.scores[index] - best_other;
            think += game.think[index];
            turns += u64::from(game.turns[index]);
            slowest = slowest.max(game.slowest[index]);
            faults.add(&game.faults[index]);
        }
        let per = |total: f64| if count > 0.0 { total / count } else { 0.0 };
        reports.push(EntrantReport {
            name: profile.name.clone(),
            games: games.len() as u64,
            wins,
            win_rate: per(wins),
            win_rate_interval: wilson(wins, count),
            mean_score: per(score),
            mean_margin: per(margin),
            ms_per_turn: if turns > 0 { think.as_secs_f64() * 1000.0 / turns as f64 } else { 0.0 },
            max_ms_per_turn: slowest.as_secs_f64() * 1000.0,
            faults,
        });
    }
    let mut pairs = Vec::new();
    for i in 0..entrants.len() {
        for j in i + 1..entrants.len() {
            let samples = pair_samples(deals, i, j);
            let (score, mut low, mut high) = mean_interval(&samples);
            // Every deal alike (all won, say) leaves no spread to measure: fall back to the
            // Wilson interval over deals, which still says how many deals that was.
            if low == high && !samples.is_empty() {
                (low, high) = wilson(samples.iter().sum(), samples.len() as f64);
            }
            pairs.push(PairReport {
                first: entrants[i].name.clone(),
                second: entrants[j].name.clone(),
                score,
                score_interval: (low, high),
                elo: elo(score),
                elo_interval: (elo(low), elo(high)),
            });
        }
    }
    ArenaReport {
        deals: deals.len() as u64,
        games: games.len() as u64,
        entrants: reports,
        pairs,
        sprt,
        seconds: elapsed.as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(scores: &[f64]) -> GameRecord {
        let n = scores.len();
        GameRecord {
            seated: (0..n).collect(),
            drawn: Vec::new(),
            shape: (0, 0),
            scores: scores.to_vec(),
            think: vec![Duration::from_millis(2); n],
            turns: vec![2; n],
            slowest: vec![Duration::from_millis(1); n],
            faults: vec![Faults::default(); n],
        }
    }

    /// A deal is one tile order played once per seat rotation: every game of a deal draws
    /// the same tiles whatever the bots do, every entrant sits in every seat once, and
    /// another deal draws another order.
    #[test]
    fn a_deal_is_one_tile_order_in_every_seat() {
        for names in [&["greedy", "random"][..], &["greedy", "random", "easy"][..]] {
            let entrants: Vec<Profile> =
                names.iter().map(|name| Profile::builtin(name).unwrap()).collect();
            let setup = carcassonne::GameSetup::new(
                vec![carcassonne::Catalog::builtin("base").unwrap()],
                names.len() as u8,
            );
            let template = Game::new(setup).unwrap();
            let first = play_deal(&template, &entrants, 7, 0, &|| {}).unwrap();
            assert_eq!(first.len(), names.len());
            for game in &first {
                assert_eq!(game.drawn, first[0].drawn, "a rotation drew other tiles");
                assert_eq!(game.drawn.len(), 71);
            }
            for entrant in 0..names.len() {
                let mut seats: Vec<usize> = first
                    .iter()
                    .map(|game| game.seated.iter().position(|e| *e == entrant).unwrap())
                    .collect();
                seats.sort_unstable();
                assert_eq!(seats, (0..names.len()).collect::<Vec<_>>());
            }
            let second = play_deal(&template, &entrants, 7, 1, &|| {}).unwrap();
            assert_ne!(second[0].drawn, first[0].drawn);
        }
    }

    /// Every drawn tile is a turn of its own, a builder's second tile included, and a turn
    /// that ends on a flock's draw ends there: its time does not run on into the player's next
    /// turn.
    #[test]
    fn a_turn_is_one_tile_whatever_follows_it() {
        let entrants = [Profile::builtin("greedy").unwrap(), Profile::builtin("medium").unwrap()];
        let setup = carcassonne::GameSetup::new(
            ["base", "traders_and_builders", "hills_and_sheep"]
                .iter()
                .map(|name| carcassonne::Catalog::builtin(name).unwrap())
                .collect(),
            2,
        );
        let template = Game::new(setup).unwrap();
        let (mut flocks, mut builders) = (0, 0);
        for deal in 0..3 {
            for game in play_deal(&template, &entrants, 11, deal, &|| {}).unwrap() {
                assert_eq!(game.turns.iter().sum::<u32>() as usize, game.drawn.len());
                flocks += game.shape.0;
                builders += game.shape.1;
                for (slowest, think) in game.slowest.iter().zip(&game.think) {
                    assert!(slowest <= think);
                }
            }
        }
        assert!(flocks > 0 && builders > 0, "{flocks} flock choices, {builders} second tiles");
    }

    /// An SPRT stops at the same deal whatever the threads and whichever deals were taken as
    /// played, and judges only the deals up to the one that decided.
    #[test]
    fn the_sprt_stops_at_the_same_deal() {
        let entrants = [Profile::builtin("easy").unwrap(), Profile::builtin("random").unwrap()];
        let config = |threads| ArenaConfig {
            setup: carcassonne::GameSetup::new(
                vec![carcassonne::Catalog::builtin("base").unwrap()],
                2,
            ),
            games: 200,
            seed: 3,
            threads,
            sprt: Some(Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 }),
        };
        let one = run(&entrants, &config(1), &|_| {}).unwrap();
        assert!(matches!(one.sprt, Some((_, SprtVerdict::AcceptH1))), "{:?}", one.sprt);
        assert!(one.deals < 100, "it stopped early: {} deals", one.deals);
        let three = run(&entrants, &config(3), &|_| {}).unwrap();
        assert_eq!((three.deals, &three.pairs), (one.deals, &one.pairs));

        let kept = Mutex::new(Vec::new());
        let partial = ArenaConfig { games: 4, sprt: None, ..config(2) };
        run_recording(&entrants, &partial, &kept);
        let resumed =
            resume(&entrants, &config(2), kept.into_inner().unwrap(), &|_| {}, &|_| Ok(()))
                .unwrap();
        assert_eq!((resumed.deals, &resumed.pairs), (one.deals, &one.pairs));
    }

    fn run_recording(entrants: &[Profile], config: &ArenaConfig, kept: &Mutex<Vec<DealRecord>>) {
        resume(entrants, config, Vec::new(), &|_| {}, &|deal| {
            kept.lock().unwrap().push(deal.clone());
            Ok(())
        })
        .unwrap();
    }

    /// Two deals worked by hand: A wins 3 games of 4, one a tie; margins and pairwise
    /// scores follow.
    #[test]
    fn the_report_matches_worked_values() {
        let deals = vec![
            vec![result(&[10.0, 5.0]), result(&[7.0, 7.0])],
            vec![result(&[12.0, 2.0]), result(&[3.0, 9.0])],
        ];
        let profiles = [Profile::builtin("random").unwrap(), Profile::builtin("greedy").unwrap()];
        let report = report(&profiles, &deals, None, Duration::from_secs(1));
        let a = &report.entrants[0];
        assert_eq!(a.games, 4);
        assert_eq!(a.wins, 2.5);
        assert_eq!(a.win_rate, 0.625);
        assert_eq!(a.mean_score, 8.0);
        assert_eq!(a.mean_margin, (5.0 + 0.0 + 10.0 - 6.0) / 4.0);
        assert_eq!(a.ms_per_turn, 1.0);
        assert_eq!(report.entrants[1].wins, 1.5);
        // Per deal: (1 + 0.5) / 2 = 0.75 and (1 + 0) / 2 = 0.5.
        let pair = &report.pairs[0];
        assert_eq!(pair.score, 0.625);
        let half = Z95 * (0.03125f64 / 2.0).sqrt();
        assert!((pair.score_interval.0 - (0.625 - half)).abs() < 1e-12);
        assert!((pair.elo - elo(0.625)).abs() < 1e-12);
    }
}
