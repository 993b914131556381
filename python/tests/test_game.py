"""The library from Python: tile sets, games, refusals, saves."""

import copy
import json
import random
from typing import List, Optional

import pytest

import carcassonne
from carcassonne import Action, Game, IllegalActionError, TileSet, TileSetError
from carcassonne.types import Landscape


def test_a_whole_game_of_first_actions():
    game = Game(["base"], players=2, seed=7)
    assert game.phase == "draw" and game.current_player == 0
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions and game.legal_action_count() == len(actions)
        assert game.legal_action(len(actions) - 1) == actions[-1]
        game.apply(actions[0])
        steps += 1
    assert game.phase == "game_over" and game.tiles_left == 0
    assert steps > 140 and len(game.scores()) == 2
    leaders = game.leaders()
    assert isinstance(leaders, list) and all(isinstance(player, int) for player in leaders)
    assert max(game.scores()) == game.scores()[leaders[0]]
    assert game.legal_actions() == []


def test_events_are_plain_values():
    game = Game(seed=1)
    events = game.apply(Action.draw())
    assert events[0]["event"] == "tile_drawn"
    place = game.legal_actions()[0]
    events = game.apply(place)
    assert events[0]["event"] == "tile_placed"
    assert game.phase == "figure"


def test_a_refused_action_names_its_rule_and_leaves_the_game_alone():
    game = Game(seed=3)
    game.apply(Action.draw())
    before = game.save_json()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action.place(0, 0, 0))
    assert refused.value.reason == "occupied"
    assert "already lies at (0, 0)" in str(refused.value)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action.skip())
    assert refused.value.reason == "wrong_phase"
    assert game.save_json() == before
    assert not game.is_legal(Action.skip())
    with pytest.raises(ValueError):
        Action.place(1, 0, 45)
    with pytest.raises(ValueError):
        Action.deploy(0, "Dragon!")


def test_saves_load_into_an_equal_game_and_copies_are_independent():
    game = Game(["base", "river"], players=3, seed=5, options={"abbots": True, "farmers": False})
    for _ in range(30):
        game.apply(game.legal_actions()[-1])
    loaded = Game.load_json(game.save_json())
    assert loaded.save_json() == game.save_json()
    assert loaded.setup()["options"]["abbots"] is True
    twin = copy.copy(game)
    twin.apply(twin.legal_actions()[0])
    assert len(twin.actions()) == len(game.actions()) + 1
    with pytest.raises(carcassonne.SaveError):
        Game.load_json(
            '{"format": 99, "setup": {"tilesets": ["base"], "players": 2}, "actions": []}'
        )


def test_bad_setups_raise_setup_errors():
    with pytest.raises(carcassonne.SetupError):
        Game(players=1)
    with pytest.raises(carcassonne.SetupError):
        Game(options={"farmers": "yes"})  # type: ignore[arg-type]  # on purpose
    with pytest.raises(carcassonne.SetupError):
        Game(options={"dragons": True})  # type: ignore[arg-type]  # on purpose
    with pytest.raises(TileSetError):
        Game(["no_such_set"])


def test_tile_sets_report_every_diagnostic_with_line_and_column():
    assert "base" in TileSet.builtin_names()
    base = TileSet.builtin("base")
    assert base.id == "base" and base.tile_count == 72
    assert TileSet.from_toml(base.to_toml(), "copy.toml").tile_count == 72
    with pytest.raises(TileSetError) as invalid:
        TileSet.from_toml("[set]\nid = 3\n", "broken.toml")
    diagnostics = invalid.value.diagnostics
    assert diagnostics and all(d["file"] == "broken.toml" and d["line"] >= 1 for d in diagnostics)
    assert all({"column", "code", "message"} <= d.keys() for d in diagnostics)


def test_actions_are_values():
    assert Action.place(1, 2, 90) == Action.place(1, 2, 90)
    assert len({Action.skip(), Action.skip(), Action.draw()}) == 2
    place = Action.place(-1, 3, 270)
    assert place.kind == "place" and place.pos == (-1, 3) and place.rotation == 270
    assert repr(place) == "Action.place(-1, 3, 270)"
    assert Action.deploy(2, "big_follower").figure == "big_follower"


def test_the_board_is_drawn():
    game = Game(seed=2)
    assert game.board_svg().startswith("<svg")


