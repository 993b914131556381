//! Saving and loading: a game is its setup and its actions, so a saved game is exactly that,
//! and loading one replays it.
//!
//! Loading by replay means a save file from a stranger cannot build a game the rules could
//! not reach: every action is checked again, and the loaded game equals the saved one.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::action::Action;
use crate::catalog::Catalog;
use crate::game::Game;
use crate::setup::{GameSetup, RuleOptions};

/// The version of the saved-game format; a loader refuses any other.
pub const SAVE_FORMAT: u32 = 1;

/// A tile set in a file: a built-in by name, or a whole tile set as TOML text.
///
/// Read by hand rather than as an untagged enum: serde reads an untagged value into an
/// untyped tree before trying each variant, and a hostile entry of millions of unknown keys
/// took gigabytes that way. This reads a string or the known keys and refuses the first
/// thing that is neither, where it stands.
#[derive(Serialize)]
#[serde(untagged)]
enum TilesetDoc {
    Builtin(String),
    Source(SourceDoc),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceDoc {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    builtin: Option<String>,
    /// The file name to show in diagnostics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    toml: Option<String>,
}

impl<'de> Deserialize<'de> for TilesetDoc {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TilesetDoc, D::Error> {
        struct Doc;

        impl<'de> serde::de::Visitor<'de> for Doc {
            type Value = TilesetDoc;

            fn expecting(&self, formatter: &mut core::fmt::Formatter) -> core::fmt::Result {
                formatter.write_str("a built-in set's name or {\"toml\": ..., \"file\": ...}")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<TilesetDoc, E> {
                Ok(TilesetDoc::Builtin(name.into()))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TilesetDoc, A::Error> {
                let source =
                    SourceDoc::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(TilesetDoc::Source(source))
            }
        }

        deserializer.deserialize_any(Doc)
    }
}

impl TilesetDoc {
    fn of(catalog: &Catalog) -> TilesetDoc {
        let id = catalog.info().id.as_str();
        if catalog.is_builtin() {
            TilesetDoc::Builtin(id.into())
        } else {
            TilesetDoc::Source(SourceDoc {
                builtin: None,
                file: Some(format!("{id}.toml")),
                toml: Some(catalog.to_toml()),
            })
        }
    }

    fn load(self) -> Result<Catalog, String> {
        let source = match self {
            TilesetDoc::Builtin(name) => return Catalog::builtin(&name).map_err(|e| e.to_string()),
            TilesetDoc::Source(source) => source,
        };
        match (source.builtin, source.toml) {
            (Some(name), None) => Catalog::builtin(&name).map_err(|e| e.to_string()),
            (None, Some(text)) => {
                let file = source.file.as_deref().unwrap_or("<tile set in save file>");
                Catalog::from_toml(file, &text).map_err(|problems| problems.to_string())
            }
            _ => Err("a tile set needs either `builtin` or `toml`, not both or neither".into()),
        }
    }
}

/// A list of tile sets in the JSON form setups and saves use: a built-in set by its name, any
/// other as `{"toml": "...", "file": "name.toml"}` with its whole text. Reading it never
/// touches the file system, so a document from a stranger names nothing but sets.
///
/// ```
/// use carcassonne::{Catalog, CatalogList};
/// let text = Catalog::builtin("river")?.to_toml().replace("id = \"river\"", "id = \"mine\"");
/// let json = serde_json::json!(["base", { "toml": text, "file": "mine.toml" }]).to_string();
/// let list: CatalogList = serde_json::from_str(&json)?;
/// assert_eq!(list.0[0], Catalog::builtin("base")?);
/// assert_eq!(list.0[1].info().id, "mine");
///
/// // A set that cannot be loaded is an error at its place in the list.
/// let error = serde_json::from_str::<CatalogList>(r#"["base",
///     "basse"]"#).unwrap_err();
/// assert!(error.to_string().starts_with("tile set 1: "), "{error}");
/// assert_eq!((error.line(), error.column()), (2, 12));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CatalogList(pub Vec<Catalog>);

/// A borrowed list, written as [`CatalogList`] is.
struct CatalogSlice<'a>(&'a [Catalog]);

impl Serialize for CatalogSlice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(TilesetDoc::of))
    }
}

impl Serialize for CatalogList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CatalogSlice(&self.0).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CatalogList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CatalogList, D::Error> {
        struct Sets;

        impl<'de> serde::de::Visitor<'de> for Sets {
            type Value = CatalogList;

            fn expecting(&self, formatter: &mut core::fmt::Formatter) -> core::fmt::Result {
                formatter.write_str("a list of tile sets: built-in names or {\"toml\": ...}")
            }

            // Each set is loaded as soon as it is read, so a reader that tracks positions
            // (serde_json) reports a bad one where it stands.
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut sets: A,
            ) -> Result<CatalogList, A::Error> {
                let mut catalogs = Vec::new();
                while let Some(set) = sets.next_element::<TilesetDoc>()? {
                    let index = catalogs.len();
                    let catalog = set
                        .load()
                        .map_err(|why| A::Error::custom(format!("tile set {index}: {why}")))?;
                    catalogs.push(catalog);
                }
                Ok(CatalogList(catalogs))
            }
        }

        deserializer.deserialize_seq(Sets)
    }
}

