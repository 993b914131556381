// The move analyzer from JavaScript: a ranking, progress with the ranking so far, stopping
// from the callback, and refusals.
import { test } from "node:test";
import assert from "node:assert/strict";

import { Game, analyze } from "../index.js";

function drawn(seed) {
  const game = new Game({ seed });
  game.apply({ action: "draw" });
  return game;
}

test("an analysis ranks every move, the same for the same seed", () => {
  const game = drawn(4);
  const analysis = analyze(game, { rollouts: 3000, seed: 1 });
  assert.equal(analysis.stop, "budget");
  assert.equal(analysis.rollouts, 3000);
  assert.equal(analysis.planned, 3000);
  assert.equal(analysis.player, 0);
  assert.equal(analysis.tile, game.drawnTile);
  assert.ok(analysis.moves.length > 1);
  const best = analysis.moves[0];
  assert.equal(best.place.action, "place");
  assert.equal(game.isLegal(best.place), true);
  assert.ok(best.continuation.length > 0, "the kept moves show how the game might go on");
  assert.ok(best.win >= 0 && best.win <= 1);
  assert.deepEqual(analyze(game, { rollouts: 3000, seed: 1 }).moves, analysis.moves);
});

test("progress hears the ranking so far, and returning true stops the analysis", () => {
  const game = drawn(5);
  const heard = [];
  const whole = analyze(game, { rollouts: 20000, report_every: 0.01 }, (partial) => {
    heard.push(partial);
  });
  assert.ok(heard.length >= 2, `${heard.length} reports`);
  assert.ok(heard.every((partial) => partial.stop === "running" && partial.planned === 20000));
  assert.ok(heard.at(-1).rollouts <= whole.rollouts);
  let calls = 0;
  const stopped = analyze(game, { rollouts: 1e9, report_every: 0.01 }, () => ++calls >= 2);
  assert.equal(stopped.stop, "cancelled");
  assert.equal(calls, 2);
  assert.ok(stopped.rollouts < 1e9 && stopped.moves.length > 1);
});

test("an exception in the callback stops the analysis and is thrown on", () => {
  const game = drawn(6);
  assert.throws(
    () =>
      analyze(game, { rollouts: 1e9, report_every: 0.01 }, () => {
        throw new RangeError("enough");
      }),
    { name: "RangeError", message: "enough" },
  );
});

test("refusals: no move to analyse, an unbounded analysis, bad options", () => {
  assert.throws(() => analyze(new Game()), { name: "AnalysisError", message: /drawn/ });
  const game = drawn(7);
  assert.throws(() => analyze(game, { rollouts: null }), { name: "TypeError", message: /never stops/ });
  assert.throws(() => analyze(game, { rollouts: 0 }), { name: "TypeError", message: /rollouts/ });
  assert.throws(() => analyze(game, { continuation: "clever" }), { name: "TypeError" });
  assert.throws(() => analyze(game, { rollout: 5 }), { name: "TypeError", message: /rollout/ });
  assert.throws(() => analyze(game, {}, "not a function"), { name: "TypeError", message: /progress/ });
  const timed = analyze(game, { rollouts: null, seconds: 0.2 });
  assert.equal(timed.stop, "time");
});

test("analysisSvg draws the heat map, the best move and the move played; review measures every turn", async () => {
  const { analysisSvg, review } = await import("../index.js");
  const game = new Game({ seed: 4 });
  while (game.tilesLeft > 64 || game.legalActions()[0].action === "draw") game.apply(game.legalActions()[0]);
  const analysis = analyze(game, { rollouts: 300, seed: 1 });
  const [best] = analysis.moves;
  const svg = analysisSvg(game, analysis, { place: best.place, figure: best.figure });
  assert.match(svg, /class="shade"/);
  assert.match(svg, /class="suggestion"/);
  assert.match(svg, /class="played-outline"/);
  assert.throws(() => analysisSvg(game, { tile: 0 }), TypeError);
  const steps = [];
  const turns = review(game, { rollouts: 100 }, (at) => { steps.push(at); });
  assert.ok(turns.length >= 5, `${turns.length} turns reviewed`);
  assert.ok(turns.every((turn, at) => turn.turn === at + 1 && turn.loss >= 0));
  assert.deepEqual(steps.at(-1), { done: turns.length, turns: turns.length });
  const stopped = review(game, { rollouts: 100 }, (at) => at.done >= 2);
  assert.equal(stopped.length, 2, "returning true stops the review");
});