def test_the_view_shows_the_table_and_hides_the_bag():
    game = carcassonne.Game(["base", "inns_and_cathedrals"], players=3, seed=4)
    rng = random.Random(4)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view()
    assert view["sets"] == ["base", "inns_and_cathedrals"] and view["players"] == 3
    assert len(view["tiles"]) == len(game.placements())
    assert view["scores"] == game.scores() and view["remaining"] == game.remaining()
    assert "seed" not in view and "seed" not in str(view)
    for seed in range(5):
        assert game.reshuffled(seed).view() == view, "the bag's order never shows"


def test_features_and_the_scoring_if_the_game_ended_now():
    game = carcassonne.Game(["base"], players=2, seed=1)
    start = game.view()["tiles"][0]
    feature = game.feature(start["pos"]["x"], start["pos"]["y"], 0)
    assert set(feature) >= {"kind", "complete", "tiles", "open_edges", "leaders"}
    assert feature["tiles"] == 1 and feature["figures"] == 0
    with pytest.raises(IndexError):
        game.feature(5, 5, 0)
    rng = random.Random(2)
    while not any(
        f["figures"] for f in (game.feature(x, y, 0) for x, y, _, _ in game.placements())
    ):
        game.apply(rng.choice(game.legal_actions()))
    preview = game.scores_if_over()
    assert preview and all(entry["reason"] == "game_end" and entry["scorers"] for entry in preview)


def test_landscape_scoring():
    two_cities: Landscape = {
        "tiles": [{"tile": "E", "x": 0, "y": 0}, {"tile": "E", "x": 0, "y": 1, "rotation": 180}],
        "figures": [{"player": 0, "x": 0, "y": 0, "segment": 0}],
    }
    assert carcassonne.score_landscape(two_cities)["total"] == [4]
    assert carcassonne.score_landscape(json.dumps(two_cities))["total"] == [4]
    solo = carcassonne.score_landscape(
        {"tiles": [{"tile": "F", "x": 0, "y": 0}]}, options="solo_puzzle"
    )
    assert solo["total"] == [1]
    with pytest.raises(carcassonne.SetupError, match="Q9"):
        carcassonne.score_landscape({"tiles": [{"tile": "Q9", "x": 0, "y": 0}]})
    with pytest.raises(carcassonne.SetupError, match="options"):
        carcassonne.score_landscape(two_cities, options="hard_mode")  # type: ignore[arg-type]  # on purpose


def test_play_random_plays_to_the_end_reproducibly():
    first, second = Game(["base"], seed=3), Game(["base"], seed=3)
    played = first.play_random(11)
    assert first.is_over and played == len(first.actions())
    second.play_random(11)
    assert first.save_json() == second.save_json()
    third = Game(["base"], seed=3)
    third.play_random(12)
    assert third.save_json() != first.save_json()
    assert first.play_random(1) == 0, "nothing left to play"


def test_the_palette_is_the_engines_and_seats_play_the_sets_colours():
    # One palette everywhere: the same names and shades as pictures, the C ABI and the server.
    assert list(carcassonne.PALETTE)[:6] == ["red", "green", "blue", "yellow", "black", "grey"]
    assert carcassonne.PALETTE["red"] == "#d62828"
    game = carcassonne.Game(["base", "inns_and_cathedrals"], players=6)
    assert [game.player_colour(seat) for seat in range(6)] == list(carcassonne.PALETTE)[:6]
    assert game.player_colour(6) is None


def test_marks_and_rules_are_the_sets_declarations():
    game = carcassonne.Game(["base", "inns_and_cathedrals", "cathars"], players=2, seed=3)
    assert game.mark_ids() == ["pennant", "inn", "cathedral", "besieged"]
    assert {"tiny_city", "inn", "cathedral", "besieged", "besieged_farms"} <= set(game.rule_ids())
    # The start tile's city: one tile, no marks; unfinished it is worth 1, completed 2.
    start = game.view()["tiles"][0]
    city = game.feature(start["pos"]["x"], start["pos"]["y"], 0)
    assert city["marks"] == {} and city["pennants"] == 0 and not city["inn"]
    assert (city["points"], city["points_if_complete"]) == (1, 2)
    # Every score event's marks and rule are numbers into those lists.
    rng = random.Random(3)
    while not game.is_over:
        for event in game.apply(rng.choice(game.legal_actions())):
            if event["event"] == "feature_scored":
                assert len(event["marks"]) <= len(game.mark_ids())
                assert event.get("rule") is None or event["rule"] < len(game.rule_ids())


