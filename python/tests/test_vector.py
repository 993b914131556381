"""The vector environment: many games in one native call, written in place, the same
whatever the thread count, observations identical to the single-game encoding."""

import numpy as np
import pytest

import carcassonne
from carcassonne import Encoding, IllegalActionError, VectorGames
from carcassonne.types import RuleOptions

from set_combinations import SET_COMBINATIONS


def arrays(games):
    return {
        name: getattr(games, name).copy()
        for name in (
            "observations",
            "features",
            "action_masks",
            "rewards",
            "scores",
            "final_scores",
            "terminated",
            "truncated",
            "illegal",
            "agents",
        )
    }


def assert_same_as_single_games(games, encoding):
    """Each game's observation, written incrementally, equals a fresh full encoding of it."""
    for index in range(games.num_envs):
        game = games.game(index)
        seat = int(games.agents[index])
        assert game.current_player == seat and game.phase in ("place", "figure", "flock")
        planes, features, mask = encoding.observe(game, seat)
        np.testing.assert_array_equal(games.observations[index], planes)
        np.testing.assert_array_equal(games.features[index], features)
        np.testing.assert_array_equal(games.action_masks[index], mask)
        legal = game.legal_actions()
        assert int(mask.sum()) == len(legal)
        for action in legal:
            assert games.decode(index, encoding.encode(game, action)) == action


@pytest.mark.parametrize("tilesets", SET_COMBINATIONS, ids=lambda sets: "+".join(sets))
def test_observations_equal_the_single_game_encoding_through_resets(tilesets):
    options: RuleOptions = {"abbots": True}
    games = VectorGames(3, [None, "random", None], tilesets=tilesets, options=options, seed=5)
    encoding = Encoding(carcassonne.Game(tilesets, players=3, options=options))
    ended = 0
    for step in range(260):
        assert_same_as_single_games(games, encoding)
        games.step(games.random_actions(step))
        assert not games.illegal.any()
        ended += int(games.terminated.sum())
    assert ended >= 3, "every game ended at least once and went on"


def test_the_same_seeds_give_the_same_trajectories_on_any_number_of_threads():
    runs = []
    for threads in (1, 2, 3):
        games = VectorGames(7, [None, "easy"], seed=21, bot_seed=4, threads=threads)
        trajectory = [arrays(games)]
        for step in range(200):
            games.step(games.random_actions(1000 + step))
            trajectory.append(arrays(games))
        runs.append(trajectory)
    for other in runs[1:]:
        for expected, got in zip(runs[0], other):
            for name in expected:
                np.testing.assert_array_equal(expected[name], got[name], err_msg=name)


def test_other_seeds_give_other_games():
    first = VectorGames(2, [None, None], seed=1)
    second = VectorGames(2, [None, None], seed=2)
    assert first.game(0).save_json() != second.game(0).save_json()
    assert first.game(0).save_json() != first.game(1).save_json(), "each slot its own bag"


def test_results_are_written_into_the_same_arrays():
    games = VectorGames(2, [None, None])
    observations, masks = games.observations, games.action_masks
    address = observations.__array_interface__["data"][0]
    games.step(games.random_actions(0))
    assert games.observations is observations and games.action_masks is masks
    assert games.observations.__array_interface__["data"][0] == address


def test_the_arrays_are_read_only_between_calls():
    # The next observation is written over this one where the game changed: a caller's write
    # would leave it wrong, so it is refused.
    games = VectorGames(2, [None, None])
    for array in (games.observations, games.action_masks, games.rewards, games.agents):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    kept = games.observations.copy()
    kept[0] = 1  # a copy is the caller's
    games.step(games.random_actions(0))
    assert not games.observations.flags.writeable


def test_every_seats_rewards_add_up_to_its_final_score():
    # A bot in seat 0 moves first: its points before the caller's first decision count too.
    games = VectorGames(3, ["easy", None, "random"], seed=6)
    totals = np.zeros((3, 3))
    ended = 0
    for step in range(300):
        games.step(games.random_actions(step))
        totals += games.rewards
        for index in np.flatnonzero(games.terminated):
            assert totals[index].tolist() == games.final_scores[index].tolist()
            totals[index] = 0
            ended += 1
    assert ended >= 2


