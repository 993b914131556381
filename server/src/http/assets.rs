//! What the HTTP routes serve that the server computes (the tile-set catalogue, each set's
//! tiles with their figure anchors, each tile's picture): computed once, on first use and off
//! the sockets' threads, then kept and served with a validator. Every key is known at start
//! (the library's sets, their tiles, four rotations), so what is kept is bounded.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use carcassonne::Rotation;
use carcassonne_rooms::Library;
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

/// A body computed once, with its type, its entity tag and how long a browser may keep it.
pub struct Computed {
    body: Bytes,
    kind: &'static str,
    etag: HeaderValue,
    cache: &'static str,
}

impl Computed {
    fn new(body: Vec<u8>, kind: &'static str, cache: &'static str) -> Computed {
        let digest = Sha256::digest(&body);
        let tag: String = digest[..12].iter().map(|byte| format!("{byte:02x}")).collect();
        let etag = HeaderValue::from_str(&format!("\"{tag}\""))
            .unwrap_or_else(|_| HeaderValue::from_static("\"0\""));
        Computed { body: Bytes::from(body), kind, etag, cache }
    }

    /// The body, or `304 Not Modified` when the request's `If-None-Match` names this tag.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let headers = [
            (header::ETAG, self.etag.clone()),
            (header::CACHE_CONTROL, HeaderValue::from_static(self.cache)),
        ];
        if matches(request, &self.etag) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        let kind = [(header::CONTENT_TYPE, HeaderValue::from_static(self.kind))];
        (headers, kind, self.body.clone()).into_response()
    }
}

/// Whether `If-None-Match` names `etag` (or is `*`), weak tags included as RFC 9110 says
/// for this header.
fn matches(request: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(ours) = etag.to_str() else { return false };
    request.get_all(header::IF_NONE_MATCH).iter().filter_map(|value| value.to_str().ok()).any(
        |value| {
            value
                .split(',')
                .map(str::trim)
                .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == ours)
        },
    )
}

/// The JSON routes' caching: a page checks each time (a server upgrade may change them) and
/// gets `304` for the price of a header.
const REVALIDATE: &str = "no-cache";
/// Tile pictures: kept a day.
const A_DAY: &str = "public, max-age=86400";

type Slot = OnceCell<Arc<Computed>>;

/// Every computed route's body, each computed at its first request.
pub struct Assets {
    library: Arc<Library>,
    catalogue: Slot,
    tilesets: HashMap<String, Slot>,
    /// By set, tile id and rotation in degrees.
    pictures: HashMap<(String, String, u16), Slot>,
}

impl Assets {
    /// The slots of every set of `library`, its tiles and their rotations (nothing is
    /// computed yet but the list of tiles).
    pub fn new(library: Arc<Library>) -> Assets {
        let mut tilesets = HashMap::new();
        let mut pictures = HashMap::new();
        for catalog in library.sets() {
            let set = &catalog.info().id;
            tilesets.insert(set.clone(), Slot::new());
            for tile in catalog.tiles() {
                for rotation in Rotation::ALL {
                    let key = (set.clone(), tile.id().to_owned(), rotation.degrees());
                    pictures.insert(key, Slot::new());
                }
            }
        }
        Assets { library, catalogue: Slot::new(), tilesets, pictures }
    }

    /// `GET /tilesets`.
    pub async fn catalogue(&self) -> Option<Arc<Computed>> {
        let library = Arc::clone(&self.library);
        compute(&self.catalogue, move || {
            let value = carcassonne_rooms::catalogue::tilesets(&library);
            Some(Computed::new(serde_json::to_vec(&value).ok()?, JSON, REVALIDATE))
        })
        .await
    }

    /// `GET /tilesets/{set}`: None for a name the library has no set of.
    pub async fn tileset(&self, set: &str) -> Option<Arc<Computed>> {
        let (name, slot) = self.tilesets.get_key_value(set)?;
        let (library, name) = (Arc::clone(&self.library), name.clone());
        compute(slot, move || {
            let value = carcassonne_rooms::catalogue::tileset(&library, &name, false)?;
            Some(Computed::new(serde_json::to_vec(&value).ok()?, JSON, REVALIDATE))
        })
        .await
    }

    /// `GET /tiles/{set}/{tile}` turned by `degrees`: None for a set, tile or rotation that
    /// is not there.
    pub async fn picture(&self, set: &str, tile: &str, degrees: u16) -> Option<Arc<Computed>> {
        let slot = self.pictures.get(&(set.to_owned(), tile.to_owned(), degrees))?;
        let (library, set, tile) = (Arc::clone(&self.library), set.to_owned(), tile.to_owned());
        compute(slot, move || {
            let catalog = library.get(&set)?;
            let (_, tile_type) = catalog.tile_by_id(&tile)?;
            let rotation = Rotation::from_degrees(degrees)?;
            let svg = carcassonne_render::tile_svg(tile_type, catalog.marks(), rotation);
            Some(Computed::new(svg.into_bytes(), "image/svg+xml", A_DAY))
        })
        .await
    }

    /// Whether the library has a set called `set`.
    pub fn has_set(&self, set: &str) -> bool {
        self.tilesets.contains_key(set)
    }

    /// Whether `set` has a tile `tile`.
    pub fn has_tile(&self, set: &str, tile: &str) -> bool {
        self.pictures.contains_key(&(set.to_owned(), tile.to_owned(), 0))
    }
}

const JSON: &str = "application/json";

/// The slot's body, computed by `make` on the blocking threads if it is the first asked for;
/// requests that come meanwhile wait for that one computation. None when `make` has none (it
/// is tried again next time).
async fn compute(
    slot: &Slot,
    make: impl FnOnce() -> Option<Computed> + Send + 'static,
) -> Option<Arc<Computed>> {
    slot.get_or_try_init(|| async {
        match tokio::task::spawn_blocking(make).await {
            Ok(Some(computed)) => Ok(Arc::new(computed)),
            _ => Err(()),
        }
    })
    .await
    .ok()
    .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_names_the_tag_weakly_or_in_a_list() {
        let etag = HeaderValue::from_static("\"abc\"");
        let asking = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static(value));
            matches(&headers, &etag)
        };
        assert!(asking("\"abc\""));
        assert!(asking("W/\"abc\""));
        assert!(asking("\"x\", \"abc\""));
        assert!(asking("*"));
        assert!(!asking("\"abd\""));
        assert!(!matches(&HeaderMap::new(), &etag));
    }
}
