// @ts-check
// The Carcassonne web page: lobby, room and game over the server's WebSocket protocol (1.1),
// or, with no server to reach, over the same protocol to the engine in a Web Worker
// (offline-worker.js), which hosts the room and its bots in the browser.
// The board is drawn from the server's tile pictures and figure anchors; every rule is the
// server's: the page shows what it is told and sends what the player chooses.
//
// Names, room names and colours come from other players, so they are data, never markup: the
// page reaches the document only through DOM nodes, textContent, properties and attributes
// (eslint.config.js refuses innerHTML and its kin), and the server's Content-Security-Policy
// blocks inline script and inline style attributes. Nor may a name's direction run into the
// page's words: each user's text stands in a <bdi> of its own (userText), so a right-to-left
// name, its digits and its neutral marks never reorder "(you)", "host" or a score beside it.

/**
 * @typedef {{x: number, y: number}} Position
 * @typedef {{type: string, id: number, edges?: string[], halfEdges?: string[], marks?: string[]}} Feature
 * @typedef {{id: string, name?: string, features: Feature[]}} Tile
 * @typedef {{tile: Tile, anchors: number[][][], pictures?: string[], urls?: string[]}} SetTile
 * @typedef {{playerId: string | null, featureId: number, figure: string}} Meeple
 * @typedef {{tile: Tile, position: Position, rotation: number, meeples: Meeple[]}} PlacedTile
 * @typedef {{id: string, name: string, color: string, meeples: number, score: number, isBot: boolean,
 *   seat?: number, bigFollowers?: number, abbots?: number, connected?: boolean,
 *   tokens?: Record<string, number>, titles?: string[], builders?: number, pigs?: number,
 *   shepherds?: number, figures?: Record<string, number>}} Player
 * @typedef {{sheep: Record<string, number>, wolves: number, tokens: number}} SheepBag
 * @typedef {{playerId: string | null, position: Position, featureId: number, sheep: number,
 *   tokens: Record<string, number>}} Flock
 * @typedef {{tiles: Record<string, PlacedTile>, players: Player[], currentPlayer: string | null,
 *   gameStarted: boolean, gameEnded: boolean, tilesLeft?: number | null,
 *   lastPlaced?: {position: Position, rotation: number} | null, flocks?: Flock[],
 *   sheepBag?: SheepBag, hiddenTiles?: number}} GameState
 * @typedef {{roomId: string, name: string, players: Player[], host: string, maxPlayers: number,
 *   state: string, tilesets?: string[], seed?: number}} Room
 * @typedef {{id: string, name: string, playerCount: number, maxPlayers: number, gameStarted: boolean,
 *   tilesets?: string[]}} RoomSummary
 * @typedef {{position: Position, rotation: number}} Placement
 * @typedef {{currentPlayer: string, currentTile: Tile | null, validPlacements: Placement[],
 *   secondTurn?: boolean}} Turn
 * @typedef {{playerId: string, position: Position, featureId: number, sheep: number,
 *   canGrow: boolean, bag: SheepBag}} FlockChoice
 * @typedef {{featureId: number, figure: string}} FigureOption
 * @typedef {{playerId: string, position: Position, rotation: number, tile: Tile,
 *   meepleOptions?: FigureOption[], abbotRecalls?: Position[]}} Placed
 * @typedef {{id: string, name: string, tiles: number, colours: string[], builtin?: boolean}} TileSetInfo
 * @typedef {{tiles: Map<string, SetTile> | null, delay: number}} LoadedSet
 * @typedef {"name" | "rooms" | "create" | "room" | "game" | "general"} Place
 * @typedef {{type: string, data: object, messageId: string, place: Place}} Outgoing
 * @typedef {string | {user: string}} Part a line's piece: the page's own words, or a text a
 *   user chose (a name, a room's name), which is shown in a bidi run of its own
 */

import { closeReview, openReview, setUpReview } from "./review.js";

const T = 100; // a tile's side in board units
const svgNS = "http://www.w3.org/2000/svg";
// Drawn for a colour the server's palette does not name: a name is never used as CSS.
const NEUTRAL = "#8a8a8a";
// At most this many actions wait for the connection; a flush of more would run into the
// server's burst limit (40 messages) and be dropped there instead.
const QUEUE_LIMIT = 30;
const SIDES = ["NORTH", "EAST", "SOUTH", "WEST"];
const SIDE_WORDS = ["north", "east", "south", "west"];
// The corner at the clockwise end of each side.
const CORNER_WORDS = ["north-east", "south-east", "south-west", "north-west"];
// Clockwise from the north-west corner, as the server names them: a quarter turn moves two on.
const HALVES = ["N_w", "N_e", "E_n", "E_s", "S_e", "S_w", "W_s", "W_n"];
/** @type {Record<string, string>} */
const LETTER_WORDS = { N: "north", E: "east", S: "south", W: "west", n: "north", e: "east", s: "south", w: "west" };
/** @type {Record<Exclude<Place, "general">, string>} */
const ERROR_BOXES = { name: "name-error", rooms: "rooms-error", create: "create-error", room: "room-error", game: "game-error" };

const me = {
  playerId: localStorage.getItem("carcassonne.playerId") || newId(),
  name: localStorage.getItem("carcassonne.name") || "",
  token: localStorage.getItem("carcassonne.token"),
};
localStorage.setItem("carcassonne.playerId", me.playerId);
const pageStamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const state = {
  /** @type {WebSocket | WorkerSocket | null} */ ws: null,
  // Whether the page plays offline: its server is the engine in a worker. From the start with
  // ?offline in the address, or when the player chooses it, or when no server ever answered.
  offline: new URLSearchParams(location.search).has("offline"),
  // Whether a WebSocket to the server has opened since the page loaded.
  served: false,
  /** The reconnection waiting to be tried, if any. @type {number | undefined} */ reconnect: undefined,
  /** The offline game's download, an object URL revoked when the next replaces it. @type {string | null} */ download: null,
  // True from CONNECTED until the socket closes: only then may messages go out.
  online: false,
  /** @type {number | null} */ lastSeq: null,
  sent: 0,
  retry: 500,
  /** @type {Outgoing[]} */ queue: [],
  /** @type {Map<string, Place>} */ origins: new Map(),
  /** @type {Room | null} */ room: null,
  /** @type {GameState | null} */ game: null,
  /** @type {Turn | null} */ turn: null,
  /** @type {Placed | null} */ placed: null,
  /** @type {FlockChoice | null} */ flock: null,
  rotation: 0,
  /** @type {Map<string, LoadedSet>} */ sets: new Map(),
  /** @type {Map<string, string>} */ setOf: new Map(),
  /** @type {TileSetInfo[]} */ tilesets: [],
  /** @type {Map<string, string>} */ palette: new Map(),
  view: { x: 0, y: 0, scale: 0.6 },
  fitted: false,
  // Whether the page put focus on the board itself (a placement took away the focused target):
  // the next thing to choose then takes it.
  parked: false,
  /** @type {number | undefined} */ lobbyTimer: undefined,
  /** @type {Part[][]} */ announcements: [],
};

function newId() {
  return "p-" + (typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : Math.random().toString(36).slice(2) + Date.now().toString(36));
}

// ----- The document -----

/** @param {string} id */
function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** @param {string} id */
function inputById(id) { return /** @type {HTMLInputElement} */ (byId(id)); }

/** @param {string} id */
function selectById(id) { return /** @type {HTMLSelectElement} */ (byId(id)); }

/** @param {string} id */
function buttonById(id) { return /** @type {HTMLButtonElement} */ (byId(id)); }

/** @param {string} id */
function svgById(id) { return /** @type {SVGElement} */ (/** @type {unknown} */ (byId(id))); }

/**
 * An SVG element with these attributes. Styles and event handlers never go through here: the
 * Content-Security-Policy blocks both as attributes.
 * @param {string} name
 * @param {Record<string, string | number>} attributes
 */
function el(name, attributes) {
  const element = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "style" || key.startsWith("on")) throw new Error(`no ${key} attribute`);
    element.setAttribute(key, String(value));
  }
  return element;
}

/**
 * @param {string} text
 * @param {() => void} onClick
 */
function button(text, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.addEventListener("click", onClick);
  return element;
}

