//! Round trips: a loaded catalog written back (as TOML or JSON) describes the same catalog.

use carcassonne::{BUILTIN_NAMES, Catalog, EdgeKind, Rotation};

#[test]
fn toml_export_reloads_to_an_equal_catalog() {
    for name in BUILTIN_NAMES {
        let catalog = Catalog::builtin(name).unwrap();
        let text = catalog.to_toml();
        let reloaded = Catalog::from_toml("exported.toml", &text)
            .unwrap_or_else(|problems| panic!("{name} export does not reload:\n{problems}"));
        assert_eq!(reloaded, catalog, "{name}");
        assert_eq!(reloaded.to_toml(), text, "{name}: the export is canonical");
    }
}

#[test]
fn json_export_lists_what_was_read() {
    let base = Catalog::builtin("base").unwrap();
    let json = serde_json::to_value(&base).unwrap();
    assert_eq!(json["format"], 4);
    assert_eq!(
        json["figures"]["declared"][0],
        serde_json::json!({
            "id": "follower", "per_player": 7, "role": "follower", "strength": 1,
            "stands_on": ["city", "road", "field", "monastery", "garden"], "farmer": true,
            "option": [], "recall": false, "farm_bonus": false
        })
    );
    assert_eq!(json["figures"]["declared"][1]["option"], serde_json::json!([["abbots", "true"]]));
    assert_eq!(json["marks"][0]["id"], "pennant");
    assert_eq!(json["marks"][0]["glyph"], "shield");
    assert_eq!(json["rules"][0]["id"], "tiny_city");
    assert_eq!(json["rules"][0]["per_mark"], serde_json::json!([["pennant", 1]]));
    assert_eq!(json["set"]["id"], "base");
    assert_eq!(json["deck"]["start"], "D");
    assert_eq!(json["tiles"].as_array().unwrap().len(), 24);
    let start = &json["tiles"][3];
    assert_eq!(
        start,
        &serde_json::json!({
            "id": "D",
            "name": "City cap with straight road",
            "count": 4,
            "edges": ["city", "road", "field", "road"],
            "marks": [],
            "segments": [
                {"index": 0, "kind": "city", "edges": ["N"], "half_edges": [], "marks": [], "cities": []},
                {"index": 1, "kind": "road", "edges": ["E", "W"], "half_edges": [], "marks": [], "cities": []},
                {"index": 2, "kind": "field", "edges": [], "half_edges": ["E_n", "W_n"], "marks": [], "cities": [0]},
                {"index": 3, "kind": "field", "edges": [], "half_edges": ["E_s", "S_e", "S_w", "W_s"], "marks": [], "cities": []},
            ]
        })
    );
}

/// The JSON export is itself a faithful copy: rebuilding the TOML from the JSON fields
/// reloads to the same catalog, so a program reading the JSON sees exactly the tile set.
#[test]
fn json_export_rebuilds_the_same_catalog() {
    for name in BUILTIN_NAMES {
        let catalog = Catalog::builtin(name).unwrap();
        let json = serde_json::to_value(&catalog).unwrap();
        let text = toml_from_json(&json);
        let rebuilt = Catalog::from_toml("from_json.toml", &text)
            .unwrap_or_else(|problems| panic!("{name}:\n{problems}\n{text}"));
        assert_eq!(rebuilt, catalog, "{name}");
    }
}

