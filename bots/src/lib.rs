//! Bots for the `carcassonne` rules engine, the evaluator they share, and the arena that
//! measures them.
//!
//! Every bot implements [`Bot`]: given a game and the seat to move, it chooses the next
//! action. Bots come from [profiles](Profile), TOML data like tile sets; the built-in ones are
//! `random`, `greedy`, the levels `easy`, `medium`, `hard` and `expert`, and `anchor`, a
//! rebuild of the strongest public Carcassonne bot to measure ours against. A profile of kind
//! `external` runs a program in any language that speaks the line-based JSON protocol of
//! docs/bot-protocol.md ([`ExternalBot`]).
//!
//! ```
//! use carcassonne::{Catalog, Game, GameSetup};
//! use carcassonne_bots::Profile;
//!
//! let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
//! let players = [Profile::builtin("medium")?.bot(1), Profile::builtin("easy")?.bot(2)];
//! while !game.is_over() {
//!     let seat = game.current_player();
//!     let action = players[seat.index()].choose(&game, seat)?;
//!     game.apply(action)?;
//! }
//! println!("{:?}", game.scores());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # A bot sees only what a player sees
//! A copy of a [`Game`] knows the order of its bag. Every bot here searches from copies that
//! it first [reshuffles](Game::reshuffle) with its own seed, so two games that differ only in
//! their hidden order get the same answer from the same bot.
//!
//! # Randomness
//! A bot's choices depend on its seed and the game, never on the machine, the number of
//! threads or what it was asked before; only a time budget (which stops a search early) makes
//! them depend on speed.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
mod budget;
mod evaluator;
mod external;
mod greedy;
mod lookahead;
mod mcts;
mod profile;
mod random;
mod reward;
mod seeds;
pub mod training;
mod turn;

use carcassonne::{Action, Game, Phase, PlayerId};

pub use evaluator::{
    Evaluator, EvaluatorWeights, LearnedWeights, LearnedWeightsError, SIGNALS, Signal, Signals,
};
pub use external::{ExternalBot, ExternalConfig, Faults, PROTOCOL_VERSION, TurnBot};
pub use greedy::GreedyBot;
pub use lookahead::{LookaheadBot, LookaheadConfig};
pub use mcts::{ChoiceStat, MctsBot, MctsConfig, Playout, SearchStats, Widening};
pub use profile::{BotKind, Profile, ProfileError, Profiles};
pub use random::{RandomBot, play_random};
pub use reward::Reward;
pub use seeds::derive as derive_seed;
pub use turn::{TurnOption, distinct_placements, each_turn_option};

/// A player that chooses actions.
///
/// Bots are `Sync`: one bot may answer for several games on several threads at once.
pub trait Bot: Send + Sync {
    /// The action `seat` takes next in `game`.
    ///
    /// In the draw phase the answer is [`Action::Draw`]: the bag, not the player, decides
    /// the tile.
    ///
    /// # Errors
    /// [`BotError`] when the game is over or it is not `seat`'s turn.
    fn choose(&self, game: &Game, seat: PlayerId) -> Result<Action, BotError>;

    /// The profile name the bot was built from, or its kind.
    fn name(&self) -> &str;

    /// The moves this bot lost so far to a random legal one because it failed to answer (an
    /// [`ExternalBot`] that was slow, exited, or answered garbage or an illegal action); none
    /// for the bots of this crate.
    fn faults(&self) -> Faults {
        Faults::default()
    }
}

/// Why a bot cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another player is to move.
    #[error("it is player {}'s turn, not player {}'s", .current.0, .seat.0)]
    NotYourTurn {
        /// The seat the bot was asked to play.
        seat: PlayerId,
        /// The seat to move.
        current: PlayerId,
    },
}

/// The checks every bot makes first; `Some(action)` when the answer needs no thought.
fn forced(game: &Game, seat: PlayerId) -> Result<Option<Action>, BotError> {
    match game.phase() {
        Phase::GameOver => Err(BotError::GameOver),
        _ if game.current_player() != seat => {
            Err(BotError::NotYourTurn { seat, current: game.current_player() })
        }
        // The bag decides a tile or a flock's token, not the player.
        phase if phase.is_chance() => Ok(Some(Action::Draw)),
        _ => Ok(None),
    }
}

/// The crate README's example, compiled and run with the doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
