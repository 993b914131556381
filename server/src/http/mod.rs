//! The HTTP side: the WebSocket endpoint, the web page, tile pictures and anchors for it, and
//! finished games as saved games; every request first passes the [`guard`] (its host and its
//! address's rate).

mod assets;
mod guard;

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use carcassonne_rooms::catalogue;
use serde_json::json;

use crate::hub::Hub;
use crate::listen::Slot;
use assets::Assets;

/// The page's policy: its own scripts, styles, images and socket only; no inline script or
/// style (the page sets colours through properties, never markup), no framing, no plugins.
/// An injected tag would run nothing even if the page ever built markup from data. Its workers
/// and `blob:` images (the tile pictures and boards the engine draws in the browser) are its own.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; \
    object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// The policy of the page's workers (`/offline-worker.js`, `/review-worker.js`), which a
/// worker takes from its own script's response: the page's, and compiling WebAssembly
/// (`'wasm-unsafe-eval'`, which allows no `eval`), which only the workers do.
pub const WORKER_CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; \
    base-uri 'none'";

/// The headers every response carries besides its policy, by name and value: the static
/// copy's `web/_headers` gives the same (a test compares them).
const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
];

/// Headers every response carries.
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    // A route that set a policy of its own (a worker's) keeps it.
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        );
    }
    for (name, value) in SECURITY_HEADERS {
        headers.insert(HeaderName::from_static(name), HeaderValue::from_static(value));
    }
    response
}

/// The page and its scripts, shipped inside the binary.
const INDEX: &str = include_str!("../../web/index.html");
const APP: &str = include_str!("../../web/app.js");
const STYLE: &str = include_str!("../../web/style.css");
const REVIEW: &str = include_str!("../../web/review.js");
const OFFLINE_WORKER: &str = include_str!("../../web/offline-worker.js");
const REVIEW_WORKER: &str = include_str!("../../web/review-worker.js");

/// The engine's npm package, which the offline worker imports from `/engine/`.
#[cfg(feature = "offline")]
mod engine {
    pub const INDEX: &str = include_str!("../../../wasm/npm/index.js");
    pub const BINDINGS: &str = include_str!("../../../wasm/npm/pkg/carcassonne_wasm.js");
    pub const MODULE: &[u8] = include_bytes!("../../../wasm/npm/pkg/carcassonne_wasm_bg.wasm");
}

/// The routes of the engine for the page's offline mode, when the server embeds it.
#[cfg(feature = "offline")]
fn engine_routes(router: Router<Arc<Hub>>) -> Router<Arc<Hub>> {
    router
        .route("/engine/index.js", get(|| async { engine_file(SCRIPT, engine::INDEX.as_bytes()) }))
        .route(
            "/engine/pkg/carcassonne_wasm.js",
            get(|| async { engine_file(SCRIPT, engine::BINDINGS.as_bytes()) }),
        )
        .route(
            "/engine/pkg/carcassonne_wasm_bg.wasm",
            get(|| async { engine_file("application/wasm", engine::MODULE) }),
        )
}

/// An engine file, kept an hour by the browser: each review's fresh worker (Cancel ends the
/// last) loads the module again, from the cache.
#[cfg(feature = "offline")]
fn engine_file(kind: &'static str, body: &'static [u8]) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=3600")], body)
        .into_response()
}

/// Without the engine, `/engine/` has nothing: the worker says so, and the page tells the player.
#[cfg(not(feature = "offline"))]
fn engine_routes(router: Router<Arc<Hub>>) -> Router<Arc<Hub>> {
    router
}

const SCRIPT: &str = "text/javascript; charset=utf-8";

/// A worker's script, with the workers' policy.
fn worker(script: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, SCRIPT),
            (header::CONTENT_SECURITY_POLICY, WORKER_CONTENT_SECURITY_POLICY),
        ],
        script,
    )
        .into_response()
}

/// Every route of the server.
pub fn router(hub: Arc<Hub>) -> Router {
    engine_routes(Router::new())
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP) }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        )
        .route("/review.js", get(|| async { ([(header::CONTENT_TYPE, SCRIPT)], REVIEW) }))
        .route("/offline-worker.js", get(|| async { worker(OFFLINE_WORKER) }))
        .route("/review-worker.js", get(|| async { worker(REVIEW_WORKER) }))
        .route("/ws", get(websocket))
        .route("/health", get(health))
        .route("/bots", get(bots))
        .route("/games/{id}", get(saved_game))
        .route("/tilesets", get(tilesets))
        .route("/tilesets/{set}", get(tileset))
        .route("/tiles/{set}/{tile}", get(tile_svg))
        .layer(Extension(Arc::new(Assets::new(Arc::clone(&hub.config.library)))))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&hub), guard::guard))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(hub)
}

/// Whether a browser page from `origin` may open the socket: the server's own origin (the
/// host the request was sent to) and the configured ones. Browsers always send `Origin` on
/// a WebSocket handshake; other clients send none and are welcome.
fn origin_allowed(hub: &Hub, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    let origin = origin.trim_end_matches('/');
    if hub.config.allowed_origins.iter().any(|allowed| allowed.trim_end_matches('/') == origin) {
        return true;
    }
    let own = headers.get(header::HOST).and_then(|host| host.to_str().ok());
    let Some(host) = own else { return false };
    origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .is_some_and(|origin_host| origin_host.eq_ignore_ascii_case(host))
}