/** "a", "a and b", "a, b and c". @param {string[]} words */
function listing(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Lines' parts listed as `listing` lists words. @param {Part[][]} items @returns {Part[]} */
function listed(items) {
  return items.flatMap((item, at) => (at === 0 ? item : [at === items.length - 1 ? " and " : ", ", ...item]));
}

// ----- Users' texts -----
// A name's direction is its own: isolated, a right-to-left name (or a name beside digits and
// neutral marks) cannot reorder the page's words around it, nor they it.

/** A text a user chose, as a part of a line. @param {unknown} text @returns {Part} */
function user(text) {
  return { user: String(text) };
}

/**
 * A user's text in an element of its own that isolates its direction (style.css keeps
 * `unicode-bidi: isolate` on it where a browser's own style would not) and takes its
 * direction from its first strong letter.
 * @param {unknown} text
 */
function userText(text) {
  const bdi = document.createElement("bdi");
  bdi.dir = "auto";
  bdi.textContent = String(text);
  return bdi;
}

/** A line's parts as nodes, made afresh each time: a node stands in one place only. @param {Part[]} parts */
function nodes(parts) {
  return parts.map((part) => (typeof part === "string" ? part : userText(part.user)));
}

/** A line's parts as the text the document holds for them. @param {Part[]} parts */
function plain(parts) {
  return parts.map((part) => (typeof part === "string" ? part : part.user)).join("");
}

/**
 * A user's text inside plain text that holds no element (an attribute, an SVG title): set
 * between the Unicode isolates FSI and PDI, which do in plain text what a <bdi> does.
 * @param {unknown} text
 */
function isolated(text) {
  return `\u2068${String(text)}\u2069`;
}

// ----- Colours and seats -----

/** The shade the server gives a colour name; neutral grey for a name it did not give. @param {unknown} name */
function shade(name) {
  return (typeof name === "string" && state.palette.get(name)) || NEUTRAL;
}

/** Black or white, whichever reads better on `background` (a #rgb or #rrggbb shade). @param {string} background */
function inkOn(background) {
  let hex = background.slice(1);
  if (hex.length === 3 || hex.length === 4) hex = [...hex.slice(0, 3)].map((digit) => digit + digit).join("");
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.55 ? "#000" : "#fff";
}

/** A player's seat, counted from 1: the mark that tells figures apart without colour. @param {Player} player @param {number} index */
function seatNumber(player, index) {
  return (typeof player.seat === "number" ? player.seat : index) + 1;
}

/** The seat number on the player's colour. @param {Player} player @param {number} index */
function badge(player, index) {
  const seat = seatNumber(player, index);
  const fill = shade(player.color);
  const mark = document.createElement("span");
  mark.className = "badge";
  mark.textContent = String(seat);
  mark.style.backgroundColor = fill;
  mark.style.color = inkOn(fill);
  mark.title = `seat ${seat}${player.color ? `, ${player.color}` : ""}`;
  return mark;
}

// ----- The connection -----

/**
 * The page's server in a Web Worker: the engine's `OfflineServer` speaking the same protocol
 * as the server's WebSocket, with the part of WebSocket's interface the page uses (readyState,
 * send, close, and the open, message and close events), and the server's GET routes the page
 * needs as `request`.
 */
class WorkerSocket extends EventTarget {
  constructor() {
    super();
    /** @type {number} */
    this.readyState = WebSocket.CONNECTING;
    /** Why the worker could not serve, once it could not. @type {string | null} */
    this.failure = null;
    /** @type {Map<number, {resolve: (body: any) => void, reject: (error: Error) => void}>} */
    this.pending = new Map();
    /** Requests made before the engine was ready, posted once it is. @type {object[]} */
    this.early = [];
    this.requests = 0;
    this.worker = new Worker(new URL("offline-worker.js", import.meta.url), { type: "module", name: "carcassonne-offline" });
    this.worker.addEventListener("message", (event) => this.heard(event.data));
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.fail(event.message || "the worker did not start");
    });
  }

  /** @param {any} message */
  heard(message) {
    if (!message || typeof message !== "object") return;
    switch (message.kind) {
      case "ready":
        this.readyState = WebSocket.OPEN;
        for (const request of this.early.splice(0)) this.worker.postMessage(request);
        this.dispatchEvent(new Event("open"));
        break;
      case "frame":
        this.dispatchEvent(new MessageEvent("message", { data: message.frame }));
        break;
      case "response": {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (waiting && typeof message.error === "string") waiting.reject(new Error(message.error));
        else if (waiting) waiting.resolve(message.body);
        break;
      }
      case "unavailable":
        this.fail(`the engine is not served beside this page (${String(message.reason)})`);
        break;
      case "fault":
        showError("general", `The offline engine failed: ${String(message.reason)}.`, "ENGINE_FAULT");
        break;
      default: break;
    }
  }

  /** What the server's GET routes give: "catalogue", "tileset" (of `set`), "bots", "finished". @param {string} what @param {string} [set] */
  request(what, set) {
    if (this.failure) return Promise.reject(new Error(this.failure));
    this.requests += 1;
    const request = { kind: "request", id: this.requests, what, set };
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      if (this.readyState === WebSocket.OPEN) this.worker.postMessage(request);
      else this.early.push(request);
    });
  }

  /** @param {string} text */
  send(text) {
    if (this.readyState === WebSocket.OPEN) this.worker.postMessage({ kind: "frame", frame: text });
  }

  close() {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.worker.terminate();
    for (const waiting of this.pending.values()) waiting.reject(new Error(this.failure || "the offline engine stopped"));
    this.pending.clear();
    this.dispatchEvent(new Event("close"));
  }

  /** @param {string} reason */
  fail(reason) {
    this.failure = reason;
    this.close();
  }
}

function connect() {
  const ws = state.offline ? new WorkerSocket() : serverSocket();
  state.ws = ws;
  state.online = false;
  setStatus("connecting", state.offline ? "starting the engine…" : "connecting…");
  ws.addEventListener("open", () => {
    if (state.ws !== ws) return;
    state.retry = 500;
    if (!state.offline) state.served = true;
    /** @type {Record<string, string | number>} */
    const data = { playerId: me.playerId, name: me.name || "Player", color: "" };
    if (me.token && !state.offline) data.sessionToken = me.token;
    if (state.lastSeq !== null) data.lastSeq = state.lastSeq;
    // CONNECT goes straight out: everything else waits for its CONNECTED.
    transmit(ws, { type: "CONNECT", data, messageId: nextMessageId(), place: "general" });
  });
  ws.addEventListener("message", (event) => {
    if (state.ws !== ws) return;
    let message;
    try {
      message = JSON.parse(String(/** @type {MessageEvent} */ (event).data));
    } catch {
      return;
    }
    if (message && typeof message === "object") receive(message);
  });
  ws.addEventListener("close", () => {
    if (state.ws !== ws) return;
    state.online = false;
    if (ws instanceof WorkerSocket && ws.failure) {
      setStatus("closed", "offline play is not available here");
      showError("general", `Offline play is not available here: ${ws.failure}.`, "NO_ENGINE");
      return;
    }
    if (!state.offline && !state.served) {
      // No server has answered this page (a page on a static host, or a server that is
      // down): the page plays in the browser instead, and says so.
      setMode(true, "No server answers here: playing offline, against bots in this browser.");
      return;
    }
    setStatus("closed", offlineText());
    state.reconnect = setTimeout(connect, state.retry);
    state.retry = Math.min(Math.max(state.retry * 2, 250), 8000);
  });
}

function serverSocket() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return new WebSocket(`${scheme}://${location.host}/ws`);
}

/**
 * Plays offline (against the engine in a worker) or on the server: the current room and game
 * are left behind, the sets and bots offered are the new host's.
 * @param {boolean} offline @param {string} [why] said to the player when the page chose
 */
function setMode(offline, why) {
  state.offline = offline;
  clearTimeout(state.reconnect);
  const old = state.ws;
  state.ws = null;
  if (old) old.close();
  state.online = false;
  state.lastSeq = null;
  state.queue = [];
  state.room = null;
  state.game = null;
  state.turn = null;
  state.placed = null;
  state.flock = null;
  for (const entry of state.sets.values()) {
    for (const item of entry.tiles ? entry.tiles.values() : []) for (const url of item.urls || []) URL.revokeObjectURL(url);
  }
  state.sets = new Map();
  state.setOf = new Map();
  byId("game-over").hidden = true;
  byId("events").replaceChildren();
  const mode = buttonById("mode");
  mode.textContent = offline ? "Play on the server" : "Play offline";
  mode.title = offline ? "rooms with other people, on the server this page came from" : "against bots in this browser, without the server";
  document.body.dataset.mode = offline ? "offline" : "server";
  if (why) showError("general", why, "OFFLINE");
  show("lobby");
  connect();
  loadCatalogue();
  loadBots();
}

