#!/usr/bin/env bash
# The engine against the C placement floor, alternated round by round so that both are
# timed in the same minutes of a shared machine: median microseconds per game of each and
# the ratio of the medians (floor time / engine time; the goal is 0.75 or more).
#
#   bash benches/against-c-floor.sh [ROUNDS] [FLOOR_SOURCE]
#
# FLOOR_SOURCE defaults to benches/c_floor_bench.c, our C placement floor; its `masked` line
# is the floor.
set -euo pipefail
rounds=${1:-15}
floor_source=${2:-$(dirname "$0")/c_floor_bench.c}
[ -f "$floor_source" ] || { echo "no C floor at $floor_source: pass its path" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall -Wextra -o "$work/c_floor_bench" "$floor_source"
cargo build --quiet --release --example random_games
engine="${CARGO_TARGET_DIR:-target}/release/examples/random_games"
for _ in $(seq "$rounds"); do
    "$engine" 5000 | sed -n 's/.*: \([0-9.]*\) us\/game.*/engine \1/p'
    "$work/c_floor_bench" 5000 1 | sed -n 's/.*masked.*= \([0-9.]*\) us\/game.*/floor \1/p'
done > "$work/times"
python3 - "$work/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, value = line.split()
    times.setdefault(name, []).append(float(value))
engine, floor = statistics.median(times["engine"]), statistics.median(times["floor"])
print(f"engine median {engine:.2f} us/game, C floor median {floor:.2f} us/game, "
      f"{len(times['engine'])} rounds each: the engine runs at {floor / engine:.3f} of the floor")
# The fastest rounds are the least disturbed by other work on the machine.
fastest_engine, fastest_floor = min(times["engine"]), min(times["floor"])
print(f"fastest rounds: engine {fastest_engine:.2f}, C floor {fastest_floor:.2f} us/game: "
      f"{fastest_floor / fastest_engine:.3f}")
PY
