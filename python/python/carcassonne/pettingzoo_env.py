"""PettingZoo environments: the AEC game every library of multi-agent RL speaks, and a
parallel view of it.

Agents are ``player_0`` … ``player_{n-1}``. An agent acts twice a turn: it places the drawn
tile, then chooses a figure action (a deployment, an abbot's recall or a skip); with Hills &
Sheep a third time when the tile extended its shepherd's field (grow the flock or drive it to
market), and with Traders & Builders a builder's second turn follows at once. The bag's
draws (and discarded tiles, and sheep tokens) happen in between, by themselves. Observations
are dicts::

    {"observation": uint8 planes (planes, side, side),
     "features": float32 vector,
     "action_mask": int8 vector, 1 exactly on the legal actions}

with the encoding documented in ``python/README.md``; the mask is all zeros for an agent
that is not to act. ``render_mode`` ``"human"`` prints the board as text, ``"ansi"`` returns
that text, ``"rgb_array"`` the board picture as an RGB array. Rewards are ``"score_delta"``
(each agent's points scored by each step, final scoring included) or ``"win"`` (at the end: +1
to the winner, shared wins split, -1 to the others).
"""

from typing import Any, Dict, Iterable, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from carcassonne._common import CHANCE, REWARDS, check_choice, decode, observation_space, win_reward
from carcassonne._native import Action, Encoding, Game, TileSet
from carcassonne.types import FullRuleOptions, RuleOptions

ILLEGAL = ("random", "raise")


class CarcassonneEnv(AECEnv):
    """Carcassonne as a PettingZoo AEC environment.

    ``tilesets`` are built-in names, tile set paths or ``TileSet`` objects; ``options`` the
    rule options (``farmers``, ``farm_scoring``, ``tiny_city``, ``inn_cathedral_unfinished``,
    ``abbots``). ``window`` is the side of the board window (None: as large as the deck can
    make the frontier, so no legal move is ever outside it). ``max_cycles`` truncates the
    game once each agent has acted that many times. An illegal action (only possible
    without the mask) is replaced by a random legal one and flagged in the agent's info as
    ``illegal_action`` (``on_illegal="random"``), or raises ``IllegalActionError``
    (``on_illegal="raise"``).
    """

    metadata: Dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "carcassonne_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        tilesets: Iterable[Union[str, TileSet]] = ("base",),
        players: int = 2,
        options: Union[RuleOptions, FullRuleOptions, None] = None,
        reward: str = "score_delta",
        render_mode: Optional[str] = None,
        window: Optional[int] = None,
        max_cycles: Optional[int] = None,
        on_illegal: str = "random",
    ):
        super().__init__()
        check_choice("reward", reward, REWARDS)
        check_choice("render_mode", render_mode, [None, *self.metadata["render_modes"]])
        check_choice("on_illegal", on_illegal, ILLEGAL)
        self._tilesets = list(tilesets)
        self._players = players
        self._options = options
        self._reward = reward
        self.render_mode = render_mode
        self._max_cycles = max_cycles
        self._on_illegal = on_illegal
        template = Game(self._tilesets, players=players, seed=0, options=options)
        self._encoding = Encoding(template, window)
        self.possible_agents = [f"player_{index}" for index in range(players)]
        self._set_spaces(self._encoding.side)
        self._rng = np.random.default_rng()
        self.game = template

    def _set_spaces(self, side: int) -> None:
        encoding = self._encoding
        observation = observation_space(encoding, side)
        self._side = side
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(encoding.actions(side)) for agent in self.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        bag_seed = int(self._rng.integers(0, 2**63))
        self.game = Game(
            self._tilesets, players=self._players, seed=bag_seed, options=self._options
        )
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self._acted = 0
        self._draw()
        self.agent_selection = self.possible_agents[self.game.current_player]

    def _draw(self) -> None:
        """Draws until a tile is to be placed or the game is over (discards included), and
        the sheep tokens a shepherd or a growing flock calls for."""
        while self.game.phase in CHANCE:
            self.game.apply(Action.draw())

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        observer = self.possible_agents.index(agent)
        planes, features, mask = self._encoding.observe(self.game, observer)
        if planes.shape[1] != self._side:
            # A window smaller than the guaranteed one has been outgrown: the spaces grow too.
            self._set_spaces(planes.shape[1])
        if agent != self.agent_selection or self.game.is_over:
            mask = np.zeros_like(mask)
        return {"observation": planes, "features": features, "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        chosen = self._legal(agent, action)
        before = self.game.scores()
        self.game.apply(chosen)
        self._draw()
        after = self.game.scores()
        self._acted += 1
        if self._reward == "score_delta":
            self.rewards = {
                name: float(after[i] - before[i]) for i, name in enumerate(self.possible_agents)
            }
        else:
            self.rewards = {name: 0.0 for name in self.possible_agents}
            if self.game.is_over:
                for i, name in enumerate(self.possible_agents):
                    self.rewards[name] = win_reward(self.game, i)
        if self.game.is_over:
            self.terminations = {name: True for name in self.agents}
        elif self._max_cycles is not None and self._acted >= self._max_cycles * self._players:
            self.truncations = {name: True for name in self.agents}
        if not self.game.is_over:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()

    def _legal(self, agent: str, action: Optional[int]) -> Action:
        """The action of index ``action``, or, if it is not legal now, a random legal one."""
        chosen = decode(self._encoding, self.game, action)
        if chosen is not None and self.game.is_legal(chosen):
            return chosen
        if self._on_illegal == "raise":
            if action is None:
                raise ValueError("the agent to act gave no action")
            if chosen is None:
                raise ValueError(f"action {action} is outside the action space")
            self.game.check(chosen)
        self.infos[agent] = {"illegal_action": True}
        count = self.game.legal_action_count()
        return self.game.legal_action(int(self._rng.integers(0, count)))

    def render(self) -> Union[None, str, np.ndarray]:
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self.game.ascii())
            return None
        if self.render_mode == "ansi":
            return self.game.ascii()
        return self.game.board_rgb()

    def close(self) -> None:
        pass


