// The package as a program uses it: games, refusals, saves, views, bots and pictures, in node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

import { Bot, Game, builtinSets, tileSvg } from "../index.js";

/** Plays `game` to its end with one bot per seat; returns every event. */
function playOut(game, bots) {
  const events = [];
  while (!game.isOver) {
    events.push(...game.apply(bots[game.currentPlayer].choose(game)));
  }
  return events;
}

test("bots play a game of every set to its end, and the events add up to the scores", () => {
  const game = new Game({
    tilesets: ["base", "river", "inns_and_cathedrals"],
    players: 3,
    seed: 5,
    options: { abbots: true },
  });
  const bots = [new Bot("greedy", 1), new Bot("random", 2), new Bot("medium", 3)];
  const events = playOut(game, bots);
  assert.equal(game.phase, "game_over");
  const scored = [0, 0, 0];
  for (const event of events) {
    if (event.event === "feature_scored") for (const p of event.scorers) scored[p] += event.points;
    if (event.event === "tokens_scored") for (const p of event.scorers) scored[p] += event.points;
    if (event.event === "title_scored") scored[event.player] += event.points;
  }
  assert.deepEqual(scored, game.scores());
  const over = events.at(-1);
  assert.equal(over.event, "game_over");
  const best = Math.max(...game.scores());
  assert.deepEqual(over.winners, [0, 1, 2].filter((p) => game.scores()[p] === best));
});

test("a refused action throws IllegalActionError with its reason and changes nothing", () => {
  const game = new Game({ seed: 1 });
  const before = game.saveJson();
  assert.throws(
    () => game.apply({ action: "place", pos: { x: 5, y: 5 }, rotation: 0 }),
    (error) => error.name === "IllegalActionError" && typeof error.reason === "string" && /draw/.test(error.message),
  );
  assert.equal(game.saveJson(), before);
  game.apply({ action: "draw" });
  const far = { action: "place", pos: { x: 40, y: 40 }, rotation: 90 };
  assert.equal(game.isLegal(far), false);
  assert.throws(() => game.check(far), { name: "IllegalActionError" });
  assert.throws(() => game.apply(far), { name: "IllegalActionError" });
  assert.equal(game.isLegal(game.legalActions()[0]), true);
  game.check(game.legalActions()[0]);
});

test("values of the wrong shape are TypeErrors that name what they were for", () => {
  const game = new Game();
  assert.throws(() => game.apply({ action: "fly" }), { name: "TypeError", message: /action/ });
  assert.throws(() => game.apply("draw"), TypeError);
  assert.equal(game.isLegal({ action: "place" }), false);
  assert.throws(() => new Game({ players: "two" }), { name: "TypeError", message: /setup/ });
  assert.throws(() => new Game({ seed: -1 }), { name: "TypeError", message: /seed/ });
  assert.throws(() => new Game({ seed: 1.5 }), { name: "TypeError", message: /seed/ });
  assert.throws(() => new Game({ colour: "red" }), { name: "TypeError", message: /colour/ });
  assert.throws(() => game.playRandom(2 ** 60), { name: "TypeError" });
  // Numbers JSON would write as null, cycles, and misspelt keys of a tile set given as text.
  assert.throws(() => new Game({ seed: NaN }), { name: "TypeError", message: /seed.*NaN/ });
  assert.throws(() => new Game({ players: Infinity }), { name: "TypeError", message: /players/ });
  const cyclic = { action: "draw" };
  cyclic.self = cyclic;
  assert.throws(() => game.apply(cyclic), TypeError);
  assert.throws(() => game.apply({ action: "draw_tile", tile: 2n }), TypeError);
  assert.throws(() => new Game({ tilesets: [{ toml: "", fiel: "x" }] }), { name: "TypeError", message: /fiel/ });
  assert.throws(() => new Game({ tilesets: [7] }), { name: "TypeError", message: /tilesets/ });
  const nested = JSON.parse("[".repeat(5000) + "]".repeat(5000));
  assert.throws(() => game.apply(nested), TypeError);
  // After every refusal the game plays on.
  game.apply({ action: "draw" });
  assert.equal(game.phase, "place");
});

