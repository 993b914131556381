#!/usr/bin/env bash
# The WebAssembly engine in node against the native engine, alternated round by round so that
# both are timed in the same minutes of a shared machine: median microseconds per random
# 2-player base game of each, and the ratio (native time / wasm time; the goal is 0.5 or
# more). Builds the package first (build.sh) and the native example.
#
#   bash wasm/bench.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
bash wasm/build.sh
cargo build --quiet --release --example random_games
native="${CARGO_TARGET_DIR:-target}/release/examples/random_games"
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for _ in $(seq "$rounds"); do
    "$native" 3000 | sed -n 's/.*: \([0-9.]*\) us\/game.*/native \1/p'
    node wasm/npm/bench/random-games.mjs 3000 | sed -n 's/.*: \([0-9.]*\) us\/game.*/wasm \1/p'
done > "$times"
python3 - "$times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, value = line.split()
    times.setdefault(name, []).append(float(value))
native, wasm = statistics.median(times["native"]), statistics.median(times["wasm"])
print(f"native median {native:.2f} us/game ({1e6 / native:,.0f} games/s), wasm in node "
      f"median {wasm:.2f} us/game ({1e6 / wasm:,.0f} games/s), {len(times['wasm'])} rounds "
      f"each: WebAssembly runs at {native / wasm:.2f} of native")
PY
