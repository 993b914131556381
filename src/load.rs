//! Loading tile sets from the file system (feature `std`).

use std::path::{Path, PathBuf};
use std::string::ToString;

use crate::catalog::{BUILTIN_NAMES, Catalog};
use crate::dsl::{Diagnostics, limits};
use crate::limits::read_text_at_most;

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
    /// The path names something other than a regular file: a directory, a pipe, a device
    /// such as `/dev/zero` or a socket.
    #[error("{path} is not a regular file; a tile set is read only from one")]
    NotAFile {
        /// The path as given.
        path: PathBuf,
    },
    /// The file is larger than a tile set may be.
    #[error("{path} is over {max} bytes; a tile set may be at most {max} bytes", max = limits::MAX_FILE_BYTES)]
    TooLarge {
        /// The path as given.
        path: PathBuf,
    },
    /// The file was read but is not a valid tile set.
    #[error("{0}")]
    Invalid(Diagnostics),
}

impl Catalog {
    /// Reads and validates the tile set file at `path`. Diagnostics name the file as given.
    ///
    /// Only a regular file is read (a symbolic link to one is followed), and never more than
    /// one byte over [`MAX_FILE_BYTES`](crate::limits::MAX_FILE_BYTES), whatever its size
    /// claims to be or becomes while it is read.
    ///
    /// # Errors
    /// [`LoadError::Io`] when the file cannot be read, [`LoadError::NotAFile`] for a
    /// directory, pipe, device or socket, [`LoadError::TooLarge`] when it is over the size
    /// limit (text that is not UTF-8 is an `Io` error of kind `InvalidData`),
    /// [`LoadError::Invalid`] with every problem when it is not a valid tile set.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Catalog, LoadError> {
        let path = path.as_ref();
        let io = |source| LoadError::Io { path: path.to_path_buf(), source };
        // Checked before opening: opening a pipe would wait for a writer.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(LoadError::NotAFile { path: path.to_path_buf() });
        }
        let file = std::fs::File::open(path).map_err(io)?;
        let Some(text) = read_text_at_most(file, limits::MAX_FILE_BYTES).map_err(io)? else {
            return Err(LoadError::TooLarge { path: path.to_path_buf() });
        };
        Catalog::from_toml(&path.display().to_string(), &text).map_err(LoadError::Invalid)
    }

    /// A built-in set when `name_or_path` is one of [`BUILTIN_NAMES`], otherwise the file at
    /// that path.
    ///
    /// # Errors
    /// As [`Catalog::from_path`].
    pub fn load(name_or_path: &str) -> Result<Catalog, LoadError> {
        if BUILTIN_NAMES.contains(&name_or_path)
            && let Ok(catalog) = Catalog::builtin(name_or_path)
        {
            return Ok(catalog);
        }
        Catalog::from_path(name_or_path)
    }
}
