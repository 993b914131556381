// A typed game against the expert bot: what `tsc --strict` checks the package's types with.
// Every event narrows by its tag, and the @ts-expect-error lines are mistakes the types must
// catch (tsc fails if one of them compiles).
import { Bot, Game, analyze, tileSvg } from "carcassonne";
import type { Action, Analysis, GameEvent, PlayerView } from "carcassonne";

const game = new Game({ tilesets: ["base", "inns_and_cathedrals"], players: 2, seed: 3, options: { abbots: true } });
const bots: Bot[] = [new Bot("expert", 1), new Bot("medium", 2)];

function describe(event: GameEvent): string | undefined {
  switch (event.event) {
    case "tile_placed":
      return `player ${event.player} placed tile ${event.tile} at (${event.pos.x}, ${event.pos.y}) turned ${event.rotation}`;
    case "feature_scored":
      return `${event.kind} of ${event.tiles} tiles scored ${event.points} for ${event.scorers.join(", ")}`;
    case "game_over":
      return `winners: ${event.winners.join(", ")}`;
    default:
      return undefined;
  }
}

let lines = 0;
while (!game.isOver) {
  const action: Action = bots[game.currentPlayer].choose(game);
  for (const event of game.apply(action)) {
    if (describe(event) !== undefined) lines += 1;
  }
}
const view: PlayerView = game.view();
const placed = view.tiles.at(-1);
const picture: string = placed === undefined ? "" : tileSvg(game, placed.tile, placed.rotation);
console.log(lines, game.scores(), view.supplies[0].follower, picture.length);

try {
  game.apply({ action: "skip" });
} catch (error) {
  if (error instanceof Error && error.name === "IllegalActionError") console.log(error.message);
}

// The analyzer on a fresh game's first turn, stopped by its callback after two reports.
const opening = new Game({ seed: 8 });
opening.apply({ action: "draw" });
let reports = 0;
const ranking: Analysis = analyze(opening, { rollouts: 5000, report_every: 0.05 }, (partial: Analysis) => {
  reports += 1;
  return reports >= 2 || partial.moves.length === 0;
});
const best = ranking.moves[0];
if (best?.place?.action === "place") console.log(best.place.pos, best.margin.toFixed(1), best.margin_se);

// @ts-expect-error: a placement needs a rotation.
game.isLegal({ action: "place", pos: { x: 0, y: 1 } });
// @ts-expect-error: rotations are quarter turns.
tileSvg(game, 0, 45);
// @ts-expect-error: there is no such option.
new Game({ options: { dragons: true } });
// @ts-expect-error: the analyzer's stop is not a number.
analyze(opening, {}, () => 3);
