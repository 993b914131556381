// @ts-check
// The page's server when it has none: the engine in WebAssembly (the npm package's module,
// served beside the page under engine/) hosts the page's rooms and bots in this worker, so the
// page never freezes while a bot thinks. The page speaks the same protocol to it as to the
// server, through messages instead of a WebSocket:
//
//   page → worker  {kind: "frame", frame}          a client frame (the envelope's JSON text)
//                  {kind: "request", id, what, set?}   what the page would GET from the server:
//                                                  "catalogue", "tileset" (with pictures), "bots",
//                                                  "finished" (the last finished game, saved JSON)
//   worker → page  {kind: "ready"}                 the engine is loaded
//                  {kind: "frame", frame}          a server frame
//                  {kind: "response", id, body?, error?}
//                  {kind: "fault", reason}         the engine failed (a bug): the page says so

/**
 * What this worker uses of the engine's module (the npm package `carcassonne`).
 * @typedef {{frames: string[], timers: {id: number, delayMs: number}[]}} Outcome
 * @typedef {{receive(frame: string): Outcome, ring(id: number): Outcome,
 *   finishedGame(): {saveJson(): string} | undefined}} Server
 * @typedef {{OfflineServer: new () => Server, pageCatalogue(): unknown,
 *   pageTileset(set: string): unknown, pageBots(): unknown}} Engine
 */

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
// Beside the page: the server serves the package there, and so does a static copy of the page.
const ENGINE = "./engine/index.js";

// Loaded by dynamic import so that a page served without the engine hears why from this
// worker, instead of a worker that failed to start without a word.
/** @type {Engine} */
let engine;
try {
  engine = await import(ENGINE);
} catch (error) {
  scope.postMessage({ kind: "unavailable", reason: String(error) });
  scope.close();
  throw error;
}
const server = new engine.OfflineServer();

/** Delivers an outcome's frames and sets its timers, each of whose outcomes is delivered in turn. @param {Outcome} outcome */
function deliver(outcome) {
  for (const frame of outcome.frames) scope.postMessage({ kind: "frame", frame });
  for (const timer of outcome.timers) {
    setTimeout(() => {
      try {
        deliver(server.ring(timer.id));
      } catch (error) {
        scope.postMessage({ kind: "fault", reason: String(error) });
      }
    }, timer.delayMs);
  }
}

/** @param {{what: string, set?: string}} request */
function answer(request) {
  switch (request.what) {
    case "catalogue": return engine.pageCatalogue();
    case "tileset": return engine.pageTileset(String(request.set));
    case "bots": return engine.pageBots();
    case "finished": {
      const game = server.finishedGame();
      return game ? game.saveJson() : null;
    }
    default: throw new Error(`no such request: ${request.what}`);
  }
}

scope.addEventListener("message", (event) => {
  const message = event.data;
  if (!message || typeof message !== "object") return;
  if (message.kind === "frame" && typeof message.frame === "string") {
    try {
      deliver(server.receive(message.frame));
    } catch (error) {
      // Never expected (the engine refuses with ERROR frames): said, not mistaken for a
      // missing engine.
      scope.postMessage({ kind: "fault", reason: String(error) });
    }
  } else if (message.kind === "request") {
    try {
      scope.postMessage({ kind: "response", id: message.id, body: answer(message) });
    } catch (error) {
      scope.postMessage({ kind: "response", id: message.id, error: String(error) });
    }
  }
});

scope.postMessage({ kind: "ready" });

// A module (it is loaded as one, and awaits the engine at its top level).
export {};