#[derive(Serialize)]
struct SetupDocOut<'a> {
    tilesets: CatalogSlice<'a>,
    players: u8,
    seed: u64,
    options: RuleOptions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupDocIn {
    tilesets: CatalogList,
    players: u8,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    options: RuleOptions,
}

/// A setup is saved with built-in sets by name and other sets as their TOML text:
/// ```
/// use carcassonne::{Catalog, GameSetup};
/// let setup = GameSetup::new(vec![Catalog::builtin("base")?], 3);
/// let json = serde_json::to_string(&setup)?;
/// assert!(json.starts_with(r#"{"tilesets":["base"],"players":3,"seed":0,"options":{"#));
/// let minimal: GameSetup = serde_json::from_str(r#"{"tilesets": ["base"], "players": 3}"#)?;
/// assert_eq!(minimal, setup);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Serialize for GameSetup {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SetupDocOut {
            tilesets: CatalogSlice(&self.catalogs),
            players: self.players,
            seed: self.seed,
            options: self.options,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameSetup {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameSetup, D::Error> {
        let doc = SetupDocIn::deserialize(deserializer)?;
        Ok(GameSetup {
            catalogs: doc.tilesets.0,
            players: doc.players,
            seed: doc.seed,
            options: doc.options,
        })
    }
}

#[derive(Serialize)]
struct GameDocOut<'a> {
    format: u32,
    setup: GameSetup,
    actions: &'a [Action],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameDocIn {
    format: u32,
    setup: GameSetup,
    actions: Vec<Action>,
}

/// A game is saved as its format version, setup and actions, and loaded by replaying them:
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// for _ in 0..10 {
///     let first = game.legal_actions()[0];
///     game.apply(first)?;
/// }
/// let saved = serde_json::to_string(&game)?;
/// let loaded: Game = serde_json::from_str(&saved)?;
/// assert_eq!(loaded, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Serialize for Game {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GameDocOut { format: SAVE_FORMAT, setup: self.setup(), actions: self.actions() }
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let doc = GameDocIn::deserialize(deserializer)?;
        if doc.format != SAVE_FORMAT {
            return Err(D::Error::custom(format!(
                "saved-game format {} is not supported; this version reads format {SAVE_FORMAT}",
                doc.format
            )));
        }
        Game::replay(doc.setup, &doc.actions).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::TileIndex;

    fn played(names: &[&str], turns: usize) -> Game {
        let catalogs = names.iter().map(|name| Catalog::builtin(name).unwrap()).collect();
        let mut game = Game::new(GameSetup::new(catalogs, 3)).unwrap();
        for _ in 0..turns {
            let actions = game.legal_actions();
            let Some(last) = actions.last() else { break };
            game.apply(*last).unwrap();
        }
        game
    }

    #[test]
    fn a_loaded_game_equals_the_saved_one() {
        // Under Miri a shorter game of one set: the same saving and loading, a fraction of the
        // parsing and the replay.
        let game = if cfg!(miri) {
            played(&["base"], 30)
        } else {
            played(&["base", "river", "inns_and_cathedrals"], 120)
        };
        let loaded: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
        assert_eq!(loaded, game);
    }

    #[test]
    fn user_sets_travel_as_toml() {
        let mut custom = Catalog::builtin("base").unwrap();
        custom.info.id = "my_base".into();
        let game = Game::new(GameSetup::new(alloc::vec![custom], 2)).unwrap();
        let json = serde_json::to_string(&game).unwrap();
        assert!(json.contains(r#""file":"my_base.toml""#));
        let loaded: Game = serde_json::from_str(&json).unwrap();
        assert_eq!(loaded, game);
    }

    #[test]
    fn a_save_with_a_refused_action_names_it() {
        let json = r#"{"format":1,"setup":{"tilesets":["base"],"players":2},
            "actions":[{"action":"draw"},{"action":"skip"}]}"#;
        let error = serde_json::from_str::<Game>(json).unwrap_err().to_string();
        assert!(error.starts_with("action 1 was refused: skipping is not possible"), "{error}");
        let json = r#"{"format":2,"setup":{"tilesets":["base"],"players":2},"actions":[]}"#;
        let error = serde_json::from_str::<Game>(json).unwrap_err().to_string();
        assert!(error.contains("format 2 is not supported"), "{error}");
        let json =
            r#"{"format":1,"setup":{"tilesets":[{"toml":"[set]"}],"players":2},"actions":[]}"#;
        let error = serde_json::from_str::<Game>(json).unwrap_err().to_string();
        assert!(error.contains("tile set 0: error[dsl-"), "{error}");
        let named: Action = serde_json::from_str(r#"{"action":"draw_tile","tile":3}"#).unwrap();
        assert_eq!(named, Action::DrawTile { tile: 3 as TileIndex });
    }
}
