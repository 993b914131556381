//! The second review's probes: the surfaces added after the first (the tile-set routes, the
//! external bots' seats, presence and spectating, names, the hosts a server answers to). The
//! attackers come from other loopback addresses than the honest player's (127.0.0.x), so
//! per-address limits are not what holds them.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::attacks::{
    self, Attack, Socket, connected_from, envelope, faulty_bot, next_of, started_room,
};
use super::{Finding, Target, http_get, http_get_for, launch, rss_mib, send};

/// Plays `me`'s turns on `ws` (first placement, no figure) until `until`; the time each took
/// from `PLACE_TILE` to `TILE_PLACED`, and how long each bot's turn took from its
/// `TURN_START` to its `TURN_END`.
async fn play_for(ws: &mut Socket, me: &str, until: Instant) -> (Vec<Duration>, Vec<Duration>) {
    let (mut moves, mut bots) = (Vec::new(), Vec::new());
    let (mut sent, mut bot_turn) = (None, None);
    while Instant::now() < until {
        let left = until.saturating_duration_since(Instant::now());
        let Ok(Some(Ok(frame))) = tokio::time::timeout(left, ws.next()).await else { break };
        let Message::Text(text) = frame else { continue };
        let Ok(message) = serde_json::from_str::<Value>(&text) else { continue };
        let data = &message["data"];
        match message["type"].as_str() {
            Some("TURN_START") if data["currentPlayer"] == me => {
                let placement = &data["validPlacements"][0];
                let at =
                    json!({ "position": placement["position"], "rotation": placement["rotation"] });
                send(ws, "PLACE_TILE", at).await;
                sent = Some(Instant::now());
            }
            Some("TURN_START") => bot_turn = Some(Instant::now()),
            Some("TILE_PLACED") if data["playerId"] == me => {
                if let Some(sent) = sent.take() {
                    moves.push(sent.elapsed());
                }
                send(ws, "SKIP_MEEPLE", json!({})).await;
            }
            Some("TURN_END") if data["playerId"] != me => {
                if let Some(started) = bot_turn.take() {
                    bots.push(started.elapsed());
                }
            }
            Some("GAME_END") => break,
            _ => {}
        }
    }
    (moves, bots)
}

