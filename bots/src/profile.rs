//! Bot profiles: named bots as TOML data, like tile sets. The built-in file holds the levels;
//! a user's file adds or replaces profiles.

use std::sync::OnceLock;

use serde::Deserialize;

use crate::Bot;
use crate::evaluator::{Evaluator, EvaluatorWeights};
use crate::external::{ExternalBot, ExternalConfig};
use crate::greedy::GreedyBot;
use crate::lookahead::{LookaheadBot, LookaheadConfig};
use crate::mcts::{MctsBot, MctsConfig, Playout};
use crate::random::RandomBot;
use crate::reward::Reward;

/// The built-in profiles: `random`, `greedy`, `easy`, `medium`, `hard`, `expert` and `anchor`.
pub const BUILTIN_PROFILES: &str = include_str!("../profiles/builtin.toml");

/// What kind of bot a profile makes, with its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum BotKind {
    /// [`RandomBot`].
    Random {
        /// How often it puts a figure out when it may.
        figure_chance: f64,
    },
    /// [`GreedyBot`].
    Greedy {
        /// The evaluator's weights.
        evaluator: EvaluatorWeights,
        /// Points of uniform noise on each value.
        noise: f32,
    },
    /// [`MctsBot`].
    Mcts(MctsConfig),
    /// [`ExternalBot`]: a program that speaks the bot protocol.
    External(ExternalConfig),
    /// [`LookaheadBot`].
    Lookahead(LookaheadConfig),
}

/// A named bot: its kind and settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The name players use.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// The bot it makes.
    pub kind: BotKind,
}

/// A list of profiles, as one file gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profiles {
    profiles: Vec<Profile>,
}

/// Why a profile could not be read or found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// The file is not TOML of the profile format.
    #[error("{file}: {message}")]
    Syntax {
        /// The file's label.
        file: String,
        /// The parser's message, with line and column.
        message: String,
    },
    /// A profile's settings are out of range or do not belong to its kind.
    #[error("{file}: profile `{name}`: {reason}")]
    Invalid {
        /// The file's label.
        file: String,
        /// The profile.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// Two profiles in one file share a name.
    #[error("{file}: two profiles are named `{name}`")]
    Duplicate {
        /// The file's label.
        file: String,
        /// The name.
        name: String,
    },
    /// No profile has this name.
    #[error("no bot profile is named `{name}` (known: {known})")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    profile: Vec<RawProfile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: String,
    #[serde(default)]
    description: String,
    kind: RawKind,
    figure_chance: Option<f64>,
    noise: Option<f32>,
    evaluator: Option<EvaluatorWeights>,
    mcts: Option<MctsConfig>,
    external: Option<ExternalConfig>,
    lookahead: Option<LookaheadConfig>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum RawKind {
    Random,
    Greedy,
    Mcts,
    External,
    Lookahead,
}

/// The longest profile name; names show in tables and messages.
const MAX_NAME: usize = 64;

impl Profiles {
    /// The built-in profiles.
    ///
    /// ```
    /// let names: Vec<&str> = carcassonne_bots::Profiles::builtin().names().collect();
    /// assert_eq!(names, ["random", "greedy", "easy", "medium", "hard", "expert", "anchor"]);
    /// ```
    #[must_use]
    pub fn builtin() -> &'static Profiles {
        static BUILTIN: OnceLock<Profiles> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            Profiles::from_toml("builtin.toml", BUILTIN_PROFILES)
                .expect("the built-in profiles are valid; a unit test reads them")
        })
    }

    /// Reads a profile file; `file` labels it in messages.
    ///
    /// ```
    /// use carcassonne_bots::{BotKind, Profiles};
    /// let text = r#"
    /// [[profile]]
    /// name = "quick"
    /// description = "a search of 500 iterations"
    /// kind = "mcts"
    /// mcts = { iterations = 500, playout = { truncated = { turns = 4 } } }
    /// "#;
    /// let profiles = Profiles::from_toml("mine.toml", text)?;
    /// let quick = profiles.get("quick").unwrap();
    /// assert!(matches!(quick.kind, BotKind::Mcts(config) if config.iterations == 500));
    /// assert!(Profiles::from_toml("bad.toml", "[[profile]]\nname = 3").is_err());
    /// # Ok::<(), carcassonne_bots::ProfileError>(())
    /// ```
    ///
    /// # Errors
    /// [`ProfileError`] for a file that is not of the format, a setting out of range or of
    /// another kind, or a name given twice.
    pub fn from_toml(file: &str, text: &str) -> Result<Profiles, ProfileError> {
        let file = carcassonne::limits::shorten(file, carcassonne::limits::MAX_LABEL).into_owned();
        let raw: RawFile = toml::from_str(text).map_err(|error| ProfileError::Syntax {
            file: file.clone(),
            message: carcassonne::limits::shortened_display(
                &error,
                carcassonne::limits::MAX_MESSAGE,
            ),
        })?;
        let mut profiles = Profiles::default();
        for raw in raw.profile {
            let name = raw.name.clone();
            let invalid = |reason: String| ProfileError::Invalid {
                file: file.clone(),
                name: carcassonne::limits::shorten(&name, MAX_NAME).into_owned(),
                reason,
            };
            let profile = raw.check().map_err(invalid)?;
            if profiles.get(&profile.name).is_some() {
                return Err(ProfileError::Duplicate { file, name: profile.name });
            }
            profiles.profiles.push(profile);
        }
        Ok(profiles)
    }

    /// The profile named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|profile| profile.name == name)
    }

    /// The names, in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.profiles.iter().map(|profile| profile.name.as_str())
    }

    /// The profiles, in file order.
    #[must_use]
    pub fn profiles(&self) -> &[Profile] {
        &self.profiles
    }

    /// These profiles with `other`'s added; a profile of `other` replaces one of the same
    /// name.
    #[must_use]
    pub fn with(&self, other: &Profiles) -> Profiles {
        let mut merged = self.clone();
        for profile in &other.profiles {
            merged.insert(profile.clone());
        }
        merged
    }

    /// Adds `profile`, replacing one of the same name.
    pub fn insert(&mut self, profile: Profile) {
        match self.profiles.iter_mut().find(|p| p.name == profile.name) {
            Some(existing) => *existing = profile,
            None => self.profiles.push(profile),
        }
    }

    /// The profile named `name`, or an error that lists the names there are.
    ///
    /// # Errors
    /// [`ProfileError::Unknown`].
    pub fn find(&self, name: &str) -> Result<&Profile, ProfileError> {
        self.get(name).ok_or_else(|| ProfileError::Unknown {
            name: carcassonne::limits::shorten(name, MAX_NAME).into_owned(),
            known: self.names().collect::<Vec<_>>().join(", "),
        })
    }
}

