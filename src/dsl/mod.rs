//! The tile set language: reading TOML files into a [`Catalog`](crate::Catalog) with precise
//! diagnostics, and writing a catalog back. The format is documented in `tilesets/README.md`.
//!
//! Loading runs in two steps, as the format's rules split: `read` checks the TOML shape (syntax,
//! keys, types) and `validate` checks the meaning (edges against segments, fields against
//! cities). Both report every problem they find, so an author sees all mistakes at once.

mod diagnostic;
pub mod limits;
mod raw;
mod read;
mod validate;
mod write;

pub use diagnostic::{Code, Diagnostic, Diagnostics, MAX_DIAGNOSTICS};

use alloc::format;
use diagnostic::Problems;

use crate::Catalog;

pub(crate) use write::write;

/// Reads and validates `text`; `file` names it in diagnostics.
pub(crate) fn load(file: &str, text: &str) -> Result<Catalog, Diagnostics> {
    let mut problems = Problems::default();
    if text.len() > limits::MAX_FILE_BYTES {
        problems.report(
            Code::TooLarge,
            0..0,
            format!(
                "the file is {} bytes; a tile set may be at most {} bytes",
                text.len(),
                limits::MAX_FILE_BYTES
            ),
        );
        return Err(problems.into_diagnostics(file, ""));
    }
    let catalog = read::read(text, &mut problems)
        .and_then(|raw| validate::validate(raw, text, &mut problems));
    match catalog {
        Some(catalog) if problems.is_empty() => Ok(catalog),
        _ => Err(problems.into_diagnostics(file, text)),
    }
}