function nextMessageId() {
  state.sent += 1;
  return `m-${pageStamp}-${state.sent}`;
}

/** @param {WebSocket | WorkerSocket} ws @param {Outgoing} message */
function transmit(ws, message) {
  const { type, data, messageId } = message;
  ws.send(JSON.stringify({ type, data, timestamp: new Date().toISOString(), messageId }));
}

/**
 * Sends a message now, or when the connection is back. `place` is where the action was taken:
 * an ERROR in reply to it is shown there.
 * @param {string} type
 * @param {object} data
 * @param {Place} place
 */
function send(type, data = {}, place = "general") {
  const message = { type, data, messageId: nextMessageId(), place };
  state.origins.set(message.messageId, place);
  // Replies come within seconds; an old id is only kept for a late one.
  if (state.origins.size > 200) state.origins.delete(state.origins.keys().next().value ?? "");
  if (place !== "general") clearError(place);
  if (state.online && state.ws && state.ws.readyState === WebSocket.OPEN) {
    transmit(state.ws, message);
    return;
  }
  state.queue.push(message);
  if (state.queue.length > QUEUE_LIMIT) {
    const dropped = /** @type {Outgoing} */ (state.queue.shift());
    showError(dropped.place, "Not sent: the connection was down for too long. Try again.", "NOT_SENT");
  }
  setStatus(state.ws && state.ws.readyState === WebSocket.OPEN ? "connecting" : "closed", offlineText());
}

function flushQueue() {
  const ws = state.ws;
  if (!ws) return;
  for (const message of state.queue.splice(0)) transmit(ws, message);
}

function offlineText() {
  const waiting = state.queue.length;
  return `offline: reconnecting…${waiting ? ` (${waiting} action${waiting === 1 ? "" : "s"} waiting)` : ""}`;
}

/** @param {string} kind @param {string} text */
function setStatus(kind, text) {
  const status = byId("status");
  status.dataset.state = kind;
  status.textContent = text;
}

/** Says a line to screen readers through the polite live region, a few at once. @param {...Part} parts */
function announce(...parts) {
  state.announcements.push(parts);
  if (state.announcements.length > 1) return;
  setTimeout(() => {
    const said = state.announcements.splice(0).flatMap((line, at) => (at === 0 ? line : [" ", ...line]));
    byId("announcer").replaceChildren(...nodes(said));
  }, 150);
}

// ----- Errors, next to what they refuse -----

/** @param {Place} place @param {string | Part[]} text @param {string} code */
function showError(place, text, code) {
  const parts = typeof text === "string" ? [text] : text;
  if (place !== "general") {
    const box = byId(ERROR_BOXES[place]);
    // Out of sight (the player moved on) it would be missed: say it in the general area.
    if (!box.closest("[hidden]")) {
      box.replaceChildren(...nodes(parts));
      box.dataset.code = code;
      return;
    }
  }
  byId("notice-text").replaceChildren(...nodes(parts));
  byId("notice").dataset.code = code;
  byId("notice").hidden = false;
}

/** @param {Exclude<Place, "general">} place */
function clearError(place) {
  const box = byId(ERROR_BOXES[place]);
  box.textContent = "";
  delete box.dataset.code;
}

/** @param {any} data */
function refused(data) {
  const code = typeof data.code === "string" ? data.code : "ERROR";
  if (code === "INVALID_SESSION") {
    // This browser's session is gone (expired, or another browser holds it): start afresh.
    me.playerId = newId();
    me.token = null;
    localStorage.setItem("carcassonne.playerId", me.playerId);
    localStorage.removeItem("carcassonne.token");
    if (state.ws) state.ws.close();
    return;
  }
  const place = (typeof data.inReplyTo === "string" && state.origins.get(data.inReplyTo)) || "general";
  showError(place, typeof data.message === "string" && data.message ? data.message : code, code);
}

// ----- Messages -----

/** @param {{type?: unknown, data?: any, seq?: unknown}} message */
function receive(message) {
  if (typeof message.seq === "number") state.lastSeq = message.seq;
  const data = message.data && typeof message.data === "object" ? message.data : {};
  switch (message.type) {
    case "CONNECTED":
      if (!state.offline) {
        me.token = data.sessionToken;
        if (me.token) localStorage.setItem("carcassonne.token", me.token);
      }
      state.online = true;
      setStatus("open", state.offline ? "offline: the engine plays in this browser" : "online");
      byId("who").replaceChildren(...(me.name ? ["as ", userText(me.name)] : []));
      // What the player did while offline goes first, in order.
      flushQueue();
      if (!data.roomId) {
        state.room = null;
        state.game = null;
        // A review open meanwhile stays open (it needs no connection); its Back leads to the lobby.
        if (byId("review").hidden) showLobby();
      }
      break;
    case "LIST_ROOMS": renderRooms(Array.isArray(data.rooms) ? data.rooms : []); break;
    case "GAMES": renderGames(Array.isArray(data.games) ? data.games : []); break;
    case "ROOM_STATE": roomState(data); break;
    case "GAME_STATE":
      state.game = data.gameState || null;
      if (state.game && state.game.gameStarted) showGame();
      render();
      break;
    case "GAME_START":
      state.fitted = false;
      state.turn = null;
      state.placed = null;
      state.flock = null;
      byId("events").replaceChildren();
      showGame();
      announce("The game starts.");
      break;
    case "PLAYER_UPDATE": playerUpdate(data.player); break;
    case "TURN_START":
      state.turn = data;
      state.placed = null;
      state.flock = null;
      if (state.game) state.game.currentPlayer = data.currentPlayer;
      chooseRotation();
      render();
      announce(...turnText());
      break;
    case "TILE_PLACED": tilePlaced(data); break;
    case "FLOCK_CHOICE":
      state.flock = data;
      render();
      if (data.playerId === me.playerId) announce(flockText(data));
      break;
    case "TURN_END":
      state.game = data.gameState || state.game;
      state.turn = null;
      state.placed = null;
      state.flock = null;
      logEvents(Array.isArray(data.events) ? data.events : [], data.playerId);
      render();
      break;
    case "TURN_TIMEOUT": log(nameOf(data.playerId), `'s turn was played by the server (${String(data.reason)}).`); break;
    case "GAME_END":
      state.game = data.gameState || state.game;
      state.turn = null;
      state.placed = null;
      state.flock = null;
      logEvents(Array.isArray(data.events) ? data.events : [], null);
      gameOver(data);
      render();
      if (state.game) fit();
      applyView();
      break;
    case "ROOM_LEFT":
      state.room = null;
      state.game = null;
      showLobby();
      break;
    case "ERROR": refused(data); break;
    default: break;
  }
}

// ----- The tile sets and the palette -----

/**
 * What the page's host offers: from the server's GET routes, or offline from the worker.
 * @param {"catalogue" | "tileset" | "bots"} what @param {string} [set]
 */
async function hostData(what, set = "") {
  if (state.offline) {
    if (!(state.ws instanceof WorkerSocket)) throw new Error("the offline engine is not running");
    return state.ws.request(what, set);
  }
  const path = { catalogue: "/tilesets", tileset: `/tilesets/${encodeURIComponent(set)}`, bots: "/bots" }[what];
  const response = await fetch(path);
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  return response.json();
}

/** Fetches the host's tile sets and colour shades, retrying until it has them. */
async function loadCatalogue(delay = 500) {
  try {
    const data = await hostData("catalogue");
    for (const entry of Array.isArray(data.colours) ? data.colours : []) {
      // A shade goes into the CSSOM, never into CSS text; one that is not a plain hex colour is skipped.
      if (entry && typeof entry.name === "string" && /^#[0-9a-fA-F]{3,8}$/.test(String(entry.shade))) {
        state.palette.set(entry.name, entry.shade);
      }
    }
    state.tilesets = (Array.isArray(data.tilesets) ? data.tilesets : []).filter(
      /** @param {any} set */ (set) => set && typeof set.id === "string");
    buildSetChoices();
    // Redrawn in the shades now known. A game's room is not replayed: its players are older than the game's.
    if (state.room && state.room.state === "WAITING") roomState(state.room);
    if (state.game) render();
  } catch {
    setTimeout(() => loadCatalogue(Math.min(delay * 2, 30000)), delay);
  }
}

/**
 * Fills the bot choice from the server's list: the three levels and the operator's own bots.
 * The page's built-in three stay when the list cannot be had.
 */