impl Profile {
    /// The built-in profile named `name`.
    ///
    /// # Errors
    /// [`ProfileError::Unknown`], listing the built-in names.
    pub fn builtin(name: &str) -> Result<Profile, ProfileError> {
        Profiles::builtin().find(name).cloned()
    }

    /// A bot of this profile with `seed`.
    #[must_use]
    pub fn bot(&self, seed: u64) -> Box<dyn Bot> {
        let name = &self.name;
        match &self.kind {
            BotKind::Random { figure_chance } => {
                Box::new(RandomBot::new(name, seed, *figure_chance))
            }
            BotKind::Greedy { evaluator, noise } => {
                Box::new(GreedyBot::new(name, seed, Evaluator::new(*evaluator), *noise))
            }
            BotKind::Mcts(config) => Box::new(MctsBot::new(name, seed, *config)),
            BotKind::External(config) => Box::new(ExternalBot::new(name, seed, config.clone())),
            BotKind::Lookahead(config) => Box::new(LookaheadBot::new(name, seed, *config)),
        }
    }

    /// A profile of an external bot named `name`, run by `config` (what `--bot NAME=COMMAND`
    /// makes on the command line).
    ///
    /// ```
    /// use carcassonne_bots::{ExternalConfig, Profile};
    /// let config = ExternalConfig::from_command_line("python3 my_bot.py")?;
    /// let profile = Profile::external("mine", config.clone())?;
    /// assert_eq!(profile.name, "mine");
    /// assert!(Profile::external("my bot", config).is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// A message for a name that is empty, too long or has a comma, space, `=` or line break,
    /// or settings out of range.
    pub fn external(name: &str, config: ExternalConfig) -> Result<Profile, String> {
        check_name(name)?;
        config.check()?;
        let description = format!("an external bot: {}", config.command.join(" "));
        let description = carcassonne::limits::shorten(&description, 200).into_owned();
        Ok(Profile { name: name.to_owned(), description, kind: BotKind::External(config) })
    }

