// The Carcassonne web page: lobby, room and game over the server's WebSocket protocol (1.1).
// The board is drawn from the server's tile pictures and figure anchors; every rule is the
// server's: the page shows what it is told and sends what the player chooses.

const T = 100; // a tile's side in board units
const COLOURS = { red: "#d33", blue: "#36c", green: "#2a2", yellow: "#eb2", black: "#222", gray: "#999" };
const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";

const me = {
  playerId: localStorage.getItem("carcassonne.playerId") || newId(),
  name: localStorage.getItem("carcassonne.name") || "",
  token: localStorage.getItem("carcassonne.token"),
};
localStorage.setItem("carcassonne.playerId", me.playerId);

const state = {
  ws: null, lastSeq: null, sent: 0, retry: 500,
  room: null, game: null, turn: null, placed: null, rotation: 0,
  sets: {}, setOf: {}, view: { x: 0, y: 0, scale: 0.6 }, fitted: false, lobbyTimer: null, afterConnect: null,
};

function newId() {
  return "p-" + (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2) + Date.now().toString(36));
}

// ----- The connection -----

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  state.ws = ws;
  setStatus("connecting", "connecting…");
  ws.onopen = () => {
    state.retry = 500;
    const data = { playerId: me.playerId, name: me.name || "Player", color: "" };
    if (me.token) data.sessionToken = me.token;
    if (state.lastSeq !== null) data.lastSeq = state.lastSeq;
    send("CONNECT", data);
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    setStatus("closed", "offline: reconnecting…");
    setTimeout(connect, state.retry);
    state.retry = Math.min(Math.max(state.retry * 2, 250), 8000);
  };
}

function send(type, data = {}) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.sent += 1;
  state.ws.send(JSON.stringify({ type, data, timestamp: new Date().toISOString(), messageId: `${me.playerId}-${Date.now()}-${state.sent}` }));
}

function setStatus(kind, text) {
  $("status").dataset.state = kind;
  $("status").textContent = text;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 4000);
}

function receive(message) {
  if (typeof message.seq === "number") state.lastSeq = message.seq;
  const data = message.data || {};
  switch (message.type) {
    case "CONNECTED":
      me.token = data.sessionToken;
      localStorage.setItem("carcassonne.token", me.token);
      setStatus("open", "online");
      $("who").textContent = me.name ? `as ${me.name}` : "";
      if (!data.roomId) showLobby();
      if (state.afterConnect) { const next = state.afterConnect; state.afterConnect = null; next(); }
      break;
    case "LIST_ROOMS": renderRooms(data.rooms || []); break;
    case "ROOM_STATE": roomState(data); break;
    case "GAME_STATE":
      state.game = data.gameState;
      if (state.game && state.game.gameStarted) showGame();
      render();
      break;
    case "GAME_START": state.fitted = false; showGame(); break;
    case "TURN_START":
      state.turn = data; state.placed = null;
      if (state.game) state.game.currentPlayer = data.currentPlayer;
      chooseRotation();
      render();
      break;
    case "TILE_PLACED": tilePlaced(data); break;
    case "TURN_END":
      state.game = data.gameState; state.turn = null; state.placed = null;
      logEvents(data.events || [], data.playerId);
      render();
      break;
    case "TURN_TIMEOUT": log(`${nameOf(data.playerId)}'s turn was played by the server (${data.reason}).`); break;
    case "GAME_END":
      state.game = data.gameState; state.turn = null; state.placed = null;
      logEvents(data.events || [], null);
      gameOver(data);
      render();
      fit();
      applyView();
      break;
    case "ROOM_LEFT": state.room = null; state.game = null; showLobby(); break;
    case "ERROR":
      if (data.code === "INVALID_SESSION") {
        // This browser's session is gone (expired, or another browser holds it): start afresh.
        me.playerId = newId(); me.token = null;
        localStorage.setItem("carcassonne.playerId", me.playerId);
        localStorage.removeItem("carcassonne.token");
        state.ws.close();
        return;
      }
      toast(`${data.code}: ${data.message}`);
      break;
    default: break;
  }
}

// ----- Lobby and room -----

