//! Any bytes as a tile-set file.

use std::sync::Arc;

use carcassonne::Catalog;
use carcassonne::dsl::MAX_DIAGNOSTICS;
use carcassonne::limits::{MAX_LABEL, MAX_MESSAGE};

/// A tile-set file gives a catalog that writes back to an equal one, or diagnostics that
/// point into the text, at most [`MAX_DIAGNOSTICS`] and one, each message at most
/// [`MAX_MESSAGE`] characters, all sharing one file label cut to [`MAX_LABEL`]; never a panic
/// or a hang. The file is named with a label longer than that, so the cut runs every time.
///
/// # Panics
/// When the library breaks that promise.
pub fn diagnosed(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    let label = format!("{}.toml", "fuzz".repeat(MAX_LABEL));
    match Catalog::from_toml(&label, text) {
        Ok(catalog) => {
            let again =
                Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap_or_else(|problems| {
                    panic!("a loaded catalog wrote an invalid file:\n{problems}")
                });
            assert_eq!(again, catalog, "a catalog changed on its way through TOML");
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "a refusal without a diagnostic");
            assert!(diagnostics.len() <= MAX_DIAGNOSTICS + 1, "{} diagnostics", diagnostics.len());
            let file = &diagnostics.0[0].file;
            assert_eq!(file.chars().count(), MAX_LABEL, "the label is cut to its limit");
            for diagnostic in &diagnostics {
                assert!(diagnostic.line >= 1 && diagnostic.column >= 1, "{diagnostic:?}");
                assert!(diagnostic.span.start <= diagnostic.span.end, "{diagnostic:?}");
                assert!(diagnostic.span.end <= text.len(), "{diagnostic:?} past the end");
                assert!(!diagnostic.to_string().is_empty());
                assert!(Arc::ptr_eq(&diagnostic.file, file), "diagnostics copy the file label");
                let chars = diagnostic.message.chars().count();
                assert!(chars <= MAX_MESSAGE, "a message of {chars} characters");
            }
        }
    }
}
