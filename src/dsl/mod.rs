//! The tile set language: reading TOML files into a [`Catalog`] with precise
//! diagnostics, and writing a catalog back. The format is documented in `tilesets/README.md`.
//!
//! Loading runs in two steps, as the format's rules split: `read` checks the TOML shape (syntax,
//! keys, types) and `validate` checks the meaning (edges against segments, fields against
//! cities). Both report every problem they find, so an author sees all mistakes at once.

mod bag;
mod declare;
mod diagnostic;
mod figure;
pub mod limits;
mod raw;
mod read;
mod strict;
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

#[cfg(test)]
mod tests {
    use alloc::string::String;

    use super::*;

    const TILE: &str = r#"
[[tile]]
id = "B{n}"
name = "Monastery"
count = 1
edges = { N = "field", E = "field", S = "field", W = "field" }
segments = [
  { kind = "monastery" },
  { kind = "field", half_edges = ["N_w", "N_e", "E_n", "E_s", "S_e", "S_w", "W_s", "W_n"] },
]
"#;

    fn set_with(tiles: usize, tile: &str) -> String {
        let mut text = String::from("[set]\nid = \"big\"\nname = \"Big\"\nedition = 1\n");
        for n in 0..tiles {
            text.push_str(&tile.replace("{n}", &format!("{n}")));
        }
        text
    }

    fn codes(text: &str) -> alloc::vec::Vec<Code> {
        load("f.toml", text).unwrap_err().iter().map(|d| d.code).collect()
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_parsing() {
        let text = "#".repeat(limits::MAX_FILE_BYTES + 1);
        assert_eq!(codes(&text), [Code::TooLarge]);
    }

    #[test]
    #[cfg_attr(miri, ignore = "parses a file of 1,001 tile types")]
    fn too_many_tile_types_is_an_error() {
        let text = set_with(limits::MAX_TILE_TYPES + 1, TILE);
        assert_eq!(codes(&text), [Code::TooLarge]);
        assert!(load("f.toml", &set_with(limits::MAX_TILE_TYPES, TILE)).is_ok());
    }

    #[test]
    fn too_many_tiles_in_all_is_an_error_once() {
        let text = set_with(11, &TILE.replace("count = 1", "count = 1000"));
        assert_eq!(codes(&text), [Code::TooLarge]);
    }

    #[test]
    fn a_hundred_mistakes_are_reported_and_the_rest_counted() {
        // Under Miri a few past the cap do: parsing is slow there.
        let tiles = if cfg!(miri) { MAX_DIAGNOSTICS + 5 } else { 150 };
        let text = set_with(tiles, &TILE.replace("N_w", "N_x"));
        let diagnostics = load("f.toml", &text).unwrap_err();
        assert_eq!(diagnostics.len(), MAX_DIAGNOSTICS + 1);
        let last = diagnostics.iter().last().unwrap();
        assert_eq!(last.code, Code::TooManyErrors);
        let more = tiles - MAX_DIAGNOSTICS;
        assert_eq!(
            last.message,
            format!("{more} more problems not shown; fix the ones above first")
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "parses 100,000 nested brackets")]
    fn deep_nesting_is_a_syntax_error_not_a_stack_overflow() {
        let text = format!("x = {}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(codes(&text).contains(&Code::Syntax));
    }

    #[test]
    fn huge_numbers_are_out_of_range() {
        let text = set_with(1, TILE).replace("count = 1", "count = 99999999999999999999999");
        assert_eq!(codes(&text), [Code::OutOfRange]);
    }

    /// A set whose tiles are all drawn turned is just as valid, and writing and reading it
    /// keeps every segment where it was: the writer and the checker agree in every rotation.
    #[test]
    #[cfg_attr(miri, ignore = "parses and writes every built-in set many times")]
    fn every_builtin_set_turned_round_trips() {
        use crate::geom::Rotation;
        for name in crate::BUILTIN_NAMES {
            let catalog = Catalog::builtin(name).unwrap();
            for rotation in Rotation::ALL {
                let mut turned = catalog.clone();
                for tile in &mut turned.tiles {
                    *tile = crate::tile::TileType::new(
                        tile.id.clone(),
                        tile.name.clone(),
                        tile.count,
                        tile.edges.rotated(rotation),
                        tile.segments.iter().map(|segment| segment.rotated(rotation)).collect(),
                        tile.marks,
                    );
                }
                let reloaded = load("turned.toml", &turned.to_toml()).unwrap();
                assert_eq!(reloaded, turned, "{name} turned {rotation:?}");
            }
        }
    }

    #[test]
    fn long_ids_are_shortened_in_messages() {
        let id = "x".repeat(5000);
        let text = set_with(1, TILE).replace("B0", &id);
        let diagnostics = load("f.toml", &text).unwrap_err();
        assert_eq!(diagnostics.len(), 1);
        assert!(diagnostics.iter().next().unwrap().message.len() < 200);
    }
}