def test_tokens_are_taken_and_scored_as_the_sets_declare():
    game = carcassonne.Game(["base", "traders_and_builders"], players=3, seed=5)
    assert game.token_ids() == ["wine", "grain", "cloth"]
    assert game.tokens_held(2) == [0, 0, 0]
    with pytest.raises(IndexError):
        game.tokens_held(3)
    taken = [[0, 0, 0] for _ in range(3)]
    majorities = []
    rng = random.Random(5)
    while not game.is_over:
        for event in game.apply(rng.choice(game.legal_actions())):
            if event["event"] == "tokens_taken":
                taken[event["player"]][event["token"]] += event["count"]
            elif event["event"] == "tokens_scored":
                majorities.append(event)
    assert [game.tokens_held(p) for p in range(3)] == taken
    assert game.view()["tokens"] == taken
    # Each kind anybody holds pays its most, every tied player in full.
    for event in majorities:
        most = max(taken[p][event["token"]] for p in range(3))
        assert event["held"] == most and event["points"] == 10
        assert event["scorers"] == [p for p in range(3) if taken[p][event["token"]] == most]
    kinds_held = {k for k in range(3) if any(taken[p][k] for p in range(3))}
    assert {event["token"] for event in majorities} == kinds_held
    by_kind = game.view()["points_by_kind"]
    assert sum(row["tokens"] for row in by_kind) == sum(10 * len(e["scorers"]) for e in majorities)


def test_titles_go_to_the_completer_of_the_largest_feature():
    game = carcassonne.Game(["base", "king_and_robber"], players=2, seed=4)
    assert game.title_ids() == ["king", "robber_baron"]
    assert game.view()["titles"] == [{"holder": None, "largest": 0, "completed": 0}] * 2
    rng = random.Random(4)
    holders: List[Optional[int]] = [None, None]
    record, scored = [0, 0], []
    while not game.is_over:
        for event in game.apply(rng.choice(game.legal_actions())):
            if event["event"] == "title_taken":
                assert event["tiles"] > record[event["title"]], "only a larger feature takes it"
                record[event["title"]] = event["tiles"]
                holders[event["title"]] = event["player"]
            elif event["event"] == "title_scored":
                scored.append(event)
    view = game.view()["titles"]
    assert [title["holder"] for title in view] == holders
    assert [title["largest"] for title in view] == record
    for event in scored:
        standing = view[event["title"]]
        assert event["player"] == standing["holder"]
        assert (
            event["features"] == standing["completed"] and event["points"] == standing["completed"]
        )


def test_the_title_scoring_variants_are_options():
    # "10/20": 10 a title held at the end, whatever was completed.
    game = carcassonne.Game(
        ["base", "king_and_robber"], players=2, seed=4, options={"title_scoring": "ten_each"}
    )
    rng = random.Random(4)
    scored = []
    while not game.is_over:
        scored += [
            e for e in game.apply(rng.choice(game.legal_actions())) if e["event"] == "title_scored"
        ]
    assert scored and all(event["points"] == 10 for event in scored)
    with pytest.raises(carcassonne.SetupError, match="twice"):
        carcassonne.Game(["base"], options={"title_scoring": "twice"})  # type: ignore[arg-type]  # on purpose


def test_the_view_lists_the_challenges_between_rivals():
    game = carcassonne.Game(["base", "cult"], players=2, seed=1)
    assert game.view()["challenges"] == []
    ids = game.tile_ids()
    for tile, x in (("B", 0), ("CU01", 1)):
        game.apply(Action.draw_tile(ids.index(tile)))
        game.apply(Action.place(x, -1, 0))
        game.apply(Action.deploy(0, "follower"))
    challenge = game.view()["challenges"][0]
    assert game.rule_ids()[challenge["rule"]] == "challenge"
    assert (challenge["marked"], challenge["marked_player"]) == ({"x": 1, "y": -1}, 1)
    assert (challenge["plain"], challenge["plain_player"]) == ({"x": 0, "y": -1}, 0)
