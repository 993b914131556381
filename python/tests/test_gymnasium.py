"""The Gymnasium environment: one learner against bots."""

import os

import numpy as np
import pytest

try:
    import gymnasium
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip(
        "gymnasium is in the test extra: pip install './python[test]'", allow_module_level=True
    )

from gymnasium.utils.env_checker import check_env

import carcassonne  # noqa: F401  (registers Carcassonne-v0)
from carcassonne.gymnasium_env import CarcassonneGymEnv
from carcassonne.vector_env import CarcassonneVectorEnv


def test_check_env_passes():
    env = gymnasium.make(
        "Carcassonne-v0", opponents=["random"], window=31, render_mode="ansi"
    ).unwrapped
    check_env(env, skip_render_check=False)


def test_registered_and_plays_whole_games_with_masks():
    env = gymnasium.make("Carcassonne-v0", opponents=["greedy"], window=31)
    observation, info = env.reset(seed=3)
    total, steps = 0.0, 0
    learner = env.unwrapped
    assert isinstance(learner, CarcassonneGymEnv)
    while True:
        mask = learner.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert np.array_equal(mask, observation["action_mask"].astype(bool))
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[-1]))
        total += float(reward)
        steps += 1
        if terminated or truncated:
            break
    assert steps > 60
    assert total == info["scores"][0], "score deltas add up to the final score"


def test_the_bag_and_the_bots_have_separate_seeds():
    def first_moves(bot_seed):
        env = CarcassonneGymEnv(opponents=("easy",), seat=1, window=31, bot_seed=bot_seed)
        env.reset(seed=9)
        return env.game.actions()

    assert first_moves(1) == first_moves(1)
    a, b = first_moves(1), first_moves(2)
    assert a[0] == b[0], "the same first tile"


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        CarcassonneGymEnv(opponents=("grandmaster",))
    with pytest.raises(ValueError):
        CarcassonneGymEnv(seat=5)
    with pytest.raises(ValueError):
        CarcassonneGymEnv(reward="money")


def test_the_gymnasium_vector_environment():
    envs = gymnasium.make_vec(
        "Carcassonne-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        opponents=["random"],
        threads=2,
    )
    observations, _ = envs.reset(seed=12)
    assert envs.single_observation_space.contains(
        {key: value[0] for key, value in observations.items()}
    )
    returns = np.zeros(3)
    finished = []
    rng = np.random.default_rng(0)
    vector = envs.unwrapped
    assert isinstance(vector, CarcassonneVectorEnv)
    for _ in range(250):
        masks = vector.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert "illegal_action" not in infos
        returns += rewards
        for index in np.flatnonzero(terminated):
            assert (
                returns[index]
                == infos["final_info"]["scores"][index][0]
                == infos["final_scores"][index][0]
            )
            assert infos["_final_obs"][index] and not infos["final_obs"][index]["action_mask"].any()
            finished.append(index)
            returns[index] = 0
        assert observations["action_mask"].any(axis=1).all(), "never an all-false mask"
    assert len(finished) >= 3
    envs.close()


def test_a_game_outgrowing_a_small_window_ends_truncated():
    env = CarcassonneGymEnv(opponents=("random",), window=5)
    observation, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, _, terminated, truncated, info = env.step(action)
        assert not terminated
        assert env.observation_space.contains(observation)
        if truncated:
            assert not observation["action_mask"].any() and "scores" in info
            return
    pytest.fail("a 5-cell window was never outgrown")


def test_the_vector_environment_returns_copies_unless_told_not_to():
    from carcassonne.vector_env import CarcassonneVectorEnv

    envs = CarcassonneVectorEnv(2, opponents=["random"])
    first, _ = envs.reset(seed=1)
    second, _, _, _, _ = envs.step(
        envs.action_space.sample(mask=tuple(envs.action_masks().astype(np.int8)))
    )
    assert not np.array_equal(first["features"], second["features"]), (
        "the first observation was kept"
    )
    shared = CarcassonneVectorEnv(2, opponents=["random"], copy=False)
    observation, _ = shared.reset(seed=1)
    assert observation["observation"] is shared.games.observations
    with pytest.raises(TypeError, match="one int"):
        envs.reset(seed=[1, 2])  # type: ignore[arg-type]  # not an int, on purpose