    /// The profile of `--bot NAME=COMMAND` (the text after `--bot`), thinking at most
    /// `move_ms` a move, as the command line and the server read it.
    ///
    /// ```
    /// use carcassonne_bots::Profile;
    /// let profile = Profile::from_bot_argument("mine=python3 'my bot.py'", 2000)?;
    /// assert_eq!(profile.name, "mine");
    /// assert!(Profile::from_bot_argument("python3 my_bot.py", 2000).is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// A message, beginning `--bot`, for text without `=`, a bad name, a command line that
    /// does not split, or a time out of range.
    pub fn from_bot_argument(argument: &str, move_ms: u64) -> Result<Profile, String> {
        let (name, command) = argument.split_once('=').ok_or_else(|| {
            format!("--bot {argument}: expected NAME=COMMAND, as mine=\"python3 my_bot.py\"")
        })?;
        let name = name.trim();
        let mut config = ExternalConfig::from_command_line(command)
            .map_err(|error| format!("--bot {name}: {error}"))?;
        config.move_ms = move_ms;
        Profile::external(name, config).map_err(|error| format!("--bot {name}: {error}"))
    }

    /// This profile without a time cap on its searches: each stops at its iteration budget
    /// only, so its choices never depend on the machine's speed or load (other kinds are
    /// unchanged).
    ///
    /// ```
    /// use carcassonne_bots::Profile;
    /// let hard = Profile::builtin("hard")?;
    /// assert_ne!(hard, hard.without_time_limit());
    /// assert_eq!(hard.without_time_limit(), hard.without_time_limit().without_time_limit());
    /// # Ok::<(), carcassonne_bots::ProfileError>(())
    /// ```
    #[must_use]
    pub fn without_time_limit(&self) -> Profile {
        let mut profile = self.clone();
        match &mut profile.kind {
            BotKind::Mcts(config) => config.seconds = None,
            BotKind::Lookahead(config) => config.seconds = None,
            _ => {}
        }
        profile
    }

    /// This profile with its searches on `threads` threads (other kinds are unchanged).
    #[must_use]
    pub fn with_threads(&self, threads: u32) -> Profile {
        let mut profile = self.clone();
        if let BotKind::Mcts(config) = &mut profile.kind {
            config.threads = threads.max(1);
        }
        profile
    }
}

impl RawProfile {
    fn check(self) -> Result<Profile, String> {
        let RawProfile {
            name,
            description,
            kind,
            figure_chance,
            noise,
            evaluator,
            mcts,
            external,
            lookahead,
        } = self;
        check_name(&name)?;
        if let Some(weights) = &evaluator {
            check_weights(weights)?;
        }
        let not_for = |setting: &str, kind: &str| {
            Err(format!("`{setting}` is not a setting of a {kind} bot"))
        };
        if external.is_some() && !matches!(kind, RawKind::External) {
            return Err("`external` is the table of an external bot only".into());
        }
        if lookahead.is_some() && !matches!(kind, RawKind::Lookahead) {
            return Err("`lookahead` is the table of a lookahead bot only".into());
        }
        let kind = match kind {
            RawKind::Random => {
                if noise.is_some() {
                    return not_for("noise", "random");
                }
                if evaluator.is_some() {
                    return not_for("evaluator", "random");
                }
                if mcts.is_some() {
                    return not_for("mcts", "random");
                }
                BotKind::Random {
                    figure_chance: unit("figure_chance", figure_chance.unwrap_or(0.5))?,
                }
            }
            RawKind::Greedy => {
                if figure_chance.is_some() {
                    return not_for("figure_chance", "greedy");
                }
                if mcts.is_some() {
                    return not_for("mcts", "greedy");
                }
                let noise = noise.unwrap_or(0.0);
                if !(0.0..=1000.0).contains(&noise) {
                    return Err("`noise` is between 0 and 1000 points".into());
                }
                BotKind::Greedy { evaluator: evaluator.unwrap_or_default(), noise }
            }
            RawKind::Mcts => {
                if figure_chance.is_some() || noise.is_some() {
                    return Err("an mcts bot's settings go in its `mcts` table".into());
                }
                let mut config = mcts.unwrap_or_default();
                config.evaluator = evaluator.unwrap_or_default();
                check_mcts(&config)?;
                BotKind::Mcts(config)
            }
            RawKind::External => {
                if figure_chance.is_some()
                    || noise.is_some()
                    || evaluator.is_some()
                    || mcts.is_some()
                    || lookahead.is_some()
                {
                    return Err("an external bot's settings go in its `external` table".into());
                }
                let config = external
                    .ok_or("an external bot needs an `external` table with its `command`")?;
                config.check()?;
                BotKind::External(config)
            }
            RawKind::Lookahead => {
                if figure_chance.is_some() || noise.is_some() || mcts.is_some() {
                    return Err("a lookahead bot's settings go in its `lookahead` table".into());
                }
                let mut config = lookahead.unwrap_or_default();
                config.evaluator = evaluator.unwrap_or_default();
                check_lookahead(&config)?;
                BotKind::Lookahead(config)
            }
        };
        Ok(Profile { name, description, kind })
    }
}

