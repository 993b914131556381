//! The carcassonne multiplayer protocol without I/O: rooms and every rule about them
//! ([`room`]), the messages clients send and the views they are sent ([`protocol`]), what a
//! host stores ([`records`]), the tile sets a host offers ([`library`]) and the sets and bots a
//! page is offered ([`catalogue`]), a bot's
//! turn ([`think`]) and a host for one client that keeps everything in memory and leaves
//! clocks to its caller ([`offline::OfflineHost`]).
//!
//! The server (`carcassonne-server`) carries rooms' effects out over WebSockets and SQLite;
//! the web page, with no server to reach, runs [`offline::OfflineHost`] compiled to
//! WebAssembly in a worker and speaks the same protocol to it.

#![forbid(unsafe_code)]

mod bots;
pub mod catalogue;
pub mod library;
pub mod offline;
pub mod protocol;
pub mod records;
pub mod room;

pub use bots::{builtin_bot, think};
pub use library::{Library, LibraryError};
