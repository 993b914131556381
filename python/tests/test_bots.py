"""Bots, the evaluator, the arena and the analyzer from Python."""

import pytest

import carcassonne
from carcassonne import Action, Bot, Evaluator, Game


def drawn_game(seed=4):
    game = Game(["base"], players=2, seed=seed)
    game.apply(Action.draw())
    return game


def test_bots_play_whole_games_of_legal_actions():
    game = Game(seed=11)
    seats = [Bot("medium", seed=1), Bot("random", seed=2)]
    assert seats[0].name == "medium" and "hard" in Bot.builtin_names()
    while not game.is_over:
        action = seats[game.current_player].choose(game)
        assert game.is_legal(action)
        game.apply(action)
    again = drawn_game()
    assert Bot("greedy", 5).choose(again) == Bot("greedy", 5).choose(again)
    with pytest.raises(ValueError):
        Bot("grandmaster")
    mine = '[[profile]]\nname = "quick"\nkind = "mcts"\nmcts = { iterations = 40 }\n'
    assert Bot("quick", 1, profiles=mine).name == "quick"


def test_the_evaluator_expects_points_for_every_player():
    expected = Evaluator().expected_points(Game(players=3))
    assert len(expected) == 3 and all(points > 0 for points in expected)


def test_the_arena_reports_paired_games_the_same_on_any_number_of_threads():
    seen = []
    one = carcassonne.arena(
        ["greedy", "random"], 4, seed=3, progress=lambda done, planned: seen.append((done, planned))
    )
    two = carcassonne.arena(["greedy", "random"], 4, seed=3, threads=2, progress=None)
    assert one["games"] == 4 and seen[-1] == (4, 4)
    names = [entrant["name"] for entrant in one["entrants"]]
    assert names == ["greedy", "random"]

    def strip(report):
        return [(e["wins"], e["mean_score"]) for e in report["entrants"]]

    assert strip(one) == strip(two)


def test_analysis_ranks_legal_moves_the_same_on_any_number_of_threads():
    game = drawn_game()
    one = carcassonne.analyze(game, rollouts=600, seed=2, progress=None)
    two = carcassonne.analyze(game, rollouts=600, seed=2, threads=2, progress=None)
    assert one["rollouts"] == 600 and one["stop"] == "budget"
    best = one["moves"][0]
    assert game.is_legal(best["place"])
    assert [m["margin"] for m in one["moves"]] == [m["margin"] for m in two["moves"]]
    assert best["continuation"] and best["continuation"][0].kind == "draw_tile"


def test_a_progress_callback_sees_partial_rankings_and_can_stop_or_fail():
    game = drawn_game()
    partials = []

    def stop_after_some(partial):
        partials.append(partial["rollouts"])
        return partial["rollouts"] >= 300

    stopped = carcassonne.analyze(
        game, rollouts=None, seconds=600, report_every=0, progress=stop_after_some
    )
    assert stopped["stop"] == "cancelled" and stopped["rollouts"] >= 300 and partials

    def broken(partial):
        raise KeyError("from the callback")

    with pytest.raises(KeyError):
        carcassonne.analyze(game, rollouts=None, seconds=600, report_every=0, progress=broken)
    with pytest.raises(ValueError):
        carcassonne.analyze(game, rollouts=None, seconds=None)
    with pytest.raises(carcassonne.CarcassonneError):
        carcassonne.analyze(Game(), rollouts=100)


def test_the_evaluator_on_learned_weights_and_its_signals(tmp_path):
    game = Game(players=2, seed=5)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    handset, learned = Evaluator(), Evaluator(learned="builtin")
    assert handset.expected_points(game) != learned.expected_points(game)
    signals = learned.signals(game)
    assert len(signals) == 2 and "city_gain" in signals[0] and "supply" in signals[0]
    assert signals[0]["supply"] <= 7
    weights = tmp_path / "w.toml"
    weights.write_text("[weights]\ncity_now = 1.0\n")
    only_cities = Evaluator(learned=str(weights)).expected_points(game)
    for player, points in enumerate(only_cities):
        assert points == pytest.approx(game.scores()[player] + signals[player]["city_now"])
    weights.write_text("[weights]\ncity_later = 1.0\n")
    with pytest.raises(ValueError, match="city_later"):
        Evaluator(learned=str(weights))
