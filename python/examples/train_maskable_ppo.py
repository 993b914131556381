"""Trains a masked PPO agent (sb3-contrib's MaskablePPO) against the random bot and draws its
win rate as it learns: evidence that the environment is learnable in minutes on one machine.

    pip install './python[rl]' sb3-contrib matplotlib
    python python/examples/train_maskable_ppo.py --steps 200000 --curve curve.png --save ppo.zip

``--save`` keeps the trained policy, which ``bots/ppo_bot.py`` plays through the engine's bot
protocol (in the arena, in ``carcassonne play``, on the server).

Every ``--eval-every`` steps the current policy (deterministic, masked) plays ``--eval-games``
games against the random bot on bags it has never trained on; the win rates go to the
curve's PNG and a CSV beside it. Not run in CI: it takes minutes and needs torch.
"""

import argparse
import csv
import time
from typing import List, Tuple, cast

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

import carcassonne  # noqa: F401  (registers Carcassonne-v0)
from carcassonne.gymnasium_env import CarcassonneGymEnv

EVAL_SEED = 10_000_000  # bags from here on are never trained on


class BoardAndFeatures(BaseFeaturesExtractor):
    """A small convolutional net over the board planes, joined with the feature vector (the
    mask is left to the masking, not the net)."""

    def __init__(self, observation_space: gymnasium.spaces.Dict, width: int = 256):
        super().__init__(observation_space, features_dim=width)
        planes, side, _ = cast(gymnasium.spaces.Box, observation_space["observation"]).shape
        # A layer and its activation a line.
        # fmt: off
        self.board = nn.Sequential(
            nn.Conv2d(planes, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=2, padding=1), nn.ReLU(),
            nn.Flatten(),
        )
        # fmt: on
        with torch.no_grad():
            flat = self.board(torch.zeros(1, planes, side, side)).shape[1]
        features = cast(gymnasium.spaces.Box, observation_space["features"]).shape[0]
        self.head = nn.Sequential(nn.Linear(flat + features, width), nn.ReLU())

    def forward(self, observations):
        board = self.board(observations["observation"].float())
        return self.head(torch.cat([board, observations["features"]], dim=1))


def make_env(rank: int, window: int, seed: int):
    def thunk():
        env = CarcassonneGymEnv(opponents=("random",), window=window, bot_seed=seed + rank)
        env.reset(seed=seed * 1000 + rank)
        return env

    return thunk


def win_rate(model, window: int, games: int, seed: int) -> float:
    """The share of ``games`` the policy wins against the random bot (ties count half)."""
    env = CarcassonneGymEnv(opponents=("random",), window=window, bot_seed=seed)
    points = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=EVAL_SEED + seed + game)
        done = False
        while not done:
            action, _ = model.predict(
                observation,
                action_masks=observation["action_mask"].astype(bool),
                deterministic=True,
            )
            observation, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        mine, theirs = info["scores"]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points / games


class Evaluate(BaseCallback):
    def __init__(self, every: int, games: int, window: int, rows: List[Tuple[int, float, float]]):
        super().__init__()
        self.every, self.games, self.window, self.rows = every, games, window, rows
        self.next = 0
        self.started = time.monotonic()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            rate = win_rate(self.model, self.window, self.games, seed=len(self.rows))
            minutes = (time.monotonic() - self.started) / 60
            self.rows.append((self.num_timesteps, minutes, rate))
            print(
                f"{self.num_timesteps:>8} steps  {minutes:5.1f} min  "
                f"win rate against random {rate:.2f}",
                flush=True,
            )
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--window", type=int, default=31)
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curve", default="training-curve.png")
    parser.add_argument(
        "--save", help="write the trained policy to this .zip (for bots/ppo_bot.py)"
    )
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    envs = DummyVecEnv([make_env(rank, args.window, args.seed) for rank in range(args.envs)])
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=256,
        batch_size=256,
        learning_rate=3e-4,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"features_extractor_class": BoardAndFeatures, "net_arch": [256]},
        seed=args.seed,
        verbose=0,
    )
    rows: List[Tuple[int, float, float]] = []
    model.learn(args.steps, callback=Evaluate(args.eval_every, args.eval_games, args.window, rows))
    rows.append(
        (args.steps, rows[-1][1], win_rate(model, args.window, args.eval_games * 2, seed=999))
    )
    print(f"final win rate against random over {args.eval_games * 2} games: {rows[-1][2]:.2f}")
    if args.save:
        model.save(args.save)
        print(f"policy written to {args.save}")

    with open(args.curve.rsplit(".", 1)[0] + ".csv", "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["steps", "minutes", "win_rate"])
        writer.writerows(rows)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps, _, rates = zip(*rows)
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(steps, rates, marker="o")
    axes.axhline(0.5, color="grey", linestyle="--", label="even with the random bot")
    axes.set_xlabel("environment steps (the learner's decisions)")
    axes.set_ylabel("win rate against the random bot")
    axes.set_ylim(0, 1)
    axes.set_title(f"MaskablePPO on Carcassonne-v0 (base game, 2 players, {rows[-1][1]:.0f} min)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.curve, dpi=120)
    print(f"curve written to {args.curve}")


if __name__ == "__main__":
    main()
