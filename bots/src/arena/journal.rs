//! An arena's journal: each finished deal as a line of JSON in a file, so that an arena
//! stopped part-way (a session's end, a machine lent for ten minutes, Ctrl-C) goes on where it
//! stopped instead of from nothing.
//!
//! The first line names the arena: the entrants and a fingerprint of their profiles, the
//! setup and the seed. A journal serves only the arena it names; its deals are taken by
//! number, so one written for fewer games serves the first deals of more.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::{ArenaConfig, DealRecord};
use crate::profile::Profile;

/// What the first line says.
const KIND: &str = "carcassonne arena journal";
/// The format's version; another cannot be read.
const VERSION: u32 = 1;
/// The longest line read: a deal of six players with a fault described is a few KiB.
const MAX_LINE: u64 = 1 << 20;

/// Why a journal cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    /// The file could not be read or written.
    #[error("journal {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// The file's first line is not a journal's.
    #[error("{path} is not an arena journal (its first line does not say so)")]
    NotAJournal {
        /// The file.
        path: PathBuf,
    },
    /// The journal is another arena's.
    #[error(
        "journal {path} is another arena's: it was written for {what}; give another file, or the same bots, sets and seed"
    )]
    OtherArena {
        /// The file.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// A line that is not a finished deal.
    #[error("journal {path}, line {line}: {message}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
}

/// The first line.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    journal: String,
    version: u32,
    entrants: Vec<String>,
    seed: u64,
    /// Of every profile's name and settings, the setup and the seed.
    fingerprint: String,
}

impl Header {
    fn new(entrants: &[Profile], config: &ArenaConfig) -> Header {
        let mut setup = config.setup.clone();
        setup.players = u8::try_from(entrants.len()).unwrap_or(u8::MAX);
        // What plays: a profile's description may change without changing a move,
        // and the arena plays every bot on one thread, whatever its profile says.
        let playing: Vec<Profile> =
            entrants.iter().map(|profile| profile.with_threads(1)).collect();
        let kinds: Vec<(&str, &crate::profile::BotKind)> =
            playing.iter().map(|profile| (profile.name.as_str(), &profile.kind)).collect();
        let described = format!("{kinds:?}\n{setup:?}\n{}", config.seed);
        Header {
            journal: KIND.into(),
            version: VERSION,
            entrants: entrants.iter().map(|profile| profile.name.clone()).collect(),
            seed: config.seed,
            fingerprint: format!("{:016x}", fnv1a(described.as_bytes())),
        }
    }

    /// What differs from `other`, in words; `None` when nothing does.
    fn differs_from(&self, other: &Header) -> Option<String> {
        if self.version != other.version {
            Some(format!("format version {} (this one reads {})", other.version, self.version))
        } else if self.entrants != other.entrants {
            Some(format!("bots {}", other.entrants.join(", ")))
        } else if self.seed != other.seed {
            Some(format!("seed {}", other.seed))
        } else if self.fingerprint != other.fingerprint {
            Some("the same bots and seed but other profiles or sets".into())
        } else {
            None
        }
    }
}

/// FNV-1a, 64 bits: a hash that stays the same across builds and releases, which std's
/// `DefaultHasher` does not promise; a fingerprint, not a defence against forgery.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// An open journal: [`Journal::record`] appends a finished deal.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    /// The first line of a new journal.
    header: String,
    /// The bytes of whole lines the file holds; `None` when there is no journal yet.
    whole: Option<u64>,
    /// Opened for writing at the first deal recorded, so that opening changes nothing.
    file: Mutex<Option<File>>,
}