async function loadBots() {
  try {
    const data = await hostData("bots");
    const bots = (Array.isArray(data.bots) ? data.bots : []).filter(
      /** @param {any} bot */ (bot) => bot && typeof bot.name === "string" && /^[A-Za-z0-9._-]{1,64}$/.test(bot.name));
    if (bots.length === 0) return;
    const select = selectById("bot-level");
    const chosen = select.value;
    select.replaceChildren(...bots.map(/** @param {any} bot */ (bot) => {
      const option = new Option(bot.name, bot.name, false, bot.name === chosen);
      if (typeof bot.description === "string") option.title = bot.description;
      return option;
    }));
  } catch {
    // The built-in three stay.
  }
}

/** @param {string} id */
function setName(id) {
  const found = state.tilesets.find((set) => set.id === id);
  return found && typeof found.name === "string" ? found.name : id;
}

function buildSetChoices() {
  const box = byId("sets");
  for (const child of [...box.children]) if (child.tagName !== "LEGEND") child.remove();
  for (const set of state.tilesets) {
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.name = "set";
    check.value = set.id;
    // Every game needs the base game's land; the other sets are added to it.
    if (set.id === "base") {
      check.checked = true;
      check.disabled = true;
    }
    check.addEventListener("change", updateMaxPlayers);
    const tiles = typeof set.tiles === "number" ? ` (${set.tiles} tiles)` : "";
    // A set from the host's own files (`--tilesets`) says so: its rules are not the engine's.
    const own = set.builtin === false ? ", this host's own" : "";
    label.append(check, ` ${setName(set.id)}${tiles}${own}${set.id === "base" ? ", always" : ""}`);
    box.append(label);
  }
  updateMaxPlayers();
}

function chosenSets() {
  const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("input[name=set]:checked"));
  const chosen = [...boxes].map((box) => box.value);
  return chosen.length ? chosen : ["base"];
}

/** A game seats as many players as its sets bring colours, six at most (as the server counts). */
function updateMaxPlayers() {
  let colours = 0;
  for (const id of chosenSets()) {
    const set = state.tilesets.find((entry) => entry.id === id);
    if (set && Array.isArray(set.colours)) colours += set.colours.length;
  }
  const most = colours >= 2 ? Math.min(colours, 6) : 5;
  const select = selectById("max-players");
  const chosen = Number(select.value) || 3;
  select.replaceChildren();
  for (let count = 2; count <= most; count += 1) select.add(new Option(String(count), String(count)));
  select.value = String(Math.min(chosen, most));
}

/** Loads a tile set's tiles and figure anchors once, retrying with a growing wait until it has them. @param {string} set */
function loadSet(set) {
  if (state.sets.has(set)) return;
  state.sets.set(set, { tiles: null, delay: 500 });
  fetchSet(set);
}

/** @param {string} set */
async function fetchSet(set) {
  const entry = state.sets.get(set);
  // A retry after the page changed hosts: the new host loads its own sets.
  if (!entry) return;
  try {
    const data = await hostData("tileset", set);
    const tiles = new Map();
    for (const item of data.tiles) {
      tiles.set(item.tile.id, item);
      state.setOf.set(item.tile.id, set);
    }
    entry.tiles = tiles;
    render();
  } catch {
    setTimeout(() => fetchSet(set), entry.delay);
    entry.delay = Math.min(entry.delay * 2, 30000);
  }
}

/** @param {string} id @param {number} rotation */
function tileUrl(id, rotation) {
  const set = state.setOf.get(id) || "base";
  if (state.offline) {
    // Offline, the pictures came with the set: each is made an object URL once.
    const loaded = state.sets.get(set);
    const item = loaded && loaded.tiles && loaded.tiles.get(id);
    const index = (rotation / 90) % 4;
    if (!item || !item.pictures || typeof item.pictures[index] !== "string") return "";
    item.urls = item.urls || [];
    item.urls[index] = item.urls[index] || URL.createObjectURL(new Blob([item.pictures[index]], { type: "image/svg+xml" }));
    return item.urls[index];
  }
  return `/tiles/${encodeURIComponent(set)}/${encodeURIComponent(id)}.svg?rotation=${rotation}`;
}

/** Where a figure stands on a feature of a placed tile, in tile units. @param {string} id @param {number} rotation @param {number} feature */
function anchor(id, rotation, feature) {
  const set = state.sets.get(state.setOf.get(id) || "");
  const entry = set && set.tiles && set.tiles.get(id);
  const point = entry && entry.anchors[(rotation / 90) % 4] && entry.anchors[(rotation / 90) % 4][feature];
  return point || [0.5, 0.5];
}

// ----- Lobby and room -----

/** @param {"lobby" | "room" | "game" | "review"} section */
function show(section) {
  // A review left any other way than its Back stops its analyzer too.
  if (section !== "review" && !byId("review").hidden) closeReview();
  for (const id of ["lobby", "room", "game", "review"]) byId(id).hidden = id !== section;
}

/** Reviews a saved game (its JSON text), coming back to `back` after. @param {string} saved @param {"lobby" | "game"} back */
function reviewGame(saved, back) {
  show("review");
  openReview(saved, () => (back === "lobby" ? showLobby() : show("game")));
}

function showLobby() {
  show("lobby");
  inputById("name").value = me.name;
  send("LIST_ROOMS");
  send("LIST_GAMES");
  clearInterval(state.lobbyTimer);
  // Polling is no action of the player's: it is not queued while offline.
  state.lobbyTimer = setInterval(() => { if (!byId("lobby").hidden && state.online) send("LIST_ROOMS"); }, 3000);
}

/** @param {RoomSummary[]} rooms */
function renderRooms(rooms) {
  const body = /** @type {HTMLTableSectionElement} */ (byId("rooms").querySelector("tbody"));
  body.replaceChildren();
  byId("no-rooms").hidden = rooms.length > 0;
  for (const room of rooms) {
    const row = body.insertRow();
    row.insertCell().append(userText(room.name));
    row.insertCell().textContent = `${room.playerCount} / ${room.maxPlayers}`;
    row.insertCell().textContent = (room.tilesets || ["base"]).map(setName).join(", ");
    const watch = room.gameStarted || room.playerCount >= room.maxPlayers;
    const join = button(watch ? "Watch" : "Join", () => withName(() =>
      send("JOIN_ROOM", { roomId: room.id, spectate: watch }, "rooms")));
    join.dataset.room = String(room.id);
    join.setAttribute("aria-label", `${watch ? "Watch" : "Join"} ${isolated(room.name)}`);
    row.insertCell().append(join);
  }
}

/** A finished game from the server, as a saved game's JSON text. @param {string} id */
async function savedGame(id) {
  const response = await fetch(`/games/${encodeURIComponent(id)}`);
  if (!response.ok) throw new Error(`the game could not be had (${response.status})`);
  return response.text();
}

/**
 * The finished games this player played on the server, each with a button to review it.
 * @param {{id: string, name: string, players: {name: string, score: number}[], winners: string[]}[]} games
 */
function renderGames(games) {
  byId("my-games").replaceChildren(...games.map((game) => {
    const item = document.createElement("li");
    /** @type {Part[]} */
    const scores = (Array.isArray(game.players) ? game.players : []).flatMap((player, at) =>
      [...(at === 0 ? [] : [", "]), user(player.name), ` ${Number(player.score)}`]);
    const open = button("Review", () => {
      savedGame(String(game.id)).then((text) => reviewGame(text, "lobby"),
        (error) => showError("rooms", `No review: ${error instanceof Error ? error.message : String(error)}`, "NO_REVIEW"));
    });
    open.dataset.game = String(game.id);
    open.setAttribute("aria-label", `Review ${isolated(game.name)}`);
    item.append(open, " ", ...nodes([user(game.name), ": ", ...scores]));
    return item;
  }));
}

/**
 * Keeps the name typed; when it changed, reconnects under it (the server takes a session's
 * name from CONNECT): `then`'s messages wait in the queue for the new connection.
 * @param {(() => void) | null} then
 */
function withName(then) {
  const name = inputById("name").value.trim();
  if (!name) {
    showError("name", "Choose a name first.", "NO_NAME");
    inputById("name").focus();
    return;
  }
  clearError("name");
  if (name !== me.name) {
    me.name = name;
    localStorage.setItem("carcassonne.name", name);
    state.online = false;
    state.retry = 0;
    if (state.ws) state.ws.close();
  }
  if (then) then();
}

