"""The typed dictionaries of carcassonne.types against the dicts the library really returns:
every key a dict has is declared, every required key is there, and every value has its
declared type (Literal values included), through lists, unions and nested dicts."""

import functools
import random
import typing
from typing import Any, Dict, List, Literal, Set, Union, get_args, get_origin, get_type_hints

import pytest

import carcassonne
from carcassonne import Action, Game, TileSet, TileSetError
from carcassonne import types as t

from set_combinations import SET_COMBINATIONS

# Where rare events happen: builders' extra turns, flocks, wolves, hills, tokens and discards
# (Traders & Builders, Hills & Sheep), big followers; titles and rivals. Abbots to recall come
# with the option.
RARE = [
    ["base", "traders_and_builders", "hills_and_sheep", "inns_and_cathedrals"],
    ["base", "king_and_robber", "cult"],
]


def is_typeddict(kind: Any) -> bool:
    # typing.is_typeddict is 3.10+; the package runs on 3.9.
    return isinstance(kind, type) and issubclass(kind, dict) and hasattr(kind, "__total__")


@functools.cache
def hints_of(kind: Any) -> Dict[str, Any]:
    """The keys of a TypedDict and their types (get_type_hints is slow: once a class)."""
    return get_type_hints(kind)


def problems(value: Any, kind: Any, path: str = "value") -> List[str]:
    """Why ``value`` is not of type ``kind``: empty when it is."""
    if kind is Any:
        return []
    if kind is None or kind is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if is_typeddict(kind):
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict ({kind.__name__})"]
        hints = hints_of(kind)
        found = [
            f"{path}: unknown key {key!r} ({kind.__name__})" for key in value if key not in hints
        ]
        found += [
            f"{path}: missing key {key!r} ({kind.__name__})"
            for key in kind.__required_keys__
            if key not in value
        ]
        for key, item in value.items():
            if key in hints:
                found += problems(item, hints[key], f"{path}[{key!r}]")
        return found
    origin = get_origin(kind)
    if origin is Union:
        arms = get_args(kind)
        attempts = [problems(value, arm, path) for arm in arms]
        if any(not attempt for attempt in attempts):
            return []
        # The arm whose tag matches says what is wrong; else all of them.
        tagged = [attempt for arm, attempt in zip(arms, attempts) if tag_matches(value, arm)]
        return [line for attempt in (tagged or attempts) for line in attempt]
    if origin is Literal:
        if any(type(value) is type(choice) and value == choice for choice in get_args(kind)):
            return []
        return [f"{path}: {value!r} is not one of {get_args(kind)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {value!r} is not a list"]
        (item_kind,) = get_args(kind)
        return [
            line
            for i, item in enumerate(value)
            for line in problems(item, item_kind, f"{path}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r} is not a dict"]
        key_kind, item_kind = get_args(kind)
        found = []
        for key, item in value.items():
            found += problems(key, key_kind, f"{path} key")
            found += problems(item, item_kind, f"{path}[{key!r}]")
        return found
    if kind is bool:
        return [] if isinstance(value, bool) else [f"{path}: {value!r} is not a bool"]
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not an int"]
    if kind is float:
        return [] if isinstance(value, float) else [f"{path}: {value!r} is not a float"]
    if isinstance(kind, type):
        ok = isinstance(value, kind)
        return [] if ok else [f"{path}: {value!r} is not a {kind.__name__}"]
    raise AssertionError(f"the checker does not know {kind!r}")


def tag_matches(value: Any, arm: Any) -> bool:
    """Whether ``value`` carries the Literal tag of the TypedDict ``arm``."""
    if not (is_typeddict(arm) and isinstance(value, dict)):
        return False
    for key, hint in hints_of(arm).items():
        if get_origin(hint) is Literal and key in value and len(get_args(hint)) == 1:
            return bool(value[key] == get_args(hint)[0])
    return False


def check(value: Any, kind: Any, what: str) -> None:
    found = problems(value, kind)
    assert not found, f"{what}:\n" + "\n".join(found[:20])


def tags(union: Any, key: str) -> Set[str]:
    """The tags the arms of a tagged union declare."""
    return {get_args(get_type_hints(arm)[key])[0] for arm in get_args(union)}


def every_segment(game: Game):
    """(x, y, segment) of every segment of every tile on the board."""
    for x, y, _, _ in game.placements():
        segment = 0
        while True:
            try:
                yield x, y, segment, game.feature(x, y, segment)
            except IndexError:
                break
            segment += 1


def play(sets: List[str], seed: int, options: Any = None) -> Dict[str, Set[str]]:
    """Plays a random game checking every dict on the way; returns the tags seen."""
    game = Game(sets, players=3, seed=seed, options=options)
    rng = random.Random(seed)
    seen: Dict[str, Set[str]] = {"event": set(), "phase": set(), "action": set(), "reason": set()}
    check(game.setup(), t.GameSetup, "setup()")
    steps = 0
    while not game.is_over:
        view = game.view()
        check(view, t.GameView, f"view() at step {steps}")
        seen["phase"].add(view["phase"]["phase"])
        for player in range(game.players):
            check(game.supply(player), t.Supply, "supply()")
        legal = game.legal_actions()
        # Every kind of action offered, a few of each: a placement phase offers hundreds.
        for action in legal[:3] + legal[-3:]:
            check(action.to_dict(), t.ActionDict, f"{action!r}.to_dict()")
            seen["action"].add(action.to_dict()["action"])
        events = game.apply(rng.choice(legal))
        check(events, List[t.Event], f"apply() at step {steps}")
        for event in events:
            seen["event"].add(event["event"])
            if event["event"] == "feature_scored":
                seen["reason"].add(event["reason"])
        steps += 1
        if steps % 40 == 0:
            check(game.figures(), List[t.PlacedFigure], "figures()")
            check(game.scores_if_over(), List[t.FeatureScore], "scores_if_over()")
            for x, y, segment, feature in every_segment(game):
                check(feature, t.FeatureInfo, f"feature({x}, {y}, {segment})")
    check(game.view(), t.GameView, "view() at the end")
    seen["phase"].add(game.view()["phase"]["phase"])
    check(game.figures(), List[t.PlacedFigure], "figures() at the end")
    assert game.scores_if_over() == []
    check([a.to_dict() for a in game.actions()], List[t.ActionDict], "actions()")
    return seen


def shrine_defeats_monastery() -> List[Any]:
    """The events of a shrine completed beside an open monastery (The Cult; the scenario
    tests/scenarios/a_shrine_completed_first_defeats_the_monastery_beside_it.toml): the only
    way to a "defeated" score, which random play does not find."""
    game = Game(["base", "cult"], players=2, seed=1)
    ids = game.tile_ids()
    steps = [("B", 0, -1, 0), ("CU01", 1, -1, 0), ("U", 1, 0, 90), ("U", 2, 0, 90)]
    steps += [("E", 2, -1, 90), ("E", 0, -2, 180), ("E", 1, -2, 180), ("E", 2, -2, 180)]
    events: List[Any] = []
    for tile, x, y, rotation in steps:
        events += game.apply(Action.draw_tile(ids.index(tile)))
        events += game.apply(Action.place(x, y, rotation))
        monk = tile in ("B", "CU01")
        events += game.apply(Action.deploy(0, "follower") if monk else Action.skip())
    check(game.view(), t.GameView, "view() after the shrine")
    return events


def test_the_checker_refuses_what_does_not_fit():
    good = {"event": "tile_drawn", "player": 0, "tile": 3}
    assert not problems(good, t.Event)
    assert problems({**good, "colour": "red"}, t.Event), "an unknown key"
    assert problems({"event": "tile_drawn", "player": 0}, t.Event), "a missing key"
    assert problems({**good, "event": "tile_dropped"}, t.Event), "an unknown tag"
    assert problems({**good, "tile": "3"}, t.Event), "a wrong type"
    assert problems({**good, "player": True}, t.Event), "a bool is no int here"
    assert problems({"x": 0, "y": 0, "tile": 1, "rotation": 45}, t.TileOnBoard)
    assert not problems({"follower": 7, "big_follower": 0, "abbot": 0}, t.Supply)
    assert not problems({"follower": 7, "giant": 1}, t.Supply)
    assert problems({"follower": "7"}, t.Supply)


@pytest.mark.parametrize("sets", SET_COMBINATIONS + RARE, ids=lambda sets: "+".join(sets))
def test_the_dicts_of_random_games_are_their_typed_dicts(sets):
    for seed in (1, 2):
        play(sets, seed, options={"abbots": True} if seed == 2 else None)


def test_every_event_action_and_phase_shows_up_and_fits():
    """The unions are complete: every tag they declare is met in play, and nothing else."""
    seen: Dict[str, Set[str]] = {"event": set(), "phase": set(), "action": set(), "reason": set()}
    for sets in RARE:
        for seed in range(1, 4):
            for key, found in play(sets, seed, options={"abbots": True}).items():
                seen[key] |= found
    defeat = shrine_defeats_monastery()
    check(defeat, List[t.Event], "the shrine's events")
    seen["reason"] |= {e["reason"] for e in defeat if e["event"] == "feature_scored"}
    assert seen["event"] == tags(t.Event, "event")
    assert seen["phase"] == tags(t.Phase, "phase")
    assert seen["reason"] == set(get_args(t.ScoreReason))
    # Named draws (draw_tile, draw_token) are never offered: a caller names them.
    named = [Action.draw_tile(3), Action.draw_token("sheep_2")]
    for action in named:
        check(action.to_dict(), t.ActionDict, repr(action))
    assert seen["action"] | {a.to_dict()["action"] for a in named} == tags(t.ActionDict, "action")
    assert {a.kind for a in named} | seen["action"] == set(get_args(t.ActionKind))


def test_rule_options_round_trip_as_typed():
    options: t.RuleOptions = {
        "farmers": False,
        "farm_scoring": "per_city_4",
        "title_scoring": "ten_each",
    }
    game = Game(["base"], options=options)
    check(game.setup(), t.GameSetup, "setup()")
    stated = game.view()["options"]
    assert stated == {
        "farmers": False,
        "farm_scoring": "per_city_4",
        "tiny_city": False,
        "inn_cathedral_unfinished": "zero",
        "abbots": False,
        "title_scoring": "ten_each",
    }
    assert set(t.RuleOptions.__optional_keys__) == set(get_type_hints(t.FullRuleOptions))
    # What a game states is what a game accepts.
    assert Game(["base"], options=stated).view()["options"] == stated


def test_every_built_in_tile_set_exports_as_typed():
    rule_types = set()
    for name in TileSet.builtin_names():
        exported = TileSet.builtin(name).to_dict()
        check(exported, t.TileSetExport, f"{name}.to_dict()")
        rule_types |= {rule["type"] for rule in exported["rules"]}
    assert rule_types == tags(t.RuleExport, "type"), "every kind of rule is exported by some set"


def test_diagnostics_are_typed():
    with pytest.raises(TileSetError) as invalid:
        TileSet.from_toml("[set]\nid = 3\nbogus = 1\n", "broken.toml")
    assert invalid.value.diagnostics
    check(invalid.value.diagnostics, List[t.Diagnostic], "diagnostics")


def test_landscapes_arenas_and_analyses_are_typed():
    landscape: t.Landscape = {
        "tiles": [{"tile": "E", "x": 0, "y": 0}, {"tile": "E", "x": 0, "y": 1, "rotation": 180}],
        "figures": [{"player": 0, "x": 0, "y": 0, "segment": 0}],
    }
    check(carcassonne.score_landscape(landscape), t.LandscapeScore, "score_landscape()")
    options: t.LandscapeOptions = {"rules": {"farmers": False}, "pennant_value": None}
    check(carcassonne.score_landscape(landscape, options=options), t.LandscapeScore, "options")
    report = carcassonne.arena(["random", "greedy"], 2, seed=1, progress=None)
    check(report, t.ArenaReport, "arena()")
    game = Game(["base"], seed=4)
    game.apply(Action.draw())
    partials: List[Any] = []
    analysis = carcassonne.analyze(
        game, rollouts=300, seed=2, progress=partials.append, report_every=0.0
    )
    check(analysis, t.Analysis, "analyze()")
    assert analysis["moves"][0]["continuation"], "the best move has a line to check"
    for partial in partials:
        check(partial, t.Analysis, "analyze()'s progress")
    place = analysis["moves"][0]["place"]
    assert place is not None, "analysed before the placement"
    game.apply(place)
    after = carcassonne.analyze(game, rollouts=50, seed=2, progress=None)
    check(after, t.Analysis, "analyze() after placing")
    assert after["moves"][0]["place"] is None


def test_every_name_the_module_exports_is_there():
    for name in t.__all__:
        assert hasattr(t, name), name
    declared = {
        name for name, value in vars(t).items() if not name.startswith("_") and name[0].isupper()
    }
    assert declared - {
        "Action",
        "Dict",
        "List",
        "Literal",
        "Optional",
        "TypedDict",
        "Union",
    } == set(t.__all__)
    assert typing.get_type_hints(t.GameView)["phase"] == t.Phase