function show(section) {
  for (const id of ["lobby", "room", "game"]) $(id).hidden = id !== section;
}

function showLobby() {
  show("lobby");
  $("name").value = me.name;
  send("LIST_ROOMS");
  clearInterval(state.lobbyTimer);
  state.lobbyTimer = setInterval(() => { if (!$("lobby").hidden) send("LIST_ROOMS"); }, 3000);
}

function renderRooms(rooms) {
  const body = $("rooms").querySelector("tbody");
  body.replaceChildren();
  $("no-rooms").hidden = rooms.length > 0;
  for (const room of rooms) {
    const row = body.insertRow();
    row.insertCell().textContent = room.name;
    row.insertCell().textContent = `${room.playerCount} / ${room.maxPlayers}`;
    row.insertCell().textContent = (room.tilesets || ["base"]).join(", ");
    const cell = row.insertCell();
    const join = button(room.gameStarted ? "Watch" : "Join", () => withName(() =>
      send("JOIN_ROOM", { roomId: room.id, spectate: room.gameStarted || room.playerCount >= room.maxPlayers })));
    join.dataset.room = room.id;
    cell.append(join);
  }
}

function button(text, onClick) {
  const element = document.createElement("button");
  element.textContent = text;
  element.addEventListener("click", onClick);
  return element;
}

/// Keeps the name typed; when it changed, reconnects under it (the server takes a session's
/// name from CONNECT) and sends `then` once connected, else sends `then` now.
function withName(then) {
  const name = $("name").value.trim();
  if (!name) { toast("Choose a name first."); $("name").focus(); return; }
  if (name === me.name) { if (then) then(); return; }
  me.name = name;
  localStorage.setItem("carcassonne.name", name);
  state.afterConnect = then;
  state.retry = 0;
  state.ws.close();
}

function roomState(room) {
  state.room = room;
  for (const set of room.tilesets || ["base"]) loadSet(set);
  if (room.state === "WAITING") {
    show("room");
    $("room-title").textContent = room.name;
    const list = $("members");
    list.replaceChildren();
    for (const player of room.players) {
      const item = document.createElement("li");
      item.innerHTML = `<span class="swatch" style="background:${colour(player.color)}"></span> `;
      item.append(`${player.name}${player.isBot ? " (bot)" : ""}${player.id === room.host ? " — host" : ""}`);
      list.append(item);
    }
    const host = room.host === me.playerId;
    $("host-controls").hidden = !host;
    $("start").disabled = room.players.length < 2;
    $("add-bot").disabled = room.players.length >= room.maxPlayers;
  } else {
    showGame();
    render();
  }
}

function showGame() { show("game"); }

// ----- Tiles -----

async function loadSet(set) {
  if (state.sets[set]) return;
  state.sets[set] = { loading: true };
  const response = await fetch(`/tilesets/${encodeURIComponent(set)}`);
  if (!response.ok) return;
  const data = await response.json();
  const tiles = {};
  for (const entry of data.tiles) {
    tiles[entry.tile.id] = entry;
    state.setOf[entry.tile.id] = set;
  }
  state.sets[set] = { tiles };
  render();
}

function tileUrl(id, rotation) {
  const set = state.setOf[id] || "base";
  return `/tiles/${encodeURIComponent(set)}/${encodeURIComponent(id)}.svg?rotation=${rotation}`;
}

function anchor(id, rotation, feature) {
  const set = state.sets[state.setOf[id]];
  const entry = set && set.tiles && set.tiles[id];
  const point = entry && entry.anchors[(rotation / 90) % 4][feature];
  return point || [0.5, 0.5];
}

// ----- The board -----

function colour(name) { return COLOURS[name] || name || "#777"; }

function playerById(id) {
  return state.game && state.game.players ? state.game.players.find((player) => player.id === id) : null;
}

function nameOf(id) {
  const player = playerById(id) || (state.room && state.room.players.find((p) => p.id === id));
  return player ? player.name : id;
}