def test_reset_starts_the_next_games_or_replays_from_a_seed():
    games = VectorGames(2, [None, None], seed=4)
    first = [games.game(index).save_json() for index in range(2)]
    encoding = Encoding(carcassonne.Game(["base"]))
    for step in range(30):
        games.step(games.random_actions(step))
    games.reset()
    assert games.episodes() == [1, 1], "a reset without a seed goes on to the next games"
    assert [games.game(index).save_json() for index in range(2)] != first
    assert_same_as_single_games(games, encoding)
    games.reset(seed=4)
    assert games.episodes() == [0, 0]
    assert [games.game(index).save_json() for index in range(2)] == first
    assert_same_as_single_games(games, encoding)
    assert not games.terminated.any() and not games.rewards.any()


def test_an_array_of_its_own_may_be_passed_as_the_actions():
    games = VectorGames(2, [None, None], seed=1)
    games.step(games.agents)  # the array the call writes: copied first, no borrow conflict
    assert games.illegal.all(), "seat numbers are not legal action indexes here"


def test_an_even_window_is_made_odd_and_hides_nothing():
    game = carcassonne.Game(["base"], seed=2)
    assert Encoding(game, window=4).side == 5 and Encoding(game, window=2).side == 5
    games = VectorGames(2, [None, "random"], window=6, seed=2)
    assert games.side == 7
    encoding = Encoding(game, window=6)
    for step in range(150):
        assert_same_as_single_games(games, encoding)
        assert games.action_masks.any(axis=1).all()
        games.step(games.random_actions(step))


def test_an_ended_game_reports_its_scores_and_starts_again():
    games = VectorGames(1, [None, "random"], reward="score_delta", seed=9)
    rewards = np.zeros(2)
    for step in range(400):
        before = games.game(0)
        games.step(games.random_actions(step))
        rewards += games.rewards[0]
        if games.terminated[0]:
            final = games.final_scores[0]
            assert rewards[0] == final[0], "the learner's score deltas add up to its final score"
            assert games.episodes() == [1]
            fresh = games.game(0)
            assert fresh.tiles_left > before.tiles_left
            assert games.scores[0].tolist() == [0, 0], "seat 0 opens the new game"
            return
    pytest.fail("no game ended in 400 steps")


def test_win_rewards_come_at_the_end_and_sum_as_a_game_result():
    games = VectorGames(4, [None, None], reward="win", seed=3)
    for step in range(600):
        games.step(games.random_actions(step))
        for index in range(4):
            row = games.rewards[index]
            if games.terminated[index]:
                final = games.final_scores[index]
                winner = int(np.argmax(final))
                if final[0] != final[1]:
                    assert row[winner] == 1.0 and row[1 - winner] == -1.0
                else:
                    assert row.tolist() == [0.5, 0.5]
            else:
                assert row.tolist() == [0.0, 0.0]


def test_an_illegal_action_is_replaced_and_flagged_or_refused():
    games = VectorGames(2, [None, None], seed=2)
    mask = games.action_masks
    illegal = int(np.flatnonzero(mask[0] == 0)[0])
    actions = games.random_actions(0)
    actions[0] = illegal
    games.step(actions)
    assert games.illegal.tolist() == [True, False]

    strict = VectorGames(2, [None, None], seed=2, on_illegal="raise")
    before = strict.game(0).save_json(), strict.game(1).save_json()
    actions = strict.random_actions(0)
    actions[1] = -1
    with pytest.raises(IllegalActionError):
        strict.step(actions)
    assert (strict.game(0).save_json(), strict.game(1).save_json()) == before, "nothing played"


def test_a_small_window_truncates_a_game_that_outgrows_it():
    games = VectorGames(4, [None, None], window=7, seed=8)
    encoding = Encoding(carcassonne.Game(["base"]), window=7)
    truncated = 0
    for step in range(300):
        assert games.observations.shape[2:] == (7, 7)
        assert_same_as_single_games(games, encoding)
        games.step(games.random_actions(step))
        truncated += int(games.truncated.sum())
    assert truncated > 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"num_envs": 0, "seats": [None, None]}, "num_envs"),
        ({"num_envs": 2, "seats": ["easy", "hard"]}, "no seat"),
        ({"num_envs": 2, "seats": [None, "grandmaster"]}, "grandmaster"),
        ({"num_envs": 2, "seats": [None, None], "reward": "points"}, "reward"),
        ({"num_envs": 2, "seats": [None, None], "threads": 0}, "threads"),
        ({"num_envs": 2, "seats": [None, None], "on_illegal": "ignore"}, "on_illegal"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises((ValueError, carcassonne.CarcassonneError), match=message):
        VectorGames(**kwargs)


def test_a_wrong_number_of_actions_is_refused():
    games = VectorGames(3, [None, None])
    with pytest.raises(ValueError, match="2 actions for 3 games"):
        games.step(np.zeros(2, dtype=np.int64))
