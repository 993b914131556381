//! Bots in any language: a program that speaks the line-based JSON protocol of
//! docs/bot-protocol.md over its stdin and stdout, played like any other bot.
//!
//! Every request carries the whole public game, so a bot keeps no state between moves and may
//! be restarted at any time. A bot that is slow, exits, answers garbage or answers an illegal
//! action loses that move to a random legal one and the fault is counted ([`Faults`]); the
//! game goes on. A bot that keeps failing to start is not started again within the same
//! [`ExternalBot`]: its remaining moves are random.

mod message;
mod process;

use std::sync::Mutex;
use std::time::Duration;
use web_time::Instant;

use carcassonne::{Action, Game, PlayerId};
use serde::{Deserialize, Serialize};

pub use message::PROTOCOL_VERSION;
use message::{Choice, Hello, Turn, short};
use process::{Process, Received};

use crate::random::RandomBot;
use crate::{Bot, BotError, forced};

/// How to run an external bot; the `external` table of a profile.
///
/// ```
/// use carcassonne_bots::{BotKind, Profiles};
/// let text = r#"
/// [[profile]]
/// name = "mine"
/// kind = "external"
/// external = { command = ["python3", "my_bot.py", "--fast"], move_ms = 2000 }
/// "#;
/// let profiles = Profiles::from_toml("mine.toml", text)?;
/// let BotKind::External(config) = &profiles.get("mine").unwrap().kind else { panic!() };
/// assert_eq!(config.command, ["python3", "my_bot.py", "--fast"]);
/// assert_eq!((config.move_ms, config.start_ms, config.starts), (2000, 10_000, 4));
/// # Ok::<(), carcassonne_bots::ProfileError>(())
/// ```
///
/// Made with [`ExternalConfig::from_command_line`] and changed with its `with_` methods or by
/// assigning fields: it is `#[non_exhaustive]`, so an option added in a later release breaks no
/// caller.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ExternalConfig {
    /// The program and its arguments, run without a shell.
    pub command: Vec<String>,
    /// How long the bot may think about one move, in milliseconds.
    #[serde(default = "default_move_ms")]
    pub move_ms: u64,
    /// How long a started bot may take to answer `hello`, in milliseconds.
    #[serde(default = "default_start_ms")]
    pub start_ms: u64,
    /// How many times one bot (one seat of one game) may be started; after a crash, a
    /// timeout or garbage it is started again at its next move, until this is spent.
    #[serde(default = "default_starts")]
    pub starts: u32,
    /// Whether the bot's stderr goes to ours (its logs); else it is discarded.
    #[serde(default = "default_show_stderr")]
    pub show_stderr: bool,
}

const fn default_move_ms() -> u64 {
    5_000
}
const fn default_start_ms() -> u64 {
    10_000
}
const fn default_starts() -> u32 {
    4
}
const fn default_show_stderr() -> bool {
    true
}

impl ExternalConfig {
    /// Sets [`command`](Self::command), for chaining.
    #[must_use]
    pub fn with_command(mut self, command: Vec<String>) -> ExternalConfig {
        self.command = command;
        self
    }

    /// Sets [`move_ms`](Self::move_ms), for chaining.
    #[must_use]
    pub fn with_move_ms(mut self, move_ms: u64) -> ExternalConfig {
        self.move_ms = move_ms;
        self
    }

    /// Sets [`start_ms`](Self::start_ms), for chaining.
    #[must_use]
    pub fn with_start_ms(mut self, start_ms: u64) -> ExternalConfig {
        self.start_ms = start_ms;
        self
    }

    /// Sets [`starts`](Self::starts), for chaining.
    #[must_use]
    pub fn with_starts(mut self, starts: u32) -> ExternalConfig {
        self.starts = starts;
        self
    }

    /// Sets [`show_stderr`](Self::show_stderr), for chaining.
    #[must_use]
    pub fn with_show_stderr(mut self, show_stderr: bool) -> ExternalConfig {
        self.show_stderr = show_stderr;
        self
    }