impl Journal {
    /// Opens the journal at `path` for this arena (there may be none yet) and returns the deals
    /// it holds that the arena plans (others are left in the file). Nothing is written until
    /// the first deal is recorded: then a new journal gets its first line, and a last line cut
    /// short (the arena was stopped while writing it) is dropped.
    ///
    /// ```
    /// use carcassonne::{Catalog, GameSetup};
    /// use carcassonne_bots::Profile;
    /// use carcassonne_bots::arena::{self, ArenaConfig, Journal};
    ///
    /// let path = std::env::temp_dir().join(format!("doc-journal-{}.jsonl", std::process::id()));
    /// let entrants = [Profile::builtin("greedy")?, Profile::builtin("random")?];
    /// let setup = GameSetup::new(vec![Catalog::builtin("base")?], 2);
    /// let config = ArenaConfig::new(setup).with_games(4).with_seed(1);
    /// let (journal, played) = Journal::open(&path, &entrants, &config)?;
    /// assert!(played.is_empty());
    /// let first = arena::resume(&entrants, &config, played, &|_| {}, &|deal| journal.record(deal))?;
    /// // Opened again, the journal holds both deals: nothing is left to play.
    /// let (_, played) = Journal::open(&path, &entrants, &config)?;
    /// assert_eq!(played.len(), 2);
    /// let again = arena::resume(&entrants, &config, played, &|_| {}, &|_| unreachable!())?;
    /// assert_eq!(again.entrants, first.entrants);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`JournalError`] when the file cannot be read, is not a journal, is another arena's, or
    /// holds a line that is not a deal.
    pub fn open(
        path: &Path,
        entrants: &[Profile],
        config: &ArenaConfig,
    ) -> Result<(Journal, Vec<DealRecord>), JournalError> {
        let header = Header::new(entrants, config);
        let line = serde_json::to_string(&header).map_err(|error| JournalError::Io {
            path: path.to_path_buf(),
            message: error.to_string(),
        })? + "\n";
        let deals_planned = config.deals(entrants.len());
        let (played, whole) = match File::open(path) {
            Ok(file) => read(path, &file, &header, &line, deals_planned)?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => (Vec::new(), None),
            Err(error) => {
                let message = error.to_string();
                return Err(JournalError::Io { path: path.to_path_buf(), message });
            }
        };
        let journal =
            Journal { path: path.to_path_buf(), header: line, whole, file: Mutex::new(None) };
        Ok((journal, played))
    }

    /// Appends a finished deal (one write of one line, so a stop between deals loses none).
    ///
    /// # Errors
    /// The system's reason, in words, when the file cannot be written.
    pub fn record(&self, deal: &DealRecord) -> Result<(), String> {
        let failed = |error: std::io::Error| format!("{}: {error}", self.path.display());
        let line = serde_json::to_string(deal).map_err(|error| error.to_string())? + "\n";
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let file = match &mut *guard {
            Some(file) => file,
            empty @ None => empty.insert(self.start().map_err(failed)?),
        };
        file.write_all(line.as_bytes()).map_err(failed)
    }

    /// The file ready for deals: whole lines only, a new journal's first line written.
    fn start(&self) -> std::io::Result<File> {
        let mut file = OpenOptions::new().append(true).create(true).open(&self.path)?;
        file.set_len(self.whole.unwrap_or(0))?;
        if self.whole.is_none() {
            file.write_all(self.header.as_bytes())?;
        }
        Ok(file)
    }
}