/** @param {Room} room */
function roomState(room) {
  state.room = room;
  for (const set of room.tilesets || ["base"]) loadSet(set);
  const seed = typeof room.seed === "number" ? `seed chosen by the host: ${room.seed}` : "";
  for (const id of ["room-seed", "game-seed"]) {
    byId(id).textContent = seed;
    byId(id).hidden = !seed;
  }
  if (room.state === "WAITING") {
    show("room");
    byId("room-title").replaceChildren(userText(room.name));
    const list = byId("members");
    list.replaceChildren();
    room.players.forEach((player, index) => {
      const item = document.createElement("li");
      const notes = `${player.isBot ? " (bot)" : ""}${player.id === me.playerId ? " (you)" : ""}${player.id === room.host ? " — host" : ""}`;
      item.append(badge(player, index), " ", userText(player.name), notes);
      list.append(item);
    });
    byId("host-controls").hidden = room.host !== me.playerId;
    buttonById("start").disabled = room.players.length < 2;
    buttonById("add-bot").disabled = room.players.length >= room.maxPlayers;
  } else {
    // In a game the room's players are the game's, with their connection: keep the scores fresh.
    if (state.game && Array.isArray(room.players) && room.players.length) state.game.players = room.players;
    showGame();
    render();
  }
}

function showGame() { show("game"); }

/** @param {Player | undefined} player */
function playerUpdate(player) {
  if (!player || !state.game || !Array.isArray(state.game.players)) return;
  const at = state.game.players.findIndex((known) => known.id === player.id);
  if (at >= 0) state.game.players[at] = { ...state.game.players[at], ...player };
  render();
}

// ----- The board -----

/** @param {string | null | undefined} id */
function playerById(id) {
  return state.game && Array.isArray(state.game.players) ? state.game.players.find((player) => player.id === id) : undefined;
}

/** A player's name (its id when the page knows no such player), as a part of a line. @param {string | null | undefined} id */
function nameOf(id) {
  const player = playerById(id) || (state.room && state.room.players.find((known) => known.id === id));
  return user(player ? player.name : id);
}

/** @param {number} x */
function cellX(x) { return x * T; }
/** @param {number} y */
function cellY(y) { return -y * T; }

function myTurn() {
  return Boolean(state.game && state.game.currentPlayer === me.playerId && !state.game.gameEnded);
}

/**
 * Makes an SVG shape a button: focusable, named, and worked by a click, Enter or Space.
 * `key` finds it again after a redraw, so keyboard focus survives one.
 * @param {SVGElement} element @param {string} label @param {string} key @param {() => void} action
 */
function makeButton(element, label, key, action) {
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  element.dataset.focus = key;
  const title = el("title", {});
  title.textContent = label;
  element.append(title);
  element.addEventListener("click", (event) => { event.stopPropagation(); action(); });
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    action();
  });
  // Only keyboard focus moves the view: a mouse press that moved it could miss its target.
  element.addEventListener("focus", () => { if (element.matches(":focus-visible")) keepInView(element); });
}

function render() {
  if (byId("game").hidden || !state.game) return;
  const game = state.game;
  const board = svgById("board");
  const active = document.activeElement;
  const focusKey = active instanceof SVGElement && active.dataset.focus ? active.dataset.focus : null;
  const parked = active === board && state.parked;
  const tiles = svgById("tiles"), figures = svgById("figures"), targets = svgById("targets"), choices = svgById("choices");
  tiles.replaceChildren(); figures.replaceChildren(); targets.replaceChildren(); choices.replaceChildren();
  const players = Array.isArray(game.players) ? game.players : [];
  for (const placed of Object.values(game.tiles || {})) {
    const { x, y } = placed.position;
    tiles.append(el("image", { href: tileUrl(placed.tile.id, placed.rotation), x: cellX(x), y: cellY(y), width: T, height: T, "data-cell": `${x},${y}` }));
    for (const meeple of placed.meeples || []) {
      const [ax, ay] = anchor(placed.tile.id, placed.rotation, meeple.featureId);
      const index = players.findIndex((player) => player.id === meeple.playerId);
      figures.append(figureMark(players[index], index, meeple, feature(placed.tile, meeple.featureId), cellX(x) + ax * T, cellY(y) + ay * T));
      const flock = meeple.figure === "shepherd" && (game.flocks || []).find((candidate) =>
        candidate.position.x === x && candidate.position.y === y && candidate.featureId === meeple.featureId);
      if (flock) figures.append(flockMark(flock, cellX(x) + ax * T, cellY(y) + ay * T));
    }
  }
  if (game.lastPlaced) {
    const { x, y } = game.lastPlaced.position;
    targets.append(el("rect", { x: cellX(x) + 2, y: cellY(y) + 2, width: T - 4, height: T - 4, class: "last" }));
  }
  if (state.turn && myTurn() && !state.placed) drawTargets(targets);
  if (state.placed && state.placed.playerId === me.playerId && !state.flock) drawChoices(choices);
  renderSide();
  if (!state.fitted && Object.keys(game.tiles || {}).length) { fit(); state.fitted = true; }
  applyView();
  restoreFocus(focusKey, parked);
}

/**
 * After a redraw, focus goes back to the element drawn for the same thing; when that is gone
 * (a placement made), to the next thing to choose, or to the board, so the next Tab stays there.
 * @param {string | null} key @param {boolean} parked
 */
function restoreFocus(key, parked) {
  if (!key && !parked) return;
  const board = svgById("board");
  const choosable = /** @type {SVGElement[]} */ ([...board.querySelectorAll("[data-focus]")]);
  const same = key ? choosable.find((element) => element.dataset.focus === key) : undefined;
  state.parked = false;
  if (same) { same.focus(); return; }
  if (choosable.length) { choosable[0].focus(); return; }
  if (!byId("figure-choice").hidden) { buttonById("skip").focus(); return; }
  if (!byId("flock-choice").hidden) { buttonById("drive").focus(); return; }
  board.focus();
  state.parked = true;
}

/** Keeps a focused target or choice on screen. @param {Element} element */
function keepInView(element) {
  const frame = svgById("board").getBoundingClientRect();
  const box = element.getBoundingClientRect();
  const margin = 24;
  let dx = 0, dy = 0;
  if (box.left < frame.left + margin) dx = frame.left + margin - box.left;
  else if (box.right > frame.right - margin) dx = frame.right - margin - box.right;
  if (box.top < frame.top + margin) dy = frame.top + margin - box.top;
  else if (box.bottom > frame.bottom - margin) dy = frame.bottom - margin - box.bottom;
  if (!dx && !dy) return;
  state.view = { ...state.view, x: state.view.x + dx, y: state.view.y + dy };
  applyView();
}

/** @param {Tile} tile @param {number} id */
function feature(tile, id) {
  const features = Array.isArray(tile.features) ? tile.features : [];
  return features.find((candidate) => candidate.id === id) || features[id];
}

/**
 * A figure on the board: its shape says the figure, its colour and seat number the player.
 * @param {Player | undefined} player @param {number} index @param {Meeple} meeple
 * @param {Feature | undefined} where @param {number} cx @param {number} cy
 */
function figureMark(player, index, meeple, where, cx, cy) {
  const fill = shade(player && player.color);
  const seat = player ? seatNumber(player, index) : 0;
  const group = el("g", { class: "figure", "data-figure": meeple.figure });
  const farmer = Boolean(where && where.type === "FIELD");
  // Large enough for the seat number inside to be read.
  group.append(figureShape(meeple.figure, farmer, cx, cy, 1, { fill }));
  if (seat) {
    const mark = el("text", { x: cx, y: cy, fill: inkOn(fill), class: "seat-mark", "text-anchor": "middle", "dominant-baseline": "central" });
    mark.textContent = String(seat);
    group.append(mark);
  }
  const title = el("title", {});
  const who = player ? `${isolated(player.name)} (seat ${seat})` : "a player";
  title.textContent = `${who}: ${figureWords(meeple.figure, where)} on the ${where ? where.type.toLowerCase() : "tile"}`;
  group.append(title);
  return group;
}

/**
 * A figure's shape at (cx, cy), `scale` times its size on the board: a follower a disc (lying
 * down on a field: an ellipse), a big follower a larger disc, an abbot a diamond, a builder a
 * square, a pig a wide rounded block, a shepherd a triangle.
 * @param {string} figure @param {boolean} farmer @param {number} cx @param {number} cy
 * @param {number} scale @param {Record<string, string | number>} attributes
 */
