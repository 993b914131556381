//! The protocol's messages: what clients send (checked), the error codes, and the views of
//! tiles, players and games the server sends.

pub mod client;
pub mod codes;
pub mod views;