async fn websocket(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    slot: Option<axum::Extension<Slot>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&hub, &headers) {
        tracing::warn!(%peer, origin = ?headers.get(header::ORIGIN), "a WebSocket from a foreign origin was refused");
        return (
            StatusCode::FORBIDDEN,
            "this origin may not open the socket (see --allow-origin)\n",
        )
            .into_response();
    }
    let slot = slot.map(|axum::Extension(slot)| slot);
    let limit = hub.config.limits.hard_frame_bytes;
    // Small buffers: a connection idles most of the time, and thousands of them must fit;
    // a buffer grows while a large frame passes and shrinks back after.
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(limit)
        .max_frame_size(limit)
        .max_write_buffer_size(hub.config.limits.outbox_bytes)
        .on_upgrade(move |socket| crate::ws::serve(hub, socket, peer.ip(), slot))
}

async fn health(State(hub): State<Arc<Hub>>) -> Response {
    axum::Json(json!({
        "rooms": hub.room_count(),
        "connections": hub.connections.load(std::sync::atomic::Ordering::Relaxed),
        "protocolVersion": crate::hub::PROTOCOL_VERSION,
    }))
    .into_response()
}

/// The bots `ADD_BOT` may name: the four levels, then the operator's own, each with a line
/// on what it is (an external bot's command line stays private).
async fn bots(State(hub): State<Arc<Hub>>) -> Response {
    let mut bots = catalogue::builtin_bots();
    for profile in &hub.config.external_bots {
        bots.push(json!({
            "name": profile.name,
            "description": "a bot this server runs as a program of its own",
            "external": true,
        }));
    }
    axum::Json(json!({ "bots": bots })).into_response()
}

async fn saved_game(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    let id = id.strip_suffix(".json").unwrap_or(&id).to_owned();
    match hub.saved_game(&id).await {
        Ok(Some(saved)) => (
            [
                (header::CONTENT_TYPE, "application/json".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"carcassonne-{id}.json\""),
                ),
            ],
            saved,
        )
            .into_response(),
        Ok(None) => {
            (StatusCode::NOT_FOUND, format!("no finished game is called {id}\n")).into_response()
        }
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{error}\n")).into_response(),
    }
}

/// The built-in tile sets a room may use, with the colours they bring, and the palette's
/// shades: the page offers what the server has and draws every colour as the pictures do.
async fn tilesets(Extension(assets): Extension<Arc<Assets>>, request: HeaderMap) -> Response {
    match assets.catalogue().await {
        Some(computed) => computed.respond(&request),
        None => unavailable(),
    }
}

/// A built-in tile set for the page: every tile as the protocol's Tile, with where a figure
/// stands on each feature at each rotation.
async fn tileset(
    Extension(assets): Extension<Arc<Assets>>,
    Path(set): Path<String>,
    request: HeaderMap,
) -> Response {
    if !assets.has_set(&set) {
        return not_a_set(&set);
    }
    match assets.tileset(&set).await {
        Some(computed) => computed.respond(&request),
        None => unavailable(),
    }
}

fn not_a_set(set: &str) -> Response {
    let shown: String = set.chars().take(64).collect();
    (StatusCode::NOT_FOUND, format!("no built-in tile set is called {shown}\n")).into_response()
}

/// What a route computes could not be made: a fault of the server's, logged where it happened.
fn unavailable() -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, "this could not be made; try again\n").into_response()
}

#[derive(serde::Deserialize)]
struct TurnedBy {
    rotation: Option<u16>,
}

/// One tile's picture, turned.
async fn tile_svg(
    Extension(assets): Extension<Arc<Assets>>,
    Path((set, tile)): Path<(String, String)>,
    Query(turned): Query<TurnedBy>,
    request: HeaderMap,
) -> Response {
    let tile_id = tile.strip_suffix(".svg").unwrap_or(&tile);
    if !assets.has_set(&set) {
        return not_a_set(&set);
    }
    if !assets.has_tile(&set, tile_id) {
        let shown: String = tile_id.chars().take(64).collect();
        return (StatusCode::NOT_FOUND, format!("{set} has no tile {shown}\n")).into_response();
    }
    let degrees = turned.rotation.unwrap_or(0);
    if !matches!(degrees, 0 | 90 | 180 | 270) {
        return (StatusCode::BAD_REQUEST, "rotation is 0, 90, 180 or 270\n").into_response();
    }
    match assets.picture(&set, tile_id, degrees).await {
        Some(computed) => computed.respond(&request),
        None => unavailable(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The static copy's headers file (Netlify's and Cloudflare Pages' `_headers`) says what
    /// the server sends: the page's policy and the other headers on every path, the workers'
    /// policy on each worker.
    #[test]
    fn the_static_copys_headers_are_the_servers() {
        let file = include_str!("../../web/_headers");
        let mut rules: Vec<(&str, Vec<(String, String)>)> = Vec::new();
        for line in file.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
            if !line.starts_with(' ') {
                rules.push((line.trim(), Vec::new()));
            } else if let Some((name, value)) = line.trim().split_once(": ")
                && let Some((_, headers)) = rules.last_mut()
            {
                headers.push((name.to_ascii_lowercase(), value.to_owned()));
            }
        }
        let mut every: Vec<(String, String)> = SECURITY_HEADERS
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        every.push(("content-security-policy".into(), CONTENT_SECURITY_POLICY.into()));
        every.sort();
        let worker =
            vec![("content-security-policy".to_owned(), WORKER_CONTENT_SECURITY_POLICY.to_owned())];
        let mut found = rules.clone();
        for (_, headers) in &mut found {
            headers.sort();
        }
        assert_eq!(
            found,
            [("/*", every), ("/offline-worker.js", worker.clone()), ("/review-worker.js", worker)]
        );
        assert_eq!(
            file.lines().filter(|line| line.trim() == "! Content-Security-Policy").count(),
            2,
            "each worker detaches the page's policy"
        );
    }
}