function figureShape(figure, farmer, cx, cy, scale, attributes) {
  /** @param {number} size */
  const s = (size) => size * scale;
  switch (figure) {
    case "abbot":
      return el("rect", { x: cx - s(13), y: cy - s(13), width: s(26), height: s(26), transform: `rotate(45 ${cx} ${cy})`, ...attributes });
    case "builder":
      return el("rect", { x: cx - s(14), y: cy - s(14), width: s(28), height: s(28), ...attributes });
    case "pig":
      return el("rect", { x: cx - s(19), y: cy - s(11), width: s(38), height: s(22), rx: s(10), ...attributes });
    case "shepherd":
      return el("polygon", { points: `${cx},${cy - s(19)} ${cx + s(17)},${cy + s(12)} ${cx - s(17)},${cy + s(12)}`, ...attributes });
    default: {
      const r = s(figure === "big_follower" ? 18 : 14);
      return farmer
        ? el("ellipse", { cx, cy, rx: r + s(5), ry: r - s(2), ...attributes })
        : el("circle", { cx, cy, r, ...attributes });
    }
  }
}

/**
 * A shepherd's flock beside it: a white fleece with the number of its sheep.
 * @param {Flock} flock @param {number} cx @param {number} cy
 */
function flockMark(flock, cx, cy) {
  const group = el("g", { class: "flock" });
  group.append(el("ellipse", { cx: cx + 24, cy: cy - 16, rx: 15, ry: 11 }));
  const count = el("text", { x: cx + 24, y: cy - 16, class: "sheep-count", "text-anchor": "middle", "dominant-baseline": "central" });
  count.textContent = String(flock.sheep);
  const title = el("title", {});
  title.textContent = `a flock of ${flock.sheep} sheep`;
  group.append(count, title);
  return group;
}

/** @param {SVGElement} layer */
function drawTargets(layer) {
  const turn = /** @type {Turn} */ (state.turn);
  /** @type {Map<string, {x: number, y: number, rotations: number[]}>} */
  const byCell = new Map();
  for (const option of turn.validPlacements || []) {
    const { x, y } = option.position;
    const key = `${x},${y}`;
    if (!byCell.has(key)) byCell.set(key, { x, y, rotations: [] });
    /** @type {{rotations: number[]}} */ (byCell.get(key)).rotations.push(option.rotation);
  }
  // Tab goes through them as text is read: north first, then west to east.
  const cells = [...byCell.values()].sort((a, b) => b.y - a.y || a.x - b.x);
  for (const { x, y, rotations } of cells) {
    const fits = rotations.includes(state.rotation);
    const target = el("rect", { x: cellX(x) + 4, y: cellY(y) + 4, width: T - 8, height: T - 8, class: fits ? "target" : "target other", "data-cell": `${x},${y}` });
    const label = fits
      ? `place the tile at ${x}, ${y} turned ${state.rotation}°`
      : `at ${x}, ${y} the tile fits turned ${listing(rotations.map((rotation) => `${rotation}°`))}: turn it to ${rotations[0]}°`;
    makeButton(target, label, `cell ${x},${y}`, () => {
      if (rotations.includes(state.rotation)) send("PLACE_TILE", { position: { x, y }, rotation: state.rotation }, "game");
      else { state.rotation = rotations[0]; render(); }
    });
    layer.append(target);
  }
}

/** "a farmer", "a big follower", "an abbot". @param {string} figure @param {Feature | undefined} where */
function figureWords(figure, where) {
  const field = where && where.type === "FIELD";
  if (figure === "follower") return field ? "a farmer" : "a follower";
  if (figure === "big_follower") return field ? "a big farmer" : "a big follower";
  if (figure === "abbot") return "an abbot";
  const name = figure.replaceAll("_", " ");
  return `${"aeiou".includes(name[0] ?? "") ? "an" : "a"} ${name}`;
}

/**
 * The sides a feature touches on the board, its tile turned by `rotation`, clockwise from
 * north: for a field, whole sides, then corners it wraps ("the north-east corner"), then
 * single half sides ("west half of north"); whole sides for anything else.
 * @param {Feature} where @param {number} rotation
 */
function sidesTouched(where, rotation) {
  const turns = Math.round(rotation / 90) % 4;
  const halves = new Set((where.halfEdges || []).map((half) => HALVES.indexOf(half)).filter((at) => at >= 0).map((at) => (at + 2 * turns) % 8));
  if (halves.size) {
    const sides = [], corners = [], singles = [];
    for (let side = 0; side < 4; side += 1) {
      if (halves.has(2 * side) && halves.has(2 * side + 1)) {
        sides.push(SIDE_WORDS[side]);
        halves.delete(2 * side);
        halves.delete(2 * side + 1);
      }
    }
    // Half 2k+1 and half 2k+2 meet at a corner: N_e and E_n at the north-east one.
    for (let side = 0; side < 4; side += 1) {
      const before = 2 * side + 1, after = (2 * side + 2) % 8;
      if (halves.has(before) && halves.has(after)) {
        corners.push(`the ${CORNER_WORDS[side]} corner`);
        halves.delete(before);
        halves.delete(after);
      }
    }
    for (const at of [...halves].sort((a, b) => a - b)) {
      const half = HALVES[at];
      singles.push(`${LETTER_WORDS[half[2]]} half of ${LETTER_WORDS[half[0]]}`);
    }
    return [...sides, ...corners, ...singles];
  }
  const sides = (where.edges || []).map((side) => SIDES.indexOf(side)).filter((at) => at >= 0).map((at) => (at + turns) % 4);
  return [...new Set(sides)].sort((a, b) => a - b).map((side) => SIDE_WORDS[side]);
}

/**
 * What each figure choice is, in words no two choices share: the figure, the feature, its
 * marks and the sides it touches; the feature's number when that is still not enough.
 * @param {Placed} placed @param {FigureOption[]} options
 */
function choiceLabels(placed, options) {
  const labels = options.map((option) => {
    const where = feature(placed.tile, option.featureId);
    if (!where) return `${figureWords(option.figure, where)} on feature ${option.featureId}`;
    const marks = (where.marks || []).map((mark) => `${/^[aeiou]/.test(mark) ? "an" : "a"} ${mark}`);
    const sides = sidesTouched(where, placed.rotation);
    return `${figureWords(option.figure, where)} on the ${where.type.toLowerCase()}`
      + (marks.length ? ` with ${listing(marks)}` : "")
      + (sides.length ? ` touching ${listing(sides)}` : "");
  });
  return labels.map((label, at) =>
    labels.indexOf(label) === labels.lastIndexOf(label) ? label : `${label} (feature ${options[at].featureId})`);
}

/** @param {SVGElement} layer */
function drawChoices(layer) {
  const placed = /** @type {Placed} */ (state.placed);
  const { x, y } = placed.position;
  const options = placed.meepleOptions || [];
  const labels = choiceLabels(placed, options);
  const fill = shade((playerById(me.playerId) || { color: "" }).color);
  /** @type {Record<number, number>} */
  const seen = {};
  options.forEach((option, at) => {
    const [ax, ay] = anchor(placed.tile.id, placed.rotation, option.featureId);
    const shift = (seen[option.featureId] = (seen[option.featureId] || 0) + 1) - 1;
    const cx = cellX(x) + ax * T + shift * 14, cy = cellY(y) + ay * T;
    const farmer = Boolean(feature(placed.tile, option.featureId)?.type === "FIELD");
    const choice = figureShape(option.figure, farmer, cx, cy, 0.72, { fill, class: "choice", "data-feature": option.featureId, "data-figure": option.figure });
    makeButton(choice, labels[at], `figure ${option.featureId} ${option.figure}`, () =>
      send("PLACE_MEEPLE", { featureId: option.featureId, figure: option.figure }, "game"));
    layer.append(choice);
  });
  for (const position of placed.abbotRecalls || []) {
    const recall = el("circle", { cx: cellX(position.x) + T / 2, cy: cellY(position.y) + T / 2, r: 16, class: "choice recall" });
    makeButton(recall, `take your abbot back from ${position.x}, ${position.y}`, `recall ${position.x},${position.y}`, () =>
      send("RECALL_ABBOT", { position }, "game"));
    layer.append(recall);
  }
}