test("setups: unknown sets and bad player counts are SetupErrors; a tile set may be TOML text", async () => {
  assert.throws(() => new Game({ tilesets: ["base", "atlantis"] }), {
    name: "SetupError",
    message: /atlantis/,
  });
  assert.throws(() => new Game({ players: 9 }), { name: "SetupError" });
  assert.throws(() => new Game({ tilesets: [{ toml: "[set]\nid = 1", file: "mine.toml" }] }), {
    name: "SetupError",
    message: /mine\.toml/,
  });
  const text = await readFile(new URL("../../../tilesets/base.toml", import.meta.url), "utf8");
  const fromText = new Game({ tilesets: [{ toml: text, file: "base.toml" }], seed: 9 });
  const builtin = new Game({ tilesets: ["base"], seed: 9 });
  assert.equal(fromText.playRandom(4), builtin.playRandom(4));
  assert.deepEqual(fromText.scores(), builtin.scores());
  assert.ok(builtinSets().includes("traders_and_builders"));
});

test("a saved game loads to the same game, and a bad save is a SaveError", () => {
  const game = new Game({ tilesets: ["base", "inns_and_cathedrals"], players: 4, seed: 12 });
  game.playRandom(3);
  const loaded = Game.loadJson(game.saveJson());
  assert.equal(loaded.saveJson(), game.saveJson());
  assert.deepEqual(loaded.scores(), game.scores());
  assert.deepEqual(loaded.actions(), game.actions());
  assert.throws(() => Game.loadJson("{}"), { name: "SaveError" });
  assert.throws(() => Game.loadJson("x".repeat((64 << 20) + 1)), { name: "SaveError", message: /at most/ });
  const copy = game.clone();
  assert.equal(copy.saveJson(), game.saveJson());
});

test("the view is what the player to move knows, never the bag's order", () => {
  const a = new Game({ seed: 1 });
  const b = new Game({ seed: 2 });
  const view = a.view();
  assert.deepEqual(view, b.view(), "two bags in other orders look the same before a draw");
  assert.equal(view.phase.phase, "draw");
  assert.equal(view.tiles_left, 71);
  assert.equal(view.remaining.reduce((sum, n) => sum + n, 0), 71);
  a.apply({ action: "draw" });
  const drawn = a.view();
  assert.equal(drawn.phase.phase, "place");
  assert.equal(drawn.phase.tile, a.drawnTile);
});

test("bots: the built-in levels, profiles as text, and refusals", () => {
  for (const level of ["random", "easy", "medium", "greedy", "hard", "expert", "anchor"]) {
    assert.ok(Bot.builtinNames().includes(level), level);
  }
  const game = new Game({ seed: 4 });
  game.apply(new Bot().choose(game));
  const expert = new Bot("expert", 1);
  const action = expert.choose(game);
  assert.equal(action.action, "place");
  assert.equal(game.isLegal(action), true);
  assert.equal(expert.name, "expert");
  const mine = new Bot("quick", 1, '[[profile]]\nname = "quick"\nkind = "mcts"\nmcts = { iterations = 50 }\n');
  assert.equal(game.isLegal(mine.choose(game)), true);
  assert.throws(() => new Bot("grandmaster"), { name: "BotError", message: /grandmaster/ });
  assert.throws(
    () => new Bot("x", 0, '[[profile]]\nname = "x"\nkind = "external"\nexternal = { command = ["sh"] }\n'),
    { name: "BotError", message: /external/ },
  );
  assert.throws(() => new Bot("medium", -3), { name: "TypeError", message: /seed/ });
});

test("pictures: the board and a tile as SVG", () => {
  const game = new Game({ seed: 3 });
  game.playRandom(1);
  const board = game.boardSvg();
  assert.match(board, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok(board.length > 10_000);
  const tile = tileSvg(game, 0, 90);
  assert.match(tile, /^<svg/);
  assert.notEqual(tile, tileSvg(game, 0, 0));
  for (const [tile, rotation] of [[0, 45], [9999, 0], [65536, 0], [-1, 0], [0.5, 0], [0, 65626], [0, 90.5]]) {
    assert.throws(() => tileSvg(game, tile, rotation), RangeError, `${tile} ${rotation}`);
  }
  assert.match(game.ascii(), /\S/);
});

test("upTo replays a game's first actions from its setup, seeds past 2^53 included", () => {
  const game = Game.loadJson(JSON.stringify({ format: 1, setup: { tilesets: ["base"], players: 2, seed: 0, options: {} }, actions: [] }).replace('"seed":0', '"seed":18446744073709551557'));
  game.playRandom(3);
  const actions = game.actions();
  const early = game.upTo(7);
  assert.deepEqual(early.actions(), actions.slice(0, 7));
  assert.equal(game.upTo(actions.length).saveJson(), game.saveJson());
  assert.throws(() => game.upTo(actions.length + 1), TypeError);
  assert.throws(() => game.upTo(-1), TypeError);
});
