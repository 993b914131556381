"""A Gymnasium environment: one learner against bots, registered as ``Carcassonne-v0``.

The opponents' turns (and every draw) happen inside ``step``, so each step is one of the
learner's decisions: a placement, then a figure action. Observations are the dicts of the
PettingZoo environment (``observation`` planes, ``features``, ``action_mask``) seen from the
learner's seat; ``action_masks()`` gives the mask for sb3-contrib's MaskablePPO. The bag is
seeded by ``reset(seed=...)``; the bots by ``bot_seed`` (a separate stream: the same tiles
can be met by differently seeded opponents, and the other way round).
"""

from typing import Any, Dict, Iterable, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from carcassonne._common import (
    CHANCE,
    REWARDS,
    blank,
    check_choice,
    decode,
    observation_space,
    players_with_learner,
    win_reward,
)
from carcassonne._native import Action, Bot, Encoding, Game, TileSet
from carcassonne.types import FullRuleOptions, RuleOptions


class CarcassonneGymEnv(gymnasium.Env):
    """One learner in seat ``seat`` against ``opponents`` (bot levels or profile names, one a
    seat), on ``tilesets`` with the rule ``options``. ``reward`` is ``"score_delta"`` (the
    learner's points by each step, final scoring included, less nothing) or ``"win"`` (+1 for
    a win, shared wins split, -1 for a loss, at the end). An action outside the mask is
    replaced by a random legal one and flagged as ``info["illegal_action"]``. ``window`` is the
    board window's side: None for one no game can outgrow; a game that outgrows a smaller one
    ends truncated. ``game`` is the game itself, which knows the bag's order: a policy or a
    planner should see ``game.view()`` or ``game.reshuffled(seed)``."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}
    observation_space: spaces.Dict

    def __init__(
        self,
        tilesets: Iterable[Union[str, TileSet]] = ("base",),
        opponents: Sequence[str] = ("medium",),
        seat: int = 0,
        options: Union[RuleOptions, FullRuleOptions, None] = None,
        reward: str = "score_delta",
        render_mode: Optional[str] = None,
        window: Optional[int] = None,
        bot_seed: int = 0,
        profiles: Optional[str] = None,
    ):
        check_choice("reward", reward, REWARDS)
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        players = players_with_learner(opponents, seat)
        self._tilesets = list(tilesets)
        self._options = options
        self._players = players
        self._seat = seat
        self._reward = reward
        self.render_mode = render_mode
        self._opponents = list(opponents)
        self._profiles = profiles
        self._bot_seed = bot_seed
        # Checked now: an unknown profile is refused at construction, not at the first step.
        self._bots = self._make_bots(0)
        template = Game(self._tilesets, players=players, seed=0, options=options)
        self._encoding = Encoding(template, window)
        side = self._encoding.side
        self._side = side
        self.observation_space = observation_space(self._encoding, side)
        self.action_space = spaces.Discrete(self._encoding.actions(side))
        self.game = template
        self._mask: np.ndarray = np.zeros(self.action_space.n, np.int8)
        self._games = 0

    def _make_bots(self, game_number: int) -> Dict[int, Bot]:
        bots = {}
        others = [seat for seat in range(self._players) if seat != self._seat]
        for seat, profile in zip(others, self._opponents):
            seed = (self._bot_seed * 1_000_003 + game_number * 101 + seat) % 2**63
            bots[seat] = Bot(profile, seed, profiles=self._profiles)
        return bots

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        bag_seed = int(self.np_random.integers(0, 2**63))
        self.game = Game(
            self._tilesets, players=self._players, seed=bag_seed, options=self._options
        )
        self._bots = self._make_bots(self._games)
        self._games += 1
        self._play_others()
        return self._observe(self.game.is_over or self._outgrown()), {}

    def _play_others(self) -> None:
        """Draws and the opponents' turns, until the learner is to place or the game is over."""
        game = self.game
        while not game.is_over and (game.phase in CHANCE or game.current_player != self._seat):
            if game.phase in CHANCE:
                game.apply(Action.draw())
            else:
                game.apply(self._bots[game.current_player].choose(game))

    def _outgrown(self) -> bool:
        """Whether the board has outgrown a window smaller than the guaranteed one (the spaces
        are fixed, so such a game is cut short: truncated)."""
        return not self.game.is_over and self._encoding.window(self.game)[2] != self._side

    def _observe(self, ended: bool) -> Dict[str, np.ndarray]:
        """The learner's observation; ``ended`` (the game over or cut short) gives a blank one."""
        if ended:
            # Nothing to decide: an empty mask over a blank board.
            observation = blank(self.observation_space)
        else:
            planes, features, mask = self._encoding.observe(self.game, self._seat)
            observation = {"observation": planes, "features": features, "action_mask": mask}
        self._mask = observation["action_mask"]
        return observation

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (for MaskablePPO)."""
        return self._mask.astype(bool)

    def step(self, action: int) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        info: Dict[str, Any] = {}
        chosen = decode(self._encoding, self.game, action)
        if chosen is None or not self.game.is_legal(chosen):
            info["illegal_action"] = True
            count = self.game.legal_action_count()
            chosen = self.game.legal_action(int(self.np_random.integers(0, count)))
        before = self.game.scores()[self._seat]
        self.game.apply(chosen)
        self._play_others()
        terminated = self.game.is_over
        truncated = self._outgrown()
        if self._reward == "score_delta":
            reward = float(self.game.scores()[self._seat] - before)
        elif terminated:
            reward = win_reward(self.game, self._seat)
        else:
            reward = 0.0
        if terminated or truncated:
            info["scores"] = self.game.scores()
        return self._observe(terminated or truncated), reward, terminated, truncated, info

    def render(self) -> Union[None, str, np.ndarray]:
        if self.render_mode == "ansi":
            return self.game.ascii()
        if self.render_mode == "rgb_array":
            return self.game.board_rgb()
        return None