fn most(times: &[Duration]) -> Duration {
    times.iter().copied().max().unwrap_or_default()
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

fn ms(time: Duration) -> String {
    format!("{:.0} ms", time.as_secs_f64() * 1000.0)
}

/// Finding 1: eight keep-alive connections from eight addresses pipelining
/// `/tilesets/traders_and_builders`, while an honest player plays and `/health` is asked.
pub async fn tileset_pipelining(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let addr = target.addr;
    let attack = Attack::new();
    let attackers: Vec<_> = (0..8u8)
        .map(|index| {
            tokio::spawn(attacks::pipeline_tilesets(
                addr,
                [127, 0, 1, index + 1],
                Arc::clone(&attack),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let until = Instant::now() + Duration::from_secs(8);
    let health = tokio::spawn(async move {
        let mut worst = Duration::ZERO;
        while Instant::now() < until {
            let asked = Instant::now();
            let answered = http_get(addr, [127, 0, 0, 9], "/health").await.is_some();
            worst = worst.max(if answered { asked.elapsed() } else { Duration::from_secs(3) });
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        worst
    });
    let (moves, _) = match started_room(addr, [127, 0, 0, 2], "ann", &["easy"]).await {
        Some(mut ws) => play_for(&mut ws, "ann", until).await,
        None => (Vec::new(), Vec::new()),
    };
    let health = health.await.unwrap_or(Duration::from_secs(3));
    attack.stop.store(true, Ordering::Relaxed);
    for attacker in attackers {
        attacker.abort();
    }
    let (slowest, health_ok) = (most(&moves), health < Duration::from_millis(500));
    Finding {
        name: "8 connections from 8 addresses pipelining GET /tilesets/traders_and_builders for 8 s",
        held: moves.len() >= 5 && slowest < Duration::from_millis(500) && health_ok,
        figures: format!(
            "{} honest moves, median {}, slowest {}; /health at worst {}; the attackers sent {} requests: {} answered whole ({:.0} MB read), {} refused (429)",
            moves.len(),
            ms(median(&moves)),
            ms(slowest),
            ms(health),
            attack.sent.load(Ordering::Relaxed),
            attack.served.load(Ordering::Relaxed),
            attack.bytes.load(Ordering::Relaxed) as f64 / 1e6,
            attack.refused.load(Ordering::Relaxed)
        ),
    }
}

/// Finding 2: six rooms from one address with four silent external bots each; an easy bot's
/// moves in a room of another address meanwhile.
pub async fn silent_external_bots(server: &PathBuf) -> Finding {
    let bot = faulty_bot("silent", "mute");
    let target = launch(server, &["--bot", &bot], None).await;
    let addr = target.addr;
    let until = Instant::now() + Duration::from_secs(12);
    let attack = Attack::new();
    let abusers: Vec<_> = (0..6)
        .map(|index| {
            tokio::spawn(attacks::silent_room(
                addr,
                [127, 0, 0, 3],
                format!("mal-{index}"),
                Arc::clone(&attack),
            ))
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (_, bots) = match started_room(addr, [127, 0, 0, 2], "ann", &["easy"]).await {
        Some(mut ws) => play_for(&mut ws, "ann", until).await,
        None => (Vec::new(), Vec::new()),
    };
    attack.stop.store(true, Ordering::Relaxed);
    for abuser in abusers {
        abuser.abort();
    }
    let slowest = most(&bots);
    Finding {
        name: "6 rooms from one address with 4 silent external bots each, beside a room with an easy bot",
        held: bots.len() >= 5 && slowest < Duration::from_secs(1),
        figures: format!("{} turns of the easy bot in 11 s, slowest {}", bots.len(), ms(slowest)),
    }
}

/// Finding 3: a silent external bot's turn under `--bot-ms 1000`.
pub async fn external_bot_limit(server: &PathBuf) -> Finding {
    let bot = faulty_bot("silent", "mute");
    let target = launch(server, &["--bot", &bot, "--bot-ms", "1000"], None).await;
    let until = Instant::now() + Duration::from_secs(25);
    let (_, turns) = match started_room(target.addr, [127, 0, 0, 2], "ann", &["silent"]).await {
        Some(mut ws) => {
            let mut turns = Vec::new();
            while turns.len() < 2 && Instant::now() < until {
                let (_, more) =
                    play_for(&mut ws, "ann", Instant::now() + Duration::from_secs(12)).await;
                if more.is_empty() {
                    break;
                }
                turns.extend(more);
            }
            (Vec::<Duration>::new(), turns)
        }
        None => (Vec::new(), Vec::new()),
    };
    let slowest = most(&turns);
    Finding {
        name: "a silent external bot's turn under --bot-ms 1000",
        held: !turns.is_empty() && slowest < Duration::from_millis(1_500),
        figures: format!("{} of its turns in 25 s, slowest {}", turns.len(), ms(slowest)),
    }
}

/// Finding 4: an external bot writing 2 MB of short lines between its moves; the server's
/// memory.
pub async fn external_bot_flood(server: &PathBuf) -> Finding {
    let bot = faulty_bot("chatter", "chatter");
    let target = launch(server, &["--bot", &bot, "--bot-ms", "2000"], None).await;
    let before = rss_mib(&target);
    let mut peak = before;
    let until = Instant::now() + Duration::from_secs(10);
    if let Some(mut ws) =
        started_room(target.addr, [127, 0, 0, 2], "ann", &["chatter", "chatter"]).await
    {
        while Instant::now() < until {
            play_for(&mut ws, "ann", Instant::now() + Duration::from_millis(500)).await;
            peak = peak.max(rss_mib(&target));
        }
    }
    Finding {
        name: "2 external bots each writing 2 MB of short lines between their moves, for 10 s",
        held: peak - before < 20.0,
        figures: format!("server memory {before:.0} MiB before, {peak:.0} MiB at most"),
    }
}

/// Finding 5: a seated member reconnecting as fast as it can for 2.5 s; what the room's other
/// member receives.
pub async fn reconnect_storm(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let addr = target.addr;
    let Some((mut ann, _)) =
        connected_from(addr, [127, 0, 0, 2], json!({ "playerId": "ann", "name": "ann" })).await
    else {
        return unreachable_finding("reconnect storm");
    };
    send(&mut ann, "CREATE_ROOM", json!({ "roomName": "r", "maxPlayers": 3 })).await;
    let state = next_of(&mut ann, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
    let room = state["data"]["roomId"].as_str().unwrap_or("r1").to_owned();
    let Some((mut mal, answer)) =
        connected_from(addr, [127, 0, 0, 3], json!({ "playerId": "mal", "name": "mal" })).await
    else {
        return unreachable_finding("reconnect storm");
    };
    let token = answer["data"]["sessionToken"].as_str().unwrap_or_default().to_owned();
    send(&mut mal, "JOIN_ROOM", json!({ "roomId": room })).await;
    next_of(&mut mal, &["GAME_STATE"]).await;
    drop(mal);
    let counted = tokio::spawn(count_for(ann, Duration::from_millis(2_800)));
    let started = Instant::now();
    let (mut tries, mut accepted) = (0, 0);
    while started.elapsed() < Duration::from_millis(2_500) {
        tries += 1;
        let data = json!({ "playerId": "mal", "name": "mal", "sessionToken": token });
        if let Some((_, answer)) = connected_from(addr, [127, 0, 0, 3], data).await
            && answer["type"] == "CONNECTED"
        {
            accepted += 1;
        }
    }
    let (states, bytes) = counted.await.unwrap_or((0, 0));
    Finding {
        name: "a seated member reconnecting as fast as it can for 2.5 s",
        held: states <= 15,
        figures: format!(
            "{tries} tries, {accepted} accepted, {} refused (RATE_LIMITED, or HTTP 429 once its address owed its rate); the other member got {states} room states ({:.1} KB)",
            tries - accepted,
            bytes as f64 / 1e3
        ),
    }
}

/// Reads `ws` for `time`: the room states it got, and the bytes of everything.
async fn count_for(mut ws: Socket, time: Duration) -> (usize, usize) {
    let until = tokio::time::Instant::now() + time;
    let (mut states, mut bytes) = (0, 0);
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(until, ws.next()).await {
        if let Message::Text(text) = frame {
            bytes += text.len();
            states += usize::from(text.contains("\"type\":\"ROOM_STATE\""));
        }
    }
    (states, bytes)
}

fn unreachable_finding(name: &'static str) -> Finding {
    Finding { name, held: false, figures: "the server did not answer".to_owned() }
}

/// Finding 6: 29 strangers from 29 addresses toggling spectate and leave on a game in
/// progress for 3 s; what its player receives.
pub async fn spectator_churn(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let addr = target.addr;
    let Some(mut ann) = started_room(addr, [127, 0, 0, 2], "ann", &["easy"]).await else {
        return unreachable_finding("spectator churn");
    };
    let state = next_of(&mut ann, &["ROOM_STATE"]).await.unwrap_or(Value::Null);
    let room = state["data"]["roomId"].as_str().unwrap_or("r1").to_owned();
    next_of(&mut ann, &["TURN_START"]).await;
    let mut churners = Vec::new();
    for index in 0..29u8 {
        let room = room.clone();
        churners.push(tokio::spawn(async move {
            let data = json!({ "playerId": format!("eve-{index}"), "name": "eve" });
            let Some((mut eve, _)) = connected_from(addr, [127, 0, 2, index + 1], data).await
            else {
                return;
            };
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(3) {
                let _ = eve
                    .send(envelope("JOIN_ROOM", json!({ "roomId": room, "spectate": true })))
                    .await;
                let _ = eve.send(envelope("LEAVE_ROOM", json!({ "roomId": room }))).await;
                // Read what comes, so this client is not cut as a slow reader.
                while let Ok(Some(_)) =
                    tokio::time::timeout(Duration::from_millis(1), eve.next()).await
                {
                }
                tokio::time::sleep(Duration::from_millis(40)).await;
            }
        }));
    }
    let (states, bytes) = count_for(ann, Duration::from_secs(3)).await;
    for churner in churners {
        churner.abort();
    }
    let rate = states as f64 / 3.0;
    Finding {
        name: "29 strangers from 29 addresses toggling spectate and leave on a game in progress for 3 s",
        held: rate <= 5.0,
        figures: format!(
            "the player got {rate:.1} room states a second ({:.1} KB/s)",
            bytes as f64 / 3e3
        ),
    }
}

/// Finding 7: a player id whose session expired, claimed without its token; then its owner.
pub async fn freed_identity(server: &PathBuf) -> Finding {
    let target = launch(server, &["--session-timeout", "1"], None).await;
    let addr = target.addr;
    let ann = json!({ "playerId": "ann", "name": "ann" });
    let token = match connected_from(addr, [127, 0, 0, 2], ann).await {
        Some((ws, answer)) => {
            drop(ws);
            answer["data"]["sessionToken"].as_str().unwrap_or_default().to_owned()
        }
        None => return unreachable_finding("freed identity"),
    };
    tokio::time::sleep(Duration::from_secs(4)).await;
    let stranger =
        connected_from(addr, [127, 0, 0, 3], json!({ "playerId": "ann", "name": "eve" })).await;
    let taken = stranger.is_some_and(|(_, answer)| answer["type"] == "CONNECTED");
    let owner = json!({ "playerId": "ann", "name": "ann", "sessionToken": token });
    let back = connected_from(addr, [127, 0, 0, 2], owner).await;
    let returned = back.is_some_and(|(_, answer)| answer["type"] == "CONNECTED");
    Finding {
        name: "an expired session's player id claimed without its token (session timeout 1 s, 4 s later)",
        held: !taken && returned,
        figures: format!(
            "the stranger {}; its owner with the token {}",
            if taken { "took it" } else { "was refused (INVALID_SESSION)" },
            if returned { "connects" } else { "is locked out" }
        ),
    }
}

/// Finding 8: names of invisible characters only, or with bidi overrides.
pub async fn invisible_names(server: &PathBuf) -> Finding {
    let target = launch(server, &[], None).await;
    let names = [
        "\u{200B}",
        "\u{00AD}",
        "\u{FEFF}",
        "\u{3164}",
        "\u{2800}",
        "\u{E0041}\u{E0042}",
        "\u{202E}mallory",
        "\u{202D}x",
        "\u{2067}x",
    ];
    let mut accepted = 0;
    for (index, name) in names.iter().enumerate() {
        let data = json!({ "playerId": format!("n{index}"), "name": name });
        if let Some((_, answer)) = connected_from(target.addr, [127, 0, 0, 2], data).await
            && answer["type"] == "CONNECTED"
        {
            accepted += 1;
        }
    }
    let rooms = ["\u{200B}", "\u{202E}room"];
    let (mut ws, _) =
        connected_from(target.addr, [127, 0, 0, 3], json!({ "playerId": "host", "name": "host" }))
            .await
            .unwrap_or_else(|| panic!("the server answers"));
    for name in rooms {
        send(&mut ws, "CREATE_ROOM", json!({ "roomName": name, "maxPlayers": 2 })).await;
        if next_of(&mut ws, &["ROOM_STATE"])
            .await
            .is_some_and(|message| message["type"] == "ROOM_STATE")
        {
            accepted += 1;
        }
    }
    Finding {
        name: "9 player names and 2 room names of invisible characters or with bidi controls",
        held: accepted == 0,
        figures: format!("{accepted} of 11 accepted"),
    }
}

/// Finding 10: a page at a name rebound to the server's address (Host = Origin =
/// attacker.example:PORT).
pub async fn rebound_host(server: &PathBuf) -> Finding {
    let target: Target = launch(server, &[], None).await;
    let port = target.addr.port();
    let rebound = format!("attacker.example:{port}");
    let page =
        http_get_for(target.addr, [127, 0, 0, 1], "/", &rebound).await.map(|(status, _)| status);
    let mut request = {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        format!("ws://{}/ws", target.addr).into_client_request().expect("a request")
    };
    request.headers_mut().insert("host", rebound.parse().expect("a value"));
    request.headers_mut().insert("origin", format!("http://{rebound}").parse().expect("a value"));
    let socket = tokio_tungstenite::connect_async(request).await.is_ok();
    Finding {
        name: "a page at a name rebound to the server (Host = Origin = attacker.example)",
        held: page != Some(200) && !socket,
        figures: format!(
            "the page: {}; the socket {}",
            page.map_or("no answer".to_owned(), |status| format!("HTTP {status}")),
            if socket { "opened" } else { "refused" }
        ),
    }
}
