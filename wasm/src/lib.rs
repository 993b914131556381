//! The carcassonne rules engine for JavaScript and TypeScript, through wasm-bindgen: games
//! from any sets (built-in or given as TOML text), legal actions, actions applied with typed
//! refusals, events, the player's view, saved games, bots by level or profile, and the board
//! and tiles as SVG; and the multiplayer protocol's host for one client, which the web page
//! runs in a worker when it has no server. Values cross as plain JavaScript objects in the engine's documented JSON
//! forms; `wasm/npm` wraps the module as the npm package `carcassonne`.
//!
//! Nothing here panics on what a caller passes: every refusal is a thrown error whose `name`
//! says its kind (`SetupError`, `IllegalActionError`, `SaveError`, `BotError`, `AnalysisError`,
//! and the standard `TypeError` and `RangeError`) and leaves the game as it was.

mod analysis;
mod bot;
mod convert;
mod errors;
mod game;
mod offline;
mod pictures;

pub use analysis::{analysis_svg, analyze, review};
pub use bot::Bot;
pub use game::Game;
pub use offline::{OfflineServer, page_bots, page_catalogue, page_tileset};
pub use pictures::{builtin_sets, tile_svg};

use wasm_bindgen::prelude::wasm_bindgen;

/// The TypeScript forms of the values that cross as objects; wasm-bindgen writes them into
/// the generated declarations, where the methods' types name them.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
