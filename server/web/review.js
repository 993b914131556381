// @ts-check
// The page's game review: a finished game (the one just played, or a saved game's file)
// stepped through turn by turn, any turn analysed in a worker (review-worker.js) with its
// ranking so far, an ETA and a cancel, the result drawn on the board as the command line's heat
// map draws it, and the whole game reviewed for its costliest moves. Every text is set as
// textContent; the board is the engine's own SVG, shown as an image.

/**
 * @typedef {{action: string, pos?: {x: number, y: number}, rotation?: number, segment?: number, figure?: string}} Action
 * @typedef {{place: Action | null, figure: Action, margin: number, win: number, rollouts: number, pinned: boolean}} Ranked
 * @typedef {{tile: number, rollouts: number, planned: number | null, seconds: number, stop: string, moves: Ranked[]}} Analysis
 * @typedef {{turn: number, player: number, loss: number, played: Ranked, best: Ranked}} TurnReview
 */

/** How hard each turn's analysis works: rollouts for one turn, and for each turn of a whole review. */
const TURN_ROLLOUTS = 4000;
const REVIEW_ROLLOUTS = 600;

const review = {
  /** @type {Worker | null} */ worker: null,
  saved: "",
  turns: 0,
  turn: 1,
  /** @type {string | null} */ picture: null,
  busy: false,
  started: 0,
  /** @type {() => void} */ leave: () => {},
};

/** @param {string} id */
function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}

/** An action in words, for the ranking. @param {Action | null} place @param {Action} figure */
function moveWords(place, figure) {
  const where = place && place.pos ? `(${place.pos.x}, ${place.pos.y}) turned ${place.rotation}°` : "no placement";
  const what = figure.action === "deploy" ? `${figure.figure} on segment ${figure.segment}`
    : figure.action === "recall_abbot" ? "abbot recalled" : "no figure";
  return `${where}, ${what}`;
}

/** @param {string} text */
function showError(text) {
  byId("review-error").textContent = text;
}

/** @param {string} svg */
function showBoard(svg) {
  if (review.picture) URL.revokeObjectURL(review.picture);
  review.picture = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  /** @type {HTMLImageElement} */ (byId("review-board")).src = review.picture;
}

/** @param {boolean} busy */
function setBusy(busy) {
  review.busy = busy;
  byId("review-cancel").hidden = !busy;
  byId("review-progress").hidden = !busy;
  for (const id of ["review-analyze", "review-all", "review-first", "review-back", "review-next", "review-last"]) {
    /** @type {HTMLButtonElement} */ (byId(id)).disabled = busy;
  }
  for (const jump of byId("review-costly").querySelectorAll("button")) jump.disabled = busy;
  if (!busy) byId("review-eta").textContent = "";
}

/** Progress as a bar and an estimate of the time left. @param {number} done @param {number} total */
function progress(done, total) {
  const bar = /** @type {HTMLProgressElement} */ (byId("review-progress"));
  bar.max = Math.max(total, 1);
  bar.value = Math.min(done, bar.max);
  const elapsed = (performance.now() - review.started) / 1000;
  const left = done > 0 ? elapsed * (total - done) / done : NaN;
  byId("review-eta").textContent = Number.isFinite(left) ? `about ${Math.ceil(left)} s left` : "starting…";
}

/** @param {Ranked[]} moves @param {number} shown */
function showRanking(moves, shown = 5) {
  const list = byId("review-ranking");
  list.replaceChildren(...moves.slice(0, shown).map((move) => {
    const item = document.createElement("li");
    item.textContent = `${moveWords(move.place, move.figure)}: margin ${move.margin >= 0 ? "+" : ""}${move.margin.toFixed(1)}, win ${(move.win * 100).toFixed(0)}%${move.pinned ? " (played)" : ""}`;
    return item;
  }));
}

/** A fresh worker with the game loaded (the last one was cancelled by terminating it). */
function startWorker() {
  if (review.worker) review.worker.terminate();
  const worker = new Worker(new URL("review-worker.js", import.meta.url), { type: "module", name: "carcassonne-review" });
  review.worker = worker;
  worker.addEventListener("message", (event) => { if (review.worker === worker) heard(event.data); });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    if (review.worker === worker) showError(`The analyzer did not start: ${event.message || "no engine beside this page"}.`);
  });
  // The game goes to it once it says it is ready: a message sent while it still loads the
  // engine would reach no listener.
}

