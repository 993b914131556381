"""Benchmarks of the Python package: environment steps per second with observations and
masks, single and vector, and what a Python call costs over the native library.

    python python/benches/bench_env.py [--rounds 5] [--quick]

Every figure is the median of ``--rounds`` timed rounds, on one core unless a row says
otherwise (the vector environment's ``threads``), in this one process. An "agent step" is one
decision of a seat the caller plays, with its observation planes, features and action mask
written; the random policy reads the mask (see each row).
"""

import argparse
import functools
import os
import statistics
import time

import numpy as np

import carcassonne
from carcassonne import Game, VectorGames


def median_rate(rounds, work):
    """Median of ``work()``'s (count, seconds) rates over ``rounds`` rounds, after a warm-up."""
    work()
    rates = []
    for _ in range(rounds):
        start = time.perf_counter()
        count = work()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def python_loop_game(seed):
    """One random game driven from Python, one call per action: count, pick, apply."""
    game = Game(["base"], players=2, seed=seed)
    rng = np.random.default_rng(seed)
    actions = 0
    while not game.is_over:
        game.apply(game.legal_action(int(rng.integers(game.legal_action_count()))))
        actions += 1
    return actions


def native_game(seed):
    """The same kind of game played natively in one call."""
    return Game(["base"], players=2, seed=seed).play_random(seed)


def pettingzoo_steps(window, games):
    env = carcassonne.env(window=window)
    rng = np.random.default_rng(0)
    steps = 0
    for game in range(games):
        env.reset(seed=game)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                steps += 1
            env.step(action)
    return steps


def gymnasium_steps(window, games):
    from carcassonne.gymnasium_env import CarcassonneGymEnv

    env = CarcassonneGymEnv(opponents=("random",), window=window)
    rng = np.random.default_rng(0)
    steps = 0
    for game in range(games):
        observation, _ = env.reset(seed=game)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
    return steps


def vector_steps(games, steps, policy):
    def work():
        for step in range(steps):
            games.step(policy(games, step))
        return games.num_envs * steps

    return work


def native_policy(games, step):
    """A random legal action per game, drawn natively from the masks' legal actions."""
    return games.random_actions(step)


# One generator for every call: each draws on from where the last stopped.
NUMPY_RNG = np.random.default_rng(0)


def numpy_policy(games, step, rng=NUMPY_RNG):
    """A random legal action per game from the mask, in numpy: the cost a masked policy's
    sampling adds (argmax of uniform noise over the legal entries)."""
    masks = games.action_masks
    noise = rng.random(masks.shape, dtype=np.float32)
    return np.argmax(np.where(masks == 1, noise, -1.0), axis=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer games and steps a round")
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    rounds = args.rounds
    rows = []

    def row(what, rate, unit):
        rows.append((what, rate, unit))
        print(f"{what:<78} {rate:>12,.0f} {unit}", flush=True)

    print(
        f"carcassonne {carcassonne.__version__}, {os.cpu_count()} cores, median of {rounds} rounds"
    )
    games = max(2, int(20 * scale))
    loop = median_rate(rounds, lambda: sum(python_loop_game(seed) for seed in range(games)))
    native = median_rate(rounds, lambda: sum(native_game(seed) for seed in range(games)))
    row("random game, one Python call per action (count, pick, apply)", loop, "actions/s")
    row("random game, played natively in one call (Game.play_random)", native, "actions/s")
    print(
        f"  -> a Python call costs {1e6 / loop - 1e6 / native:.2f} µs over the native action "
        f"({native / loop:.1f}x)"
    )

    for window in (None, 31):
        side = "guaranteed 75" if window is None else str(window)
        count = max(1, int(4 * scale))
        rate = median_rate(rounds, functools.partial(pettingzoo_steps, window, count))
        row(
            f"PettingZoo AEC env, 2 seats, window {side}, numpy mask sampling",
            rate,
            "agent steps/s",
        )
        rate = median_rate(rounds, functools.partial(gymnasium_steps, window, count))
        row(
            f"Gymnasium env vs random bot, window {side}, numpy mask sampling",
            rate,
            "agent steps/s",
        )

    steps = max(20, int(200 * scale))
    for window in (None, 31):
        side = "guaranteed 75" if window is None else str(window)
        for envs, threads in ((64, 1), (256, 1), (256, 2)):
            games = VectorGames(envs, [None, None], window=window, threads=threads)
            rate = median_rate(rounds, vector_steps(games, steps, native_policy))
            per_core = "" if threads == 1 else f", {threads} threads"
            row(
                f"VectorGames self-play, {envs} games, window {side}{per_core}, native sampling",
                rate,
                "agent steps/s",
            )
        games = VectorGames(64, [None, None], window=window)
        rate = median_rate(rounds, vector_steps(games, max(5, steps // 4), numpy_policy))
        row(
            f"VectorGames self-play, 64 games, window {side}, numpy mask sampling",
            rate,
            "agent steps/s",
        )
    games = VectorGames(64, [None, "random"], window=31)
    rate = median_rate(rounds, vector_steps(games, steps, native_policy))
    row(
        "VectorGames vs the random bot, 64 games, window 31, native sampling", rate, "agent steps/s"
    )


if __name__ == "__main__":
    main()
