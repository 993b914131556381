//! Any bytes as a tile set file: a catalog that writes back to itself, or diagnostics that
//! point into the text; never a panic or a hang.
#![no_main]

use carcassonne::Catalog;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Catalog::from_toml("fuzz.toml", text) {
        Ok(catalog) => {
            let again = Catalog::from_toml("again.toml", &catalog.to_toml())
                .expect("a loaded catalog writes back to a valid file");
            assert_eq!(again, catalog);
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty());
            for diagnostic in &diagnostics {
                assert!(diagnostic.line >= 1 && diagnostic.column >= 1);
                assert!(diagnostic.span.start <= text.len());
            }
        }
    }
});
