//! Any bytes as a tile-set file.

use carcassonne::Catalog;

/// A tile-set file gives a catalog that writes back to an equal one, or diagnostics that
/// point into the text; never a panic or a hang.
///
/// # Panics
/// When the library breaks that promise.
pub fn diagnosed(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    match Catalog::from_toml("fuzz.toml", text) {
        Ok(catalog) => {
            let again =
                Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap_or_else(|problems| {
                    panic!("a loaded catalog wrote an invalid file:\n{problems}")
                });
            assert_eq!(again, catalog, "a catalog changed on its way through TOML");
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "a refusal without a diagnostic");
            for diagnostic in &diagnostics {
                assert!(diagnostic.line >= 1 && diagnostic.column >= 1, "{diagnostic:?}");
                assert!(diagnostic.span.start <= diagnostic.span.end, "{diagnostic:?}");
                assert!(diagnostic.span.end <= text.len(), "{diagnostic:?} past the end");
                assert!(!diagnostic.to_string().is_empty());
            }
        }
    }
}
