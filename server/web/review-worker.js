// @ts-check
// Game review, off the page's thread: a saved game stepped through turn by turn, a turn
// analysed with its ranking so far streamed back, and the whole game reviewed for its costliest
// moves, by the engine's analyzer in WebAssembly. The page cancels by terminating this worker.
//
//   page → worker  {kind: "load", saved}             a saved game's JSON text
//                  {kind: "position", turn}          the board before turn `turn` (1 to turns + 1)
//                  {kind: "analyze", turn, rollouts} that turn analysed
//                  {kind: "review", rollouts}        every turn measured against the best
//   worker → page  {kind: "ready"} | {kind: "loaded", turns, players}
//                  {kind: "position", turn, svg, player, played}
//                  {kind: "progress", turn, analysis} … {kind: "analysis", turn, analysis, svg}
//                  {kind: "review-progress", done, turns} … {kind: "review", turns}
//                  {kind: "failed", error}

/**
 * What this worker uses of the engine's module (the npm package `carcassonne`).
 * @typedef {{action: string}} Action
 * @typedef {{place: Action | null, figure: Action}} Move
 * @typedef {{tile: number, rollouts: number, planned: number | null, seconds: number, moves: object[]}} Analysis
 * @typedef {{boardSvg(): string, actions(): Action[], upTo(count: number): Game, currentPlayer: number | null}} Game
 * @typedef {{Game: {loadJson(text: string): Game},
 *   analyze(game: Game, options: object, progress: (partial: Analysis) => void): Analysis,
 *   analysisSvg(game: Game, analysis: Analysis, played?: Move): string,
 *   review(game: Game, options: object, progress: (at: {done: number, turns: number}) => void): object[]}} Engine
 */

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const ENGINE = "./engine/index.js";

/** @type {Engine} */
let engine;
try {
  engine = await import(ENGINE);
} catch (error) {
  scope.postMessage({ kind: "failed", error: `the engine is not served beside this page (${String(error)})` });
  scope.close();
  throw error;
}

/** The loaded game: its actions, and where each turn's placement is among them. */
const loaded = {
  /** @type {Game | null} */ game: null,
  /** @type {Action[]} */ actions: [],
  /** @type {number[]} */ places: [],
};

/** The game as it stood before turn `turn`'s placement (after the last turn: as it ended). @param {number} turn */
function before(turn) {
  if (!loaded.game) throw new Error("no game is loaded");
  if (turn > loaded.places.length) return loaded.game;
  return loaded.game.upTo(loaded.places[turn - 1]);
}

/** The move played at turn `turn`: its placement and the figure action after it. @param {number} turn @returns {Move | undefined} */
function played(turn) {
  const at = loaded.places[turn - 1];
  if (at === undefined) return undefined;
  const actions = loaded.actions;
  return { place: actions[at], figure: actions[at + 1] || { action: "skip" } };
}

/** @param {any} message */
function handle(message) {
  switch (message.kind) {
    case "load": {
      const game = engine.Game.loadJson(String(message.saved));
      loaded.game = game;
      const actions = game.actions();
      loaded.actions = actions;
      // A turn is a placement with its figure action after it.
      loaded.places = actions.flatMap((action, at) => (action.action === "place" && at + 1 < actions.length ? [at] : []));
      scope.postMessage({ kind: "loaded", turns: loaded.places.length });
      break;
    }
    case "position": {
      const turn = Number(message.turn);
      const game = before(turn);
      scope.postMessage({ kind: "position", turn, svg: game.boardSvg(), player: game.currentPlayer, played: played(turn) || null });
      break;
    }
    case "analyze": {
      const turn = Number(message.turn);
      const game = before(turn);
      const options = { rollouts: Number(message.rollouts), seed: turn, report_every: 0.25 };
      const analysis = engine.analyze(game, options, (partial) => {
        scope.postMessage({ kind: "progress", turn, analysis: partial });
      });
      const svg = engine.analysisSvg(game, analysis, played(turn));
      scope.postMessage({ kind: "analysis", turn, analysis, svg });
      break;
    }
    case "review": {
      if (!loaded.game) throw new Error("no game is loaded");
      const turns = engine.review(loaded.game, { rollouts: Number(message.rollouts) }, (at) => {
        scope.postMessage({ kind: "review-progress", done: at.done, turns: at.turns });
      });
      scope.postMessage({ kind: "review", turns });
      break;
    }
    default: break;
  }
}

scope.addEventListener("message", (event) => {
  try {
    handle(event.data);
  } catch (error) {
    scope.postMessage({ kind: "failed", error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
scope.postMessage({ kind: "ready" });

export {};
