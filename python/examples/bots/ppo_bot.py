"""The masked-PPO agent that ``train_maskable_ppo.py`` trains, as a bot for the engine's bot
protocol: it observes each turn as the Gymnasium environment does and plays its policy's
choice among the legal actions.

    python python/examples/train_maskable_ppo.py --steps 200000 --save ppo.zip
    carcassonne arena ppo random --bot "ppo=python3 python/examples/bots/ppo_bot.py --model ppo.zip"

It plays the seat it is given in games of the sets it was trained on (the base game, two
players, by default). Where the board outgrows the policy's window, which the policy cannot
see past, it plays the legal action the package's Evaluator likes best instead and says so
on stderr.
"""

import argparse
import sys
from typing import Dict

from sb3_contrib import MaskablePPO

from carcassonne import Encoding, Evaluator
from carcassonne.bot_protocol import Turn, serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", required=True, help="the .zip that train_maskable_ppo.py --save wrote"
    )
    parser.add_argument(
        "--stochastic",
        action="store_true",
        help="sample the policy instead of taking its best action",
    )
    args = parser.parse_args()
    model = MaskablePPO.load(args.model, device="cpu")
    planes, side, _ = model.observation_space["observation"].shape
    evaluator = Evaluator()
    encodings: Dict[str, Encoding] = {}

    def choose(turn: Turn):
        encoding = encodings.get("it")
        if encoding is None:
            encoding = encodings["it"] = Encoding(turn.game, side)
            if encoding.planes != planes:
                sys.exit(
                    f"ppo_bot: the model sees {planes} planes, these sets give {encoding.planes}"
                )
        if encoding.window(turn.game)[2] != side:
            print(
                "ppo_bot: the board outgrew the policy's window; the evaluator chooses",
                file=sys.stderr,
            )
            return best_by_evaluator(turn, evaluator)
        board, features, mask = encoding.observe(turn.game, turn.seat)
        observation = {"observation": board, "features": features, "action_mask": mask}
        action, _ = model.predict(
            observation, action_masks=mask.astype(bool), deterministic=not args.stochastic
        )
        return encoding.decode(turn.game, int(action))

    serve(choose, name="masked PPO")


def best_by_evaluator(turn: Turn, evaluator: Evaluator) -> int:
    def lead(index: int) -> float:
        after = turn.game.clone()
        after.apply(turn.legal[index])
        points = evaluator.expected_points(after)
        return points[turn.seat] - max(p for seat, p in enumerate(points) if seat != turn.seat)

    return max(range(len(turn.legal)), key=lead)


if __name__ == "__main__":
    main()