    /// A configuration with the defaults for `command`, a command line split as a POSIX shell
    /// would split it (quotes and backslashes; no variables, globs or pipes).
    ///
    /// ```
    /// use carcassonne_bots::ExternalConfig;
    /// let config = ExternalConfig::from_command_line("python3 'my bot.py' --level 2")?;
    /// assert_eq!(config.command, ["python3", "my bot.py", "--level", "2"]);
    /// assert!(ExternalConfig::from_command_line("python3 'unclosed").is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// A message for an empty command or unbalanced quotes.
    pub fn from_command_line(line: &str) -> Result<ExternalConfig, String> {
        let command = shlex::split(line).ok_or_else(|| {
            format!("cannot split `{}` into words: a quote is not closed", short(line))
        })?;
        let config = ExternalConfig {
            command,
            move_ms: default_move_ms(),
            start_ms: default_start_ms(),
            starts: default_starts(),
            show_stderr: default_show_stderr(),
        };
        config.check()?;
        Ok(config)
    }

    /// Whether the settings are in range.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.command.is_empty() || self.command[0].is_empty() {
            return Err("`command` names a program".to_owned());
        }
        if self.command.len() > 256 || self.command.iter().any(|word| word.len() > 4096) {
            return Err("`command` is at most 256 words of at most 4096 bytes".to_owned());
        }
        if !(1..=3_600_000).contains(&self.move_ms) {
            return Err("`move_ms` is from 1 to 3600000".to_owned());
        }
        if !(1..=3_600_000).contains(&self.start_ms) {
            return Err("`start_ms` is from 1 to 3600000".to_owned());
        }
        if !(1..=1000).contains(&self.starts) {
            return Err("`starts` is from 1 to 1000".to_owned());
        }
        Ok(())
    }
}

/// The moves an external bot lost to a random legal one, by cause.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Faults {
    /// No answer in time.
    pub slow: u32,
    /// The bot could not start, had exited, or exited while thinking.
    pub exited: u32,
    /// An answer that is not the protocol.
    pub garbage: u32,
    /// An action that is not among the legal ones.
    pub illegal: u32,
    /// Not asked: the bot had failed as many times as it may be started.
    pub abandoned: u32,
    /// The first fault, in words.
    pub first: Option<String>,
}

impl Faults {
    /// Moves lost, all causes together.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.slow + self.exited + self.garbage + self.illegal + self.abandoned
    }

    /// Adds `other`'s counts; the first fault stays this one's if it has one.
    pub fn add(&mut self, other: &Faults) {
        self.slow += other.slow;
        self.exited += other.exited;
        self.garbage += other.garbage;
        self.illegal += other.illegal;
        self.abandoned += other.abandoned;
        if self.first.is_none() {
            self.first.clone_from(&other.first);
        }
    }

    fn count(&mut self, fault: &Fault, turn: usize) {
        let (counter, cause) = match fault {
            Fault::Slow(_) | Fault::OutOfTime(_) => (&mut self.slow, "slow"),
            Fault::Exited(_) => (&mut self.exited, "exited"),
            Fault::Garbage(_) => (&mut self.garbage, "garbage"),
            Fault::Illegal(_) => (&mut self.illegal, "illegal"),
            Fault::Abandoned(_) => (&mut self.abandoned, "abandoned"),
        };
        *counter += 1;
        if self.first.is_none() {
            self.first = Some(format!("{cause} at action {turn}: {}", fault.message()));
        }
    }
}

/// Why one move was lost.
enum Fault {
    Slow(String),
    /// The turn's time was spent before the bot was asked: it was sent nothing, so it can be
    /// asked again next turn as it is.
    OutOfTime(String),
    Exited(String),
    Garbage(String),
    Illegal(String),
    Abandoned(String),
}

impl Fault {
    fn message(&self) -> &str {
        match self {
            Fault::Slow(message)
            | Fault::OutOfTime(message)
            | Fault::Exited(message)
            | Fault::Garbage(message)
            | Fault::Illegal(message)
            | Fault::Abandoned(message) => message,
        }
    }

    /// Whether the process must go: after anything but an illegal action, what it writes
    /// next can no longer be trusted to answer the next request.
    fn ends_process(&self) -> bool {
        !matches!(self, Fault::Illegal(_) | Fault::OutOfTime(_))
    }
}

/// A bot run as a separate program that speaks the line-based JSON protocol of
/// docs/bot-protocol.md. Every request carries the whole public game, so the program keeps no
/// state between moves and may be restarted at any time. A move it is slow to answer, or
/// answers with garbage or an illegal action, or loses by exiting, is played as the random
/// bot's choice and counted ([`Bot::faults`]).
///
/// It is started at its first move and stopped when dropped. One `ExternalBot` answers one
/// seat of one game at a time: its calls wait for each other.
pub struct ExternalBot {
    name: String,
    config: ExternalConfig,
    fallback: RandomBot,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    process: Option<Process>,
    starts: u32,
    faults: Faults,
    /// The name the bot gave itself in `ready`.
    calls_itself: Option<String>,
}

