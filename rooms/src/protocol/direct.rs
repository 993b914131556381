//! Messages to one connection outside a room's numbered sequence: `CONNECTED`, `ERROR`,
//! `PONG`, `LIST_ROOMS`, `ROOM_LEFT`, and the envelope they travel in.

use serde::Serialize;

use super::codes::Refusal;
use crate::room::{Envelope, now};

/// `ERROR`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorMessage<'a> {
    pub code: String,
    pub numeric_code: u16,
    pub message: &'a str,
    pub details: &'a serde_json::Value,
    /// The `messageId` of the message refused, when it had one.
    pub in_reply_to: Option<&'a str>,
}

impl<'a> ErrorMessage<'a> {
    /// The `ERROR` for `refusal`, answering the message `answering` names.
    pub fn of(refusal: &'a Refusal, answering: Option<&'a str>) -> ErrorMessage<'a> {
        ErrorMessage {
            code: refusal.code.name(),
            numeric_code: refusal.code.number(),
            message: &refusal.message,
            details: &refusal.details,
            in_reply_to: answering,
        }
    }
}

/// `CONNECTED`'s data.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Connected<'a> {
    pub session_token: &'a str,
    pub protocol_version: &'static str,
    pub player_id: &'a str,
    pub resumed: bool,
    pub room_id: Option<&'a str>,
}

/// The whole envelope of `kind` with `data`, stamped now, unnumbered; None (never in
/// practice) when `data` cannot be written as JSON.
pub fn envelope<T: Serialize + ?Sized>(kind: &str, data: &T, message_id: String) -> Option<String> {
    let direct = Envelope { kind, data, timestamp: now(), message_id, seq: None };
    serde_json::to_string(&direct).ok()
}
