"""What the PettingZoo and the Gymnasium environments share: checking their settings, the
observation space, reading an agent's action and the win reward."""

from typing import Any, Dict, Iterable, Optional, Sequence, cast

import numpy as np
from gymnasium import spaces

from carcassonne._native import Action, Encoding, Game

REWARDS = ("score_delta", "win")

# The phases in which nobody decides: a tile is drawn from the bag, or a sheep token from the
# flock's bag (Hills & Sheep). The environments play them by themselves.
CHANCE = ("draw", "sheep")


def check_choice(what: str, value: Any, choices: Iterable[Any]) -> None:
    """Raises ``ValueError`` unless ``value`` is one of ``choices``."""
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(f"{what} is one of {choices}, not {value!r}")


def players_with_learner(opponents: Sequence[str], seat: int) -> int:
    """The number of players of one learner in ``seat`` against ``opponents`` (one a seat);
    raises ``ValueError`` when ``seat`` is not one of them."""
    players = 1 + len(opponents)
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not one of the {players} seats")
    return players


def observation_space(encoding: Encoding, side: int) -> spaces.Dict:
    """The observation dict's space for a window of ``side`` cells."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (encoding.planes, side, side), np.uint8),
            "features": spaces.Box(0.0, 10.0, (encoding.features,), np.float32),
            "action_mask": spaces.Box(0, 1, (encoding.actions(side),), np.int8),
        }
    )


def blank(space: spaces.Dict) -> Dict[str, np.ndarray]:
    """An observation of ``space`` (one ``observation_space`` made) that is all zeros: a blank
    board and an empty mask."""
    # observation_space makes every entry a Box, whose shape and dtype are never None.
    boxes = cast(Dict[str, spaces.Box], space.spaces)
    return {key: np.zeros(box.shape, box.dtype) for key, box in boxes.items()}


def decode(encoding: Encoding, game: Game, action: Optional[int]) -> Optional[Action]:
    """The action of index ``action`` in ``game``'s window; None for no action or an index
    outside the space (whether it is legal is for the caller to ask)."""
    if action is None:
        return None
    try:
        return encoding.decode(game, int(action))
    except ValueError:
        return None


def win_reward(game: Game, seat: int) -> float:
    """+1 for the winner (a shared win split), -1 for the others."""
    leaders = game.leaders()
    return 1.0 / len(leaders) if seat in leaders else -1.0
