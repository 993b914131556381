// The protocol's host for one client, as the page's worker runs it: a game against a bot to
// its end, every timer rung at once; refusals as ERROR frames; what the page would GET.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Game, OfflineServer, pageBots, pageCatalogue, pageTileset } from "../index.js";

let sent = 0;
const frame = (type, data = {}) =>
  JSON.stringify({ type, data, timestamp: new Date().toISOString(), messageId: `t-${++sent}` });

test("a game against a bot runs to GAME_END through frames and timers", () => {
  const server = new OfflineServer({ botDelayMs: 0 });
  const seen = [];
  const queue = [server.receive(frame("CONNECT", { playerId: "p-1", name: "Ada", color: "" }))];
  queue.push(server.receive(frame("CREATE_ROOM", { roomName: "r", maxPlayers: 2, tilesets: ["base"], seed: 3 })));
  queue.push(server.receive(frame("ADD_BOT", { botName: "Bot", difficulty: "easy" })));
  queue.push(server.receive(frame("START_GAME")));
  for (let steps = 0; queue.length > 0 && steps < 5000; steps += 1) {
    const { frames, timers } = queue.shift();
    for (const text of frames) {
      const message = JSON.parse(text);
      seen.push(message);
      if (message.type === "TURN_START" && message.data.currentPlayer === "p-1") {
        const [first] = message.data.validPlacements;
        queue.push(server.receive(frame("PLACE_TILE", first)));
      } else if (message.type === "TILE_PLACED" && message.data.playerId === "p-1") {
        queue.push(server.receive(frame("SKIP_MEEPLE")));
      }
    }
    for (const timer of timers) {
      assert.ok(timer.delayMs === 0 || timer.delayMs === 20000, `a timer of ${timer.delayMs} ms`);
      queue.push(server.ring(timer.id));
    }
  }
  assert.equal(seen[0].type, "CONNECTED");
  assert.ok(!seen.some((message) => message.type === "ERROR"), JSON.stringify(seen.find((m) => m.type === "ERROR")));
  const end = seen.find((message) => message.type === "GAME_END");
  assert.ok(end, "no GAME_END");
  const game = server.finishedGame();
  assert.ok(game instanceof Game && game.isOver);
  assert.equal(Game.loadJson(game.saveJson()).isOver, true);
});

test("refusals are ERROR frames that answer the message refused", () => {
  const server = new OfflineServer();
  const [error] = server.receive(frame("LIST_ROOMS")).frames.map((text) => JSON.parse(text));
  assert.equal(error.type, "ERROR");
  assert.equal(error.data.code, "NOT_CONNECTED");
  assert.equal(error.data.inReplyTo, `t-${sent}`);
  assert.equal(JSON.parse(server.receive("{").frames[0]).data.code, "MALFORMED_MESSAGE");
  assert.equal(server.finishedGame(), undefined);
  assert.throws(() => new OfflineServer({ botDelayMs: -1 }), TypeError);
  assert.throws(() => new OfflineServer({ botDelay: 5 }), TypeError);
  assert.throws(() => server.ring(0.5), TypeError);
});

test("the page's catalogue, a set's tiles with pictures, and the bot levels", () => {
  const catalogue = pageCatalogue();
  assert.ok(catalogue.tilesets.some((set) => set.id === "base" && set.tiles === 72));
  assert.ok(catalogue.colours.length >= 6);
  const base = pageTileset("base");
  assert.equal(base.tiles.length, 24);
  for (const item of base.tiles) {
    assert.equal(item.anchors.length, 4);
    assert.equal(item.pictures.length, 4);
    assert.match(item.pictures[0], /^<svg/);
  }
  assert.throws(() => pageTileset("nonsense"), RangeError);
  assert.deepEqual(pageBots().bots.map((bot) => bot.name), ["easy", "medium", "hard", "expert"]);
});