fn toml_from_json(json: &serde_json::Value) -> String {
    let strings = |value: &serde_json::Value| -> String {
        let items: Vec<String> =
            value.as_array().unwrap().iter().map(|item| item.to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    let mut out = format!(
        "[set]\nid = {}\nname = {}\nedition = {}\n",
        json["set"]["id"], json["set"]["name"], json["set"]["edition"]
    );
    let deck = &json["deck"];
    out += &format!("[deck]\nstage = {}\nlast = {}\n", deck["stage"], strings(&deck["last"]));
    if let Some(first) = deck.get("first") {
        out += &format!("first = {}\n", strings(first));
    }
    if !deck["start"].is_null() {
        out += &format!("start = {}\n", deck["start"]);
    }
    let figures = &json["figures"];
    out += &format!("[figures]\ncolours = {}\n", strings(&figures["colours"]));
    for figure in figures["declared"].as_array().unwrap() {
        out += &format!(
            "[[figure]]\nid = {}\nper_player = {}\nrole = {}\nstands_on = {}\nfarmer = {}\n",
            figure["id"],
            figure["per_player"],
            figure["role"],
            strings(&figure["stands_on"]),
            figure["farmer"]
        );
        if figure["role"] == "follower" {
            out += &format!("strength = {}\nrecall = {}\n", figure["strength"], figure["recall"]);
        } else {
            out += &format!(
                "joins = {}\nalone = {}\nfarm_bonus = {}\n",
                figure["joins"], figure["alone"], figure["farm_bonus"]
            );
            if !figure["draws"].is_null() {
                out += &format!("draws = {}\n", figure["draws"]);
            }
            if !figure["extended"].is_null() {
                out += &format!("extended = {}\n", figure["extended"]);
            }
        }
        let tests: Vec<String> = figure["option"]
            .as_array()
            .unwrap()
            .iter()
            .map(|test| {
                let value = test[1].as_str().unwrap();
                match value {
                    "true" | "false" => format!("{} = {value}", test[0].as_str().unwrap()),
                    _ => format!("{} = {:?}", test[0].as_str().unwrap(), value),
                }
            })
            .collect();
        out += &format!("option = {{ {} }}\n", tests.join(", "));
    }
    for mark in json["marks"].as_array().unwrap() {
        out += &format!(
            "[[mark]]\nid = {}\nname = {}\non = {}\nmerge = {}\ncomplete = {}\nunfinished = {}\nglyph = {}\ncolour = {}\n",
            mark["id"],
            mark["name"],
            strings(&mark["on"]),
            mark["merge"],
            mark["complete"],
            mark["unfinished"],
            mark["glyph"],
            mark["colour"]
        );
    }
    for rule in json["rules"].as_array().unwrap() {
        if rule["type"] == "neighbours" {
            out += &format!(
                "[[neighbours]]\nid = {}\nfeature = {}\nstate = {}\nmark = {}\neach = {}\n",
                rule["id"], rule["feature"], rule["state"], rule["mark"], rule["each"]
            );
            continue;
        }
        if rule["type"] == "pig" {
            out += &format!("[[pig]]\nid = {}\nper_city = {}\n", rule["id"], rule["per_city"]);
            continue;
        }
        if rule["type"] == "bag" {
            let tokens: Vec<String> = rule["tokens"]
                .as_array()
                .expect("a bag lists its tokens")
                .iter()
                .map(|token| {
                    let does = if token["then"] == "keep" {
                        format!("worth = {}", token["worth"])
                    } else {
                        format!("then = {}", token["then"])
                    };
                    format!("{{ id = {}, count = {}, {does} }}", token["token"], token["count"])
                })
                .collect();
            out += &format!(
                "[[bag]]\nid = {}\npoints = {}\ntokens = [{}]\n",
                rule["id"],
                rule["points"],
                tokens.join(", ")
            );
            continue;
        }
        if rule["type"] == "hide" {
            out += &format!("[[hide]]\nid = {}\nmark = {}\n", rule["id"], rule["mark"]);
            continue;
        }
        if rule["type"] == "occupants" {
            out += &format!(
                "[[occupants]]\nid = {}\nfeature = {}\nfigures = {}\n",
                rule["id"],
                rule["feature"],
                strings(&rule["figures"])
            );
            continue;
        }
        if rule["type"] == "chain" {
            out += &format!(
                "[[chain]]\nid = {}\nedge = {}\nturns = {}\n",
                rule["id"], rule["edge"], rule["turns"]
            );
            continue;
        }
        if rule["type"] == "rival" {
            out += &format!(
                "[[rival]]\nid = {}\nfeature = {}\nmarks = {}\n",
                rule["id"],
                rule["feature"],
                strings(&rule["marks"])
            );
            if !rule["at_most"].is_null() {
                out += &format!("at_most = {}\n", rule["at_most"]);
            }
            continue;
        }
        if rule["type"] == "tiebreak" {
            out += &format!(
                "[[tiebreak]]\nid = {}\nmark = {}\nby = {}\n",
                rule["id"], rule["mark"], rule["by"]
            );
            continue;
        }
        let table = if rule["type"] == "farm" { "farm" } else { "value" };
        out += &format!(
            "[[{table}]]\nid = {}\nwith = {}\nprecedence = {}\n",
            rule["id"],
            strings(&rule["with"]),
            rule["precedence"]
        );
        if table == "farm" {
            out += &format!("times = {}\n", rule["times"]);
            continue;
        }
        out += &format!(
            "feature = {}\nstate = {}\nper_tile = {}\n",
            rule["feature"], rule["state"], rule["per_tile"]
        );
        if !rule["tiles"].is_null() {
            out += &format!("tiles = {}\n", rule["tiles"]);
        }
        let entries = |key: &str, quote: bool| -> String {
            let pairs: Vec<String> = rule[key]
                .as_array()
                .map(|list| {
                    list.iter()
                        .map(|pair| {
                            let value = &pair[1];
                            let text = match value.as_str() {
                                Some(b @ ("true" | "false")) => b.to_string(),
                                Some(other) if quote => format!("{other:?}"),
                                _ => value.to_string(),
                            };
                            format!("{} = {text}", pair[0].as_str().unwrap())
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("{{ {} }}", pairs.join(", "))
        };
        out += &format!(
            "option = {}\nper_mark = {}\n",
            entries("option", true),
            entries("per_mark", false)
        );
    }
    for title in json["titles"].as_array().unwrap() {
        out += &format!(
            "[[title]]\nid = {}\nname = {}\nfeature = {}\nper_feature = {}\nholding = {}\n",
            title["id"], title["name"], title["feature"], title["per_feature"], title["holding"]
        );
    }
    for token in json["tokens"].as_array().unwrap() {
        out += &format!(
            "[[token]]\nid = {}\nname = {}\nfrom = {}\ntaken_by = {}\nmajority = {}\nglyph = {}\ncolour = {}\n",
            token["id"],
            token["name"],
            strings(&token["from"]),
            token["taken_by"],
            token["majority"],
            token["glyph"],
            token["colour"]
        );
    }
    for tile in json["tiles"].as_array().unwrap() {
        let edges = tile["edges"].as_array().unwrap();
        out += &format!(
            "[[tile]]\nid = {}\nname = {}\ncount = {}\nedges = {{ N = {}, E = {}, S = {}, W = {} }}\nmarks = {}\n",
            tile["id"],
            tile["name"],
            tile["count"],
            edges[0],
            edges[1],
            edges[2],
            edges[3],
            strings(&tile["marks"])
        );
        for segment in tile["segments"].as_array().unwrap() {
            out += &format!("[[tile.segments]]\nkind = {}\n", segment["kind"]);
            let kind = segment["kind"].as_str().unwrap();
            if ["city", "road", "river"].contains(&kind) {
                out += &format!("edges = {}\n", strings(&segment["edges"]));
            }
            if kind == "field" {
                out += &format!("half_edges = {}\n", strings(&segment["half_edges"]));
                // Cities are exported as segment indices; the format names them by an edge.
                let names: Vec<String> = segment["cities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|index| {
                        let city = &tile["segments"][index.as_u64().unwrap() as usize];
                        city["edges"][0].to_string()
                    })
                    .collect();
                out += &format!("cities = [{}]\n", names.join(", "));
            }
            out += &format!("marks = {}\n", strings(&segment["marks"]));
        }
    }
    out
}

/// Turning a tile keeps its segments on edges of their own kind, and its fields off city
/// edges: rotation moves edges and segments together.
#[test]
fn rotated_segments_stay_on_edges_of_their_kind() {
    for name in BUILTIN_NAMES {
        for tile in Catalog::builtin(name).unwrap().tiles() {
            for rotation in Rotation::ALL {
                for segment in tile.segments() {
                    let turned = segment.rotated(rotation);
                    for dir in turned.edges().iter() {
                        assert_eq!(
                            Some(tile.edge(dir, rotation)),
                            segment.kind().edge_kind(),
                            "{name} {} at {rotation:?}",
                            tile.id()
                        );
                    }
                    for half in turned.half_edges().iter() {
                        assert_ne!(tile.edge(half.dir(), rotation), EdgeKind::City);
                    }
                }
            }
        }
    }
}
