//! Loading tile sets from the file system (feature `std`).

use std::path::{Path, PathBuf};
use std::string::ToString;

use crate::catalog::{BUILTIN_NAMES, Catalog};
use crate::dsl::{Diagnostics, limits};

/// Why a tile set could not be loaded from a path.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path as given.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is larger than a tile set may be.
    #[error("{path} is {bytes} bytes; a tile set may be at most {max} bytes", max = limits::MAX_FILE_BYTES)]
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// The file's size.
        bytes: u64,
    },
    /// The file was read but is not a valid tile set.
    #[error("{0}")]
    Invalid(Diagnostics),
}

impl Catalog {
    /// Reads and validates the tile set file at `path`. Diagnostics name the file as given.
    ///
    /// # Errors
    /// [`LoadError::Io`] when the file cannot be read, [`LoadError::TooLarge`] when it is over
    /// the size limit (checked before reading it), [`LoadError::Invalid`] with every problem
    /// when it is not a valid tile set.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Catalog, LoadError> {
        let path = path.as_ref();
        let io = |source| LoadError::Io { path: path.to_path_buf(), source };
        let bytes = std::fs::metadata(path).map_err(io)?.len();
        if bytes > limits::MAX_FILE_BYTES as u64 {
            return Err(LoadError::TooLarge { path: path.to_path_buf(), bytes });
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        Catalog::from_toml(&path.display().to_string(), &text).map_err(LoadError::Invalid)
    }

    /// A built-in set when `name_or_path` is one of [`BUILTIN_NAMES`], otherwise the file at
    /// that path.
    ///
    /// # Errors
    /// As [`Catalog::from_path`].
    pub fn load(name_or_path: &str) -> Result<Catalog, LoadError> {
        if BUILTIN_NAMES.contains(&name_or_path) {
            if let Ok(catalog) = Catalog::builtin(name_or_path) {
                return Ok(catalog);
            }
        }
        Catalog::from_path(name_or_path)
    }
}
