"""The vector environment: ``num_envs`` games of one learner against bots, stepped in one
native call with the GIL released (optionally over ``threads`` threads), as a Gymnasium
``VectorEnv``.

Observations, masks, rewards and ends are written into numpy arrays made once; every
``step`` returns the same arrays, rewritten in place (copy what you keep). A finished game
starts its next episode within the same step (``autoreset_mode`` ``SAME_STEP``):
``terminations[i]`` says game ``i`` ended, ``infos["final_scores"][i]`` how, and the
observation is already the new game's first. Game ``i``'s episodes depend only on the seeds
and its actions, never on the thread count.

For self-play, or several learners in one game, use ``carcassonne.VectorGames`` directly:
every seat ``None`` is played by the caller, and ``agents`` says whose turn it is.
"""

from typing import Any, Dict, Iterable, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from carcassonne._common import REWARDS, check_choice, observation_space, players_with_learner
from carcassonne._native import Encoding, Game, TileSet, VectorGames


class CarcassonneVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one learner in seat ``seat`` against ``opponents`` (bot levels or
    profile names, one per other seat): the vector form of ``Carcassonne-v0``, with the same
    observations (``observation`` planes, ``features``, ``action_mask``), actions and
    rewards. ``action_masks()`` gives the masks as booleans."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 8,
        tilesets: Iterable[Union[str, TileSet]] = ("base",),
        opponents: Sequence[str] = ("medium",),
        seat: int = 0,
        options: Optional[Dict[str, Any]] = None,
        reward: str = "score_delta",
        window: Optional[int] = None,
        bot_seed: int = 0,
        threads: int = 1,
        profiles: Optional[str] = None,
        render_mode: Optional[str] = None,
    ):
        check_choice("reward", reward, REWARDS)
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        players = players_with_learner(opponents, seat)
        seats = list(opponents)
        seats.insert(seat, None)
        self._seat = seat
        self.render_mode = render_mode
        self.games = VectorGames(
            num_envs,
            seats,
            tilesets=list(tilesets),
            options=options,
            reward=reward,
            window=window,
            bot_seed=bot_seed,
            threads=threads,
            profiles=profiles,
        )
        encoding = Encoding(Game(list(tilesets), players=players, options=options), window)
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
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[Dict[str, np.ndarray], dict]:
        if seed is not None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
            self.games.reset(seed % 2**64)
        else:
            self.games.reset()
        return self._observation, {}

    def step(self, actions: Any):
        self.games.step(np.asarray(actions, dtype=np.int64).reshape(self.num_envs))
        ended = self.games.terminated | self.games.truncated
        infos: Dict[str, Any] = {}
        if ended.any():
            infos["final_scores"] = self.games.final_scores.copy()
            infos["_final_scores"] = ended
        illegal = self.games.illegal
        if illegal.any():
            infos["illegal_action"] = illegal.copy()
            infos["_illegal_action"] = illegal.copy()
        return self._observation, self._rewards, self.games.terminated, self.games.truncated, infos

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
