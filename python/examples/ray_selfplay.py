"""Self-play spread over a Ray cluster: each Ray actor steps its own vector environment
(``carcassonne.VectorGames``, many games per native call) and sends back what its games
produced; the driver adds it up. Ray does the distribution; nothing here is home-made.

On one machine (Ray starts a local instance):

    pip install ./python ray
    python python/examples/ray_selfplay.py --workers 2 --envs 64 --steps 500

On a cluster: ``ray start --head`` on one machine, ``ray start --address HEAD:6379`` on the
others (each with this package installed), then on any of them:

    python python/examples/ray_selfplay.py --address auto --workers 16

Worker ``k`` seeds its games from ``seed + k``, so the totals depend only on the seeds, not
on where or in what order the workers ran; the policy here is a masked random one, the
place where a learner's policy goes (its weights sent with ``ray.put``). The board window is
31 cells (a game that outgrows it ends truncated and is not counted).
"""

import argparse
import logging
import time
from typing import Any, Dict, List, Optional

import numpy as np

from carcassonne import VectorGames


class SelfPlayWorker:
    """Plays ``envs`` games at once, every seat by the masked policy, and tallies them."""

    def __init__(self, envs: int, seed: int, players: int = 2, window: Optional[int] = 31):
        self.games = VectorGames(envs, [None] * players, seed=seed, window=window)
        self.rng = np.random.default_rng(seed)

    def policy(self, masks: np.ndarray) -> np.ndarray:
        """A random legal action per game, read from the masks."""
        noise = self.rng.random(masks.shape, dtype=np.float32)
        return np.argmax(np.where(masks == 1, noise, -1.0), axis=1)

    def run(self, steps: int) -> Dict[str, object]:
        """Plays ``steps`` steps of every game and tallies the games that ended."""
        games = self.games
        players = games.players
        finished = 0
        points = np.zeros(players)
        wins = np.zeros(players)
        start = time.perf_counter()
        for _ in range(steps):
            games.step(self.policy(games.action_masks))
            for index in np.flatnonzero(games.terminated):
                final = games.final_scores[index]
                finished += 1
                points += final
                leaders = np.flatnonzero(final == final.max())
                wins[leaders] += 1.0 / len(leaders)
        return {
            "agent_steps": steps * games.num_envs,
            "games": finished,
            "points": points.tolist(),
            "wins": wins.tolist(),
            "seconds": time.perf_counter() - start,
        }


def combine(results):
    players = len(results[0]["points"])
    return {
        "agent_steps": sum(result["agent_steps"] for result in results),
        "games": sum(result["games"] for result in results),
        "points": [sum(result["points"][seat] for result in results) for seat in range(players)],
        "wins": [sum(result["wins"][seat] for result in results) for seat in range(players)],
        "worker_seconds": sum(result["seconds"] for result in results),
    }


def run(
    workers: int = 2, envs: int = 64, steps: int = 500, seed: int = 0, address: Optional[str] = None
):
    """Runs ``workers`` Ray actors of ``envs`` games for ``steps`` steps each and returns the
    totals, with the wall-clock time."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, logging_level=logging.ERROR)
    try:
        remote = ray.remote(num_cpus=1)(SelfPlayWorker)
        # Ray's stubs type an actor's methods as the plain functions, without `.remote`.
        actors: List[Any] = [remote.remote(envs, seed + rank) for rank in range(workers)]
        ray.get([actor.run.remote(0) for actor in actors])  # started, so the clock times play only
        start = time.perf_counter()
        results = ray.get([actor.run.remote(steps) for actor in actors])
        totals = combine(results)
        totals["seconds"] = time.perf_counter() - start
        totals["nodes"] = len([node for node in ray.nodes() if node["Alive"]])
        return totals
    finally:
        if started_here:
            ray.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--address",
        default=None,
        help="a Ray cluster's address ('auto' to find it); none: a local instance",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--envs", type=int, default=64, help="games per worker")
    parser.add_argument("--steps", type=int, default=500, help="steps per worker")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    totals = run(args.workers, args.envs, args.steps, args.seed, args.address)
    print(
        f"{totals['nodes']} node(s), {args.workers} workers: "
        f"{totals['agent_steps']:,} agent steps, "
        f"{totals['games']:,} games finished in {totals['seconds']:.1f} s "
        f"({totals['agent_steps'] / totals['seconds']:,.0f} agent steps/s)"
    )
    games = max(totals["games"], 1)
    for seat, (points, wins) in enumerate(zip(totals["points"], totals["wins"])):
        print(f"  seat {seat}: mean final score {points / games:.1f}, win share {wins / games:.3f}")


if __name__ == "__main__":
    main()