function renderSide() {
  const game = /** @type {GameState} */ (state.game);
  const current = game.currentPlayer;
  const text = turnText();
  if (byId("turn").textContent !== plain(text)) byId("turn").replaceChildren(...nodes(text));
  const tile = state.turn && state.turn.currentTile;
  byId("drawn").hidden = !tile || game.gameEnded;
  if (tile) {
    const rotation = state.placed ? state.placed.rotation : state.rotation;
    const picture = /** @type {HTMLImageElement} */ (byId("drawn-tile"));
    picture.src = tileUrl(tile.id, rotation);
    picture.alt = `the drawn tile${tile.name ? `, ${String(tile.name)}` : ""}, turned ${rotation}°`;
  }
  const mine = myTurn() && !state.placed;
  buttonById("rotate-left").disabled = !mine;
  buttonById("rotate-right").disabled = !mine;
  const choosing = state.placed && state.placed.playerId === me.playerId
    && ((state.placed.meepleOptions || []).length + (state.placed.abbotRecalls || []).length) > 0;
  byId("figure-choice").hidden = !choosing || Boolean(state.flock);
  const tending = Boolean(state.flock && state.flock.playerId === me.playerId);
  byId("flock-choice").hidden = !tending;
  if (state.flock && tending) {
    byId("flock-text").textContent = flockText(state.flock);
    buttonById("grow").disabled = !state.flock.canGrow;
  }
  const body = /** @type {HTMLTableSectionElement} */ (byId("scores").querySelector("tbody"));
  body.replaceChildren();
  (game.players || []).forEach((player, index) => {
    const row = body.insertRow();
    if (player.id === current && !game.gameEnded) {
      row.className = "current";
      row.setAttribute("aria-current", "true");
    }
    row.insertCell().append(badge(player, index));
    const name = row.insertCell();
    name.append(userText(player.name), `${player.isBot ? " (bot)" : ""}${player.id === me.playerId ? " (you)" : ""}`);
    if (player.connected === false) { name.classList.add("offline"); name.append(" — offline"); }
    // Goods and titles, where the sets in play declare them: a line under the name, as a
    // column of its own leaves no room for six players.
    const held = (player.titles || []).map((title) => title.replaceAll("_", " "));
    const goods = [tokenText(player.tokens || {}), ...held].filter((text) => text).join("; ");
    if (goods) {
      const line = document.createElement("div");
      line.className = "held";
      line.textContent = goods;
      name.append(line);
    }
    row.insertCell().textContent = String(player.score);
    row.insertCell().textContent = `${player.meeples}${player.bigFollowers ? " + 1 big" : ""}${specialsText(player)}`;
  });
  const left = typeof game.tilesLeft === "number" ? [`Tiles left: ${game.tilesLeft}`] : [];
  if (game.hiddenTiles) left.push(`${game.hiddenTiles} under hills`);
  if (game.sheepBag) left.push(`sheep bag: ${game.sheepBag.tokens} token${game.sheepBag.tokens === 1 ? "" : "s"}, ${game.sheepBag.wolves} wol${game.sheepBag.wolves === 1 ? "f" : "ves"}`);
  byId("tiles-left").textContent = left.join("; ");
}

/** What the turn stands at, for the side panel and announcements. @returns {Part[]} */
function turnText() {
  const game = state.game;
  if (!game) return [];
  if (game.gameEnded) return ["The game is over."];
  const current = game.currentPlayer;
  const second = Boolean(state.turn && state.turn.secondTurn);
  if (current !== me.playerId) {
    if (state.flock) return [nameOf(current), " tends their flock."];
    return [nameOf(current), second ? "'s second turn (builder)." : "'s turn."];
  }
  if (state.flock) return ["Your turn: grow the flock or drive it to market."];
  if (state.placed) return ["Your turn: a figure, or none."];
  return [second ? "Your second turn (builder): place the tile." : "Your turn: place the tile."];
}

/** The flock choice in words: the flock, the bag, the risk. @param {FlockChoice} flock */
function flockText(flock) {
  const bag = flock.bag;
  const risk = bag.tokens ? ` A wolf is ${bag.wolves} of the ${bag.tokens} tokens in the bag.` : " The bag is empty.";
  return `Your shepherd's field grew: your flock has ${flock.sheep} sheep.${risk}`;
}

/**
 * The special figures in hand, and any figure of the room's own sets by its id (underscores
 * read as spaces), as " + builder, pig, 2 giants".
 * @param {Player} player
 */
function specialsText(player) {
  /** @type {[number | undefined, string][]} */
  const kinds = [[player.builders, "builder"], [player.pigs, "pig"], [player.shepherds, "shepherd"]];
  for (const [id, count] of Object.entries(player.figures ?? {})) kinds.push([count, id.replaceAll("_", " ")]);
  const held = kinds.filter(([count]) => count).map(([count, name]) => (count === 1 ? name : `${count} ${name}s`));
  return held.length ? ` + ${held.join(", ")}` : "";
}

/**
 * Tokens held, as "wine 2, grain 0, cloth 1".
 * @param {Record<string, number>} tokens
 */
function tokenText(tokens) {
  return Object.entries(tokens).map(([kind, count]) => `${kind} ${count}`).join(", ");
}

/** @param {Placed} data */
function tilePlaced(data) {
  if (state.game) {
    state.game.tiles[`${data.position.x},${data.position.y}`] = { tile: data.tile, position: data.position, rotation: data.rotation, meeples: [] };
    state.game.lastPlaced = { position: data.position, rotation: data.rotation };
  }
  state.placed = data;
  render();
  if (data.playerId === me.playerId && !byId("figure-choice").hidden) announce("Tile placed: choose a figure, or none.");
}

function chooseRotation() {
  if (!state.turn) return;
  const rotations = (state.turn.validPlacements || []).map((option) => option.rotation);
  if (!rotations.includes(state.rotation) && rotations.length) state.rotation = rotations[0];
}

/** @param {number} step */
function rotate(step) {
  if (!myTurn() || state.placed) return;
  state.rotation = (state.rotation + step + 360) % 360;
  render();
  announce(`The tile is turned ${state.rotation}°.`);
}

// ----- Events -----

/** Adds a line to the game's events, and says it. @param {...Part} parts */
function log(...parts) {
  const item = document.createElement("li");
  item.append(...nodes(parts));
  byId("events").prepend(item);
  announce(...parts);
}

/** @param {any[]} events @param {string | null} actor */
function logEvents(events, actor) {
  const players = (state.game && state.game.players) || [];
  /** @param {number} seat @returns {Part[]} */
  const seatName = (seat) => (players[seat] ? [user(players[seat].name), ` (seat ${seat + 1})`] : [`seat ${seat + 1}`]);
  for (const event of events) {
    if (event.event === "feature_scored" && event.reason === "market") {
      const who = listed((event.scorers || []).map(seatName));
      log(...who, ` drove ${event.scorers && event.scorers.length > 1 ? "their flocks" : "a flock"} to market: ${event.points} point${event.points === 1 ? "" : "s"}.`);
    } else if (event.event === "sheep_drawn") {
      log(...seatName(event.player), `'s flock grew by ${event.sheep} sheep.`);
    } else if (event.event === "wolf_drawn") {
      log("A wolf! ", ...seatName(event.player), "'s flock is lost: the field's shepherds go home with nothing.");
    } else if (event.event === "tile_hidden") {
      log(...seatName(event.player), " placed a hill: a tile went under it, face down, out of the game.");
    } else if (event.event === "extra_turn") {
      log(...seatName(event.player), "'s builder's road or city grew: a second turn.");
    } else if (event.event === "feature_scored" && event.reason === "defeated") {
      // A declared rivalry (The Cult): a rival beside it was completed first.
      const who = listed((event.scorers || []).map(seatName));
      log(...who, ` lost the ${String(event.kind)} to a rival completed first (${String(event.modifier).replaceAll("_", " ")}): no points, the figure goes home.`);
    } else if (event.event === "feature_scored") {
      const who = listed((event.scorers || []).map(seatName));
      const parts = [`${event.tiles} tile${event.tiles === 1 ? "" : "s"}`];
      // Every declared mark by its id: pennants, inns, goods, a siege.
      for (const [mark, count] of Object.entries(event.marks || {})) {
        const name = String(mark).replaceAll("_", " ");
        parts.push(Number(count) > 1 ? `${name} × ${count}` : name);
      }
      if (event.cities) parts.push(`${event.cities} cit${event.cities === 1 ? "y" : "ies"}`);
      if (event.modifier && event.modifier !== "none") parts.push(String(event.modifier).replaceAll("_", " "));
      const when = event.reason === "game_end" ? " at the end" : "";
      const what = event.farmers ? "a field" : `${event.complete ? "a complete" : "an unfinished"} ${String(event.kind)}`;
      log(...who, ` scored ${event.points} for ${what} (${parts.join(", ")})${when}.`);
    } else if (event.event === "tokens_taken") {
      log(...seatName(event.player), ` took ${event.count} ${String(event.token).replaceAll("_", " ")}.`);
    } else if (event.event === "tokens_scored") {
      const who = listed((event.scorers || []).map(seatName));
      log(...who, ` held the most ${String(event.token).replaceAll("_", " ")} (${event.held}) and scored ${event.points}${event.scorers.length > 1 ? " each" : ""}.`);
    } else if (event.event === "title_taken") {
      log(...seatName(event.player), ` took the title ${String(event.title).replaceAll("_", " ")} (${event.tiles} tiles).`);
    } else if (event.event === "title_scored") {
      log(...seatName(event.player), ` held ${String(event.title).replaceAll("_", " ")} and scored ${event.points} for ${event.features} completed.`);
    } else if (event.event === "tile_discarded") {
      log("A tile that fit nowhere was discarded.");
    }
  }
  if (actor && !events.some((event) => event.event === "feature_scored")) log(nameOf(actor), " played.");
}

