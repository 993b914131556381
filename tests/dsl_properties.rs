//! Properties of the tile set loader over hostile and mutated input.

use carcassonne::{Catalog, Diagnostics};
use proptest::prelude::*;

const BASE: &str = include_str!("../tilesets/base.toml");
const IC: &str = include_str!("../tilesets/inns_and_cathedrals.toml");

/// Every diagnostic points into the text it came from, with 1-based positions that agree
/// with its byte span: an editor jumping to line:column lands on the offending text.
fn assert_well_located(text: &str, diagnostics: &Diagnostics) {
    assert!(!diagnostics.is_empty(), "a rejected file has at least one diagnostic");
    for diagnostic in diagnostics {
        assert!(diagnostic.line >= 1 && diagnostic.column >= 1, "{diagnostic}");
        assert!(diagnostic.span.start <= text.len(), "{diagnostic}");
        let before = &text[..char_boundary_at_or_before(text, diagnostic.span.start)];
        let line = before.matches('\n').count() + 1;
        assert_eq!(diagnostic.line as usize, line, "{diagnostic}");
        assert!(!diagnostic.message.is_empty() && !diagnostic.message.ends_with('.'));
    }
}

fn char_boundary_at_or_before(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn check(text: &str) {
    match Catalog::from_toml("fuzz.toml", text) {
        Ok(catalog) => {
            // Whatever loads must write back to something that loads the same.
            let again = Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap();
            assert_eq!(again, catalog);
        }
        Err(diagnostics) => assert_well_located(text, &diagnostics),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 512 }))]

    /// Arbitrary text never panics the loader.
    #[test]
    fn any_text_loads_or_is_diagnosed(text in ".{0,400}") {
        check(&text);
    }

    /// Deleting a line of a real set (losing a key, a bracket or a whole tile) is diagnosed,
    /// never a panic.
    #[test]
    fn deleting_a_line_is_diagnosed(line in 0usize..2000, ic in any::<bool>()) {
        let source = if ic { IC } else { BASE };
        let lines: Vec<&str> = source.lines().collect();
        let line = line % lines.len();
        let text: String = lines.iter().enumerate().filter(|(i, _)| *i != line)
            .map(|(_, l)| format!("{l}\n")).collect();
        check(&text);
    }

    /// Replacing one token of a real set by another token of the language is diagnosed or
    /// loads, never a panic; this reaches the semantic checks, not only the parser.
    #[test]
    fn swapping_a_token_is_diagnosed(position in 0usize..100_000, token in prop::sample::select(vec![
        "\"N\"", "\"N_w\"", "\"S_e\"", "\"city\"", "\"road\"", "\"field\"", "\"river\"",
        "\"pennant\"", "\"inn\"", "\"garden\"", "0", "-1", "[]", "{}", "\"\"", "true",
    ])) {
        let starts: Vec<usize> = BASE.match_indices('"').map(|(i, _)| i).collect();
        let start = starts[position % starts.len()];
        let end = BASE[start + 1..].find('"').map_or(BASE.len(), |i| start + i + 2);
        let text = format!("{}{}{}", &BASE[..start], token, &BASE[end..]);
        check(&text);
    }

    /// Cutting a real file anywhere is diagnosed.
    #[test]
    fn truncation_is_diagnosed(cut in 0usize..100_000) {
        let cut = char_boundary_at_or_before(BASE, cut % BASE.len());
        check(&BASE[..cut]);
    }
}
