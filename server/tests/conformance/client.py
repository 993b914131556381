#!/usr/bin/env python3
"""Conformance client for carcassonne-server, written from docs/protocol.md only.

Its author read the protocol document and nothing else of the server (no source, no tests):
it checks that a client written from the document alone finds every message, field, order
and code as written. Keep it that way: a change to the protocol changes the document first,
then this client, as a client author would.

Run (CI does, with the `websockets` package):
    python server/tests/conformance/client.py --server target/release/carcassonne-server
Starts the release server on a free 127.0.0.1 port (--db :memory:, --bot-delay 0.2, --figure-grace 1,
--absent-grace 1), runs groups 1-6, prints PASS/FAIL per check and OBS lines (observations on points the
document leaves open), kills the server. About 20 s; hard limit 170 s. Exit status 1 if any check failed.
"""
import argparse, asyncio, json, os, re, socket, subprocess, sys, tempfile, time, http.client

import websockets

SERVER = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "carcassonne-server")
HOST = "127.0.0.1"
RESULTS = []          # (group, name, ok, detail)
GROUP = ["?"]
SERVER_LOG = os.path.join(tempfile.mkdtemp(prefix="carcassonne-conformance-"), "server.log")


def check(name, ok, detail=""):
    RESULTS.append((GROUP[0], name, bool(ok), detail if not ok else ""))
    print(("PASS " if ok else "FAIL ") + f"[{GROUP[0]}] {name}" + ("" if ok else f"  -- {detail}"), flush=True)
    return bool(ok)


def free_port():
    s = socket.socket(); s.bind((HOST, 0)); p = s.getsockname()[1]; s.close(); return p


def start_server():
    port = free_port()
    log = open(SERVER_LOG, "w")
    proc = subprocess.Popen([SERVER, "--addr", f"{HOST}:{port}", "--db", ":memory:",
                             "--bot-delay", "0.2", "--figure-grace", "1", "--absent-grace", "1"],
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=1); c.request("GET", "/health")
            if c.getresponse().status == 200:
                return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill(); raise RuntimeError("server did not start")


def http_get(port, path, headers=None):
    c = http.client.HTTPConnection(HOST, port, timeout=5)
    c.request("GET", path, headers=headers or {})
    r = c.getresponse(); body = r.read(); c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


SEC_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}


def check_sec_headers(path, hdrs):
    bad = [f"{k}: got {hdrs.get(k)!r}" for k, v in SEC_HEADERS.items() if hdrs.get(k) != v]
    check(f"security headers on {path}", not bad, "; ".join(bad))


# ---------------------------------------------------------------- group 1: HTTP
def group_http(port):
    GROUP[0] = "1 HTTP"
    st, h, b = http_get(port, "/")
    check("GET / is 200 with a page", st == 200 and b"<" in b, f"status {st}, {b[:80]!r}")
    check_sec_headers("/", h)

    st, h, b = http_get(port, "/health")
    check_sec_headers("/health", h)
    try:
        j = json.loads(b)
        check("GET /health has {rooms, connections, protocolVersion}",
              st == 200 and {"rooms", "connections", "protocolVersion"} <= set(j), f"{st} {j}")
        check("/health protocolVersion is '1.1'", j.get("protocolVersion") == "1.1", f"{j.get('protocolVersion')!r}")
    except ValueError:
        check("GET /health is JSON", False, f"{st} {b[:200]!r}")

    st, h, b = http_get(port, "/bots")
    check_sec_headers("/bots", h)
    try:
        bots = json.loads(b).get("bots")
        ok = st == 200 and isinstance(bots, list) and all(
            isinstance(bot, dict) and {"name", "description", "external"} <= set(bot) for bot in bots)
        check("GET /bots has bots[] of {name, description, external}", ok, f"{st} {b[:200]!r}")
        names = [bot.get("name") for bot in bots or []]
        check("/bots lists easy, medium, hard, expert first", names[:4] == ["easy", "medium", "hard", "expert"], f"{names}")
    except ValueError:
        check("GET /bots is JSON", False, f"{st} {b[:200]!r}")

    st, h, b = http_get(port, "/tilesets")
    check_sec_headers("/tilesets", h)
    j = json.loads(b)
    ok = st == 200 and isinstance(j.get("tilesets"), list) and isinstance(j.get("colours"), list)
    check("GET /tilesets has tilesets[] and colours[]", ok, f"{st} keys={list(j)}")
    ids = [t.get("id") for t in j.get("tilesets", [])]
    check("/tilesets lists base, base_c2, river, inns_and_cathedrals",
          {"base", "base_c2", "river", "inns_and_cathedrals"} <= set(ids), f"ids={ids}")
    bad = [t for t in j.get("tilesets", []) if not ({"id", "name", "tiles", "colours"} <= set(t))]
    check("/tilesets entries have {id, name, tiles, colours}", not bad, f"{[list(t) for t in bad]}")
    names = [c.get("name") for c in j.get("colours", [])]
    pal = ["red", "green", "blue", "yellow", "black", "grey", "pink", "purple", "orange", "white"]
    check("/tilesets palette is the documented one in order", names == pal, f"{names}")
    bad = [c for c in j.get("colours", []) if not re.fullmatch(r"#[0-9a-fA-F]{6}", str(c.get("shade")))]
    check("/tilesets colour shades are #rrggbb", not bad, f"{bad}")
    base = next((t for t in j.get("tilesets", []) if t.get("id") == "base"), {})
    check("/tilesets base brings red..black (5 colours)", base.get("colours") == pal[:5], f"{base.get('colours')}")
    ic = next((t for t in j.get("tilesets", []) if t.get("id") == "inns_and_cathedrals"), {})
    check("/tilesets inns_and_cathedrals brings grey", "grey" in (ic.get("colours") or []), f"{ic.get('colours')}")
    check("/tilesets base tiles = 72 copies", base.get("tiles") == 72, f"{base.get('tiles')}")

    st, h, b = http_get(port, "/tilesets/base")
    check_sec_headers("/tilesets/base", h)
    j = json.loads(b)
    ok = st == 200 and j.get("id") == "base" and isinstance(j.get("tiles"), list) and j["tiles"]
    check("GET /tilesets/base has {id, tiles[]}", ok, f"{st} keys={list(j)}")
    if ok:
        t0 = j["tiles"][0]
        check("/tilesets/base entries have {tile, count, anchors}",
              all({"tile", "count", "anchors"} <= set(t) for t in j["tiles"]), f"{list(t0)}")
        tile = t0["tile"]
        need = {"id", "north", "east", "south", "west", "features", "hasMonastery", "hasShield", "name"}
        check("Tile has documented fields", need <= set(tile), f"missing {need - set(tile)}")
        fneed = {"id", "type", "edges"}
        check("Tile.features[] have id/type/edges", all(fneed <= set(f) for f in tile.get("features", [])),
              f"{tile.get('features')}")
        check("sum of counts = 72", sum(t.get("count", 0) for t in j["tiles"]) == 72,
              f"{sum(t.get('count', 0) for t in j['tiles'])}")
        a = t0["anchors"]
        ok = (isinstance(a, dict) and set(map(str, a)) >= {"0", "90", "180", "270"}) or (isinstance(a, list) and len(a) == 4)
        check("anchors given for each rotation 0/90/180/270", ok, f"{json.dumps(a)[:200]}")
        global BASE_TILE_IDS
        BASE_TILE_IDS = [t["tile"]["id"] for t in j["tiles"]]
    st, h, b = http_get(port, "/tilesets/nope")
    check("GET /tilesets/nope is 404", st == 404, f"{st}")
    check_sec_headers("/tilesets/nope (404)", h)

    st, h, b = http_get(port, "/tiles/base/D.svg?rotation=90")
    check("GET /tiles/base/D.svg?rotation=90 is 200 SVG", st == 200 and b"<svg" in b,
          f"{st} ct={h.get('content-type')} {b[:80]!r}")
    check("tile SVG content-type is image/svg+xml", (h.get("content-type") or "").startswith("image/svg+xml"),
          f"{h.get('content-type')}")
    check_sec_headers("/tiles/base/D.svg", h)
    st, h, b = http_get(port, "/tiles/base/D.svg?rotation=45")
    check("rotation=45 is 400", st == 400, f"{st}")
    check_sec_headers("/tiles/base/D.svg?rotation=45 (400)", h)
    st, _, _ = http_get(port, "/tiles/base/ZZZ.svg")
    check("unknown tile svg is 404", st == 404, f"{st}")
    st, _, _ = http_get(port, "/tiles/nope/D.svg")
    check("unknown set svg is 404", st == 404, f"{st}")

    st, h, b = http_get(port, "/games/nope")
    check("GET /games/nope is 404", st == 404, f"{st}")
    check_sec_headers("/games/nope (404)", h)

    for path in ("/app.js", "/style.css"):
        st, h, b = http_get(port, path)
        check(f"GET {path} is 200", st == 200, f"{st}")
        check_sec_headers(path, h)
    st, h, b = http_get(port, "/games/nope.json")
    check("GET /games/nope.json is 404", st == 404, f"{st}")


