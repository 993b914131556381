// Random 2-player base games with farmers from JavaScript, as a self-play loop plays them:
// one Game restarted in place, uniformly random legal actions to the end in one call a game.
// Prints the mean time per game in the form of the native example `random_games`, which
// ../bench.sh alternates with this.
//
//   node bench/random-games.mjs [GAMES]
import { Game } from "../index.js";

const games = Number(process.argv[2] ?? 5000);
const game = new Game({ seed: 0 });
let checksum = 0;
const start = performance.now();
for (let seed = 1; seed <= games; seed++) {
  game.restart(seed);
  game.playRandom(seed);
  checksum += game.scores()[0];
}
const perGame = ((performance.now() - start) * 1000) / games;
console.log(`wasm random_games: ${perGame.toFixed(2)} us/game over ${games} games (checksum ${checksum})`);