class CarcassonneParallelEnv(ParallelEnv):
    """The AEC environment seen in parallel steps: each step, the agent to act plays the
    action given for it (the others' are ignored: Carcassonne is turn-based); every agent
    observes and is rewarded each step. ``max_cycles`` truncates after that many steps."""

    metadata: Dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "carcassonne_parallel_v0",
        "is_parallelizable": False,
    }

    def __init__(self, max_cycles: Optional[int] = None, **kwargs: Any):
        self.aec = CarcassonneEnv(**kwargs)
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode
        self._max_cycles = max_cycles

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Dict[str, np.ndarray]], Dict[str, Dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return {agent: self.aec.observe(agent) for agent in self.agents}, {
            agent: {} for agent in self.agents
        }

    def step(
        self, actions: Dict[str, int]
    ) -> Tuple[
        Dict[str, Dict[str, np.ndarray]],
        Dict[str, float],
        Dict[str, bool],
        Dict[str, bool],
        Dict[str, Dict[str, Any]],
    ]:
        acting = self.aec.agent_selection
        self.aec.step(actions.get(acting))
        self._steps += 1
        over = self.aec.game.is_over
        truncated = not over and self._max_cycles is not None and self._steps >= self._max_cycles
        observations = {agent: self.aec.observe(agent) for agent in self.agents}
        rewards = {agent: float(self.aec.rewards.get(agent, 0.0)) for agent in self.agents}
        terminations = {agent: over for agent in self.agents}
        truncations = {agent: truncated for agent in self.agents}
        infos = {agent: dict(self.aec.infos.get(agent, {})) for agent in self.agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Union[None, str, np.ndarray]:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> np.ndarray:
        return self.aec.observe(self.aec.agent_selection)["observation"]


def raw_env(**kwargs: Any) -> CarcassonneEnv:
    """The environment without PettingZoo's checking wrapper."""
    return CarcassonneEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment, wrapped so that calls out of order are refused."""
    return wrappers.OrderEnforcingWrapper(CarcassonneEnv(**kwargs))


def parallel_env(**kwargs: Any) -> CarcassonneParallelEnv:
    """The parallel view (one agent acts per step)."""
    return CarcassonneParallelEnv(**kwargs)