impl std::fmt::Debug for ExternalBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalBot")
            .field("name", &self.name)
            .field("config", &self.config)
            .finish()
    }
}

impl ExternalBot {
    /// A bot run by `config`, named `name`; `seed` chooses the random moves that replace the
    /// ones it loses.
    #[must_use]
    pub fn new(name: &str, seed: u64, config: ExternalConfig) -> ExternalBot {
        ExternalBot {
            name: name.to_owned(),
            config,
            fallback: RandomBot::new(name, seed, 0.5),
            state: Mutex::new(State::default()),
        }
    }

    /// The name the program gave itself when it started, if it has started and gave one.
    #[must_use]
    pub fn calls_itself(&self) -> Option<String> {
        self.lock().calls_itself.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A view of this bot that plays one turn within `budget` in all, from now: every
    /// action of the turn (a tile, then a figure) and any start of the program share it, the
    /// program is started at most once in it, and an action asked for after it is spent is
    /// the random bot's. A host that must bound a turn's time (a server, whose operator gave
    /// the limit) plays each turn through one of these; [`Bot::choose`] alone gives each
    /// action its own `move_ms` and a start its own `start_ms`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// use carcassonne_bots::{Bot, ExternalBot, ExternalConfig};
    /// // A program that never answers: the turn still ends within its budget.
    /// let config = ExternalConfig::from_command_line("sleep 30")?.with_show_stderr(false);
    /// let bot = ExternalBot::new("silent", 1, config);
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// while game.phase().is_chance() {
    ///     game.apply(carcassonne::Action::Draw)?; // the bag's draw, not the bot's
    /// }
    /// let started = std::time::Instant::now();
    /// let turn = bot.for_turn(Duration::from_millis(300));
    /// let action = turn.choose(&game, game.current_player())?;
    /// assert!(game.check(action).is_ok());
    /// assert!(started.elapsed() < Duration::from_secs(2));
    /// assert_eq!(bot.faults().slow, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn for_turn(&self, budget: Duration) -> TurnBot<'_> {
        TurnBot { bot: self, deadline: Instant::now() + budget, started: Mutex::new(false) }
    }

