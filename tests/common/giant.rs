//! The giant, a figure no published set has, shared by the tests that play an author's figure
//! (`tests/declared_figures.rs`, the bots' `legal_choices`): a follower of strength 3 that
//! stands on cities and roads, one a player.

use carcassonne::{Catalog, Figure};

/// The giant's `[[figure]]` table, as an author writes it.
pub const GIANT_TOML: &str = "[[figure]]\nid = \"giant\"\nper_player = 1\nrole = \"follower\"\n\
                              strength = 3\nstands_on = [\"city\", \"road\"]\n\n";

/// The base game with the giant declared before its own figures.
pub fn with_giant() -> Catalog {
    let base = Catalog::builtin("base").unwrap().to_toml();
    let text = base.replacen("[[figure]]", &format!("{GIANT_TOML}[[figure]]"), 1);
    Catalog::from_toml("giants.toml", &text).unwrap_or_else(|problems| panic!("{problems}"))
}

/// The giant.
pub fn giant() -> Figure {
    Figure::from_id("giant").unwrap()
}