/// Names show in lists separated by commas and in tables.
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_NAME || name.contains([',', ' ', '\n', '=']) {
        return Err(format!(
            "a name is 1 to {MAX_NAME} bytes without commas, spaces, `=` or line breaks"
        ));
    }
    Ok(())
}

fn unit(name: &str, value: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("`{name}` is between 0 and 1"))
    }
}

fn check_weights(weights: &EvaluatorWeights) -> Result<(), String> {
    let EvaluatorWeights {
        figure_in_supply,
        supply_decay,
        stuck_below,
        stuck_penalty,
        rival_help,
        field_outlook,
        token_majority,
        titles,
        builder,
        flock,
        special_in_supply,
        learned: _,
    } = *weights;
    for (name, value, low, high) in [
        ("figure_in_supply", figure_in_supply, -100.0, 100.0),
        ("supply_decay", supply_decay, 0.0, 1.0),
        ("stuck_below", stuck_below, 0.0, 1.0),
        ("stuck_penalty", stuck_penalty, -100.0, 100.0),
        ("rival_help", rival_help, 0.0, 1.0),
        ("field_outlook", field_outlook, 0.0, 10.0),
        ("token_majority", token_majority, 0.0, 10.0),
        ("titles", titles, 0.0, 10.0),
        ("builder", builder, -100.0, 100.0),
        ("flock", flock, 0.0, 10.0),
        ("special_in_supply", special_in_supply, 0.0, 10.0),
    ] {
        if !(low..=high).contains(&value) {
            return Err(format!("evaluator `{name}` is between {low} and {high}"));
        }
    }
    Ok(())
}

/// `Ok` when `ok`, else why: "`name` is `what`".
fn within(name: &str, ok: bool, what: &str) -> Result<(), String> {
    if ok { Ok(()) } else { Err(format!("`{name}` is {what}")) }
}

fn check_lookahead(config: &LookaheadConfig) -> Result<(), String> {
    let range = |name: &str, ok: bool, what: &str| within(&format!("lookahead.{name}"), ok, what);
    range("candidates", (1..=1000).contains(&config.candidates), "from 1 to 1000")?;
    range("samples", (1..=100_000).contains(&config.samples), "from 1 to 100000")?;
    range("rounds", (1..=16).contains(&config.rounds), "from 1 to 16")?;
    range("turns", config.turns <= 100, "at most 100")?;
    range(
        "seconds",
        config.seconds.is_none_or(|s| s > 0.0 && s <= 3600.0),
        "above 0 and at most 3600",
    )?;
    match config.reward {
        Some(reward) => check_reward("lookahead.", &reward),
        None => Ok(()),
    }
}

/// A search's reward (the tree search's, or a lookahead's), its settings named after `table`
/// as the search's others are.
fn check_reward(table: &str, reward: &Reward) -> Result<(), String> {
    within(
        &format!("{table}reward.win_weight"),
        (0.0..=1.0).contains(&reward.win_weight),
        "from 0 to 1",
    )?;
    within(
        &format!("{table}reward.margin_scale"),
        reward.margin_scale > 0.0 && reward.margin_scale <= 1000.0,
        "above 0 and at most 1000",
    )
}