/// Reads a journal: the planned deals it holds, and the length of its whole lines (`None`
/// for an empty file, or one holding only the start of this arena's first line: a new
/// journal either way).
fn read(
    path: &Path,
    file: &File,
    header: &Header,
    header_line: &str,
    deals_planned: u64,
) -> Result<(Vec<DealRecord>, Option<u64>), JournalError> {
    let io = |error: std::io::Error| JournalError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    };
    let mut reader = BufReader::new(file);
    let mut played = Vec::new();
    let mut whole = 0u64;
    let mut line = Vec::new();
    for number in 1u64.. {
        line.clear();
        let read = (&mut reader).take(MAX_LINE + 1).read_until(b'\n', &mut line).map_err(io)?;
        if read == 0 || line.last() != Some(&b'\n') {
            if line.len() as u64 > MAX_LINE {
                let message = format!("longer than {MAX_LINE} bytes");
                return Err(JournalError::Line { path: path.to_path_buf(), line: number, message });
            }
            if number == 1 && !header_line.as_bytes().starts_with(&line) {
                return Err(JournalError::NotAJournal { path: path.to_path_buf() });
            }
            // The end, or a last line cut short: the whole lines before it are the journal.
            break;
        }
        whole += read as u64;
        if number == 1 {
            let written: Header = serde_json::from_slice(&line)
                .ok()
                .filter(|written: &Header| written.journal == KIND)
                .ok_or_else(|| JournalError::NotAJournal { path: path.to_path_buf() })?;
            if let Some(what) = header.differs_from(&written) {
                return Err(JournalError::OtherArena { path: path.to_path_buf(), what });
            }
            continue;
        }
        let deal: DealRecord =
            serde_json::from_slice(&line).map_err(|error| JournalError::Line {
                path: path.to_path_buf(),
                line: number,
                message: error.to_string(),
            })?;
        if deal.deal < deals_planned {
            played.push(deal);
        }
    }
    Ok((played, (whole > 0).then_some(whole)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{self, ArenaError};
    use carcassonne::{Catalog, GameSetup};

    fn config(games: u64, seed: u64) -> ArenaConfig {
        ArenaConfig {
            setup: GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2),
            games,
            seed,
            threads: 2,
            sprt: None,
        }
    }

    fn entrants() -> Vec<Profile> {
        vec![Profile::builtin("easy").unwrap(), Profile::builtin("random").unwrap()]
    }

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir()
            .join(format!("carcassonne-journal-{}-{name}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    /// An arena stopped after some deals, its last line cut short, goes on from its journal
    /// to the report an uninterrupted arena gives.
    #[test]
    fn a_stopped_arena_goes_on_to_the_same_report() {
        let entrants = entrants();
        let whole = arena::run(&entrants, &config(12, 5), &|_| {}).unwrap();

        let path = temp("resume");
        let (journal, played) = Journal::open(&path, &entrants, &config(6, 5)).unwrap();
        assert!(played.is_empty());
        arena::resume(&entrants, &config(6, 5), played, &|_| {}, &|deal| journal.record(deal))
            .unwrap();
        drop(journal);
        // A deal cut short by the stop.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"deal\":3,\"games\":[{\"sco");
        std::fs::write(&path, &text).unwrap();

        let (journal, played) = Journal::open(&path, &entrants, &config(12, 5)).unwrap();
        assert_eq!(played.len(), 3, "the three whole deals, not the cut one");
        let counted = std::sync::atomic::AtomicU64::new(0);
        let resumed = arena::resume(&entrants, &config(12, 5), played, &|_| {}, &|deal| {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            journal.record(deal)
        })
        .unwrap();
        assert_eq!(counted.into_inner(), 3, "only the deals not in the journal were played");
        assert_eq!(resumed.pairs, whole.pairs);
        assert_eq!((resumed.deals, resumed.games), (whole.deals, whole.games));
        for (a, b) in resumed.entrants.iter().zip(&whole.entrants) {
            assert_eq!(
                (a.wins, a.mean_score, a.mean_margin),
                (b.wins, b.mean_score, b.mean_margin)
            );
        }
        // The file now holds the header and six whole deals, the cut line gone.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 7);
        assert!(text.ends_with('\n'));
        std::fs::remove_file(&path).unwrap();
    }

    /// The journals the README's base-game ladder is read from still belong to the built-in
    /// bots: a change to a built-in profile's settings changes its fingerprint, and then its
    /// journals must be played again (and the README's figures with them).
    #[test]
    fn the_ladders_journals_belong_to_the_builtin_bots() {
        let ladder = [
            ("expert-hard", "expert", "hard"),
            ("expert-greedy", "expert", "greedy"),
            ("easy-medium", "easy", "medium"),
            ("medium-greedy", "medium", "greedy"),
            ("medium-hard", "medium", "hard"),
        ];
        for (file, first, second) in ladder {
            let written = measured_header(&format!("{file}.jsonl"));
            let entrants = [first, second].map(|name| Profile::builtin(name).unwrap()).to_vec();
            assert_eq!(Header::new(&entrants, &config(1000, 2026)), written, "{file}");
        }
    }

    /// The header of the journal at `relative` under `bots/measurements/`.
    fn measured_header(relative: &str) -> Header {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("measurements");
        let text = std::fs::read_to_string(path.join(relative)).unwrap();
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    }

    /// The `expert` before its reward still replays its base-game journal from the profile
    /// file the measurements' README names for it.
    #[test]
    fn the_margin_experts_journal_belongs_to_its_profile() {
        let text = include_str!("../../profiles/measure/expert-margin.toml");
        let margin = crate::profile::Profiles::from_toml("expert-margin.toml", text).unwrap();
        let entrants =
            vec![margin.get("expert").unwrap().clone(), Profile::builtin("hard").unwrap()];
        let written = measured_header("margin/expert-hard.jsonl");
        assert_eq!(Header::new(&entrants, &config(1000, 2026)), written);
    }

    /// A journal serves only its own arena: other bots, another seed, other sets, or a file
    /// that is no journal are refused, and the file is left as it was.
    #[test]
    fn another_arenas_journal_is_refused() {
        let entrants = entrants();
        let path = temp("other");
        let (journal, played) = Journal::open(&path, &entrants, &config(2, 5)).unwrap();
        arena::resume(&entrants, &config(2, 5), played, &|_| {}, &|deal| journal.record(deal))
            .unwrap();
        drop(journal);
        let before = std::fs::read(&path).unwrap();

        let swapped = vec![entrants[1].clone(), entrants[0].clone()];
        let mut other_sets = config(2, 5);
        other_sets.setup.catalogs.push(Catalog::builtin("river").unwrap());
        for (bots, config, says) in [
            (&swapped, config(2, 5), "written for bots easy, random"),
            (&entrants, config(2, 6), "written for seed 5"),
            (&entrants, other_sets, "other profiles or sets"),
        ] {
            let error = Journal::open(&path, bots, &config).unwrap_err();
            assert!(matches!(error, JournalError::OtherArena { .. }), "{error}");
            assert!(error.to_string().contains(says), "{error}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), before);

        // Files that are no journal, with a line or without one, are refused and kept.
        for text in ["not a journal\n", "notes without an end of line"] {
            std::fs::write(&path, text).unwrap();
            let error = Journal::open(&path, &entrants, &config(2, 5)).unwrap_err();
            assert!(matches!(error, JournalError::NotAJournal { .. }), "{error}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        std::fs::remove_file(&path).unwrap();

        // Opening writes nothing: an arena refused after it leaves no file behind.
        let (journal, _) = Journal::open(&path, &entrants, &config(2, 5)).unwrap();
        let three = vec![entrants[0].clone(), entrants[1].clone(), entrants[0].clone()];
        let mut sprt = config(2, 5);
        sprt.sprt = Some(crate::arena::Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 });
        let refused =
            arena::resume(&three, &sprt, Vec::new(), &|_| {}, &|deal| journal.record(deal));
        assert!(matches!(refused, Err(ArenaError::SprtNeedsTwo(3))));
        assert!(!path.exists(), "a refused arena wrote its journal");
    }

    /// A line that is not a deal, or a deal of another shape, is named, never taken.
    #[test]
    fn a_bad_line_is_named() {
        let entrants = entrants();
        let path = temp("bad");
        let header = serde_json::to_string(&Header::new(&entrants, &config(4, 5))).unwrap();
        std::fs::write(&path, format!("{header}\n{{\"deal\":0}}\n")).unwrap();
        let error = Journal::open(&path, &entrants, &config(4, 5)).unwrap_err();
        assert!(matches!(error, JournalError::Line { line: 2, .. }), "{error}");

        let short = DealRecord { deal: 1, games: Vec::new() };
        let error =
            arena::resume(&entrants, &config(4, 5), vec![short], &|_| {}, &|_| Ok(())).unwrap_err();
        assert!(matches!(error, ArenaError::Played { deal: 1, .. }), "{error}");
        std::fs::remove_file(&path).unwrap();
    }
}
