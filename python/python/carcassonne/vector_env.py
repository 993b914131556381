"""The vector environment: ``num_envs`` games of one learner against bots, stepped in one
native call with the GIL released (optionally over ``threads`` threads), as a Gymnasium
``VectorEnv``.

Observations, masks, rewards and ends are written natively into numpy arrays made once. As
Gymnasium's own vector environments do, ``step`` and ``reset`` return copies by default
(``copy=True``); ``copy=False`` returns the library's arrays themselves, read-only and
rewritten by the next call, which saves copying the planes when the caller consumes them at
once. A finished game starts its next episode within the same step (``autoreset_mode``
``SAME_STEP``): ``terminations[i]`` says game ``i`` ended, ``infos["final_info"]["scores"][i]``
(and ``infos["final_scores"][i]``) how, ``infos["final_obs"][i]`` is its last observation
(blank, with an empty mask: nothing was left to decide) and the observation is already the
new game's first. Game ``i``'s episodes depend only on the seeds and its actions, never on
the thread count (the bots search on one thread each, to their iteration budget, with no
time cap).

For self-play, or several learners in one game, use ``carcassonne.VectorGames`` directly:
every seat ``None`` is played by the caller, and ``agents`` says whose turn it is.
"""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from carcassonne._common import (
    REWARDS,
    blank,
    check_choice,
    observation_space,
    players_with_learner,
)
from carcassonne._native import Encoding, Game, TileSet, VectorGames
from carcassonne.types import FullRuleOptions, RuleOptions


class CarcassonneVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one learner in seat ``seat`` against ``opponents`` (bot levels or
    profile names, one per other seat): the vector form of ``Carcassonne-v0``, with the same
    observations (``observation`` planes, ``features``, ``action_mask``), actions and
    rewards. ``action_masks()`` gives the masks as booleans."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }
    single_observation_space: spaces.Dict

    def __init__(
        self,
        num_envs: int = 8,
        tilesets: Iterable[Union[str, TileSet]] = ("base",),
        opponents: Sequence[str] = ("medium",),
        seat: int = 0,
        options: Union[RuleOptions, FullRuleOptions, None] = None,
        reward: str = "score_delta",
        window: Optional[int] = None,
        bot_seed: int = 0,
        threads: int = 1,
        profiles: Optional[str] = None,
        render_mode: Optional[str] = None,
        copy: bool = True,
    ):
        check_choice("reward", reward, REWARDS)
        tilesets = list(tilesets)
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        players = players_with_learner(opponents, seat)
        seats: List[Optional[str]] = list(opponents)
        seats.insert(seat, None)
        self._seat = seat
        self._copy = copy
        self.render_mode = render_mode
        self.games = VectorGames(
            num_envs,
            seats,
            tilesets=tilesets,
            options=options,
            reward=reward,
            window=window,
            bot_seed=bot_seed,
            threads=threads,
            profiles=profiles,
        )
        encoding = Encoding(Game(tilesets, players=players, options=options), window)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(encoding, self.games.side)
        self.single_action_space = spaces.Discrete(self.games.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observation = {
            "observation": self.games.observations,
            "features": self.games.features,
            "action_mask": self.games.action_masks,
        }
        self._rewards = self.games.rewards[:, seat]

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Every game anew: from ``seed`` (one int: each game draws its own stream from it),
        else each game's next episode."""
        if seed is not None:
            if not isinstance(seed, (int, np.integer)):
                raise TypeError(
                    f"seed is one int (each game draws its own stream from it), not {seed!r}"
                )
            self._np_random, _ = gymnasium.utils.seeding.np_random(int(seed))
            self.games.reset(int(seed) % 2**64)
        else:
            self.games.reset()
        return self._observations(), {}

    def _observations(self) -> Dict[str, np.ndarray]:
        if self._copy:
            return {key: array.copy() for key, array in self._observation.items()}
        return self._observation

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        self.games.step(np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_envs))
        terminated = self.games.terminated.copy()
        truncated = self.games.truncated.copy()
        ended = terminated | truncated
        infos: Dict[str, Any] = {}
        if ended.any():
            scores = self.games.final_scores.copy()
            final_obs = np.full(self.num_envs, None, dtype=object)
            zeros = blank(self.single_observation_space)
            for index in np.flatnonzero(ended):
                final_obs[index] = {key: value.copy() for key, value in zeros.items()}
            infos["final_obs"] = final_obs
            infos["_final_obs"] = ended
            infos["final_info"] = {"scores": scores, "_scores": ended.copy()}
            infos["_final_info"] = ended.copy()
            infos["final_scores"] = scores
            infos["_final_scores"] = ended.copy()
        illegal = self.games.illegal
        if illegal.any():
            infos["illegal_action"] = illegal.copy()
            infos["_illegal_action"] = illegal.copy()
        return self._observations(), self._rewards.copy(), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans shaped (num_envs, actions)."""
        return self.games.action_masks.astype(bool)

    def render(self) -> Optional[Tuple[Any, ...]]:
        """Every game drawn: ASCII boards or RGB arrays, as ``render_mode`` says."""
        if self.render_mode is None:
            return None
        games = [self.games.game(index) for index in range(self.num_envs)]
        if self.render_mode == "ansi":
            return tuple(game.ascii() for game in games)
        return tuple(game.board_rgb() for game in games)
