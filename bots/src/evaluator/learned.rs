//! Learned weights: a weight for each signal, fitted to self-play by
//! `carcassonne train-evaluator`, kept as a TOML file that says how it was made.

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer};

use super::signals::{SIGNALS, Signal, Signals};

/// The built-in learned weights (`learned = "builtin"` in a profile).
pub const BUILTIN_LEARNED: &str = include_str!("../../profiles/learned.toml");

/// The largest weights file read.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A weight for each [`Signal`]: the learned evaluator's expected final points are a player's
/// points so far plus the weighted sum of their signals.
///
/// The file form (what [`LearnedWeights::to_toml`] writes):
///
/// ```
/// use carcassonne_bots::{LearnedWeights, Signal};
/// let text = "[weights]\ncity_now = 1.0\ncity_gain = 0.8\n";
/// let learned = LearnedWeights::from_toml(text)?;
/// assert_eq!(learned.weights[Signal::CityGain.index()], 0.8);
/// assert_eq!(learned.weights[Signal::Supply.index()], 0.0); // a signal not named weighs 0
/// assert!(LearnedWeights::from_toml("[weights]\ncity_later = 1.0\n").is_err());
/// assert_eq!(LearnedWeights::from_toml(&learned.to_toml(""))?, learned);
/// # Ok::<(), carcassonne_bots::LearnedWeightsError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnedWeights {
    /// Each signal's weight, indexed by [`Signal::index`].
    pub weights: Signals,
}

/// Why a weights file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LearnedWeightsError {
    /// The file could not be read.
    #[error("cannot read {file}: {message}")]
    Read {
        /// The path.
        file: String,
        /// The system's reason.
        message: String,
    },
    /// The text is not a weights file.
    #[error("not a weights file: {0}")]
    Format(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    weights: toml::Table,
}

impl LearnedWeights {
    /// The built-in weights.
    ///
    /// # Panics
    /// Never: a unit test reads the built-in file.
    #[must_use]
    pub fn builtin() -> LearnedWeights {
        static BUILTIN: OnceLock<LearnedWeights> = OnceLock::new();
        *BUILTIN.get_or_init(|| {
            LearnedWeights::from_toml(BUILTIN_LEARNED)
                .expect("the built-in learned weights are valid; a unit test reads them")
        })
    }

    /// Reads a weights file's text: a `[weights]` table of signal names and finite numbers
    /// (a signal not named weighs 0); how they were made is said in comments.
    ///
    /// # Errors
    /// [`LearnedWeightsError::Format`] for text of another form, an unknown signal or a weight
    /// that is not a finite number.
    pub fn from_toml(text: &str) -> Result<LearnedWeights, LearnedWeightsError> {
        let raw: RawFile = toml::from_str(text).map_err(|error| {
            LearnedWeightsError::Format(carcassonne::limits::shortened_display(&error, 400))
        })?;
        let mut weights = [0.0; SIGNALS];
        for (name, value) in &raw.weights {
            let signal = Signal::from_name(name).ok_or_else(|| {
                LearnedWeightsError::Format(format!(
                    "`{}` is not a signal (known: {})",
                    carcassonne::limits::shorten(name, 64),
                    Signal::ALL.map(Signal::name).join(", ")
                ))
            })?;
            let weight = value.as_float().or_else(|| value.as_integer().map(|i| i as f64));
            match weight {
                Some(weight) if weight.is_finite() && weight.abs() <= 1e6 => {
                    weights[signal.index()] = weight as f32;
                }
                _ => {
                    return Err(LearnedWeightsError::Format(format!(
                        "`{name}` is a number of at most a million either way"
                    )));
                }
            }
        }
        Ok(LearnedWeights { weights })
    }

    /// Reads the weights file at `path`.
    ///
    /// # Errors
    /// [`LearnedWeightsError::Read`] for a file that cannot be read or is over 1 MiB; as
    /// [`LearnedWeights::from_toml`] otherwise.
    pub fn from_file(path: &std::path::Path) -> Result<LearnedWeights, LearnedWeightsError> {
        let read = |message: String| LearnedWeightsError::Read {
            file: carcassonne::limits::shorten(&path.display().to_string(), 200).into_owned(),
            message,
        };
        let file = std::fs::File::open(path).map_err(|error| read(error.to_string()))?;
        let text = carcassonne::limits::read_text_at_most(file, MAX_FILE_BYTES as usize)
            .map_err(|error| read(error.to_string()))?
            .ok_or_else(|| read(format!("it is over {MAX_FILE_BYTES} bytes")))?;
        LearnedWeights::from_toml(&text)
    }

    /// The file form: `comment` (each line made a TOML comment), then the weights, one signal a
    /// line in index order.
    #[must_use]
    pub fn to_toml(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
        }
        out.push_str("[weights]\n");
        for signal in Signal::ALL {
            out.push_str(&format!("{} = {}\n", signal.name(), self.weights[signal.index()]));
        }
        out
    }
}

/// A profile's `learned`: `"builtin"` or the path of a weights file.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<LearnedWeights>, D::Error> {
    let name = String::deserialize(deserializer)?;
    if name == "builtin" {
        return Ok(Some(LearnedWeights::builtin()));
    }
    LearnedWeights::from_file(std::path::Path::new(&name))
        .map(Some)
        .map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_weights_read() {
        let builtin = LearnedWeights::from_toml(BUILTIN_LEARNED).unwrap();
        assert!(builtin.weights.iter().any(|weight| *weight != 0.0));
    }
}