async def group_origin(port):
    GROUP[0] = "1 HTTP"
    url = f"ws://{HOST}:{port}/ws"
    try:
        ws = await asyncio.wait_for(websockets.connect(url, origin="http://evil.example"), 5)
        await ws.close()
        check("WS upgrade with foreign Origin is 403", False, "accepted")
    except Exception as e:
        code = getattr(getattr(e, "response", None), "status_code", None) or getattr(e, "status_code", None)
        check("WS upgrade with foreign Origin is 403", code == 403, f"{type(e).__name__}: {e}")
    try:
        ws = await asyncio.wait_for(websockets.connect(url, origin=f"http://{HOST}:{port}"), 5)
        await ws.close()
        check("WS upgrade with own Origin accepted", True)
    except Exception as e:
        check("WS upgrade with own Origin accepted", False, f"{type(e).__name__}: {e}")
    try:
        ws = await asyncio.wait_for(websockets.connect(url), 5)
        await ws.close()
        check("WS upgrade without Origin accepted", True)
    except Exception as e:
        check("WS upgrade without Origin accepted", False, f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------- WebSocket client
CODES = {"NOT_CONNECTED": 1000, "MALFORMED_MESSAGE": 1001, "UNKNOWN_MESSAGE_TYPE": 1002, "INVALID_DATA": 1003,
         "ALREADY_CONNECTED": 1004, "INVALID_SESSION": 1005, "FRAME_TOO_LARGE": 1006, "RATE_LIMITED": 1007,
         "INVALID_COLOR": 1008, "TOO_MANY_SESSIONS": 1009, "INVALID_NAME": 1010, "ROOM_NOT_FOUND": 1100, "ROOM_FULL": 1101,
         "GAME_ALREADY_STARTED": 1102, "NOT_HOST": 1103, "NOT_IN_ROOM": 1104, "ALREADY_IN_ROOM": 1105,
         "TOO_MANY_ROOMS": 1106, "NOT_ENOUGH_PLAYERS": 1107, "INVALID_ROOM_SETTINGS": 1108, "NOT_YOUR_TURN": 1200,
         "INVALID_PLACEMENT": 1201, "NO_MEEPLES": 1202, "INVALID_MEEPLE": 1203, "WRONG_PHASE": 1204,
         "GAME_NOT_STARTED": 1205, "NOT_A_PLAYER": 1206, "INTERNAL_ERROR": 1300, "SERVER_FULL": 1301,
         "STORAGE_FAILED": 1302}
TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
ALL_SERVER_MSGS = []   # every message any client received, for global checks


def short(m, n=300):
    s = json.dumps(m) if not isinstance(m, str) else m
    return s if len(s) <= n else s[:n] + "..."


class Client:
    _n = 0

    def __init__(self, port, label=""):
        Client._n += 1
        self.url = f"ws://{HOST}:{port}/ws"
        self.label = label or f"cl{Client._n}"
        self.msgs, self.pos, self.mid = [], 0, 0
        self.closed = None
        self.ev = asyncio.Event()
        self.last_send = 0.0

    async def open(self):
        self.ws = await asyncio.wait_for(websockets.connect(self.url, max_size=None, ping_interval=None), 5)
        self.task = asyncio.create_task(self._reader())
        return self

    async def _reader(self):
        try:
            async for raw in self.ws:
                try:
                    m = json.loads(raw)
                except Exception:
                    m = {"type": "<non-json>", "raw": raw}
                m["_t"] = time.time()
                self.msgs.append(m); ALL_SERVER_MSGS.append(m)
                self.ev.set()
        except websockets.ConnectionClosed as e:
            pass
        finally:
            self.closed = (getattr(self.ws, "close_code", None), getattr(self.ws, "close_reason", None))
            self.ev.set()

    async def _throttle(self):
        dt = time.time() - self.last_send
        if dt < 0.06:
            await asyncio.sleep(0.06 - dt)
        self.last_send = time.time()

    async def send_raw(self, raw, throttle=True):
        if throttle:
            await self._throttle()
        await self.ws.send(raw)

    def env(self, typ, data, mid=None):
        self.mid += 1
        mid = mid or f"{self.label}-m{self.mid}"
        return {"type": typ, "data": data, "timestamp": "2026-11-25T10:00:00.000Z", "messageId": mid}

    async def send(self, typ, data=None, mid=None, throttle=True):
        e = self.env(typ, {} if data is None else data, mid)
        await self.send_raw(json.dumps(e), throttle)
        return e["messageId"]

    async def wait(self, pred, timeout=3.0, advance=True):
        """first message at/after the cursor matching pred (a type name or a function)."""
        if isinstance(pred, str):
            t = pred; pred = lambda m: m.get("type") == t
        deadline = time.time() + timeout
        i = self.pos
        while True:
            while i < len(self.msgs):
                if pred(self.msgs[i]):
                    if advance:
                        self.pos = i + 1
                    return self.msgs[i]
                i += 1
            left = deadline - time.time()
            if left <= 0 or self.closed is not None and i >= len(self.msgs):
                return None
            self.ev.clear()
            try:
                await asyncio.wait_for(self.ev.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def reply(self, mid, ok_types=(), timeout=3.0):
        """ERROR in reply to mid, or the first message of one of ok_types."""
        return await self.wait(lambda m: (m.get("type") == "ERROR" and m["data"].get("inReplyTo") == mid)
                               or m.get("type") in ok_types, timeout)

    async def quiet(self, t):
        """all messages arriving within t seconds after the cursor; advances the cursor."""
        await asyncio.sleep(t)
        out = self.msgs[self.pos:]; self.pos = len(self.msgs)
        return out

    def since(self, i):
        return self.msgs[i:]

    async def close(self):
        try:
            await asyncio.wait_for(self.ws.close(), 3)
        except Exception:
            pass

    async def connect(self, pid, name=None, **extra):
        d = {"playerId": pid, "name": name or pid}; d.update(extra)
        mid = await self.send("CONNECT", d)
        r = await self.reply(mid, ("CONNECTED",))
        return r


def err_ok(name, r, code, field=None, reason=None, mid=None):
    """check r is ERROR code (with numericCode, details.field/reason, inReplyTo)."""
    if r is None:
        return check(name, False, f"no reply (expected ERROR {code})")
    d = r.get("data", {})
    probs = []
    if r.get("type") != "ERROR" or d.get("code") != code:
        probs.append(f"expected ERROR {code}")
    else:
        if d.get("numericCode") != CODES[code]:
            probs.append(f"numericCode {d.get('numericCode')} != {CODES[code]}")
        if field is not None and (d.get("details") or {}).get("field") != field:
            probs.append(f"details.field != {field!r}")
        if reason is not None and (d.get("details") or {}).get("reason") != reason:
            probs.append(f"details.reason != {reason!r}")
        if mid is not None and d.get("inReplyTo") != mid:
            probs.append(f"inReplyTo != {mid!r}")
        if not isinstance(d.get("message"), str) or not isinstance(d.get("details"), dict):
            probs.append("message/details missing")
        if "seq" in r:
            probs.append("ERROR carries seq")
    return check(name, not probs, "; ".join(probs) + f"; got {short({k: v for k, v in r.items() if k != '_t'})}")


# ---------------------------------------------------------------- group 2: envelope and connecting
async def group_envelope(port):
    GROUP[0] = "2 envelope"
    c = await Client(port, "env").open()
    TS = "2026-11-25T10:00:00.000Z"

    async def raw_case(name, raw, code, field=None, mid=None, binary=False):
        i = len(c.msgs)
        await c.send_raw(raw)
        r = await c.wait(lambda m: m.get("type") == "ERROR", 2)
        err_ok(name, r, code, field=field, mid=mid)
        return r

    # malformed envelopes (before CONNECT: they are checked before the state)
    await raw_case("not JSON -> MALFORMED_MESSAGE", "{not json", "MALFORMED_MESSAGE")
    r = c.msgs[-1] if c.msgs else None
    check("not-JSON ERROR inReplyTo is null", r and r["data"].get("inReplyTo", "absent") is None,
          f"{short(r)}")
    await raw_case("JSON array -> MALFORMED_MESSAGE", "[1,2]", "MALFORMED_MESSAGE")
    await raw_case("JSON string -> MALFORMED_MESSAGE", '"hello"', "MALFORMED_MESSAGE")
    await raw_case("binary frame -> MALFORMED_MESSAGE", b'{"type":"PING"}', "MALFORMED_MESSAGE")
    base = {"type": "PING", "data": {}, "timestamp": TS, "messageId": "x1"}
    for f in ("type", "data", "timestamp", "messageId"):
        e = dict(base); del e[f]
        await raw_case(f"missing {f} -> MALFORMED_MESSAGE field={f}", json.dumps(e), "MALFORMED_MESSAGE", field=f,
                       mid=None if f == "messageId" else "x1")
    for f, v in (("type", 5), ("data", "str"), ("data", []), ("data", None), ("timestamp", 5), ("messageId", 7),
                 ("timestamp", ""), ("messageId", ""), ("timestamp", "t" * 65), ("messageId", "m" * 65)):
        e = dict(base); e[f] = v
        await raw_case(f"{f}={short(v, 20)} -> MALFORMED_MESSAGE field={f}", json.dumps(e), "MALFORMED_MESSAGE",
                       field=f, mid=None if f == "messageId" else "x1")
    e = dict(base); e["timestamp"] = "t" * 64; e["messageId"] = "m" * 64; e["extra"] = 1; e["data"] = {"zzz": 1}
    await c.send_raw(json.dumps(e))
    r = await c.wait(lambda m: m.get("type") in ("PONG", "ERROR"), 2)
    check("64-byte timestamp/messageId and unknown fields accepted (PING -> PONG)", r and r["type"] == "PONG",
          short(r))
    await raw_case("unknown type -> UNKNOWN_MESSAGE_TYPE", json.dumps(dict(base, type="FOO", messageId="x2")),
                   "UNKNOWN_MESSAGE_TYPE", mid="x2")
    r = c.msgs[-1]
    check("UNKNOWN_MESSAGE_TYPE details.type names it", r["data"].get("details", {}).get("type") == "FOO", short(r))

    # before CONNECT
    mid = await c.send("PING")
    r = await c.reply(mid, ("PONG",))
    check("PING before CONNECT -> PONG {}", r and r["type"] == "PONG" and r["data"] == {}, short(r))
    if r:
        check("PONG has no seq", "seq" not in r, short(r))
        check("server timestamp is RFC3339 UTC with ms", TS_RE.match(str(r.get("timestamp"))), short(r))
        check("one-connection messageId is c<conn>-<n>", re.fullmatch(r"c\d+-\d+", str(r.get("messageId"))), short(r))
    mid = await c.send("LIST_ROOMS")
    err_ok("LIST_ROOMS before CONNECT -> NOT_CONNECTED", await c.reply(mid, ("LIST_ROOMS",)), "NOT_CONNECTED", mid=mid)
    mid = await c.send("CREATE_ROOM", {"roomName": "x", "maxPlayers": 2})
    err_ok("CREATE_ROOM before CONNECT -> NOT_CONNECTED", await c.reply(mid, ("ROOM_STATE",)), "NOT_CONNECTED",
           mid=mid)

    # frame too large (>16 KiB message, < 256 KiB frame)
    big = json.dumps(dict(base, messageId="big", data={"pad": "x" * 20000}))
    await c.send_raw(big)
    r = await c.wait(lambda m: m.get("type") == "ERROR", 2)
    err_ok("20 KB message -> FRAME_TOO_LARGE", r, "FRAME_TOO_LARGE")
    if r:
        check("FRAME_TOO_LARGE details.bytes", isinstance(r["data"].get("details", {}).get("bytes"), int), short(r))
    mid = await c.send("PING")
    r = await c.reply(mid, ("PONG",))
    check("connection still usable after FRAME_TOO_LARGE", r and r["type"] == "PONG", short(r))

    # CONNECT data validation
    for name, d, field in (("missing playerId", {"name": "A"}, "playerId"),
                           ("missing name", {"playerId": "pv1"}, "name"),
                           ("empty name", {"playerId": "pv1", "name": ""}, "name"),
                           ("spaces-only name", {"playerId": "pv1", "name": "   "}, "name"),
                           ("65-byte name", {"playerId": "pv1", "name": "n" * 65}, "name"),
                           ("control char in name", {"playerId": "pv1", "name": "a\u0007b"}, "name"),
                           ("empty playerId", {"playerId": "", "name": "A"}, "playerId"),
                           ("65-byte playerId", {"playerId": "p" * 65, "name": "A"}, "playerId"),
                           ("playerId number", {"playerId": 5, "name": "A"}, "playerId"),
                           ("bot: playerId", {"playerId": "bot:r1:1", "name": "A"}, "playerId"),
                           ("lastSeq negative", {"playerId": "pv1", "name": "A", "lastSeq": -1}, "lastSeq")):
        mid = await c.send("CONNECT", d)
        err_ok(f"CONNECT {name} -> INVALID_DATA field={field}", await c.reply(mid, ("CONNECTED",)), "INVALID_DATA",
               field=field, mid=mid)
    mid = await c.send("CONNECT", {"playerId": "pv1", "name": "A", "color": "magenta"})
    r = await c.reply(mid, ("CONNECTED",))
    err_ok("CONNECT color=magenta -> INVALID_COLOR", r, "INVALID_COLOR", field="color", mid=mid)
    pal = ["red", "green", "blue", "yellow", "black", "grey", "pink", "purple", "orange", "white"]
    check("INVALID_COLOR details.colors lists the palette",
          r and r["data"].get("details", {}).get("colors") == pal, short(r))

    # a good CONNECT
    r = await c.connect("alice", "Alice", color="")
    ok = r and r["type"] == "CONNECTED"
    check("CONNECT (color='') -> CONNECTED", ok, short(r))
    if not ok:
        return
    d = r["data"]
    check("CONNECTED.sessionToken is 32 hex", re.fullmatch(r"[0-9a-f]{32}", str(d.get("sessionToken")), re.I), short(r))
    check("CONNECTED.protocolVersion == '1.1'", d.get("protocolVersion") == "1.1", short(r))
    check("CONNECTED.playerId == 'alice'", d.get("playerId") == "alice", short(r))
    check("CONNECTED.resumed is false", d.get("resumed") is False, short(r))
    check("CONNECTED.roomId is null", "roomId" in d and d["roomId"] is None, short(r))
    check("CONNECTED has no seq", "seq" not in r, short(r))
    tok = d.get("sessionToken")

    r = await c.connect("alice", "Alice")
    err_ok("second CONNECT -> ALREADY_CONNECTED", r, "ALREADY_CONNECTED")
    r = await c.connect("zed", "Zed")
    err_ok("second CONNECT other id -> ALREADY_CONNECTED", r, "ALREADY_CONNECTED")
    mid = await c.send("PING")
    r = await c.reply(mid, ("PONG",))
    check("PING after CONNECT -> PONG", r and r["type"] == "PONG", short(r))

    c2 = await Client(port, "env2").open()
    err_ok("CONNECT taken playerId, no token (session connected) -> INVALID_SESSION",
           await c2.connect("alice", "Al2"), "INVALID_SESSION", field=None)
    err_ok("CONNECT taken playerId, wrong token -> INVALID_SESSION",
           await c2.connect("alice", "Al2", sessionToken="0" * 32), "INVALID_SESSION")
    r = await c2.connect("alice", "Alice2", sessionToken=tok)
    ok = r and r["type"] == "CONNECTED"
    check("CONNECT with token -> CONNECTED", ok, short(r))
    if ok:
        check("resumed CONNECTED: resumed true", r["data"].get("resumed") is True, short(r))
        check("resumed CONNECTED: same sessionToken", r["data"].get("sessionToken") == tok, short(r))
        check("resumed CONNECTED: roomId null", "roomId" in r["data"] and r["data"]["roomId"] is None, short(r))
    await c.wait(lambda m: False, 1.0)
    check("older connection closed on resume", c.closed is not None, f"old connection still open; got {[short(m,120) for m in c.since(c.pos)]}")
    observe(f"older connection on resume: close {c.closed}, last messages {[m['type'] for m in c.since(c.pos)]}")
    # a closed (not connected) session without token
    await c2.close()
    await asyncio.sleep(0.3)
    c3 = await Client(port, "env3").open()
    err_ok("CONNECT taken playerId, no token (session disconnected) -> INVALID_SESSION",
           await c3.connect("alice", "Al3"), "INVALID_SESSION")
    r = await c3.connect("alice", "Alice", sessionToken=tok, color="blue")
    check("resume with a palette colour -> CONNECTED", r and r["type"] == "CONNECTED", short(r))
    await c3.close()

    # rate limit: 70 PINGs at once on a fresh connection
    c4 = await Client(port, "rate").open()
    await c4.connect("ratey", "Ratey")
    i0 = len(c4.msgs)
    for k in range(70):
        await c4.send("PING", mid=f"rl{k}", throttle=False)
    await c4.wait(lambda m: False, 1.5)
    got = c4.since(i0)
    pongs = [m for m in got if m["type"] == "PONG"]
    rl = [m for m in got if m["type"] == "ERROR" and m["data"].get("code") == "RATE_LIMITED"]
    check("burst of 70 PINGs: about 40 answered, rest dropped", 38 <= len(pongs) <= 45, f"{len(pongs)} PONGs")
    check("RATE_LIMITED sent (at most one a second)", 1 <= len(rl) <= 2, f"{len(rl)} RATE_LIMITED: {[short(m,200) for m in rl[:2]]}")
    if rl:
        err_ok("RATE_LIMITED error shape", rl[0], "RATE_LIMITED")
    await asyncio.sleep(1.0)
    mid = await c4.send("PING")
    r = await c4.reply(mid, ("PONG",))
    check("after the burst, the connection works again", r and r["type"] == "PONG", short(r))
    await c4.close()


# ---------------------------------------------------------------- group 3: rooms
PLAYER_FIELDS = {"id": str, "name": str, "color": str, "meeples": int, "score": int, "isBot": bool, "seat": int,
                 "bigFollowers": int, "abbots": int, "connected": bool}
RULE_NAMES = {"farmers", "farm_scoring", "tiny_city", "inn_cathedral_unfinished", "abbots"}
SEAT_COLOURS = ["red", "green", "blue", "yellow", "black", "grey"]
OBS = []   # observations (not pass/fail)


def observe(s):
    OBS.append(s); print("OBS  " + s, flush=True)


def player_problems(p):
    probs = [f"{k} missing/not {t.__name__}" for k, t in PLAYER_FIELDS.items()
             if not isinstance(p.get(k), t) or (t is int and isinstance(p.get(k), bool))]
    return probs


def typed(v, t):
    return isinstance(v, t) and not (t is int and isinstance(v, bool))


def room_state_problems(d):
    probs = []
    for k, t in (("roomId", str), ("players", list), ("gameStarted", bool), ("gameEnded", bool), ("name", str),
                 ("spectators", int), ("maxPlayers", int), ("state", str), ("tilesets", list), ("rules", dict)):
        if not typed(d.get(k), t):
            probs.append(f"{k} missing/not {t.__name__}")
    if "host" not in d or not (d["host"] is None or isinstance(d["host"], str)):
        probs.append("host missing")
    if "turnSeconds" not in d or not (d["turnSeconds"] is None or typed(d["turnSeconds"], int)):
        probs.append("turnSeconds missing")
    if isinstance(d.get("rules"), dict) and set(d["rules"]) != RULE_NAMES:
        probs.append(f"rules keys {sorted(d['rules'])} != {sorted(RULE_NAMES)}")
    for p in d.get("players") or []:
        pp = player_problems(p)
        if pp:
            probs.append(f"player {p.get('id')}: {pp}")
    for i, p in enumerate(d.get("players") or []):
        if p.get("seat") != i:
            probs.append(f"player {i} seat {p.get('seat')}")
        if p.get("color") != SEAT_COLOURS[i]:
            probs.append(f"player {i} color {p.get('color')} != {SEAT_COLOURS[i]}")
    return probs


def empty_game_state_problems(g):
    probs = []
    if not isinstance(g, dict):
        return ["gameState not an object"]
    if g.get("tiles") != {}:
        probs.append(f"tiles {short(g.get('tiles'), 80)} != {{}}")
    for k, v in (("currentTile", None), ("currentPlayer", None), ("gameStarted", False), ("gameEnded", False),
                 ("scores", {}), ("tilesLeft", None)):
        if k not in g or g[k] != v or (v is False and g[k] is not False):
            probs.append(f"{k}={short(g.get(k, '<absent>'), 60)} (want {v})")
    if not isinstance(g.get("players"), list):
        probs.append("players not a list")
    for k in ("remaining", "phase", "lastPlaced"):
        if k in g:
            probs.append(f"{k} present before the game")
    return probs


def room_msg_problems(m, room_id):
    probs = []
    if not typed(m.get("seq"), int):
        probs.append("no seq")
    elif m.get("messageId") != f"{room_id}-{m['seq']}":
        probs.append(f"messageId {m.get('messageId')} != {room_id}-{m['seq']}")
    return probs


async def newc(port, pid, name=None, **kw):
    c = await Client(port, pid).open()
    r = await c.connect(pid, name or pid.capitalize(), **kw)
    assert r and r["type"] == "CONNECTED", short(r)
    c.token = r["data"]["sessionToken"]
    return c


async def group_rooms(port):
    GROUP[0] = "3 rooms"
    A = await newc(port, "host_a")
    B = await newc(port, "host_b")
    C = await newc(port, "carol")
    D = await newc(port, "dave")
    E = await newc(port, "erin")

    # --- CREATE_ROOM with seed
    mid = await A.send("CREATE_ROOM", {"roomName": "Seeded", "maxPlayers": 3, "seed": 42})
    rs = await A.reply(mid, ("ROOM_STATE",))
    ok = rs and rs["type"] == "ROOM_STATE"
    check("CREATE_ROOM -> ROOM_STATE", ok, short(rs))
    if not ok:
        return
    gs = await A.wait("GAME_STATE", 2)
    check("CREATE_ROOM -> GAME_STATE after ROOM_STATE", gs is not None, "no GAME_STATE")
    d = rs["data"]; rid = d["roomId"]
    check("room id looks like r<n>", re.fullmatch(r"r\d+", rid), rid)
    probs = room_state_problems(d)
    check("ROOM_STATE has documented fields/types, seat colours", not probs, f"{probs}; {short(d, 600)}")
    check("ROOM_STATE values: name, host, state WAITING, not started, 0 spectators, maxPlayers, tilesets ['base']",
          d.get("name") == "Seeded" and d.get("host") == "host_a" and d.get("state") == "WAITING"
          and d.get("gameStarted") is False and d.get("gameEnded") is False and d.get("spectators") == 0
          and d.get("maxPlayers") == 3 and d.get("tilesets") == ["base"], short(d, 600))
    check("ROOM_STATE turnSeconds null by default", "turnSeconds" in d and d["turnSeconds"] is None, short(d, 400))
    check("ROOM_STATE.seed announced (42) for a chosen seed", d.get("seed") == 42, f"seed={d.get('seed', '<absent>')}")
    p0 = (d.get("players") or [{}])[0]
    check("creator is seat 0, red, connected, not a bot, score 0",
          p0.get("id") == "host_a" and p0.get("color") == "red" and p0.get("connected") is True
          and p0.get("isBot") is False and p0.get("score") == 0, short(p0))
    check("seat's figures before the game: meeples 7 (base)", p0.get("meeples") == 7, short(p0))
    check("ROOM_STATE carries seq and messageId <roomId>-<seq>", not room_msg_problems(rs, rid),
          room_msg_problems(rs, rid))
    if gs:
        probs = empty_game_state_problems(gs["data"].get("gameState"))
        check("GAME_STATE before the game: empty board etc. (Data types/GameState)", not probs,
              f"{probs}; {short(gs['data'], 500)}")
        observe(f"GAME_STATE to creator: seq={gs.get('seq', '<absent>')} messageId={gs.get('messageId')}")

    # --- CREATE_ROOM without seed
    mid = await B.send("CREATE_ROOM", {"roomName": "Unseeded", "maxPlayers": 2})
    rsb = await B.reply(mid, ("ROOM_STATE",))
    check("CREATE_ROOM without seed -> ROOM_STATE without 'seed' key", rsb and rsb["type"] == "ROOM_STATE"
          and "seed" not in rsb["data"], short(rsb, 500))
    ridb = rsb["data"]["roomId"]
    await B.wait("GAME_STATE", 2)

    # --- LIST_ROOMS
    mid = await E.send("LIST_ROOMS")
    lr = await E.reply(mid, ("LIST_ROOMS",))
    ok = lr and lr["type"] == "LIST_ROOMS" and isinstance(lr["data"].get("rooms"), list)
    check("LIST_ROOMS -> LIST_ROOMS {rooms: [...]}", ok, short(lr))
    if ok:
        check("LIST_ROOMS carries no seq", "seq" not in lr, short(lr))
        rooms = {r.get("id"): r for r in lr["data"]["rooms"]}
        ra, rb = rooms.get(rid, {}), rooms.get(ridb, {})
        want = {"id": str, "name": str, "playerCount": int, "maxPlayers": int, "gameStarted": bool,
                "createdBy": str, "state": str, "tilesets": list}
        bad = [f"{k}" for k, t in want.items() if not typed(ra.get(k), t)]
        check("LIST_ROOMS entry has documented fields", not bad, f"missing/bad {bad}: {short(ra)}")
        check("LIST_ROOMS entry values (name, playerCount 1, maxPlayers 3, createdBy, WAITING, ['base'])",
              ra.get("name") == "Seeded" and ra.get("playerCount") == 1 and ra.get("maxPlayers") == 3
              and ra.get("createdBy") == "host_a" and ra.get("state") == "WAITING" and ra.get("gameStarted") is False
              and ra.get("tilesets") == ["base"], short(ra))
        check("LIST_ROOMS seed 42 on the seeded room", ra.get("seed") == 42, short(ra))
        check("LIST_ROOMS no 'seed' key on the unseeded room", rb and "seed" not in rb, short(rb))
        ids = [r.get("id") for r in lr["data"]["rooms"]]
        check("LIST_ROOMS sorted by id as strings", ids == sorted(ids), f"{ids}")

    # --- JOIN_ROOM
    ia = len(A.msgs)
    mid = await C.send("JOIN_ROOM", {"roomId": rid})
    rsc = await C.reply(mid, ("ROOM_STATE",))
    ok = rsc and rsc["type"] == "ROOM_STATE"
    check("JOIN_ROOM -> ROOM_STATE to joiner", ok, short(rsc))
    gsc = await C.wait("GAME_STATE", 2)
    check("JOIN_ROOM -> GAME_STATE to joiner (after ROOM_STATE)", gsc is not None, "none")
    if gsc:
        probs = empty_game_state_problems(gsc["data"].get("gameState"))
        check("joiner's GAME_STATE is the empty pre-game state", not probs, f"{probs}")
        observe(f"GAME_STATE to joiner: seq={gsc.get('seq', '<absent>')} messageId={gsc.get('messageId')}")
    rsa = await A.wait("ROOM_STATE", 2)
    check("JOIN_ROOM -> ROOM_STATE to the rest of the room", rsa is not None and
          [p["id"] for p in rsa["data"]["players"]] == ["host_a", "carol"], short(rsa))
    await asyncio.sleep(0.2)
    check("JOIN_ROOM: no GAME_STATE to the others", not [m for m in A.since(ia) if m["type"] == "GAME_STATE"],
          f"{[short(m, 100) for m in A.since(ia)]}")
    if ok:
        probs = room_state_problems(rsc["data"])
        check("ROOM_STATE after join: carol seat 1 green", not probs and rsc["data"]["players"][1]["id"] == "carol",
              f"{probs}")
        if rsa:
            check("same ROOM_STATE (same seq) to both", rsa.get("seq") == rsc.get("seq"), f"{rsa.get('seq')} vs {rsc.get('seq')}")
            check("seq counts the GAME_STATE sent to one person (create 1, GAME_STATE 2, join 3, joiner's GAME_STATE 4)",
                  (rs.get("seq"), gs and gs.get("seq"), rsc.get("seq"), gsc and gsc.get("seq")) == (1, 2, 3, 4),
                  f"{(rs.get('seq'), gs and gs.get('seq'), rsc.get('seq'), gsc and gsc.get('seq'))}")
            observe(f"seq: create ROOM_STATE {rs.get('seq')}, creator GAME_STATE {gs.get('seq') if gs else None}, "
                    f"join ROOM_STATE {rsc.get('seq')}, joiner GAME_STATE {gsc.get('seq') if gsc else None}")
    A.pos = len(A.msgs); C.pos = len(C.msgs)

    # --- errors in a waiting room
    mid = await C.send("ADD_BOT", {"difficulty": "easy"})
    err_ok("ADD_BOT by non-host -> NOT_HOST", await C.reply(mid, ("ROOM_STATE",)), "NOT_HOST", mid=mid)
    mid = await C.send("START_GAME")
    err_ok("START_GAME by non-host -> NOT_HOST", await C.reply(mid, ("GAME_START",)), "NOT_HOST", mid=mid)
    mid = await C.send("CREATE_ROOM", {"roomName": "x", "maxPlayers": 2})
    err_ok("CREATE_ROOM while in a room -> ALREADY_IN_ROOM", await C.reply(mid, ("ROOM_STATE",)), "ALREADY_IN_ROOM", mid=mid)
    mid = await C.send("JOIN_ROOM", {"roomId": ridb})
    err_ok("JOIN_ROOM while in a room -> ALREADY_IN_ROOM", await C.reply(mid, ("ROOM_STATE",)), "ALREADY_IN_ROOM", mid=mid)
    mid = await C.send("JOIN_ROOM", {"roomId": rid})
    err_ok("JOIN_ROOM own room again -> ALREADY_IN_ROOM", await C.reply(mid, ("ROOM_STATE",)), "ALREADY_IN_ROOM", mid=mid)
    mid = await C.send("LEAVE_ROOM", {"roomId": ridb})
    err_ok("LEAVE_ROOM for another room -> NOT_IN_ROOM", await C.reply(mid, ("ROOM_LEFT",)), "NOT_IN_ROOM", mid=mid)
    mid = await C.send("PLACE_TILE", {"position": {"x": 0, "y": 1}, "rotation": 0})
    err_ok("PLACE_TILE in a waiting room -> GAME_NOT_STARTED", await C.reply(mid, ("TILE_PLACED",)),
           "GAME_NOT_STARTED", mid=mid)
    mid = await C.send("SKIP_MEEPLE")
    err_ok("SKIP_MEEPLE in a waiting room -> GAME_NOT_STARTED", await C.reply(mid, ("TURN_END",)),
           "GAME_NOT_STARTED", mid=mid)
    mid = await D.send("JOIN_ROOM", {"roomId": "r9999"})
    err_ok("JOIN_ROOM unknown -> ROOM_NOT_FOUND", await D.reply(mid, ("ROOM_STATE",)), "ROOM_NOT_FOUND", mid=mid)
    mid = await D.send("JOIN_ROOM", {})
    err_ok("JOIN_ROOM without roomId -> INVALID_DATA field roomId", await D.reply(mid, ("ROOM_STATE",)),
           "INVALID_DATA", field="roomId", mid=mid)
    mid = await D.send("JOIN_ROOM", {"roomId": rid, "spectate": "yes"})
    err_ok("JOIN_ROOM spectate='yes' -> INVALID_DATA field spectate", await D.reply(mid, ("ROOM_STATE",)),
           "INVALID_DATA", field="spectate", mid=mid)
    mid = await D.send("LEAVE_ROOM", {"roomId": rid})
    err_ok("LEAVE_ROOM from no room -> NOT_IN_ROOM", await D.reply(mid, ("ROOM_LEFT",)), "NOT_IN_ROOM", mid=mid)
    mid = await D.send("ADD_BOT", {"difficulty": "easy"})
    err_ok("ADD_BOT from no room -> NOT_IN_ROOM", await D.reply(mid, ("ROOM_STATE",)), "NOT_IN_ROOM", mid=mid)
    mid = await D.send("START_GAME")
    err_ok("START_GAME from no room -> NOT_IN_ROOM", await D.reply(mid, ("GAME_START",)), "NOT_IN_ROOM", mid=mid)
    mid = await D.send("PLACE_TILE", {"position": {"x": 0, "y": 1}, "rotation": 0})
    err_ok("PLACE_TILE from no room -> NOT_IN_ROOM", await D.reply(mid, ("TILE_PLACED",)), "NOT_IN_ROOM", mid=mid)
    mid = await B.send("START_GAME")
    err_ok("START_GAME alone -> NOT_ENOUGH_PLAYERS", await B.reply(mid, ("GAME_START",)), "NOT_ENOUGH_PLAYERS", mid=mid)
    for name, dd, field in (("missing difficulty", {}, "difficulty"), ("difficulty 'insane'", {"difficulty": "insane"}, "difficulty"),
                            ("65-byte botName", {"difficulty": "easy", "botName": "b" * 65}, "botName")):
        mid = await A.send("ADD_BOT", dd)
        err_ok(f"ADD_BOT {name} -> INVALID_DATA field {field}", await A.reply(mid, ("ROOM_STATE",)), "INVALID_DATA",
               field=field, mid=mid)

    # --- ADD_BOT by host
    mid = await A.send("ADD_BOT", {"difficulty": "easy", "botName": "Robo"})
    r = await A.reply(mid, ("ROOM_STATE",))
    ok = r and r["type"] == "ROOM_STATE" and len(r["data"]["players"]) == 3
    check("ADD_BOT by host -> ROOM_STATE with the bot", ok, short(r, 500))
    if ok:
        bot = r["data"]["players"][2]
        check("bot id bot:<roomId>:1, isBot, connected, seat 2 blue, name Robo",
              bot.get("id") == f"bot:{rid}:1" and bot.get("isBot") is True and bot.get("connected") is True
              and bot.get("seat") == 2 and bot.get("color") == "blue" and bot.get("name") == "Robo", short(bot))
        check("ROOM_STATE after ADD_BOT has documented fields", not room_state_problems(r["data"]),
              room_state_problems(r["data"]))
    mid = await A.send("ADD_BOT", {"difficulty": "hard"})
    err_ok("ADD_BOT in a full room -> ROOM_FULL", await A.reply(mid, ("ROOM_STATE",)), "ROOM_FULL", mid=mid)
    mid = await D.send("JOIN_ROOM", {"roomId": rid})
    err_ok("JOIN_ROOM a full room -> ROOM_FULL", await D.reply(mid, ("ROOM_STATE",)), "ROOM_FULL", mid=mid)

    # --- spectate (room full)
    A.pos = len(A.msgs)
    mid = await D.send("JOIN_ROOM", {"roomId": rid, "spectate": True})
    r = await D.reply(mid, ("ROOM_STATE",))
    ok = r and r["type"] == "ROOM_STATE"
    check("JOIN_ROOM spectate in a full room -> ROOM_STATE", ok, short(r))
    if ok:
        check("spectator ROOM_STATE: spectators 1, players unchanged",
              r["data"].get("spectators") == 1 and len(r["data"]["players"]) == 3, short(r["data"], 300))
        g = await D.wait("GAME_STATE", 2)
        check("spectator gets GAME_STATE", g is not None, "none")
        ra = await A.wait("ROOM_STATE", 2)
        check("room told about the spectator (ROOM_STATE spectators 1)", ra and ra["data"].get("spectators") == 1,
              short(ra))
    mid = await D.send("ADD_BOT", {"difficulty": "easy"})
    err_ok("spectator ADD_BOT -> NOT_HOST", await D.reply(mid, ("ROOM_STATE",)), "NOT_HOST", mid=mid)
    mid = await D.send("LEAVE_ROOM", {"roomId": rid})
    r = await D.reply(mid, ("ROOM_LEFT",))
    check("spectator LEAVE_ROOM -> ROOM_LEFT {roomId}", r and r["type"] == "ROOM_LEFT" and r["data"] == {"roomId": rid}
          and "seq" not in r, short(r))
    ra = await A.wait("ROOM_STATE", 2)
    check("room told the spectator left (spectators 0)", ra and ra["data"].get("spectators") == 0, short(ra))

    # --- LEAVE_ROOM by a player: seats move up and change colour
    A.pos = len(A.msgs)
    mid = await C.send("LEAVE_ROOM", {"roomId": rid})
    r = await C.reply(mid, ("ROOM_LEFT",))
    check("player LEAVE_ROOM -> ROOM_LEFT {roomId}, no seq", r and r["type"] == "ROOM_LEFT"
          and r["data"].get("roomId") == rid and "seq" not in r, short(r))
    ra = await A.wait("ROOM_STATE", 2)
    ok = ra and [p["id"] for p in ra["data"]["players"]] == ["host_a", f"bot:{rid}:1"]
    check("others get ROOM_STATE without the leaver", ok, short(ra, 500))
    if ok:
        b = ra["data"]["players"][1]
        check("bot moved up to seat 1 and became green", b.get("seat") == 1 and b.get("color") == "green", short(b))
    await asyncio.sleep(0.2)
    extra = [m["type"] for m in C.since(C.pos)]
    check("leaver gets no ROOM_STATE after ROOM_LEFT", "ROOM_STATE" not in extra, f"{extra}")
    # leaving it again
    mid = await C.send("LEAVE_ROOM", {"roomId": rid})
    err_ok("LEAVE_ROOM again -> NOT_IN_ROOM", await C.reply(mid, ("ROOM_LEFT",)), "NOT_IN_ROOM", mid=mid)

    # --- invalid room settings (from E, in no room)
    cases = [
        ("maxPlayers 6 with base", {"maxPlayers": 6}, "INVALID_ROOM_SETTINGS", None),
        ("maxPlayers 1", {"maxPlayers": 1}, "INVALID_ROOM_SETTINGS", None),
        ("maxPlayers 0", {"maxPlayers": 0}, "INVALID_DATA", "maxPlayers"),
        ("maxPlayers 7", {"maxPlayers": 7}, "INVALID_DATA", "maxPlayers"),
        ("maxPlayers '3'", {"maxPlayers": "3"}, "INVALID_DATA", "maxPlayers"),
        ("maxPlayers missing", {"maxPlayers": None}, "INVALID_DATA", "maxPlayers"),
        ("roomName missing", {"roomName": None}, "INVALID_DATA", "roomName"),
        ("roomName blank", {"roomName": "  "}, "INVALID_DATA", "roomName"),
        ("tilesets base+base_c2", {"tilesets": ["base", "base_c2"]}, "INVALID_ROOM_SETTINGS", None),
        ("tilesets river alone", {"tilesets": ["river"]}, "INVALID_ROOM_SETTINGS", None),
        ("tilesets unknown", {"tilesets": ["nope"]}, "INVALID_ROOM_SETTINGS", None),
        ("tilesets []", {"tilesets": []}, "INVALID_DATA", "tilesets"),
        ("tilesets 9 names", {"tilesets": ["base"] * 9}, "INVALID_DATA", "tilesets"),
        ("rules unknown key", {"rules": {"bogus": True}}, "INVALID_ROOM_SETTINGS", "rules"),
        ("rules bad value", {"rules": {"farmers": "maybe"}}, "INVALID_ROOM_SETTINGS", "rules"),
        ("turnSeconds 0", {"turnSeconds": 0}, "INVALID_DATA", "turnSeconds"),
        ("turnSeconds 86401", {"turnSeconds": 86401}, "INVALID_DATA", "turnSeconds"),
        ("seed -1", {"seed": -1}, "INVALID_DATA", "seed"),
        ("seed 1.5", {"seed": 1.5}, "INVALID_DATA", "seed"),
    ]
    for name, over, code, field in cases:
        dd = {"roomName": "Bad", "maxPlayers": 2}
        for k, v in over.items():
            if v is None:
                dd.pop(k, None)
            else:
                dd[k] = v
        mid = await E.send("CREATE_ROOM", dd)
        r = await E.reply(mid, ("ROOM_STATE",))
        err_ok(f"CREATE_ROOM {name} -> {code}" + (f" field {field}" if field else ""), r, code, field=field, mid=mid)
        if r and r["type"] == "ROOM_STATE":   # created by mistake: leave it
            await E.wait("GAME_STATE", 1)
            await E.send("LEAVE_ROOM", {"roomId": r["data"]["roomId"]}); await E.wait("ROOM_LEFT", 2)
    # a valid 6-player room with Inns & Cathedrals, rules and turnSeconds
    mid = await E.send("CREATE_ROOM", {"roomName": "Big", "maxPlayers": 6, "tilesets": ["base", "inns_and_cathedrals"],
                                       "rules": {"farmers": False}, "turnSeconds": 86400})
    r = await E.reply(mid, ("ROOM_STATE",))
    ok = r and r["type"] == "ROOM_STATE"
    check("CREATE_ROOM 6 players base+I&C, rules, turnSeconds -> ROOM_STATE", ok, short(r))
    if ok:
        d = r["data"]
        check("ROOM_STATE reflects tilesets/rules.farmers/turnSeconds",
              d.get("tilesets") == ["base", "inns_and_cathedrals"] and d.get("rules", {}).get("farmers") is False
              and d.get("turnSeconds") == 86400 and d.get("maxPlayers") == 6, short(d, 500))
        observe(f"rules in ROOM_STATE: {d.get('rules')}")
        check("I&C seat figures: bigFollowers 1", d["players"][0].get("bigFollowers") == 1, short(d["players"][0]))
        await E.wait("GAME_STATE", 2)
        ridE = d["roomId"]
        mid = await E.send("LEAVE_ROOM", {"roomId": ridE})
        r = await E.reply(mid, ("ROOM_LEFT",))
        check("last person leaves -> ROOM_LEFT", r and r["type"] == "ROOM_LEFT", short(r))
        mid = await D.send("JOIN_ROOM", {"roomId": ridE})
        err_ok("room with no person left is deleted (JOIN -> ROOM_NOT_FOUND)", await D.reply(mid, ("ROOM_STATE",)),
               "ROOM_NOT_FOUND", mid=mid)

    # --- host hand-over in B's room
    mid = await C.send("JOIN_ROOM", {"roomId": ridb})
    await C.reply(mid, ("ROOM_STATE",)); await C.wait("GAME_STATE", 2)
    C.pos = len(C.msgs)
    mid = await B.send("LEAVE_ROOM", {"roomId": ridb})
    await B.reply(mid, ("ROOM_LEFT",))
    r = await C.wait("ROOM_STATE", 2)
    check("host leaves -> next person becomes host", r and r["data"].get("host") == "carol"
          and r["data"]["players"][0]["id"] == "carol" and r["data"]["players"][0]["color"] == "red", short(r, 400))
    mid = await C.send("LEAVE_ROOM", {"roomId": ridb})
    await C.reply(mid, ("ROOM_LEFT",))

    # A's room: A + bot; start with the bot, check GAME_ALREADY_STARTED cases later in group 4
    mid = await A.send("LEAVE_ROOM", {"roomId": rid})
    r = await A.reply(mid, ("ROOM_LEFT",))
    check("host alone with a bot leaves -> ROOM_LEFT (room deleted: bots are not people)", r and r["type"] == "ROOM_LEFT", short(r))
    mid = await D.send("LIST_ROOMS")
    lr = await D.reply(mid, ("LIST_ROOMS",))
    check("LIST_ROOMS empty after every room was left", lr and lr["data"].get("rooms") == [], short(lr))
    for c in (A, B, C, D, E):
        await c.close()


# ---------------------------------------------------------------- group 4: a game to the end (+ group 5 hooks)
EVENT_NAMES = {"tile_drawn", "tile_discarded", "tile_placed", "figure_placed", "abbot_recalled", "feature_scored",
               "figure_returned", "turn_started", "game_over"}
TILE_FIELDS = {"id", "north", "east", "south", "west", "features", "hasMonastery", "hasShield", "name"}


def game_state_problems(g, started=True):
    probs = []
    if not isinstance(g, dict):
        return ["not an object"]
    for k, t in (("tiles", dict), ("players", list), ("gameStarted", bool), ("gameEnded", bool), ("scores", dict),
                 ("remaining", dict), ("phase", str)):
        if not typed(g.get(k), t):
            probs.append(f"{k} missing/not {t.__name__}")
    for k in ("currentTile", "currentPlayer", "tilesLeft", "lastPlaced"):
        if k not in g:
            probs.append(f"{k} absent")
    if g.get("phase") not in ("draw", "place", "figure", "game_over"):
        probs.append(f"phase {g.get('phase')}")
    for key, t in (g.get("tiles") or {}).items():
        if not re.fullmatch(r"-?\d+,-?\d+", key):
            probs.append(f"tiles key {key}"); break
        if not ({"tile", "position", "rotation", "meeples"} <= set(t)):
            probs.append(f"tiles[{key}] fields {sorted(t)}"); break
        if f"{t['position'].get('x')},{t['position'].get('y')}" != key:
            probs.append(f"tiles[{key}].position {t['position']}"); break
        if not TILE_FIELDS <= set(t["tile"]):
            probs.append(f"tiles[{key}].tile missing {TILE_FIELDS - set(t['tile'])}"); break
        for mp in t["meeples"]:
            if set(mp) < {"playerId", "featureId", "figure"}:
                probs.append(f"tiles[{key}].meeples entry {mp}"); break
    for p in g.get("players") or []:
        pp = player_problems(p)
        if pp:
            probs.append(f"player {p.get('id')}: {pp}")
    return probs


def tile_problems(t):
    if not isinstance(t, dict):
        return ["not an object"]
    probs = [f"missing {sorted(TILE_FIELDS - set(t))}"] if not TILE_FIELDS <= set(t) else []
    for f in t.get("features", []):
        if not {"id", "type", "edges"} <= set(f):
            probs.append(f"feature {f}")
    return probs


class Game:
    pass


async def group_game(port, reconnect_hook=None):
    GROUP[0] = "4 game"
    G = Game()
    P1 = await newc(port, "p1", "Player One")
    P2 = await newc(port, "p2", "Player Two")
    S = await newc(port, "spec", "Spectator")
    J = await newc(port, "late", "Latecomer")
    G.port, G.P1, G.P2, G.S = port, P1, P2, S
    mid = await P1.send("CREATE_ROOM", {"roomName": "Game", "maxPlayers": 2, "seed": 7})
    r = await P1.reply(mid, ("ROOM_STATE",)); rid = r["data"]["roomId"]; G.rid = rid
    await P1.wait("GAME_STATE", 2)
    mid = await P2.send("JOIN_ROOM", {"roomId": rid}); await P2.reply(mid, ("ROOM_STATE",)); await P2.wait("GAME_STATE")
    mid = await S.send("JOIN_ROOM", {"roomId": rid, "spectate": True}); await S.reply(mid, ("ROOM_STATE",))
    await S.wait("GAME_STATE")
    await asyncio.sleep(0.3)
    starts = {c: len(c.msgs) for c in (P1, P2, S)}
    mid = await P1.send("START_GAME")
    for c in (P1, P2, S):
        await c.wait("TURN_START", 3)
    # --- start sequence
    for c, who in ((P1, "p1"), (P2, "p2"), (S, "spectator")):
        got = [m for m in c.since(starts[c]) if m["type"] not in ("ROOM_STATE",) or m["data"].get("state") == "IN_PROGRESS"]
        types = [m["type"] for m in got]
        want = ["ROOM_STATE", "GAME_START", "GAME_STATE"] + (["PLAYER_UPDATE"] if who != "spectator" else []) + ["TURN_START"]
        check(f"start order for {who}: {'/'.join(want)}", types[:len(want)] == want, f"{types}")
    got = {m["type"]: m for m in P1.since(starts[P1])}
    rs, gst, gsm, pu, ts = (got.get(k) for k in ("ROOM_STATE", "GAME_START", "GAME_STATE", "PLAYER_UPDATE", "TURN_START"))
    if rs:
        check("start ROOM_STATE: state IN_PROGRESS, gameStarted true", rs["data"].get("state") == "IN_PROGRESS"
              and rs["data"].get("gameStarted") is True and rs["data"].get("gameEnded") is False, short(rs["data"], 300))
    if gst:
        d = gst["data"]
        check("GAME_START {roomId, players in turn order}", d.get("roomId") == rid and
              [p.get("id") for p in d.get("players", [])] == ["p1", "p2"] and
              all(not player_problems(p) for p in d["players"]), short(d, 400))
    if gsm:
        g = gsm["data"].get("gameState", {})
        probs = game_state_problems(g)
        check("start GAME_STATE: GameState fields", not probs, f"{probs}")
        check("start GAME_STATE: start tile at 0,0 only, rotation given", list(g.get("tiles", {})) == ["0,0"], f"{list(g.get('tiles', {}))}")
        check("start GAME_STATE: first tile drawn (currentTile set), currentPlayer p1, phase place",
              isinstance(g.get("currentTile"), dict) and g.get("currentPlayer") == "p1" and g.get("phase") == "place",
              f"currentTile={short(g.get('currentTile'), 60)} currentPlayer={g.get('currentPlayer')} phase={g.get('phase')}")
        check("start GAME_STATE: gameStarted, not ended, scores {p1:0,p2:0}, lastPlaced null",
              g.get("gameStarted") is True and g.get("gameEnded") is False and g.get("scores") == {"p1": 0, "p2": 0}
              and g.get("lastPlaced", "absent") is None, f"{ {k: g.get(k, '<absent>') for k in ('gameStarted', 'gameEnded', 'scores', 'lastPlaced')} }")
        tl = g.get("tilesLeft")
        check("start GAME_STATE: tilesLeft = sum(remaining)", typed(tl, int) and tl == sum((g.get("remaining") or {}).values()),
              f"tilesLeft={tl} sum(remaining)={sum((g.get('remaining') or {}).values())}")
    if pu:
        check("PLAYER_UPDATE {player: own Player}", pu["data"].get("player", {}).get("id") == "p1"
              and not player_problems(pu["data"]["player"]), short(pu))
    pu2 = next((m for m in P2.since(starts[P2]) if m["type"] == "PLAYER_UPDATE"), None)
    check("p2's PLAYER_UPDATE is its own", pu2 and pu2["data"]["player"]["id"] == "p2", short(pu2))
    if ts and gsm:
        g = gsm["data"]["gameState"]
        check("first TURN_START.currentTile == GAME_STATE.currentTile", ts["data"].get("currentTile") == g.get("currentTile"),
              f"{short(ts['data'].get('currentTile'), 80)} vs {short(g.get('currentTile'), 80)}")
        observe(f"first TURN_START.tilesLeft={ts['data'].get('tilesLeft')} vs start GAME_STATE.tilesLeft={g.get('tilesLeft')}")

    # --- errors once the game has started
    mid = await J.send("JOIN_ROOM", {"roomId": rid})
    err_ok("JOIN_ROOM to play after start -> GAME_ALREADY_STARTED", await J.reply(mid, ("ROOM_STATE",)), "GAME_ALREADY_STARTED", mid=mid)
    mid = await P1.send("ADD_BOT", {"difficulty": "easy"})
    err_ok("ADD_BOT after start -> GAME_ALREADY_STARTED", await P1.reply(mid, ("ROOM_STATE",)), "GAME_ALREADY_STARTED", mid=mid)
    mid = await P1.send("START_GAME")
    err_ok("START_GAME twice -> GAME_ALREADY_STARTED", await P1.reply(mid, ("GAME_START",)), "GAME_ALREADY_STARTED", mid=mid)
    mid = await P2.send("LEAVE_ROOM", {"roomId": rid})
    err_ok("player LEAVE_ROOM during game -> GAME_ALREADY_STARTED", await P2.reply(mid, ("ROOM_LEFT",)), "GAME_ALREADY_STARTED", mid=mid)
    mid = await J.send("LIST_ROOMS")
    lr = await J.reply(mid, ("LIST_ROOMS",))
    e = next((x for x in lr["data"]["rooms"] if x["id"] == rid), {}) if lr else {}
    check("LIST_ROOMS shows the room IN_PROGRESS, gameStarted, playerCount 2", e.get("state") == "IN_PROGRESS"
          and e.get("gameStarted") is True and e.get("playerCount") == 2, short(e))
    # late spectator gets GAME_STATE and the turn in progress
    iJ = len(J.msgs)
    mid = await J.send("JOIN_ROOM", {"roomId": rid, "spectate": True})
    await J.reply(mid, ("ROOM_STATE",)); await J.wait("TURN_START", 2)
    types = [m["type"] for m in J.since(iJ)]
    check("spectating a game in progress: ROOM_STATE, GAME_STATE, TURN_START", types[:3] == ["ROOM_STATE", "GAME_STATE", "TURN_START"], f"{types}")
    observe(f"late spectator's join messages (type, seq): {[(m['type'], m.get('seq')) for m in J.since(iJ)][:3]}")
    mid = await J.send("PLACE_TILE", ts["data"]["validPlacements"][0] if ts else {"position": {"x": 0, "y": 1}, "rotation": 0})
    err_ok("spectator PLACE_TILE -> NOT_A_PLAYER", await J.reply(mid, ("TILE_PLACED",)), "NOT_A_PLAYER", mid=mid)
    mid = await J.send("SKIP_MEEPLE")
    err_ok("spectator SKIP_MEEPLE -> NOT_A_PLAYER", await J.reply(mid, ("TURN_END",)), "NOT_A_PLAYER", mid=mid)
    mid = await J.send("LEAVE_ROOM", {"roomId": rid})
    r = await J.reply(mid, ("ROOM_LEFT",))
    check("spectator may leave during the game -> ROOM_LEFT", r and r["type"] == "ROOM_LEFT", short(r))
    await J.close()

    # --- the turns (rewind the cursors to just after START_GAME)
    for c in (P1, P2, S):
        c.pos = starts[c]
    clients = {"p1": P1, "p2": P2}
    G.clients = clients
    G.absent = set()
    scores = {"p1": 0, "p2": 0}
    turn = 0
    done = set()
    game_end = None
    all_scoreChange_ok = True
    prev_gs = gsm["data"]["gameState"] if gsm else None
    G.turn_log = []
    while True:
        m = await S.wait(lambda m: m["type"] in ("TURN_START", "GAME_END"), 10)
        if m is None:
            check("game proceeds (TURN_START or GAME_END within 10 s)", False, f"last spectator msgs {[short(x, 150) for x in S.msgs[-3:]]}")
            break
        if m["type"] == "GAME_END":
            game_end = m
            break
        turn += 1
        d = m["data"]
        cp = d.get("currentPlayer")
        if reconnect_hook:
            await reconnect_hook(G, "turn_start", turn, cp, m)
        if "ts_fields" not in done:
            done.add("ts_fields")
            check("TURN_START fields: currentPlayer, currentTile (Tile), validPlacements, tilesLeft, turnSeconds null",
                  isinstance(cp, str) and not tile_problems(d.get("currentTile")) and isinstance(d.get("validPlacements"), list)
                  and typed(d.get("tilesLeft"), int) and "turnSeconds" in d and d["turnSeconds"] is None, short(d, 400))
            vp0 = (d.get("validPlacements") or [{}])[0]
            check("validPlacements entries {position {x,y}, rotation}", set(vp0) == {"position", "rotation"}
                  and set(vp0.get("position", {})) == {"x", "y"} and vp0.get("rotation") in (0, 90, 180, 270), short(vp0))
        if not d.get("validPlacements"):
            check(f"turn {turn}: TURN_START has valid placements", False, short(d)); break
        if cp in G.absent:
            # the player is disconnected: the server plays for them after the absence grace
            to = await S.wait(lambda x: x["type"] == "TURN_TIMEOUT", 4)
            ok = to and to["data"].get("playerId") == cp and to["data"].get("reason") == "absent"
            check("absent player: TURN_TIMEOUT {playerId, reason 'absent'}", ok, short(to))
            if to:
                check("absent TURN_TIMEOUT carries position and rotation (server placed the tile)",
                      isinstance(to["data"].get("position"), dict) and to["data"].get("rotation") in (0, 90, 180, 270), short(to))
                if to["data"].get("position") is not None:
                    check("server's placement is one of validPlacements",
                          {"position": to["data"]["position"], "rotation": to["data"].get("rotation")} in d["validPlacements"], short(to))
            tp = await S.wait("TILE_PLACED", 3)
            te = await S.wait("TURN_END", 3)
            check("absent turn: TILE_PLACED then TURN_END follow", tp is not None and te is not None, "")
            if te:
                for k, v in te["data"].get("scoreChanges", {}).items():
                    scores[k] = scores.get(k, 0) + v
                prev_gs = te["data"].get("gameState")
            continue
        me = clients[cp]
        other = clients["p2" if cp == "p1" else "p1"]
        myts = await me.wait(lambda x: x["type"] == "TURN_START" and x.get("seq") == m.get("seq"), 3)
        check_once = lambda key: key not in done and not done.add(key)
        if myts is None:
            check(f"turn {turn}: current player got TURN_START", False, "")
            break
        vps = d["validPlacements"]
        # errors before the tile
        if other.closed is None and check_once("nyt"):
            mid = await other.send("PLACE_TILE", vps[0])
            err_ok("PLACE_TILE by the other player -> NOT_YOUR_TURN", await other.reply(mid, ("TILE_PLACED",)), "NOT_YOUR_TURN", mid=mid)
            mid = await other.send("SKIP_MEEPLE")
            err_ok("SKIP_MEEPLE by the other player -> NOT_YOUR_TURN", await other.reply(mid, ("TURN_END",)), "NOT_YOUR_TURN", mid=mid)
            mid = await S.send("PLACE_TILE", vps[0])
            err_ok("PLACE_TILE by the spectator -> NOT_A_PLAYER", await S.reply(mid, ("TILE_PLACED",)), "NOT_A_PLAYER", mid=mid)
        if check_once("wrong_phase_figure"):
            mid = await me.send("PLACE_MEEPLE", {"featureId": 0})
            err_ok("PLACE_MEEPLE before the tile -> WRONG_PHASE", await me.reply(mid, ("TURN_END",)), "WRONG_PHASE", mid=mid)
            mid = await me.send("SKIP_MEEPLE")
            err_ok("SKIP_MEEPLE before the tile -> WRONG_PHASE", await me.reply(mid, ("TURN_END",)), "WRONG_PHASE", mid=mid)
        if check_once("invalid_placement"):
            for name, pl, reason in (("occupied (0,0)", {"position": {"x": 0, "y": 0}, "rotation": 0}, "occupied"),
                                     ("no neighbour (50,50)", {"position": {"x": 50, "y": 50}, "rotation": 0}, "no_neighbour"),
                                     ("beyond 1023 cells (2000,0)", {"position": {"x": 2000, "y": 0}, "rotation": 0}, "out_of_bounds")):
                mid = await me.send("PLACE_TILE", pl)
                r = await me.reply(mid, ("TILE_PLACED",))
                err_ok(f"PLACE_TILE {name} -> INVALID_PLACEMENT reason {reason}", r, "INVALID_PLACEMENT", reason=reason, mid=mid)
                if r and r["type"] == "ERROR":
                    dt = r["data"].get("details", {})
                    check(f"INVALID_PLACEMENT details {{position, rotation, reason}} ({name})",
                          dt.get("position") == pl["position"] and dt.get("rotation") == pl["rotation"], short(dt))
            for name, pl, field in (("x 40000", {"position": {"x": 40000, "y": 0}, "rotation": 0}, "position"),
                                    ("rotation 45", {"position": vps[0]["position"], "rotation": 45}, "rotation"),
                                    ("no position", {"rotation": 0}, "position")):
                mid = await me.send("PLACE_TILE", pl)
                err_ok(f"PLACE_TILE {name} -> INVALID_DATA field {field}", await me.reply(mid, ("TILE_PLACED",)), "INVALID_DATA", field=field, mid=mid)
        if "edge_mismatch" not in done:
            # a cell that is legal for some rotation but not for another -> edge_mismatch
            cells = {}
            for v in vps:
                cells.setdefault((v["position"]["x"], v["position"]["y"]), set()).add(v["rotation"])
            cand = [(c, rots) for c, rots in cells.items() if len(rots) < 4]
            if cand:
                done.add("edge_mismatch")
                (x, y), rots = cand[0]
                rot = next(rr for rr in (0, 90, 180, 270) if rr not in rots)
                mid = await me.send("PLACE_TILE", {"position": {"x": x, "y": y}, "rotation": rot})
                err_ok("PLACE_TILE with a rotation not in validPlacements -> INVALID_PLACEMENT edge_mismatch",
                       await me.reply(mid, ("TILE_PLACED",)), "INVALID_PLACEMENT", reason="edge_mismatch", mid=mid)
        if reconnect_hook:
            await reconnect_hook(G, "before_place", turn, cp, m)
            me = clients[cp]
        # place
        pl = vps[turn % len(vps)]
        mid = await me.send("PLACE_TILE", pl)
        tp = await me.reply(mid, ("TILE_PLACED",))
        if not tp or tp["type"] != "TILE_PLACED":
            check(f"turn {turn}: PLACE_TILE valid placement -> TILE_PLACED", False, short(tp)); break
        td = tp["data"]
        if check_once("tp_fields"):
            check("TILE_PLACED fields {playerId, position, rotation, tile, meepleOptions, abbotRecalls}",
                  td.get("playerId") == cp and td.get("position") == pl["position"] and td.get("rotation") == pl["rotation"]
                  and not tile_problems(td.get("tile")) and isinstance(td.get("meepleOptions"), list)
                  and isinstance(td.get("abbotRecalls"), list), short(td, 500))
            check("TILE_PLACED.tile == TURN_START.currentTile", td.get("tile") == d.get("currentTile"), "")
        opts = td.get("meepleOptions") or []
        if opts and check_once("opt_shape"):
            check("meepleOptions entries {featureId int, figure}", all(typed(o.get("featureId"), int) and o.get("figure") in
                  ("follower", "big_follower", "abbot") for o in opts), short(opts))
        if reconnect_hook:
            await reconnect_hook(G, "tile_placed", turn, cp, m)
            me = clients[cp]
        if check_once("wrong_phase_tile"):
            mid = await me.send("PLACE_TILE", pl)
            r = await me.reply(mid, ("TILE_PLACED",))
            if opts:
                err_ok("PLACE_TILE twice -> WRONG_PHASE", r, "WRONG_PHASE", mid=mid)
            else:
                done.discard("wrong_phase_tile")
        te = None
        if not opts and not td.get("abbotRecalls"):
            te = await me.wait("TURN_END", 3)
            if check_once("auto_end"):
                check("nothing to choose: TURN_END follows TILE_PLACED at once", te is not None, "")
        else:
            follower_opts = [o for o in opts if o["figure"] == "follower"]
            if check_once("invalid_meeple"):
                ids = {o["featureId"] for o in opts}
                mid = await me.send("PLACE_MEEPLE", {"featureId": 31})
                err_ok("PLACE_MEEPLE featureId 31 -> INVALID_MEEPLE no_such_segment", await me.reply(mid, ("TURN_END",)),
                       "INVALID_MEEPLE", reason="no_such_segment", mid=mid)
                mid = await me.send("PLACE_MEEPLE", {"featureId": 32})
                err_ok("PLACE_MEEPLE featureId 32 -> INVALID_DATA field featureId", await me.reply(mid, ("TURN_END",)),
                       "INVALID_DATA", field="featureId", mid=mid)
                mid = await me.send("PLACE_MEEPLE", {"featureId": "x"})
                err_ok("PLACE_MEEPLE featureId 'x' -> INVALID_DATA field featureId", await me.reply(mid, ("TURN_END",)),
                       "INVALID_DATA", field="featureId", mid=mid)
                mid = await me.send("PLACE_MEEPLE", {"featureId": opts[0]["featureId"], "figure": "Giant!"})
                err_ok("PLACE_MEEPLE figure 'Giant!' (no figure id) -> INVALID_DATA field figure", await me.reply(mid, ("TURN_END",)),
                       "INVALID_DATA", field="figure", mid=mid)
                # A figure id the room's sets do not declare is the game's to refuse: none in hand.
                mid = await me.send("PLACE_MEEPLE", {"featureId": opts[0]["featureId"], "figure": "giant"})
                err_ok("PLACE_MEEPLE figure 'giant' (no set declares it) -> NO_MEEPLES", await me.reply(mid, ("TURN_END",)),
                       "NO_MEEPLES", mid=mid)
                mid = await me.send("PLACE_MEEPLE", {"featureId": opts[0]["featureId"], "figure": "big_follower"})
                r = await me.reply(mid, ("TURN_END",))
                observe(f"PLACE_MEEPLE big_follower in a base game (0 in hand): {short(r and r['data'], 200)}")
                check("PLACE_MEEPLE big_follower with none in hand -> NO_MEEPLES", r and r["data"].get("code") == "NO_MEEPLES", short(r and r["data"], 200))
                mid = await me.send("RECALL_ABBOT", {"position": {"x": 0, "y": 0}})
                r = await me.reply(mid, ("TURN_END",))
                err_ok("RECALL_ABBOT with no abbot there -> INVALID_MEEPLE no_abbot_there", r, "INVALID_MEEPLE",
                       reason="no_abbot_there", mid=mid)
            if turn == 3 and check_once("grace"):
                # behave as a 1.0 client: never send a figure choice
                to = await me.wait("TURN_TIMEOUT", 3)
                check("no figure choice: TURN_TIMEOUT {playerId, reason 'figure grace'} after the grace",
                      to and to["data"].get("playerId") == cp and to["data"].get("reason") == "figure grace", short(to))
                te = await me.wait("TURN_END", 3)
                check("figure grace: TURN_END follows", te is not None, "")
                if to:
                    observe(f"figure-grace TURN_TIMEOUT data: {to['data']} (after {to['_t'] - tp['_t']:.2f}s)")
            elif follower_opts and turn % 4 in (0, 1):
                fid = follower_opts[0]["featureId"]
                sent = str(fid) if "strfid" not in done else fid
                done.add("strfid")
                mid = await me.send("PLACE_MEEPLE", {"featureId": sent} if turn % 4 else {"featureId": sent, "figure": "follower"})
                te = await me.reply(mid, ("TURN_END",))
                if isinstance(sent, str):
                    check("PLACE_MEEPLE featureId as a string holding an integer accepted", te and te["type"] == "TURN_END", short(te))
                if te and te["type"] == "TURN_END" and check_once("fig_event"):
                    ev = [e for e in te["data"].get("events", []) if e.get("event") == "figure_placed"]
                    check("TURN_END.events has figure_placed {player, figure, pos, segment}", ev and
                          {"player", "figure", "pos", "segment"} <= set(ev[0]) and ev[0]["segment"] == fid, short(ev))
            else:
                mid = await me.send("SKIP_MEEPLE")
                te = await me.reply(mid, ("TURN_END",))
        if not te or te["type"] != "TURN_END":
            check(f"turn {turn}: TURN_END", False, short(te)); break
        t = te["data"]
        G.turn_log.append((turn, cp, t, td.get("tile", {}).get("id")))
        # TURN_END checks
        probs = []
        if t.get("playerId") != cp: probs.append("playerId")
        if not typed(t.get("scoreChange"), int): probs.append("scoreChange")
        if not isinstance(t.get("scoreChanges"), dict): probs.append("scoreChanges")
        if "nextPlayer" not in t: probs.append("nextPlayer absent")
        if not isinstance(t.get("events"), list): probs.append("events")
        gp = game_state_problems(t.get("gameState"))
        if gp: probs.append(f"gameState: {gp}")
        if probs or check_once("te_fields"):
            check(f"TURN_END fields (turn {turn})", not probs, f"{probs}: {short(t, 400)}")
        sc = t.get("scoreChanges") or {}
        if t.get("scoreChange") != sc.get(cp, 0):
            all_scoreChange_ok = False
            check(f"TURN_END.scoreChange == scoreChanges[player] (turn {turn})", False, f"{t.get('scoreChange')} vs {sc}")
        for k, v in sc.items():
            scores[k] = scores.get(k, 0) + v
        gsn = t.get("gameState") or {}
        if gsn.get("scores") != scores and check_once("score_sum"):
            check("gameState.scores == running sum of scoreChanges", False, f"turn {turn}: {gsn.get('scores')} vs {scores}; scoreChanges {sc}")
        ev = t.get("events") or []
        bad = [e for e in ev if e.get("event") not in EVENT_NAMES]
        if bad and check_once("ev_names"):
            check("events have documented names", False, short(bad))
        tpe = [e for e in ev if e.get("event") == "tile_placed"]
        if check_once("tp_event"):
            check("TURN_END.events has tile_placed {player (seat), tile, pos, rotation}", tpe and
                  tpe[0].get("pos") == pl["position"] and tpe[0].get("rotation") == pl["rotation"]
                  and tpe[0].get("player") == (0 if cp == "p1" else 1) and typed(tpe[0].get("tile"), int), short(ev, 500))
            observe(f"event kinds in an ordinary turn: {[e.get('event') for e in ev]}")
        if gsn.get("lastPlaced") != pl and check_once("lastPlaced"):
            check("gameState.lastPlaced == this turn's {position, rotation}", False, f"{gsn.get('lastPlaced')} vs {pl}")
        if t.get("nextPlayer") is not None and gsn.get("currentPlayer") != t.get("nextPlayer") and check_once("np"):
            observe(f"TURN_END.nextPlayer {t.get('nextPlayer')} vs gameState.currentPlayer {gsn.get('currentPlayer')} phase {gsn.get('phase')}")
        fs = [e for e in ev if e.get("event") == "feature_scored"]
        if fs and check_once("fs_fields"):
            need = {"kind", "pos", "segment", "reason", "complete", "tiles", "pennants", "cities", "modifier", "farmers", "points", "scorers"}
            check("feature_scored event has documented fields", need <= set(fs[0]), f"missing {need - set(fs[0])}: {short(fs[0])}")
        prev_gs = gsn
        if reconnect_hook:
            await reconnect_hook(G, "turn_end", turn, cp, te)

    check("TURN_END.scoreChange == scoreChanges[player] on every turn", all_scoreChange_ok, "see above")
    # --- the end
    G.game_end = game_end
    if game_end:
        d = game_end["data"]
        fsc = d.get("finalScore") or {}
        for e in d.get("events") or []:
            pass
        probs = []
        if not isinstance(d.get("winner"), str): probs.append("winner")
        if not isinstance(d.get("winners"), list): probs.append("winners")
        if set(fsc) != {"p1", "p2"}: probs.append(f"finalScore {fsc}")
        if d.get("gameId") != rid: probs.append(f"gameId {d.get('gameId')} != {rid}")
        if not isinstance(d.get("events"), list): probs.append("events")
        g = d.get("gameState") or {}
        if g.get("gameEnded") is not True or g.get("phase") != "game_over": probs.append(f"gameState gameEnded {g.get('gameEnded')} phase {g.get('phase')}")
        check("GAME_END fields {winner, winners, finalScore, gameState (ended), events, gameId = roomId}", not probs, f"{probs}: {short(d, 400)}")
        if fsc:
            top = max(fsc.values())
            tied = [pid for pid in ("p1", "p2") if fsc.get(pid) == top]
            check("GAME_END.winners = every player tied at the top (seat order)", d.get("winners") == tied, f"{d.get('winners')} vs {tied} ({fsc})")
            check("GAME_END.winner = first in seat order with the top score", d.get("winner") == tied[0], f"{d.get('winner')} vs {tied}")
            check("GAME_END.finalScore == gameState.scores", g.get("scores") == fsc, f"{g.get('scores')} vs {fsc}")
            end_ev = sum(sum(e.get("points", 0) * 0 for e in []) for _ in [0])
            # final scoring: either in the last TURN_END or in GAME_END.events
            fin = {k: v for k, v in scores.items()}
            ev = d.get("events") or []
            observe(f"GAME_END.events kinds: {sorted(set(e.get('event') for e in ev))}, last TURN_END events kinds: "
                    f"{sorted(set(e.get('event') for e in (G.turn_log[-1][2].get('events') or [])))}")
            check("finalScore == sum of all TURN_END.scoreChanges (final scoring came in the last TURN_END or is in GAME_END.events)",
                  fsc == fin or any(e.get("event") == "feature_scored" and e.get("reason") == "game_end" for e in ev),
                  f"finalScore {fsc} vs summed scoreChanges {fin}")
        S.pos -= 1   # the loop consumed the spectator's GAME_END
        for c, who in ((P1, "p1"), (clients["p2"], "p2"), (S, "spec")):
            ge = await c.wait("GAME_END", 3)
            rsF = await c.wait("ROOM_STATE", 3)
            check(f"{who}: GAME_END then ROOM_STATE FINISHED", ge is not None and rsF is not None
                  and rsF["data"].get("state") == "FINISHED" and rsF["data"].get("gameEnded") is True, short(rsF, 300))
        # order: last TURN_END, its PLAYER_UPDATEs, GAME_END
        seqd = [m["type"] for m in P1.msgs if m["type"] in ("TURN_END", "PLAYER_UPDATE", "GAME_END", "ROOM_STATE", "TURN_START")]
        tail = seqd[-5:]
        observe(f"p1's last messages: {tail}")
        i = max(i for i, tname in enumerate(seqd) if tname == "TURN_END")
        check("end order: TURN_END, (PLAYER_UPDATE...), GAME_END, ROOM_STATE",
              seqd[i + 1:] and set(seqd[i + 1:seqd.index('GAME_END', i)]) <= {"PLAYER_UPDATE"} and seqd[-2:] == ["GAME_END", "ROOM_STATE"], f"{seqd[i:]}")
        # HTTP download
        await asyncio.sleep(0.2)
        st, h, b = http_get(port, f"/games/{rid}")
        try:
            j = json.loads(b)
        except ValueError:
            j = None
        check(f"GET /games/{rid} -> 200 JSON", st == 200 and isinstance(j, dict), f"{st} {b[:100]!r}")
        observe(f"/games/{rid}: content-type={h.get('content-type')} content-disposition={h.get('content-disposition')} keys={list(j)[:12] if isinstance(j, dict) else None}")
        check("/games/{id} served as a download (Content-Disposition: attachment)", "attachment" in (h.get("content-disposition") or ""), f"{h.get('content-disposition')}")
        check_sec_headers(f"/games/{rid}", h)
        st2, _, b2 = http_get(port, f"/games/{rid}.json")
        check(f"GET /games/{rid}.json -> same", st2 == 200 and b2 == b, f"{st2}")
        # the room is closed
        mid = await P1.send("LIST_ROOMS")
        lr = await P1.reply(mid, ("LIST_ROOMS",))
        check("finished room leaves LIST_ROOMS", lr and rid not in [x["id"] for x in lr["data"]["rooms"]], short(lr))
        mid = await P1.send("LEAVE_ROOM", {"roomId": rid})
        err_ok("after the game the player is in no room (LEAVE_ROOM -> NOT_IN_ROOM)", await P1.reply(mid, ("ROOM_LEFT",)), "NOT_IN_ROOM", mid=mid)
    else:
        check("GAME_END arrives", False, "none")
    G.turns = turn
    return G


def player_update_analysis(G):
    GROUP[0] = "4 game"
    for c, pid in ((G.P1, "p1"), (G.P2, "p2")):
        msgs = c.msgs
        prev = None
        probs = []
        n_upd = 0
        for i, m in enumerate(msgs):
            if m["type"] == "GAME_STATE" and m["data"]["gameState"].get("gameStarted"):
                prev = next(p for p in m["data"]["gameState"]["players"] if p["id"] == pid)
            if m["type"] != "TURN_END" or prev is None:
                continue
            cur = next(p for p in m["data"]["gameState"]["players"] if p["id"] == pid)
            j = i + 1
            ups = []
            while j < len(msgs) and msgs[j]["type"] not in ("TURN_START", "GAME_END", "TURN_END"):
                if msgs[j]["type"] == "PLAYER_UPDATE":
                    ups.append(msgs[j])
                j += 1
            changed = cur != prev
            if changed and not ups:
                probs.append(f"seq {m.get('seq')}: own Player changed {prev} -> {cur}, no PLAYER_UPDATE")
            if ups and not changed:
                probs.append(f"seq {m.get('seq')}: PLAYER_UPDATE without a change")
            for u in ups:
                n_upd += 1
                if u["data"].get("player") != cur:
                    probs.append(f"seq {u.get('seq')}: PLAYER_UPDATE {u['data'].get('player')} != TURN_END's {cur}")
            prev = cur
        check(f"{pid}: PLAYER_UPDATE after exactly the TURN_ENDs that changed its Player, before the next TURN_START/GAME_END ({n_upd} seen)",
              not probs, "; ".join(probs[:3]))
    # nextPlayer
    probs = []
    msgs = [m for m in G.S.msgs if m["type"] in ("TURN_END", "TURN_START", "GAME_END")]
    for a, b in zip(msgs, msgs[1:]):
        if a["type"] != "TURN_END":
            continue
        np_ = a["data"].get("nextPlayer")
        if b["type"] == "TURN_START" and np_ != b["data"].get("currentPlayer"):
            probs.append(f"seq {a.get('seq')}: nextPlayer {np_} but next TURN_START for {b['data'].get('currentPlayer')}")
        if b["type"] == "GAME_END" and np_ is not None:
            probs.append(f"last TURN_END nextPlayer {np_} (want null)")
    check("TURN_END.nextPlayer = next TURN_START.currentPlayer; null on the last", not probs, "; ".join(probs[:3]))
    ge = G.game_end
    if ge:
        observe(f"GAME_END.gameState.currentPlayer = {ge['data']['gameState'].get('currentPlayer')!r}, currentTile = {ge['data']['gameState'].get('currentTile')!r}")
    pus = [m for m in ALL_SERVER_MSGS if m["type"] == "PLAYER_UPDATE"]
    check("PLAYER_UPDATE (a 'one' message) carries seq, as Sessions/seq says", all("seq" in m for m in pus), "")
    # event tile numbers follow GET /tilesets/base order
    bad = []
    for turn, cp, t, tid in G.turn_log:
        for e in t.get("events") or []:
            if e.get("event") == "tile_placed" and tid in BASE_TILE_IDS and e.get("tile") != BASE_TILE_IDS.index(tid):
                bad.append((turn, tid, e.get("tile")))
    check("event 'tile' numbers = index in GET /tilesets/base order", not bad, f"{bad[:5]}")
    # TURN_START.tilesLeft vs the state before it
    obs = []
    for c in (G.S,):
        last = None
        for m in c.msgs:
            if m["type"] in ("TURN_END", "GAME_STATE"):
                last = m["data"]["gameState"].get("tilesLeft")
            if m["type"] == "TURN_START" and last is not None:
                obs.append((last, m["data"].get("tilesLeft")))
    diffs = sorted(set(a - b for a, b in obs if a is not None and b is not None))
    observe(f"TURN_START.tilesLeft = previous gameState.tilesLeft minus {diffs}")


def seq_analysis(G):
    GROUP[0] = "5 seq"
    rid = G.rid
    by_seq = {}
    clash = []
    for m in ALL_SERVER_MSGS:
        if str(m.get("messageId", "")).startswith(rid + "-") and "seq" in m:
            k = m["seq"]
            body = (m["type"], json.dumps(m["data"], sort_keys=True))
            if k in by_seq and by_seq[k] != body and m["type"] != "PLAYER_UPDATE":
                clash.append(k)
            by_seq.setdefault(k, body)
    seqs = sorted(by_seq)
    check("a room's seq values seen by all our clients are 1..N without holes", seqs == list(range(1, len(seqs) + 1)),
          f"holes: {sorted(set(range(1, max(seqs) + 1)) - set(seqs))[:20]}" if seqs else "no seqs")
    check("one seq = one message (same type and data wherever received)", not clash, f"seqs {clash[:10]}")
    for c, who in ((G.S, "spectator"), (G.P1, "p1")):
        ss = [m["seq"] for m in c.msgs if "seq" in m]
        check(f"{who}: seq strictly increasing on one connection", all(a < b for a, b in zip(ss, ss[1:])), f"{ss[:40]}")
    bad = [m for m in ALL_SERVER_MSGS if m["type"] in ("CONNECTED", "LIST_ROOMS", "ROOM_LEFT", "PONG", "ERROR") and "seq" in m]
    check("CONNECTED/LIST_ROOMS/ROOM_LEFT/PONG/ERROR never carry seq", not bad, short(bad[:2]))
    bad = [m for m in ALL_SERVER_MSGS if m["type"] in ("TURN_START", "TILE_PLACED", "TURN_END", "GAME_START", "GAME_END", "TURN_TIMEOUT")
           and "seq" not in m and not m.get("_resent")]
    check("room messages (TURN_START, TILE_PLACED, TURN_END, GAME_START, GAME_END, TURN_TIMEOUT) carry seq", not bad, short(bad[:2]))
    bad = [m for m in ALL_SERVER_MSGS if not TS_RE.match(str(m.get("timestamp")))]
    check("every server timestamp is RFC 3339 UTC with milliseconds", not bad, short(bad[:1]))


# ---------------------------------------------------------------- group 5: reconnection mid-game (hooked into group 4)
class Reconnect:
    def __init__(self):
        self.state = 0

    async def __call__(self, G, stage, turn, cp, m):
        saved = GROUP[0]
        GROUP[0] = "5 reconnect"
        try:
            await self.step(G, stage, turn, cp, m)
        finally:
            GROUP[0] = saved

    async def step(self, G, stage, turn, cp, m):
        P2 = G.clients["p2"]
        if self.state == 0 and stage == "turn_start" and cp == "p1" and turn >= 6:
            self.lastSeq = max(x["seq"] for x in P2.msgs if "seq" in x)
            await P2.close()
            G.absent.add("p2")
            self.iS = len(G.S.msgs)
            r = await G.S.wait(lambda x: x["type"] == "ROOM_STATE" and any(p["id"] == "p2" and p["connected"] is False
                                                                          for p in x["data"]["players"]), 2, advance=False)
            check("room hears of the disconnect: ROOM_STATE with p2 connected false", r is not None, "none within 2 s")
            self.state = 1
            return
        if self.state == 1 and stage == "turn_start" and cp == "p1":
            # p1's turn again; p2 missed: its own turn (played for it), p1's turn, ...
            await asyncio.sleep(0.2)
            max_before = max(x["seq"] for x in G.S.msgs if "seq" in x)
            c = await Client(G.port, "p2b").open()
            mid = await c.send("CONNECT", {"playerId": "p2", "name": "Player Two", "sessionToken": G.P2.token,
                                           "lastSeq": self.lastSeq})
            await c.wait(lambda x: x["type"] == "ROOM_STATE" and (x.get("seq") or 0) > max_before, 3, advance=False)
            await asyncio.sleep(0.3)
            msgs = c.msgs
            check("reconnect with lastSeq: first CONNECTED resumed true, roomId", msgs and msgs[0]["type"] == "CONNECTED"
                  and msgs[0]["data"].get("resumed") is True and msgs[0]["data"].get("roomId") == G.rid, short(msgs[:1]))
            rest = msgs[1:]
            types = [x["type"] for x in rest]
            observe(f"lastSeq={self.lastSeq} replay ({len(rest)} msgs): {[(x['type'], x.get('seq')) for x in rest]}")
            noseq = [x["type"] for x in rest if "seq" not in x]
            check("replay: every message carries seq (no full state)", not noseq, f"seq-less: {noseq}")
            seqs = [x.get("seq", -1) for x in rest]
            check("replay: seqs increasing, all > lastSeq", all(a < b for a, b in zip(seqs, seqs[1:])) and seqs and seqs[0] > self.lastSeq,
                  f"{seqs}")
            s_seqs = {x["seq"]: x for x in G.S.msgs if "seq" in x and self.lastSeq < x["seq"] <= max_before}
            mine = {x["seq"]: x for x in rest if "seq" in x}
            missing = sorted(set(s_seqs) - set(mine))
            check("replay: every room message after lastSeq (that the spectator got) is replayed", not missing,
                  f"missing seqs {missing[:20]} ({[s_seqs[k]['type'] for k in missing[:10]]})")
            diff = [k for k in mine if k in s_seqs and (mine[k]["type"], mine[k]["data"]) != (s_seqs[k]["type"], s_seqs[k]["data"])]
            check("replay: replayed messages identical to the originals", not diff, f"seqs {diff[:10]}")
            extra = [mine[k] for k in sorted(set(mine) - set(s_seqs)) if k <= max_before]
            check("replay: the only extra messages are p2's own PLAYER_UPDATEs",
                  all(x["type"] == "PLAYER_UPDATE" and x["data"]["player"]["id"] == "p2" for x in extra),
                  f"{[(x['type'], x.get('seq')) for x in extra]}")
            check("replay: contains the absent-turn TURN_TIMEOUT and the current TURN_START",
                  "TURN_TIMEOUT" in types and "TURN_START" in types, f"{types}")
            consec = sorted(set(mine) | set(s_seqs))
            check("seq grows by one per room message (spectator's + p2's replay cover lastSeq+1..now without holes)",
                  consec == list(range(self.lastSeq + 1, max(consec) + 1)), f"holes {sorted(set(range(self.lastSeq + 1, max(consec) + 1)) - set(consec))}")
            last = rest[-1] if rest else None
            check("after the replay: ROOM_STATE with p2 connected true (to the room)", last and last["type"] == "ROOM_STATE"
                  and any(p["id"] == "p2" and p["connected"] for p in last["data"]["players"]) and last.get("seq", 0) > max_before,
                  short(last, 200))
            rsS = await G.S.wait(lambda x: x["type"] == "ROOM_STATE" and x.get("seq") == (last or {}).get("seq"), 2, advance=False)
            check("the spectator also got that ROOM_STATE", rsS is not None, "")
            c.pos = len(c.msgs)
            c.token = G.P2.token
            G.clients["p2"] = c
            G.absent.discard("p2")
            self.state = 2
            self.turn2 = turn
            return
        if self.state == 2 and stage == "tile_placed" and cp == "p1" and turn >= self.turn2 + 2:
            # take the session over from a live connection, without lastSeq: full state, tile already down
            old = G.clients["p2"]
            # The spectator's copy of the TILE_PLACED p1 just got (the same seq): it may arrive
            # a moment after p1's.
            seen = [x for x in G.clients["p1"].msgs if x["type"] == "TILE_PLACED"][-1].get("seq")
            same = await G.S.wait(lambda x: x["type"] == "TILE_PLACED" and x.get("seq") == seen, 0.5, advance=False)
            check("the spectator got the TILE_PLACED p1 got, with its seq", same is not None, f"seq {seen}")
            tpS = same or [x for x in G.S.msgs if x["type"] == "TILE_PLACED"][-1]
            c = await Client(G.port, "p2c").open()
            await c.send("CONNECT", {"playerId": "p2", "name": "Player Two", "sessionToken": G.P2.token})
            await c.wait("TILE_PLACED", 3, advance=False)
            await asyncio.sleep(0.4)
            for x in c.msgs[1:]:
                if "seq" not in x:
                    x["_resent"] = True
            types = [(x["type"], x.get("seq")) for x in c.msgs]
            observe(f"reconnect without lastSeq (tile down): {types}")
            check("no lastSeq: CONNECTED resumed, then ROOM_STATE, GAME_STATE, TILE_PLACED",
                  [t for t, _ in types[:4]] == ["CONNECTED", "ROOM_STATE", "GAME_STATE", "TILE_PLACED"], f"{types}")
            check("no lastSeq: the resent state carries no seq", all(sq is None for _, sq in types[1:4]), f"{types[:4]}")
            gsm = next((x for x in c.msgs if x["type"] == "GAME_STATE"), None)
            if gsm:
                g = gsm["data"]["gameState"]
                check("resent GAME_STATE: phase figure, currentPlayer p1, currentTile set", g.get("phase") == "figure"
                      and g.get("currentPlayer") == "p1" and g.get("currentTile") is not None, f"phase {g.get('phase')} cp {g.get('currentPlayer')}")
            tp = next((x for x in c.msgs if x["type"] == "TILE_PLACED"), None)
            check("resent TILE_PLACED equals the room's", tp and tp["data"] == tpS["data"], short(tp))
            await old.wait(lambda x: False, 0.5)
            check("taking over a live session closes the older connection", old.closed is not None, "still open")
            after = [t for t, sq in types[4:]]
            observe(f"after the resent state (session was never disconnected): {after}")
            c.pos = len(c.msgs)
            c.token = G.P2.token
            G.clients["p2"] = c
            self.state = 3
            self.turn3 = turn
            return
        if self.state == 3 and stage == "turn_start" and cp == "p1" and turn >= self.turn3 + 4:
            old = G.clients["p2"]
            await old.close()
            await asyncio.sleep(0.3)
            c = await Client(G.port, "p2d").open()
            await c.send("CONNECT", {"playerId": "p2", "name": "Renamed Two", "sessionToken": G.P2.token, "lastSeq": 1})
            await c.wait(lambda x: x["type"] == "ROOM_STATE" and "seq" in x and any(p["id"] == "p2" and p["connected"] for p in x["data"]["players"]), 3, advance=False)
            await asyncio.sleep(0.3)
            types = [(x["type"], x.get("seq")) for x in c.msgs]
            for x in c.msgs[1:]:
                if "seq" not in x:
                    x["_resent"] = True
            full = [t for t, _ in types[1:4]] == ["ROOM_STATE", "GAME_STATE", "TURN_START"] and all(sq is None for _, sq in types[1:4])
            replay = len(types) > 1 and types[1][1] == 2
            observe(f"reconnect with lastSeq=1 late in the game: {'full state' if full else 'replay' if replay else '?'}; first: {types[:6]}")
            check("lastSeq too old (>96 KiB ago): full state (ROOM_STATE, GAME_STATE, TURN_START, no seq) or full replay",
                  full or replay, f"{types[:8]}")
            rs = next((x for x in c.msgs if x["type"] == "ROOM_STATE"), None)
            if rs:
                nm = next(p["name"] for p in rs["data"]["players"] if p["id"] == "p2")
                check("renamed on return: the seat keeps the name it joined with", nm == "Player Two", nm)
            c.pos = len(c.msgs)
            c.token = G.P2.token
            G.clients["p2"] = c
            self.state = 4


# ---------------------------------------------------------------- group 6: extras (mostly points the document leaves open)
async def group_extras(port):
    GROUP[0] = "6 extras"
    X = await newc(port, "xavier")
    Y = await newc(port, "yvonne")
    mid = await X.send("LEAVE_ROOM", {})
    err_ok("LEAVE_ROOM without roomId (in no room) -> INVALID_DATA field roomId", await X.reply(mid, ("ROOM_LEFT",)),
           "INVALID_DATA", field="roomId", mid=mid)
    mid = await X.send("CREATE_ROOM", {"roomName": "Wait", "maxPlayers": 3})
    r = await X.reply(mid, ("ROOM_STATE",)); rid = r["data"]["roomId"]
    mid = await Y.send("JOIN_ROOM", {"roomId": rid}); await Y.reply(mid, ("ROOM_STATE",)); await Y.wait("GAME_STATE")
    lastY = max(m["seq"] for m in Y.msgs if "seq" in m)
    mid = await X.send("LIST_ROOMS")
    r = await X.reply(mid, ("LIST_ROOMS",))
    observe(f"LIST_ROOMS while IN_ROOM (state table lists it only for AUTHENTICATED): {r and r['type']} {short(r and r['data'], 100)}")
    await Y.close(); await asyncio.sleep(0.3)
    # lastSeq == the latest seq: nothing missed but X's ROOM_STATE about Y's disconnect
    c = await Client(port, "y2").open()
    await c.send("CONNECT", {"playerId": "yvonne", "name": "Yvonne", "sessionToken": Y.token, "lastSeq": lastY})
    await c.wait(lambda m: m["type"] == "ROOM_STATE" and any(p["id"] == "yvonne" and p["connected"] for p in m["data"]["players"]), 2, advance=False)
    await asyncio.sleep(0.3)
    observe(f"waiting room, reconnect with lastSeq={lastY}: {[(m['type'], m.get('seq')) for m in c.msgs]}")
    await c.close(); await asyncio.sleep(0.3)
    c = await Client(port, "y3").open()
    await c.send("CONNECT", {"playerId": "yvonne", "name": "Yvonne", "sessionToken": Y.token, "lastSeq": 10 ** 6})
    await asyncio.sleep(0.6)
    observe(f"reconnect with lastSeq=10^6 (beyond the room's seq): {[(m['type'], m.get('seq'), m['data'].get('code')) for m in c.msgs]}")
    await c.close(); await asyncio.sleep(0.2)
    c = await Client(port, "y4").open()
    r = await c.connect("yvonne", "Yvonne", sessionToken=Y.token, lastSeq=2 ** 53)
    observe(f"lastSeq=2^53: {short(r, 160)}")
    await c.close()
    # a token for a playerId that has no session
    c = await Client(port, "nobody").open()
    r = await c.connect("nobody", "Nobody", sessionToken="0123456789abcdef0123456789abcdef")
    observe(f"CONNECT new playerId with a made-up sessionToken: {short(r, 200)}")
    await c.close()
    # a fresh session sending lastSeq
    c = await Client(port, "fresh").open()
    r = await c.connect("fresh", "Fresh", lastSeq=5)
    check("new session with lastSeq -> CONNECTED resumed false", r and r["type"] == "CONNECTED" and r["data"]["resumed"] is False, short(r))
    await c.close()
    # TOO_MANY_ROOMS: rooms created by 'maker', left to helpers so they stay open
    M = await newc(port, "maker")
    helpers = []
    made = []
    for k in range(3):
        mid = await M.send("CREATE_ROOM", {"roomName": f"M{k}", "maxPlayers": 2})
        r = await M.reply(mid, ("ROOM_STATE",))
        if not r or r["type"] != "ROOM_STATE":
            check(f"maker creates room {k + 1}", False, short(r)); break
        rr = r["data"]["roomId"]; made.append(rr)
        h = await newc(port, f"helper{k}")
        helpers.append(h)
        mid = await h.send("JOIN_ROOM", {"roomId": rr}); await h.reply(mid, ("ROOM_STATE",))
        mid = await M.send("LEAVE_ROOM", {"roomId": rr}); await M.reply(mid, ("ROOM_LEFT",))
    mid = await M.send("CREATE_ROOM", {"roomName": "M4", "maxPlayers": 2})
    r = await M.reply(mid, ("ROOM_STATE",))
    err_ok("4th open room created by one playerId (3 still open, creator left them) -> TOO_MANY_ROOMS", r, "TOO_MANY_ROOMS", mid=mid)
    if r and r["type"] == "ROOM_STATE":
        await M.send("LEAVE_ROOM", {"roomId": r["data"]["roomId"]})
    mid = await M.send("LIST_ROOMS")
    lr = await M.reply(mid, ("LIST_ROOMS",))
    cb = {x["id"]: x["createdBy"] for x in lr["data"]["rooms"]} if lr else {}
    check("LIST_ROOMS.createdBy stays the creator after the creator left", all(cb.get(x) == "maker" for x in made), f"{cb}")
    for h in helpers + [M, X]:
        await h.close()


async def group_figures(port):
    """Traders & Builders' builder and pig, Hills & Sheep's shepherd, flock and hills, as
    docs/protocol.md gives them: figure names in PLACE_MEEPLE, FLOCK_CHOICE and TEND_FLOCK,
    TURN_START.secondTurn, Player builders/pigs/shepherds, GameState flocks/sheepBag/hiddenTiles."""
    GROUP[0] = "7 figures"
    F = await newc(port, "fiona")
    mid = await F.send("CREATE_ROOM", {"roomName": "Figures", "maxPlayers": 2, "seed": 4,
                                       "tilesets": ["base", "traders_and_builders", "hills_and_sheep"]})
    r = await F.reply(mid, ("ROOM_STATE",))
    check("CREATE_ROOM base+T&B+H&S -> ROOM_STATE", r and r["type"] == "ROOM_STATE", short(r))
    p = r["data"]["players"][0] if r and r["type"] == "ROOM_STATE" else {}
    check("Player builders/pigs/shepherds 1 each before the game",
          (p.get("builders"), p.get("pigs"), p.get("shepherds")) == (1, 1, 1), short(p))
    mid = await F.send("ADD_BOT", {"botName": "Ewe", "difficulty": "easy"}); await F.reply(mid, ("ROOM_STATE",))
    mid = await F.send("TEND_FLOCK", {"grow": True})
    err_ok("TEND_FLOCK before the game -> GAME_NOT_STARTED", await F.reply(mid), "GAME_NOT_STARTED", mid=mid)
    await F.send("START_GAME")
    g = await F.wait(lambda m: m["type"] == "GAME_STATE" and m["data"]["gameState"]["gameStarted"], 3)
    bag = g and g["data"]["gameState"].get("sheepBag")
    check("GameState.sheepBag: {sheep, wolves, tokens} of the full bag",
          bag == {"sheep": {"1": 4, "2": 5, "3": 5, "4": 2}, "wolves": 2, "tokens": 18}, short(bag))
    figures_ok = {"follower", "big_follower", "abbot", "builder", "pig", "shepherd"}
    placed, choices, refused_wrong_phase, second, hidden = set(), 0, False, 0, 0
    deadline = time.time() + 60
    while time.time() < deadline:
        m = await F.wait(lambda m: m["type"] in ("TURN_START", "TILE_PLACED", "FLOCK_CHOICE", "TURN_END", "GAME_END", "ERROR"), 5)
        if m is None or m["type"] == "GAME_END":
            break
        d = m["data"]
        if m["type"] == "ERROR":
            check("no refusal of a move the messages offered", False, short(m)); break
        if m["type"] == "TURN_END":
            hidden = max(hidden, d["gameState"].get("hiddenTiles", 0))
            for f in d["gameState"].get("flocks", []):
                ok = (isinstance(f.get("featureId"), int) and isinstance(f.get("sheep"), int)
                      and f["sheep"] == sum(int(k) * v for k, v in f.get("tokens", {}).items()))
                if not ok:
                    check("GameState.flocks entries {playerId, position, featureId, sheep, tokens}", False, short(f))
            continue
        if d.get("currentPlayer", d.get("playerId")) != "fiona":
            continue
        if m["type"] == "TURN_START":
            second += 1 if d.get("secondTurn") is True else 0
            if "secondTurn" in d and d["secondTurn"] is not True:
                check("TURN_START.secondTurn is true or absent", False, short(d))
            if not refused_wrong_phase:
                mid = await F.send("TEND_FLOCK", {"grow": False})
                err_ok("TEND_FLOCK with no flock waiting -> WRONG_PHASE", await F.reply(mid), "WRONG_PHASE", mid=mid)
                refused_wrong_phase = True
            pl = d["validPlacements"][0]
            await F.send("PLACE_TILE", {"position": pl["position"], "rotation": pl["rotation"]})
        elif m["type"] == "TILE_PLACED":
            opts = d.get("meepleOptions") or []
            if any(o["figure"] not in figures_ok for o in opts):
                check("meepleOptions name only the documented figures", False, short(opts))
            special = [o for o in opts if o["figure"] in ("builder", "pig", "shepherd")]
            if special:
                o = special[0]; placed.add(o["figure"])
                await F.send("PLACE_MEEPLE", {"featureId": o["featureId"], "figure": o["figure"]})
            elif opts:
                await F.send("PLACE_MEEPLE", {"featureId": opts[0]["featureId"], "figure": opts[0]["figure"]})
            elif d.get("abbotRecalls"):
                await F.send("SKIP_MEEPLE")
        elif m["type"] == "FLOCK_CHOICE":
            choices += 1
            check_once = choices == 1
            shape = (isinstance(d.get("position"), dict) and isinstance(d.get("featureId"), int)
                     and isinstance(d.get("sheep"), int) and isinstance(d.get("canGrow"), bool)
                     and set(d.get("bag", {})) == {"sheep", "wolves", "tokens"})
            if check_once or not shape:
                check("FLOCK_CHOICE {playerId, position, featureId, sheep, canGrow, bag}", shape, short(d))
            if check_once:
                mid = await F.send("TEND_FLOCK", {})
                err_ok("TEND_FLOCK without grow -> INVALID_DATA field grow", await F.reply(mid), "INVALID_DATA", field="grow", mid=mid)
            await F.send("TEND_FLOCK", {"grow": bool(d["canGrow"] and d["sheep"] < 3)})
        if placed >= {"builder", "pig", "shepherd"} and choices and second:
            break
    observe(f"figures: placed {sorted(placed)}, {choices} flock choices, {second} second turns, {hidden} tiles hidden")
    check("the special figures were offered and placed", len(placed) >= 2, f"{sorted(placed)}")
    check("hills hid tiles (GameState.hiddenTiles)", hidden > 0, f"{hidden}")
    await F.close()


BASE_TILE_IDS = []


async def main():
    proc, port = start_server()
    t0 = time.time()
    try:
        group_http(port)
        await group_origin(port)
        await group_envelope(port)
        await group_rooms(port)
        rec = Reconnect()
        G = await group_game(port, rec)
        GROUP[0] = "5 reconnect"
        check("all reconnection steps ran", rec.state == 4, f"stopped at step {rec.state}")
        player_update_analysis(G)
        seq_analysis(G)
        await group_extras(port)
        await group_figures(port)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
    n_fail = sum(1 for r in RESULTS if not r[2])
    print(f"\n{len(RESULTS)} checks, {n_fail} failed, {time.time() - t0:.1f}s")
    return n_fail


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=SERVER, help="the server binary (default: %(default)s)")
    SERVER = parser.parse_args().server
    failed = asyncio.run(asyncio.wait_for(main(), 170))
    if failed:
        print(f"the server's log: {SERVER_LOG}")
    sys.exit(1 if failed else 0)
