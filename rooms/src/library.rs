//! The tile sets a host offers its rooms: the built-in ones, and the files its operator adds
//! (`carcassonne-server --tilesets DIR`). A room names its sets by id; the library is where
//! those ids are looked up, when the room is made and when it is restored.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use carcassonne::{BUILTIN_NAMES, Catalog, LoadError};

/// The most tile sets a library holds: a folder of more is refused, not read without end.
pub const MAX_SETS: usize = 256;

/// The tile sets a host offers, built-in ones first, each id once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    sets: Vec<Arc<Catalog>>,
}

/// Why a tile set could not join a library.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// A file could not be read or is not a valid tile set; the error says which and why.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The folder could not be listed.
    #[error("cannot list {path}: {source}")]
    Folder {
        /// The folder as given.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A set's id is one the library already has (a built-in set's, or another file's).
    #[error("{path}: the tile set id `{id}` is taken by {by}; give the set an id of its own")]
    Taken {
        /// The file that brought the second set.
        path: PathBuf,
        /// The id both sets have.
        id: String,
        /// Who has it: "a built-in set" or the first file.
        by: String,
    },
    /// More sets than [`MAX_SETS`].
    #[error("{path}: a host offers at most {MAX_SETS} tile sets")]
    TooMany {
        /// The file or folder that went over.
        path: PathBuf,
    },
}

impl Default for Library {
    fn default() -> Library {
        Library::builtin()
    }
}

impl Library {
    /// The built-in sets alone, in the order they are listed to users.
    #[must_use]
    pub fn builtin() -> Library {
        let sets =
            BUILTIN_NAMES.iter().filter_map(|name| Catalog::builtin(name).ok()).map(Arc::new);
        Library { sets: sets.collect() }
    }

    /// Adds the tile set file at `path`, or every `*.toml` file in the folder at `path` (in
    /// the order of their names; nothing below it): how many sets were added.
    ///
    /// # Errors
    /// The first file that cannot be read or is not a valid tile set (with every problem of
    /// that file), an id the library already has, or more than [`MAX_SETS`] sets. The
    /// library is unchanged on error.
    pub fn add_path(&mut self, path: &Path) -> Result<usize, LibraryError> {
        let files = if path.is_dir() {
            let listing = std::fs::read_dir(path)
                .map_err(|source| LibraryError::Folder { path: path.to_path_buf(), source })?;
            let mut files = Vec::new();
            for entry in listing {
                let entry = entry
                    .map_err(|source| LibraryError::Folder { path: path.to_path_buf(), source })?;
                let file = entry.path();
                if file.extension().is_some_and(|ext| ext == "toml") {
                    if files.len() == MAX_SETS {
                        return Err(LibraryError::TooMany { path: path.to_path_buf() });
                    }
                    files.push(file);
                }
            }
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut grown = self.clone();
        // Which file brought each added id, for the message when a later file takes it again.
        let mut brought: Vec<(String, PathBuf)> = Vec::new();
        for file in &files {
            if grown.sets.len() == MAX_SETS {
                return Err(LibraryError::TooMany { path: file.clone() });
            }
            let catalog = Catalog::from_path(file)?;
            let id = catalog.info().id.clone();
            if grown.get(&id).is_some() {
                let by = brought.iter().find(|(known, _)| *known == id).map_or_else(
                    || "a set the host already offers".to_owned(),
                    |(_, first)| first.display().to_string(),
                );
                return Err(LibraryError::Taken { path: file.clone(), id, by });
            }
            brought.push((id, file.clone()));
            grown.sets.push(Arc::new(catalog));
        }
        *self = grown;
        Ok(files.len())
    }

    /// The set with this id.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Catalog> {
        self.sets.iter().find(|set| set.info().id == id).map(|set| &**set)
    }

    /// Every set, built-in ones first.
    pub fn sets(&self) -> impl ExactSizeIterator<Item = &Catalog> + '_ {
        self.sets.iter().map(|set| &**set)
    }

    /// Whether the set with this id is one of the engine's own.
    #[must_use]
    pub fn is_builtin(&self, id: &str) -> bool {
        BUILTIN_NAMES.contains(&id)
    }

    /// The sets `names` names, in that order.
    ///
    /// # Errors
    /// The first name the library has no set of, quoted as a message.
    pub fn catalogs(&self, names: &[String]) -> Result<Vec<Catalog>, String> {
        names
            .iter()
            .map(|name| {
                self.get(name).cloned().ok_or_else(|| {
                    let shown = carcassonne::limits::shorten(name, 64);
                    format!("this host offers no tile set called `{shown}`")
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("carc-library-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, text) in files {
            std::fs::write(dir.join(file), text).unwrap();
        }
        dir
    }

    fn market_town() -> String {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/invented/market_town.toml"
        ))
        .unwrap()
    }

    #[test]
    fn a_folder_adds_its_sets_and_nothing_else() {
        let dir = folder("adds", &[("market.toml", &market_town()), ("notes.txt", "not a set")]);
        let mut library = Library::builtin();
        let builtin = library.sets().len();
        assert_eq!(library.add_path(&dir).unwrap(), 1);
        assert_eq!(library.sets().len(), builtin + 1);
        let id = library.sets().last().unwrap().info().id.clone();
        assert!(library.get(&id).is_some() && !library.is_builtin(&id));
        assert!(library.catalogs(&["base".into(), id]).is_ok());
        let unknown = library.catalogs(&["nowhere".into()]).unwrap_err();
        assert_eq!(unknown, "this host offers no tile set called `nowhere`");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_taken_id_or_a_broken_file_leaves_the_library_as_it_was() {
        let base =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tilesets/base.toml"))
                .unwrap();
        let dir = folder("taken", &[("a.toml", &market_town()), ("b.toml", &base)]);
        let mut library = Library::builtin();
        let before = library.clone();
        let error = library.add_path(&dir).unwrap_err();
        assert!(matches!(&error, LibraryError::Taken { id, .. } if id == "base"), "{error}");
        assert!(error.to_string().contains("a set the host already offers"), "{error}");
        assert_eq!(library, before);

        let twice = folder("twice", &[("a.toml", &market_town()), ("b.toml", &market_town())]);
        let error = library.add_path(&twice).unwrap_err();
        assert!(error.to_string().contains("a.toml"), "the first file is named: {error}");
        assert_eq!(library, before);

        let broken = folder("broken", &[("a.toml", "[set]\nid = 3\n")]);
        let error = library.add_path(&broken).unwrap_err();
        assert!(matches!(error, LibraryError::Load(LoadError::Invalid(_))), "{error}");
        assert!(error.to_string().contains("a.toml"), "{error}");
        assert_eq!(library, before);
        for dir in [dir, twice, broken] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}