/** @param {any} message */
function heard(message) {
  if (!message || typeof message !== "object") return;
  switch (message.kind) {
    case "ready":
      if (review.worker) review.worker.postMessage({ kind: "load", saved: review.saved });
      break;
    case "loaded":
      review.turns = Number(message.turns);
      goTo(review.turn);
      break;
    case "position":
      if (message.turn !== review.turn) break;
      showBoard(String(message.svg));
      byId("review-turn").textContent = review.turn > review.turns
        ? `The end of the game (${review.turns} turns).`
        : `Turn ${review.turn} of ${review.turns}: player ${Number(message.player) + 1} to move`
          + (message.played ? `; played ${moveWords(message.played.place, message.played.figure)}` : "");
      break;
    case "progress": {
      if (message.turn !== review.turn) break;
      const analysis = /** @type {Analysis} */ (message.analysis);
      progress(analysis.rollouts, analysis.planned || analysis.rollouts);
      showRanking(analysis.moves);
      break;
    }
    case "analysis": {
      setBusy(false);
      if (message.turn !== review.turn) break;
      const analysis = /** @type {Analysis} */ (message.analysis);
      showBoard(String(message.svg));
      showRanking(analysis.moves);
      const best = analysis.moves[0];
      const status = byId("review-status");
      status.textContent = best
        ? `Turn ${message.turn} analysed (${analysis.rollouts} rollouts, ${analysis.seconds.toFixed(1)} s): best ${moveWords(best.place, best.figure)}.`
        : `Turn ${message.turn}: nothing to choose.`;
      status.dataset.done = String(message.turn);
      break;
    }
    case "review-progress":
      progress(Number(message.done), Number(message.turns));
      break;
    case "review": {
      setBusy(false);
      const turns = /** @type {TurnReview[]} */ (message.turns);
      const costly = [...turns].sort((a, b) => b.loss - a.loss || a.turn - b.turn).filter((turn) => turn.loss > 0).slice(0, 10);
      const list = byId("review-costly");
      list.replaceChildren(...costly.map((turn) => {
        const item = document.createElement("li");
        const jump = document.createElement("button");
        jump.type = "button";
        jump.textContent = `Turn ${turn.turn}`;
        jump.addEventListener("click", () => goTo(turn.turn));
        item.append(jump, ` player ${turn.player + 1} gave away ${turn.loss.toFixed(1)} points: played ${moveWords(turn.played.place, turn.played.figure)}, best ${moveWords(turn.best.place, turn.best.figure)}`);
        return item;
      }));
      byId("review-status").textContent = costly.length
        ? `Every turn reviewed: the ${costly.length} costliest moves below.`
        : `Every turn reviewed: no move gave anything away that the analysis could tell.`;
      break;
    }
    case "failed":
      setBusy(false);
      showError(String(message.error));
      break;
    default: break;
  }
}

/** Shows the board before turn `turn` (past the last turn: as the game ended). @param {number} turn */
function goTo(turn) {
  review.turn = Math.min(Math.max(turn, 1), review.turns + 1);
  byId("review-ranking").replaceChildren();
  byId("review-status").textContent = "";
  showError("");
  if (review.worker) review.worker.postMessage({ kind: "position", turn: review.turn });
}

/**
 * Opens the review of a saved game (its JSON text); `leave` goes back to where the page was.
 * @param {string} saved @param {() => void} leave
 */
export function openReview(saved, leave) {
  for (const id of ["review-turn", "review-status", "review-error"]) byId(id).textContent = "";
  byId("review-ranking").replaceChildren();
  /** @type {HTMLImageElement} */ (byId("review-board")).removeAttribute("src");
  review.saved = saved;
  review.turn = 1;
  review.turns = 0;
  review.leave = leave;
  byId("review-costly").replaceChildren();
  setBusy(false);
  startWorker();
}

/** Stops the review's analyzer and lets its picture go (the page moved elsewhere). */
export function closeReview() {
  if (review.worker) review.worker.terminate();
  review.worker = null;
  review.busy = false;
  if (review.picture) URL.revokeObjectURL(review.picture);
  review.picture = null;
}

/** Wires the review's controls once. */
export function setUpReview() {
  byId("review-first").addEventListener("click", () => goTo(1));
  byId("review-back").addEventListener("click", () => goTo(review.turn - 1));
  byId("review-next").addEventListener("click", () => goTo(review.turn + 1));
  byId("review-last").addEventListener("click", () => goTo(review.turns + 1));
  byId("review-analyze").addEventListener("click", () => {
    if (review.turn > review.turns || review.turns === 0 || !review.worker) return;
    review.started = performance.now();
    setBusy(true);
    progress(0, TURN_ROLLOUTS);
    review.worker.postMessage({ kind: "analyze", turn: review.turn, rollouts: TURN_ROLLOUTS });
  });
  byId("review-all").addEventListener("click", () => {
    // Not before the game has loaded: the worker would have nothing to review.
    if (!review.worker || review.turns === 0) return;
    review.started = performance.now();
    setBusy(true);
    progress(0, review.turns);
    review.worker.postMessage({ kind: "review", rollouts: REVIEW_ROLLOUTS });
  });
  byId("review-cancel").addEventListener("click", () => {
    // The analyzer runs to its end inside the worker: stopping it is ending the worker.
    setBusy(false);
    byId("review-status").textContent = "Cancelled.";
    startWorker();
  });
  byId("review-close").addEventListener("click", () => {
    closeReview();
    review.leave();
  });
}
