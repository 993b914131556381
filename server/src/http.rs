//! The HTTP side: the WebSocket endpoint, the web page, tile pictures and anchors for it, and
//! finished games as saved games.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State, WebSocketUpgrade};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use carcassonne::{Catalog, Rotation};
use serde_json::json;

use crate::hub::Hub;
use crate::protocol::views;

/// The page and its scripts, shipped inside the binary.
const INDEX: &str = include_str!("../web/index.html");
const APP: &str = include_str!("../web/app.js");
const STYLE: &str = include_str!("../web/style.css");

/// Every route of the server.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP) }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }),
        )
        .route("/ws", get(websocket))
        .route("/health", get(health))
        .route("/games/{id}", get(saved_game))
        .route("/tilesets/{set}", get(tileset))
        .route("/tiles/{set}/{tile}", get(tile_svg))
        .with_state(hub)
}

async fn websocket(State(hub): State<Arc<Hub>>, upgrade: WebSocketUpgrade) -> Response {
    let limit = hub.config.limits.hard_frame_bytes;
    // Small buffers: a connection idles most of the time, and thousands of them must fit;
    // a buffer grows while a large frame passes and shrinks back after.
    upgrade
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| crate::ws::serve(hub, socket))
}

async fn health(State(hub): State<Arc<Hub>>) -> Response {
    axum::Json(json!({
        "rooms": hub.room_count(),
        "connections": hub.connections.load(std::sync::atomic::Ordering::Relaxed),
        "protocolVersion": crate::hub::PROTOCOL_VERSION,
    }))
    .into_response()
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

/// A built-in tile set for the page: every tile as the protocol's Tile, with where a figure
/// stands on each feature at each rotation (the board picture's own anchors).
async fn tileset(Path(set): Path<String>) -> Response {
    let Ok(catalog) = Catalog::builtin(&set) else {
        return (StatusCode::NOT_FOUND, format!("no built-in tile set is called {set}\n"))
            .into_response();
    };
    let tiles: Vec<serde_json::Value> = catalog
        .tiles()
        .iter()
        .map(|tile| {
            let anchors: Vec<Vec<[f64; 2]>> = Rotation::ALL
                .iter()
                .map(|rotation| {
                    carcassonne_render::anchors(tile, *rotation)
                        .iter()
                        .map(|anchor| [anchor.x, anchor.y])
                        .collect()
                })
                .collect();
            json!({ "tile": views::tile(tile), "count": tile.count(), "anchors": anchors })
        })
        .collect();
    axum::Json(json!({ "id": set, "tiles": tiles })).into_response()
}

#[derive(serde::Deserialize)]
struct TurnedBy {
    rotation: Option<u16>,
}

/// One tile's picture, turned.
async fn tile_svg(
    Path((set, tile)): Path<(String, String)>,
    Query(turned): Query<TurnedBy>,
) -> Response {
    let tile_id = tile.strip_suffix(".svg").unwrap_or(&tile);
    let Ok(catalog) = Catalog::builtin(&set) else {
        return (StatusCode::NOT_FOUND, format!("no built-in tile set is called {set}\n"))
            .into_response();
    };
    let Some((_, tile_type)) = catalog.tile_by_id(tile_id) else {
        return (StatusCode::NOT_FOUND, format!("{set} has no tile {tile_id}\n")).into_response();
    };
    let degrees = turned.rotation.unwrap_or(0);
    let Some(rotation) = Rotation::from_degrees(degrees) else {
        return (StatusCode::BAD_REQUEST, "rotation is 0, 90, 180 or 270\n").into_response();
    };
    (
        [(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")],
        carcassonne_render::tile_svg(tile_type, rotation),
    )
        .into_response()
}
