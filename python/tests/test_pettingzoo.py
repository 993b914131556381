"""The PettingZoo environment passes PettingZoo's own checks, and plays whole games."""

import os

import numpy as np
import pytest

try:
    import pettingzoo  # noqa: F401
except ImportError:
    # In CI the test extra is installed: a missing pettingzoo is a failure there, not a skip.
    if os.environ.get("CI"):
        raise
    pytest.skip(
        "pettingzoo is in the test extra: pip install './python[test]'", allow_module_level=True
    )

from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test

import carcassonne
from carcassonne import pettingzoo_env


def small(**kwargs):
    # A 31-cell window keeps the checks quick; it grows if a game needs more.
    return pettingzoo_env.env(window=31, **kwargs)


def test_api():
    api_test(small(), num_cycles=300, verbose_progress=False)
    api_test(
        small(players=3, tilesets=("base", "inns_and_cathedrals"), options={"abbots": True}),
        num_cycles=200,
    )


def test_seeds():
    seed_test(lambda: small(), num_cycles=50)


def test_max_cycles():
    max_cycles_test(pettingzoo_env)


def test_render():
    render_test(lambda render_mode=None: small(render_mode=render_mode))


def test_whole_games_with_masks_and_both_rewards():
    for reward in ("score_delta", "win"):
        env = carcassonne.env(reward=reward, window=31)
        env.reset(seed=5)
        totals = {agent: 0.0 for agent in env.possible_agents}
        for agent in env.agent_iter():
            observation, reward_now, termination, truncation, info = env.last()
            totals[agent] += reward_now
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"]
            assert mask.any(), "an agent to act always has a legal action"
            env.step(int(np.flatnonzero(mask)[0]))
        game = env.unwrapped.game
        assert game.is_over
        if reward == "score_delta":
            assert [totals[a] for a in env.possible_agents] == [float(s) for s in game.scores()]
        else:
            assert sorted(totals.values())[-1] > 0


def test_illegal_actions_are_replaced_or_refused():
    env = small()
    env.reset(seed=1)
    env.step(0)  # almost surely not a legal placement
    assert env.unwrapped.infos[env.possible_agents[0]].get("illegal_action") in (True, None)
    strict = small(on_illegal="raise")
    strict.reset(seed=1)
    with pytest.raises((carcassonne.IllegalActionError, ValueError)):
        strict.step(10**9)


EVERY_SET = (
    "river",
    "base",
    "inns_and_cathedrals",
    "cathars",
    "traders_and_builders",
    "hills_and_sheep",
    "king_and_robber",
    "cult",
)


def test_six_players_of_every_set_play_to_the_end():
    # Every set at once, six agents choosing at random among the legal actions (special
    # figures, flocks' choices and second turns included): the game ends and the score
    # rewards add up to the scores.
    env = carcassonne.env(players=6, tilesets=EVERY_SET, options={"abbots": True}, window=41)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward_now, termination, truncation, info = env.last()
        totals[agent] += reward_now
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game = env.unwrapped.game
    assert game.is_over and len(game.scores()) == 6
    assert [totals[a] for a in env.possible_agents] == [float(s) for s in game.scores()]
    figures = {figure["figure"] for figure in game.figures()}
    assert {"builder", "pig", "shepherd"} & figures, (
        f"no special figure stands at the end: {figures}"
    )
    assert game.view().get("hidden_tiles", 0) > 0, "hills hid tiles"