fn check_mcts(config: &MctsConfig) -> Result<(), String> {
    within("iterations", (1..=100_000_000).contains(&config.iterations), "from 1 to 100000000")?;
    within("trees", (1..=1024).contains(&config.trees), "from 1 to 1024")?;
    within("threads", (1..=256).contains(&config.threads), "from 1 to 256")?;
    within(
        "seconds",
        config.seconds.is_none_or(|s| s > 0.0 && s <= 3600.0),
        "above 0 and at most 3600",
    )?;
    within("exploration", (0.0..=100.0).contains(&config.exploration), "from 0 to 100")?;
    unit("figure_chance", config.figure_chance)?;
    within("figure_share", (0.0..=1.0).contains(&config.figure_share), "from 0 to 1")?;
    within(
        "prior_visits",
        (0.0..=1_000_000.0).contains(&config.prior_visits),
        "from 0 to 1000000",
    )?;
    within("exact_tiles", config.exact_tiles <= 16, "at most 16")?;
    within("exact_nodes", config.exact_nodes <= 1_000_000_000, "at most 1000000000")?;
    if let Playout::Truncated { turns } = config.playout {
        within("playout.truncated.turns", turns <= 1000, "at most 1000")?;
    }
    if let Playout::Greedy { turns } = config.playout {
        within("playout.greedy.turns", turns <= 100, "at most 100")?;
    }
    if let Some(widening) = config.widening {
        within("widening.c", widening.c > 0.0 && widening.c <= 1000.0, "above 0 and at most 1000")?;
        within(
            "widening.alpha",
            widening.alpha > 0.0 && widening.alpha <= 1.0,
            "above 0 and at most 1",
        )?;
    }
    check_reward("", &config.reward)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_profiles_read() {
        let builtin = Profiles::from_toml("builtin.toml", BUILTIN_PROFILES).unwrap();
        assert!(builtin.get("hard").is_some());
    }

    /// The profiles the README's measurements name read, and hold the bots it names.
    #[test]
    fn the_measurement_profiles_read() {
        for (file, text, names) in [
            (
                "time.toml",
                include_str!("../profiles/measure/time.toml"),
                &["t10", "t30", "t100", "t300", "t1000"][..],
            ),
            (
                "ablations.toml",
                include_str!("../profiles/measure/ablations.toml"),
                &["mcts", "none", "c05", "det5", "none4x", "la1", "la2s", "la3", "la16"][..],
            ),
            ("handset.toml", include_str!("../profiles/measure/handset.toml"), &["handset"][..]),
        ] {
            let profiles = Profiles::from_toml(file, text).unwrap();
            for name in names {
                assert!(profiles.get(name).is_some(), "{file} has no {name}");
            }
        }
    }

    /// The built-in `expert` values its samples by the tree search's reward, and the profile
    /// file that replays the journals of the `expert` before it is the same bot without it.
    #[test]
    fn the_margin_expert_is_the_builtin_less_its_reward() {
        let text = include_str!("../profiles/measure/expert-margin.toml");
        let profiles = Profiles::from_toml("expert-margin.toml", text).unwrap();
        let margin = profiles.get("expert").unwrap();
        let BotKind::Lookahead(margin) = margin.kind else { panic!("{:?}", margin.kind) };
        let BotKind::Lookahead(builtin) = Profile::builtin("expert").unwrap().kind else {
            panic!("the built-in expert is a lookahead")
        };
        assert_eq!(builtin.reward, Some(Reward::default()));
        assert_eq!(margin.with_reward(builtin.reward), builtin);
        // Without a reward the fingerprint is as it was before rewards existed, so the old
        // journals still match.
        assert!(!format!("{margin:?}").contains("reward"), "{margin:?}");
        assert!(format!("{builtin:?}").contains("reward"), "{builtin:?}");
    }

    #[test]
    fn bad_profiles_are_refused_with_reasons() {
        let refuse = |text: &str, needle: &str| {
            let error = Profiles::from_toml("t.toml", text).unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        };
        refuse("[[profile]]\nname = \"a\"\nkind = \"random\"\nnoise = 1", "not a setting");
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"mcts\"\nmcts = { iterations = 0 }",
            "iterations",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"mcts\"\nmcts = { exploration = nan }",
            "exploration",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"lookahead\"\nlookahead = { reward = { win_weight = 2.0 } }",
            "`lookahead.reward.win_weight` is from 0 to 1",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"mcts\"\nmcts = { reward = { margin_scale = 0.0 } }",
            "`reward.margin_scale` is above 0",
        );
        refuse("[[profile]]\nname = \"a b\"\nkind = \"random\"", "name");
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"random\"\n[[profile]]\nname = \"a\"\nkind = \"random\"",
            "two profiles",
        );
        refuse("[[profile]]\nname = \"a\"\nkind = \"wizard\"", "t.toml");
        refuse("[[profile]]\nname = \"a\"\nkind = \"mcts\"\nmcts = { depth = 3 }", "depth");
        refuse("[[profile]]\nname = \"a\"\nkind = \"external\"", "needs an `external` table");
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"external\"\nexternal = { command = [] }",
            "names a program",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"external\"\nexternal = { command = [\"b\"], move_ms = 0 }",
            "move_ms",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"greedy\"\nexternal = { command = [\"b\"] }",
            "external bot only",
        );
        refuse(
            "[[profile]]\nname = \"a\"\nkind = \"external\"\nnoise = 1\nexternal = { command = [\"b\"] }",
            "`external` table",
        );
    }
}
