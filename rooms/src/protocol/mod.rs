//! The protocol's messages: what clients send (checked), the error codes, and the views of
//! tiles, players and games the server sends; what goes to one connection outside a room.

pub mod client;
pub mod codes;
pub mod direct;
pub mod names;
pub mod views;

/// The protocol version the hosts speak (`CONNECTED.protocolVersion`).
pub const PROTOCOL_VERSION: &str = "1.1";