function el(name, attributes) {
  const element = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function cellX(x) { return x * T; }
function cellY(y) { return -y * T; }

function myTurn() {
  return state.game && state.game.currentPlayer === me.playerId && !state.game.gameEnded;
}

function render() {
  if ($("game").hidden || !state.game) return;
  const game = state.game;
  const tiles = $("tiles"), figures = $("figures"), targets = $("targets"), choices = $("choices");
  tiles.replaceChildren(); figures.replaceChildren(); targets.replaceChildren(); choices.replaceChildren();
  for (const placed of Object.values(game.tiles || {})) {
    const { x, y } = placed.position;
    tiles.append(el("image", { href: tileUrl(placed.tile.id, placed.rotation), x: cellX(x), y: cellY(y), width: T, height: T, "data-cell": `${x},${y}` }));
    for (const meeple of placed.meeples || []) {
      const [ax, ay] = anchor(placed.tile.id, placed.rotation, meeple.featureId);
      const player = playerById(meeple.playerId);
      const fill = colour(player && player.color);
      const cx = cellX(x) + ax * T, cy = cellY(y) + ay * T;
      const feature = placed.tile.features[meeple.featureId];
      const farmer = feature && feature.type === "FIELD";
      if (meeple.figure === "abbot") {
        figures.append(el("rect", { x: cx - 9, y: cy - 9, width: 18, height: 18, transform: `rotate(45 ${cx} ${cy})`, fill, class: "figure" }));
      } else {
        const r = meeple.figure === "big_follower" ? 15 : 11;
        figures.append(farmer
          ? el("ellipse", { cx, cy, rx: r + 4, ry: r - 4, fill, class: "figure" })
          : el("circle", { cx, cy, r, fill, class: "figure" }));
      }
    }
  }
  if (game.lastPlaced) {
    const { x, y } = game.lastPlaced.position;
    targets.append(el("rect", { x: cellX(x) + 2, y: cellY(y) + 2, width: T - 4, height: T - 4, class: "last" }));
  }
  if (state.turn && myTurn() && !state.placed) drawTargets(targets);
  if (state.placed && state.placed.playerId === me.playerId) drawChoices(choices);
  renderSide();
  if (!state.fitted && Object.keys(game.tiles || {}).length) { fit(); state.fitted = true; }
  applyView();
}

function drawTargets(layer) {
  const byCell = new Map();
  for (const option of state.turn.validPlacements) {
    const key = `${option.position.x},${option.position.y}`;
    if (!byCell.has(key)) byCell.set(key, []);
    byCell.get(key).push(option.rotation);
  }
  for (const [key, rotations] of byCell) {
    const [x, y] = key.split(",").map(Number);
    const fits = rotations.includes(state.rotation);
    const target = el("rect", { x: cellX(x) + 4, y: cellY(y) + 4, width: T - 8, height: T - 8, class: fits ? "target" : "target other", "data-cell": key });
    target.addEventListener("click", (event) => {
      event.stopPropagation();
      if (fits) send("PLACE_TILE", { position: { x, y }, rotation: state.rotation });
      else { state.rotation = rotations[0]; render(); }
    });
    if (fits) layer.append(target); else layer.prepend(target);
  }
}

function drawChoices(layer) {
  const placed = state.placed;
  const { x, y } = placed.position;
  const seen = {};
  for (const option of placed.meepleOptions || []) {
    const [ax, ay] = anchor(placed.tile.id, placed.rotation, option.featureId);
    const shift = (seen[option.featureId] = (seen[option.featureId] || 0) + 1) - 1;
    const cx = cellX(x) + ax * T + shift * 14, cy = cellY(y) + ay * T;
    const player = playerById(me.playerId);
    const choice = el("circle", { cx, cy, r: option.figure === "big_follower" ? 14 : 10, fill: colour(player && player.color), class: "choice", "data-feature": option.featureId, "data-figure": option.figure });
    const title = el("title", {});
    title.textContent = `${option.figure.replace("_", " ")} on the ${(placed.tile.features[option.featureId] || {}).type || "feature"}`.toLowerCase();
    choice.append(title);
    choice.addEventListener("click", (event) => {
      event.stopPropagation();
      send("PLACE_MEEPLE", { featureId: option.featureId, figure: option.figure });
    });
    layer.append(choice);
  }
  for (const position of placed.abbotRecalls || []) {
    const recall = el("circle", { cx: cellX(position.x) + T / 2, cy: cellY(position.y) + T / 2, r: 16, fill: "#fff8", stroke: "#000", class: "choice" });
    recall.addEventListener("click", (event) => { event.stopPropagation(); send("RECALL_ABBOT", { position }); });
    layer.append(recall);
  }
}

function renderSide() {
  const game = state.game;
  const current = game.currentPlayer;
  $("turn").textContent = game.gameEnded ? "The game is over." : current === me.playerId
    ? (state.placed ? "Your turn: a figure, or none." : "Your turn: place the tile.")
    : `${nameOf(current)}'s turn.`;
  const tile = state.turn && state.turn.currentTile;
  $("drawn").hidden = !tile || game.gameEnded;
  if (tile) $("drawn-tile").src = tileUrl(tile.id, state.placed ? state.placed.rotation : state.rotation);
  const mine = myTurn() && !state.placed;
  $("rotate-left").disabled = !mine;
  $("rotate-right").disabled = !mine;
  const choosing = state.placed && state.placed.playerId === me.playerId
    && ((state.placed.meepleOptions || []).length + (state.placed.abbotRecalls || []).length) > 0;
  $("figure-choice").hidden = !choosing;
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  for (const player of game.players || []) {
    const row = body.insertRow();
    if (player.id === current && !game.gameEnded) row.className = "current";
    row.insertCell().innerHTML = `<span class="swatch" style="background:${colour(player.color)}"></span>`;
    const name = row.insertCell();
    name.textContent = `${player.name}${player.isBot ? " (bot)" : ""}${player.id === me.playerId ? " (you)" : ""}`;
    if (!player.connected) { name.classList.add("offline"); name.textContent += " — offline"; }
    row.insertCell().textContent = player.score;
    row.insertCell().textContent = player.meeples + (player.bigFollowers ? " + 1 big" : "");
  }
  $("tiles-left").textContent = game.tilesLeft !== null && game.tilesLeft !== undefined ? `Tiles left: ${game.tilesLeft}` : "";
}

function tilePlaced(data) {
  if (state.game) {
    state.game.tiles[`${data.position.x},${data.position.y}`] = { tile: data.tile, position: data.position, rotation: data.rotation, meeples: [] };
    state.game.lastPlaced = { position: data.position, rotation: data.rotation };
  }
  state.placed = data;
  render();
}

function chooseRotation() {
  if (!state.turn) return;
  const rotations = state.turn.validPlacements.map((option) => option.rotation);
  if (!rotations.includes(state.rotation) && rotations.length) state.rotation = rotations[0];
}

function rotate(step) {
  if (!myTurn() || state.placed) return;
  state.rotation = (state.rotation + step + 360) % 360;
  render();
}

// ----- Events -----

function log(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("events").prepend(item);
}

function logEvents(events, actor) {
  const players = (state.game && state.game.players) || [];
  for (const event of events) {
    if (event.event === "feature_scored") {
      const who = (event.scorers || []).map((seat) => (players[seat] ? players[seat].name : `seat ${seat}`)).join(" and ");
      const parts = [`${event.tiles} tile${event.tiles === 1 ? "" : "s"}`];
      if (event.pennants) parts.push(`${event.pennants} pennant${event.pennants === 1 ? "" : "s"}`);
      if (event.cities) parts.push(`${event.cities} cit${event.cities === 1 ? "y" : "ies"}`);
      if (event.modifier && event.modifier !== "none") parts.push(event.modifier.replaceAll("_", " "));
      const when = event.reason === "game_end" ? " at the end" : "";
      const what = event.farmers ? "a field" : `${event.complete ? "a complete" : "an unfinished"} ${event.kind}`;
      log(`${who} scored ${event.points} for ${what} (${parts.join(", ")})${when}.`);
    } else if (event.event === "tile_discarded") {
      log(`A tile that fit nowhere was discarded.`);
    }
  }
  if (actor && !events.some((event) => event.event === "feature_scored")) log(`${nameOf(actor)} played.`);
}

function gameOver(data) {
  const winners = (data.winners || [data.winner]).map(nameOf).join(" and ");
  const box = $("game-over");
  box.hidden = false;
  box.replaceChildren(`${winners} won. `);
  const link = document.createElement("a");
  link.href = `/games/${encodeURIComponent(data.gameId || (state.room && state.room.roomId))}`;
  link.textContent = "Download the game";
  link.id = "download";
  box.append(link);
  const back = button("Back to the lobby", () => { state.room = null; state.game = null; $("game-over").hidden = true; $("events").replaceChildren(); showLobby(); });
  box.append(" ", back);
}

// ----- Pan and zoom -----

function applyView() {
  const { x, y, scale } = state.view;
  $("viewport").setAttribute("transform", `translate(${x} ${y}) scale(${scale})`);
}

function fit() {
  const cells = Object.values(state.game.tiles || {}).map((placed) => placed.position);
  if (!cells.length) return;
  const box = $("board").getBoundingClientRect();
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const width = (Math.max(...xs) - Math.min(...xs) + 3) * T, height = (Math.max(...ys) - Math.min(...ys) + 3) * T;
  const scale = Math.min(1, Math.max(0.15, Math.min(box.width / width, box.height / height)));
  const midX = ((Math.max(...xs) + Math.min(...xs)) / 2 + 0.5) * T, midY = (-(Math.max(...ys) + Math.min(...ys)) / 2 + 0.5) * T;
  state.view = { scale, x: box.width / 2 - midX * scale, y: box.height / 2 - midY * scale };
}

function zoom(factor, cx, cy) {
  const box = $("board").getBoundingClientRect();
  const px = cx === undefined ? box.width / 2 : cx, py = cy === undefined ? box.height / 2 : cy;
  const scale = Math.min(3, Math.max(0.1, state.view.scale * factor));
  const real = scale / state.view.scale;
  state.view = { scale, x: px - (px - state.view.x) * real, y: py - (py - state.view.y) * real };
  applyView();
}

function setUpBoard() {
  const board = $("board");
  let drag = null;
  board.addEventListener("pointerdown", (event) => {
    if (event.target.closest(".target, .choice")) return;
    drag = { x: event.clientX, y: event.clientY, view: { ...state.view }, moved: false };
    board.setPointerCapture(event.pointerId);
    board.classList.add("dragging");
  });
  board.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    state.view = { ...drag.view, x: drag.view.x + dx, y: drag.view.y + dy };
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
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  $("recentre").addEventListener("click", () => { fit(); applyView(); });
}

// ----- Controls -----

function setUpControls() {
  $("name-form").addEventListener("submit", (event) => { event.preventDefault(); withName(null); });
  $("create-form").addEventListener("submit", (event) => {
    event.preventDefault();
    withName(() => createRoom());
  });
  function createRoom() {
    const tilesets = [...document.querySelectorAll("input[name=set]:checked")].map((box) => box.value);
    const data = { roomName: $("room-name").value.trim() || "Room", maxPlayers: Number($("max-players").value), tilesets };
    if ($("abbots").checked) data.rules = { abbots: true };
    if ($("turn-seconds").value) data.turnSeconds = Number($("turn-seconds").value);
    send("CREATE_ROOM", data);
  }
  $("add-bot").addEventListener("click", () => {
    const level = $("bot-level").value;
    send("ADD_BOT", { botName: `${level[0].toUpperCase()}${level.slice(1)} bot`, difficulty: level });
  });
  $("start").addEventListener("click", () => send("START_GAME"));
  $("leave").addEventListener("click", () => state.room && send("LEAVE_ROOM", { roomId: state.room.roomId }));
  $("skip").addEventListener("click", () => send("SKIP_MEEPLE"));
  $("rotate-left").addEventListener("click", () => rotate(-90));
  $("rotate-right").addEventListener("click", () => rotate(90));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT") return;
    if (event.key === "r") rotate(90);
    if (event.key === "q") rotate(-90);
  });
  window.addEventListener("resize", applyView);
}

setUpBoard();
setUpControls();
connect();