/** @param {any} data */
function gameOver(data) {
  const winners = listed((Array.isArray(data.winners) ? data.winners : [data.winner]).map(/** @param {string} id */ (id) => [nameOf(id)]));
  const box = byId("game-over");
  box.hidden = false;
  box.replaceChildren(...nodes([...winners, " won. "]));
  const link = document.createElement("a");
  link.textContent = "Download the game";
  link.id = "download";
  if (state.ws instanceof WorkerSocket) {
    // Offline the game is in the worker: saved there, downloaded from memory.
    state.ws.request("finished").then((saved) => {
      if (typeof saved !== "string") return;
      if (state.download) URL.revokeObjectURL(state.download);
      state.download = URL.createObjectURL(new Blob([saved], { type: "application/json" }));
      link.href = state.download;
      link.download = "carcassonne-offline-game.json";
    }, () => { link.remove(); });
  } else {
    link.href = `/games/${encodeURIComponent(String(data.gameId || (state.room && state.room.roomId)))}`;
  }
  box.append(link);
  const back = button("Back to the lobby", () => {
    state.room = null;
    state.game = null;
    byId("game-over").hidden = true;
    byId("events").replaceChildren();
    showLobby();
  });
  const again = button("Review this game", () => {
    const saved = state.ws instanceof WorkerSocket
      ? state.ws.request("finished")
      : savedGame(String(data.gameId || (state.room && state.room.roomId)));
    saved.then((text) => {
      if (typeof text === "string") reviewGame(text, "game");
    }, (error) => showError("game", `No review: ${error instanceof Error ? error.message : String(error)}`, "NO_REVIEW"));
  });
  again.id = "review-game";
  box.append(" ", back, " ", again);
  announce("The game is over: ", ...winners, " won.");
}

// ----- Pan and zoom -----

function applyView() {
  const { x, y, scale } = state.view;
  svgById("viewport").setAttribute("transform", `translate(${x} ${y}) scale(${scale})`);
}

function fit() {
  const cells = Object.values((state.game && state.game.tiles) || {}).map((placed) => placed.position);
  if (!cells.length) return;
  const box = svgById("board").getBoundingClientRect();
  const xs = cells.map((cell) => cell.x), ys = cells.map((cell) => cell.y);
  const width = (Math.max(...xs) - Math.min(...xs) + 3) * T, height = (Math.max(...ys) - Math.min(...ys) + 3) * T;
  const scale = Math.min(1, Math.max(0.15, Math.min(box.width / width, box.height / height)));
  const midX = ((Math.max(...xs) + Math.min(...xs)) / 2 + 0.5) * T, midY = (-(Math.max(...ys) + Math.min(...ys)) / 2 + 0.5) * T;
  state.view = { scale, x: box.width / 2 - midX * scale, y: box.height / 2 - midY * scale };
}

/** @param {number} factor @param {number} [cx] @param {number} [cy] */
function zoom(factor, cx, cy) {
  const box = svgById("board").getBoundingClientRect();
  const px = cx === undefined ? box.width / 2 : cx, py = cy === undefined ? box.height / 2 : cy;
  const scale = Math.min(3, Math.max(0.1, state.view.scale * factor));
  const real = scale / state.view.scale;
  state.view = { scale, x: px - (px - state.view.x) * real, y: py - (py - state.view.y) * real };
  applyView();
}

/** @param {number} dx @param {number} dy */
function pan(dx, dy) {
  state.view = { ...state.view, x: state.view.x + dx, y: state.view.y + dy };
  applyView();
}

function setUpBoard() {
  const board = svgById("board");
  /** @type {{x: number, y: number, view: {x: number, y: number, scale: number}} | null} */
  let drag = null;
  board.addEventListener("pointerdown", (event) => {
    state.parked = false;
    if (event.target instanceof Element && event.target.closest(".target, .choice")) return;
    drag = { x: event.clientX, y: event.clientY, view: { ...state.view } };
    board.setPointerCapture(event.pointerId);
    board.classList.add("dragging");
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag) return;
    state.view = { ...drag.view, x: drag.view.x + event.clientX - drag.x, y: drag.view.y + event.clientY - drag.y };
    applyView();
  });
  const stop = () => { drag = null; board.classList.remove("dragging"); };
  board.addEventListener("pointerup", stop);
  board.addEventListener("pointercancel", stop);
  board.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = board.getBoundingClientRect();
    zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - box.left, event.clientY - box.top);
  }, { passive: false });
  // The arrow keys pan and + and − zoom while the board or anything on it has focus.
  board.addEventListener("keydown", (event) => {
    /** @type {Record<string, () => void>} */
    const keys = {
      ArrowLeft: () => pan(60, 0), ArrowRight: () => pan(-60, 0), ArrowUp: () => pan(0, 60), ArrowDown: () => pan(0, -60),
      "+": () => zoom(1.25), "=": () => zoom(1.25), "-": () => zoom(0.8),
    };
    const action = keys[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  });
  byId("zoom-in").addEventListener("click", () => zoom(1.25));
  byId("zoom-out").addEventListener("click", () => zoom(0.8));
  byId("recentre").addEventListener("click", () => { fit(); applyView(); });
}

// ----- Controls -----

function createRoom() {
  /** @type {Record<string, unknown>} */
  const data = { roomName: inputById("room-name").value.trim() || "Room", maxPlayers: Number(selectById("max-players").value), tilesets: chosenSets() };
  if (inputById("abbots").checked) data.rules = { abbots: true };
  if (selectById("turn-seconds").value) data.turnSeconds = Number(selectById("turn-seconds").value);
  // A chosen seed is shown to everyone in the room (whoever knows it knows every draw).
  const seed = inputById("seed").value.trim();
  if (seed && !/^\d{1,15}$/.test(seed)) {
    byId("create-error").textContent = "The seed is a whole number of at most 15 digits, or empty for a random one.";
    return;
  }
  if (seed) data.seed = Number(seed);
  send("CREATE_ROOM", data, "create");
}

function setUpControls() {
  byId("name-form").addEventListener("submit", (event) => { event.preventDefault(); withName(null); });
  byId("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    withName(createRoom);
  });
  byId("add-bot").addEventListener("click", () => {
    const level = selectById("bot-level").value;
    send("ADD_BOT", { botName: `${level[0].toUpperCase()}${level.slice(1)} bot`, difficulty: level }, "room");
  });
  byId("start").addEventListener("click", () => send("START_GAME", {}, "room"));
  byId("leave").addEventListener("click", () => { if (state.room) send("LEAVE_ROOM", { roomId: state.room.roomId }, "room"); });
  byId("skip").addEventListener("click", () => send("SKIP_MEEPLE", {}, "game"));
  byId("grow").addEventListener("click", () => send("TEND_FLOCK", { grow: true }, "game"));
  byId("drive").addEventListener("click", () => send("TEND_FLOCK", { grow: false }, "game"));
  byId("rotate-left").addEventListener("click", () => rotate(-90));
  byId("rotate-right").addEventListener("click", () => rotate(90));
  byId("notice-close").addEventListener("click", () => { byId("notice").hidden = true; });
  byId("mode").addEventListener("click", () => setMode(!state.offline));
  byId("review-file").addEventListener("change", () => {
    const input = inputById("review-file");
    const file = input.files && input.files[0];
    if (!file) return;
    // A saved game is small; a file far larger than any is refused before it is read.
    if (file.size > 16 * 1024 * 1024) {
      showError("general", [user(file.name), " is too large to be a saved game."], "NO_REVIEW");
      return;
    }
    file.text().then((text) => { input.value = ""; reviewGame(text, "lobby"); },
      () => showError("general", [user(file.name), " could not be read."], "NO_REVIEW"));
  });
  setUpReview();
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "r" || event.key === "R") rotate(90);
    if (event.key === "q" || event.key === "Q") rotate(-90);
  });
  window.addEventListener("resize", applyView);
}

setUpBoard();
setUpControls();
if (state.offline) setMode(true);
else {
  loadCatalogue();
  loadBots();
  connect();
}
