//! `OfflineServer`: the protocol's host for one client, in memory, for a page with no server
//! to reach. A Web Worker runs it: the page sends it frames as it would a WebSocket, it
//! answers with frames and asks for timers (a bot's next action, a turn's clock), which the
//! worker sets and rings back. Also what the page would fetch from the server: the catalogue
//! of sets and colours, a set's tiles with their pictures, the bot levels.

use carcassonne_rooms::catalogue;
use carcassonne_rooms::offline::{Delays, OfflineHost, Outcome};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, to_js, whole};
use crate::errors::range_error;
use crate::game::Game;

/// `new OfflineServer(options)`: how long it waits, each optional.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
struct OfflineOptions {
    bot_delay_ms: Option<f64>,
    figure_grace_ms: Option<f64>,
}

/// A frame's or a timer's outcome as JavaScript gets it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutcomeOut {
    frames: Vec<String>,
    timers: Vec<TimerOut>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TimerOut {
    id: u64,
    delay_ms: u32,
}

fn outcome(outcome: Outcome) -> Result<JsValue, JsValue> {
    to_js(&OutcomeOut {
        frames: outcome.frames,
        timers: outcome
            .timers
            .into_iter()
            .map(|timer| TimerOut { id: timer.id, delay_ms: timer.delay_ms })
            .collect(),
    })
}

/// A seed from the page's random numbers: two draws of `Math.random` (each 52 bits).
fn random_seed() -> Option<u64> {
    let high = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    let low = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    Some(high << 32 | low)
}

/// The protocol's host for one client, as the server speaks it (version 1.1), in memory.
#[wasm_bindgen]
pub struct OfflineServer {
    host: OfflineHost,
}

#[wasm_bindgen]
impl OfflineServer {
    /// A host whose bots act `botDelayMs` apart (600 by default) and whose placed tiles wait
    /// `figureGraceMs` for a figure action (20000), each a whole number of milliseconds.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "OfflineOptions | undefined")] options: JsValue,
    ) -> Result<OfflineServer, JsValue> {
        let options: OfflineOptions = if options.is_undefined() || options.is_null() {
            OfflineOptions::default()
        } else {
            from_js(options, "offline server options")?
        };
        let mut delays = Delays::default();
        // The longest delay setTimeout keeps (a longer one fires at once).
        let most = f64::from(i32::MAX);
        if let Some(ms) = options.bot_delay_ms {
            delays.bot_ms = whole(ms, "botDelayMs", 0.0, most)? as u32;
        }
        if let Some(ms) = options.figure_grace_ms {
            delays.figure_grace_ms = whole(ms, "figureGraceMs", 0.0, most)? as u32;
        }
        Ok(OfflineServer { host: OfflineHost::new(delays, random_seed) })
    }

    /// The client's frame (the envelope's JSON text): the frames to deliver back, in order,
    /// and the timers to set, each to `ring` after its delay. A refusal is an `ERROR` frame.
    #[wasm_bindgen(unchecked_return_type = "OfflineOutcome")]
    pub fn receive(&mut self, frame: &str) -> Result<JsValue, JsValue> {
        outcome(self.host.receive(frame))
    }

    /// Carries out timer `id` when it rings: a bot's action or a clock's default play.
    #[wasm_bindgen(unchecked_return_type = "OfflineOutcome")]
    pub fn ring(&mut self, id: f64) -> Result<JsValue, JsValue> {
        let id = whole(id, "timer id", 0.0, 9_007_199_254_740_991.0)? as u64;
        outcome(self.host.ring(id))
    }

    /// The last game played to its end here, to review or save; undefined before one ends.
    #[wasm_bindgen(js_name = finishedGame)]
    pub fn finished_game(&self) -> Option<Game> {
        self.host.finished_game().cloned().map(Game::wrap)
    }
}

/// What the server's `GET /tilesets` gives for the built-in sets: `{tilesets: [{id, name,
/// tiles, colours, builtin}], colours: [{name, shade}]}`.
#[wasm_bindgen(js_name = pageCatalogue)]
pub fn page_catalogue() -> Result<JsValue, JsValue> {
    to_js(&catalogue::tilesets(&carcassonne_rooms::Library::builtin()))
}

/// What the server's `GET /tilesets/{set}` gives, with each tile's SVG at each rotation as
/// `pictures` (four strings) besides.
#[wasm_bindgen(js_name = pageTileset)]
pub fn page_tileset(set: &str) -> Result<JsValue, JsValue> {
    let tiles = catalogue::tileset(&carcassonne_rooms::Library::builtin(), set, true)
        .ok_or_else(|| range_error(format!("no built-in tile set is called {set}")))?;
    to_js(&tiles)
}

/// What the server's `GET /bots` gives for its built-in levels.
#[wasm_bindgen(js_name = pageBots)]
pub fn page_bots() -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({ "bots": catalogue::builtin_bots() }))
}
