//! Tokens: what players collect from the features they complete (Traders & Builders' goods),
//! and the majority that pays at the end of the game. Declared in a set's file; one mechanism
//! takes and scores every kind.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::mark::{Glyph, Mark, MarkCounts, MarkSet};
use crate::palette::Colour;

/// The most token kinds one tile set, and one game, may declare.
pub const MAX_TOKENS: usize = 8;

/// A declared token kind, by its number in the declarations of the set or game that owns it
/// ([`Catalog::tokens`](crate::Catalog::tokens), [`Game::tokens`](crate::Game::tokens)).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct TokenId(pub u8);

impl TokenId {
    /// The token kind's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who takes the tokens of a completed feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Taker {
    /// The player who placed the tile that completed it, whoever holds the feature and even
    /// if nobody does (Traders & Builders' goods).
    Completer,
    /// Each player who scores the feature (its majority); nobody when it is unoccupied.
    Scorers,
}

impl Taker {
    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Taker::Completer => "completer",
            Taker::Scorers => "scorers",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Taker> {
        [Taker::Completer, Taker::Scorers].into_iter().find(|taker| taker.name() == name)
    }
}

/// A token kind as its tile set declares it (`[[token]]` in files).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenInfo {
    /// The id events and messages name it by, such as `"wine"`; unique in the set and game.
    pub id: String,
    /// The name shown to people.
    pub name: String,
    /// The marks that give one token each when a feature carrying them is completed.
    pub from: MarkSet,
    /// Who takes them.
    pub taker: Taker,
    /// Points at the end of the game to the players holding the most of this kind, each of
    /// the tied ones in full; nobody scores it when nobody holds one.
    pub majority: u32,
    /// How pictures draw a token of this kind.
    pub glyph: Glyph,
    /// The colour pictures draw it in.
    pub colour: Colour,
}

impl TokenInfo {
    /// How many tokens a completed feature carrying `marks` gives: one per mark named in
    /// `from`, however the mark merges for scoring.
    #[must_use]
    pub fn count_in(&self, marks: &MarkCounts) -> u32 {
        self.from.iter().map(|mark: Mark| marks.get(mark)).fold(0, u32::saturating_add)
    }
}