    /// Asks the program for its move; the action, or why the move is lost. In a turn of
    /// [`ExternalBot::for_turn`], `turn` has its deadline and whether the program was started
    /// in it already.
    fn ask(
        &self,
        state: &mut State,
        game: &Game,
        seat: PlayerId,
        legal: &[Action],
        turn: Option<(Instant, &mut bool)>,
    ) -> Result<Action, Fault> {
        let turn_deadline = turn.as_ref().map(|(deadline, _)| *deadline);
        let spent = |now: Instant| turn_deadline.is_some_and(|deadline| now >= deadline);
        if state.process.is_none() {
            if let Some((_, started)) = &turn
                && **started
            {
                return Err(Fault::OutOfTime(
                    "its program stopped in this turn and starts again at the next".to_owned(),
                ));
            }
            if spent(Instant::now()) {
                return Err(Fault::OutOfTime("the turn's time was spent".to_owned()));
            }
            if state.starts >= self.config.starts {
                return Err(Fault::Abandoned(format!(
                    "not started again after {} starts",
                    self.config.starts
                )));
            }
            state.starts += 1;
            if let Some((_, started)) = turn {
                *started = true;
            }
            let (process, ready) = self.start(turn_deadline)?;
            state.process = Some(process);
            state.calls_itself = ready;
        }
        let Some(process) = state.process.as_mut() else {
            return Err(Fault::Exited("not running".to_owned()));
        };
        let now = Instant::now();
        let mut deadline = now + Duration::from_millis(self.config.move_ms);
        if let Some(turn_deadline) = turn_deadline {
            if now >= turn_deadline {
                return Err(Fault::OutOfTime("the turn's time was spent".to_owned()));
            }
            deadline = deadline.min(turn_deadline);
        }
        let time_ms = u64::try_from(deadline.saturating_duration_since(now).as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        if !process.send(Turn::line(game, seat, time_ms, legal)) {
            return Err(Fault::Exited(process.ending()));
        }
        let line = match process.receive(deadline) {
            Received::Line(line) => line,
            Received::Unreadable(what) => return Err(Fault::Garbage(format!("it wrote {what}"))),
            Received::Closed => return Err(Fault::Exited(process.ending())),
            Received::Timeout => {
                return Err(Fault::Slow(format!("no answer within {time_ms} ms")));
            }
        };
        let action = match message::play(&line).map_err(Fault::Garbage)? {
            Choice::Index(index) => *usize::try_from(index)
                .ok()
                .and_then(|index| legal.get(index))
                .ok_or_else(|| {
                    Fault::Illegal(format!(
                        "index {index} of a list of {} legal actions",
                        legal.len()
                    ))
                })?,
            Choice::Action(action) if legal.contains(&action) => action,
            Choice::Action(action) => {
                let reason = game
                    .check(action)
                    .err()
                    .map_or_else(|| "not a choice here".to_owned(), |error| error.to_string());
                return Err(Fault::Illegal(format!("{action}: {reason}")));
            }
        };
        Ok(action)
    }

    /// Starts the program and waits for its `ready`, by `start_ms` from now or `by`, whichever
    /// comes first: the process and the name it gave.
    fn start(&self, by: Option<Instant>) -> Result<(Process, Option<String>), Fault> {
        let program = short(&self.config.command[0]).into_owned();
        let process = Process::start(&self.config)
            .map_err(|error| Fault::Exited(format!("cannot start `{program}`: {error}")))?;
        let now = Instant::now();
        let own = now + Duration::from_millis(self.config.start_ms);
        let deadline = by.map_or(own, |by| by.min(own));
        let waited_ms = deadline.saturating_duration_since(now).as_millis();
        if !process.send(Hello::line()) {
            let mut process = process;
            return Err(Fault::Exited(process.ending()));
        }
        let mut process = process;
        let fault = match process.receive(deadline) {
            Received::Line(line) => match message::ready(&line) {
                Ok(ready) => {
                    return Ok((process, ready.name.map(|name| short(&name).into_owned())));
                }
                Err(error) => Fault::Garbage(format!("after hello: {error}")),
            },
            Received::Unreadable(what) => Fault::Garbage(format!("it wrote {what}")),
            Received::Closed => return Err(Fault::Exited(process.ending())),
            Received::Timeout => {
                Fault::Slow(format!("no `ready` within {waited_ms} ms of starting"))
            }
        };
        // A program that did not start well is stopped aside: its exit grace is not the turn's.
        stop_aside(process);
        Err(fault)
    }
}

impl ExternalBot {
    /// The move: the program's, or the random bot's for a move it loses.
    fn choose_in(
        &self,
        game: &Game,
        seat: PlayerId,
        turn: Option<(Instant, &mut bool)>,
    ) -> Result<Action, BotError> {
        if let Some(action) = forced(game, seat)? {
            return Ok(action);
        }
        let legal = game.legal_actions();
        let mut state = self.lock();
        match self.ask(&mut state, game, seat, &legal, turn) {
            Ok(action) => Ok(action),
            Err(fault) => {
                if fault.ends_process()
                    && let Some(process) = state.process.take()
                {
                    stop_aside(process);
                }
                state.faults.count(&fault, game.actions().len());
                drop(state);
                self.fallback.choose(game, seat)
            }
        }
    }
}

/// Stops `process` on a thread of its own: its exit grace is not the game's time. (Without a
/// thread to spare, `spawn` drops the closure, and the process stops here.)
fn stop_aside(process: Process) {
    let _ = std::thread::Builder::new().name("bot-stop".into()).spawn(move || drop(process));
}

/// An [`ExternalBot`] playing one turn within a budget ([`ExternalBot::for_turn`]).
pub struct TurnBot<'a> {
    bot: &'a ExternalBot,
    deadline: Instant,
    /// Whether the program was started in this turn (once at most).
    started: Mutex<bool>,
}

impl Bot for TurnBot<'_> {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        let mut started = self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.bot.choose_in(game, seat, Some((self.deadline, &mut started)))
    }

    fn name(&self) -> &str {
        self.bot.name()
    }

    fn faults(&self) -> Faults {
        self.bot.faults()
    }
}

impl Bot for ExternalBot {
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError> {
        self.choose_in(game, seat, None)
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn faults(&self) -> Faults {
        self.lock().faults.clone()
    }
}
