"""The learning encoding: the mask is exactly the legal actions, and decoding gives them back."""

import random
from typing import List

import numpy as np
import pytest

from carcassonne import Action, Encoding, Game, TileSet
from carcassonne.types import BagContents

from set_combinations import SET_COMBINATIONS


def play_checking_every_step(game, encoding, chooser):
    steps = 0
    while not game.is_over:
        if game.phase in ("draw", "sheep"):
            game.apply(Action.draw())
            continue
        player = game.current_player
        planes, features, mask = encoding.observe(game, player)
        west, north, side = encoding.window(game)
        assert planes.shape == (encoding.planes, side, side) and planes.dtype == np.uint8
        assert features.shape == (encoding.features,) and mask.shape == (encoding.actions(side),)
        legal = game.legal_actions()
        indices = [encoding.encode(game, action) for action in legal]
        assert len(set(indices)) == len(legal), "every legal action has its own index"
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices), (
            "the mask is the legal actions"
        )
        for action, index in zip(legal, indices):
            assert encoding.decode(game, index) == action
        game.apply(encoding.decode(game, chooser(indices)))
        steps += 1
    return steps


@pytest.mark.parametrize("tilesets", SET_COMBINATIONS, ids=lambda sets: "+".join(sets))
def test_the_mask_is_the_legal_actions_at_every_step(tilesets):
    rng = random.Random(7)
    game = Game(tilesets, players=3, seed=11, options={"abbots": True})
    encoding = Encoding(game)
    steps = play_checking_every_step(game, encoding, rng.choice)
    assert steps > 100


def test_a_small_window_grows_rather_than_hide_a_legal_move():
    # Always the first legal action: the board grows as a long line or a lopsided blob.
    game = Game(["base"], players=2, seed=3)
    encoding = Encoding(game, window=5)
    sides = set()

    def first(indices):
        sides.add(encoding.window(game)[2])
        return indices[0]

    play_checking_every_step(game, encoding, first)
    assert max(sides) > 5, "the window grew"


def test_planes_show_the_board_from_the_observers_seat():
    game = Game(["base"], players=2, seed=5)
    encoding = Encoding(game)
    game.apply(Action.draw())
    planes, features, mask = encoding.observe(game, 0)
    assert planes[0].sum() == 1, "the start tile"
    assert features[0] == 1.0, "the place phase"
    # Every legal placement shows in the fit planes.
    assert planes[47:51].sum() == len(game.legal_actions())
    rng = random.Random(1)
    while len(game.figures()) < 3:
        actions = game.legal_actions()
        deploys = [a for a in actions if a.kind == "deploy"]
        game.apply(rng.choice(deploys) if deploys else rng.choice(actions))
    for observer in (0, 1):
        planes = encoding.observe(game, observer)[0]
        for relative in (0, 1):
            player = (observer + relative) % 2
            standing = sum(1 for figure in game.figures() if figure["player"] == player)
            shown = planes[52 + 4 * relative : 56 + 4 * relative].sum()
            assert shown == standing, (observer, relative)
    with pytest.raises(ValueError):
        encoding.observe(game, 2)
    with pytest.raises(ValueError):
        encoding.decode(game, 10**9)


def test_declared_marks_and_tokens_have_planes_and_features():
    # Wine, grain and cloth (Traders & Builders) and besieged (the Cathars) are no fixed
    # plane: one plane each after the players', in the game's mark order; the tokens held
    # are features after the supplies, per player from the observer.
    sets = ["base", "cathars", "traders_and_builders"]
    game = Game(sets, players=2, seed=2)
    encoding = Encoding(game)
    # Four marks, then the builders', pigs' and shepherds' planes of two players.
    assert encoding.planes == Encoding(Game(["base"], players=2)).planes + 4 + 3 * 2
    # 24 more tile types (drawn one-hot and copies left), three kinds for two players, and the
    # special figures' features (12 shared, 4 a player).
    specials = 12 + 4 * 2
    assert (
        encoding.features
        == Encoding(Game(sets[:2], players=2)).features + 2 * 24 + 3 * 2 + specials
    )
    others = [mark for mark in game.mark_ids() if mark not in ("pennant", "inn", "cathedral")]
    assert others == ["besieged", "wine", "grain", "cloth"]
    first = 52 + 4 * 2
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    planes, features, _ = encoding.observe(game, 1)
    printed = {
        tile["id"]: {mark for segment in tile["segments"] for mark in segment["marks"]}
        for name in sets
        for tile in TileSet.builtin(name).to_dict()["tiles"]
    }
    ids = game.tile_ids()
    west, north, side = encoding.window(game)
    for offset, mark in enumerate(others):
        # The plane shows exactly the cells of the tiles printed with the mark.
        carrying = {(x, y) for x, y, tile, _ in game.placements() if mark in printed[ids[tile]]}
        assert carrying, mark
        shown = {
            (west + column, north - row) for row, column in zip(*np.nonzero(planes[first + offset]))
        }
        assert shown == carrying, mark
    held = [game.tokens_held(p) for p in (1, 0)]
    assert features[-6 - specials : -specials].tolist() == pytest.approx(
        [n / 10 for row in held for n in row]
    )


def test_special_figures_have_planes_features_and_actions():
    # The builder, the pig and the shepherd: deployments after the abbots' recalls, grow and
    # drive after them; a plane each a player after the marks'; the flock's features last.
    sets = ["base", "traders_and_builders", "hills_and_sheep"]
    players = 3
    kinds = {"builder": 0, "pig": 1, "shepherd": 2}
    deck = sum(tile["count"] for name in sets for tile in TileSet.builtin(name).to_dict()["tiles"])
    chosen, hidden = set(), 0
    rng = random.Random(4)
    for seed in range(4, 10):
        game = Game(sets, players=players, seed=seed)
        encoding = Encoding(game)
        others = [mark for mark in game.mark_ids() if mark not in ("pennant", "inn", "cathedral")]
        first = 52 + 4 * players + len(others)
        assert encoding.planes == first + 3 * players
        side = encoding.window(game)[2]
        start = side * side * 4 + 32 * 3 + 1 + 1
        assert encoding.actions(side) == start + 32 * 3 + 2
        flock_steps: List[None] = []

        # This seed's start and steps, bound now (ruff's B023), though it runs only in this pass.
        def prefer_specials(indices, start=start, flock_steps=flock_steps):
            flock = [i for i in indices if i >= start + 32 * 3]
            if flock:
                # Grow and drive in turn (only drive is offered when the bag is empty).
                flock_steps.append(None)
                pick = flock[len(flock_steps) % len(flock)]
            else:
                specials = [i for i in indices if start <= i < start + 32 * 3]
                pick = (
                    rng.choice(specials) if specials and rng.random() < 0.7 else rng.choice(indices)
                )
            if start <= pick < start + 32 * 3:
                chosen.add((pick - start) % 3)
            elif pick >= start + 32 * 3:
                chosen.add(3 + pick - start - 32 * 3)
            return pick

        play_checking_every_step(game, encoding, prefer_specials)
        view = game.view()
        hidden += view.get("hidden_tiles", 0)
        for observer in range(players):
            planes, features, _ = encoding.observe(game, observer)
            west, north, side = encoding.window(game)
            for relative in range(players):
                player = (observer + relative) % players
                for name, kind in kinds.items():
                    standing = {
                        (f["pos"]["x"], f["pos"]["y"])
                        for f in game.figures()
                        if f["player"] == player and f["figure"] == name
                    }
                    plane = planes[first + 3 * relative + kind]
                    shown = {
                        (west + column, north - row) for row, column in zip(*np.nonzero(plane))
                    }
                    assert shown == standing, (observer, relative, name)
                sheep = sum(
                    hoard["worth"] for hoard in view.get("hoards", []) if hoard["player"] == player
                )
                at = len(features) - 4 * players + 4 * relative
                assert features[at + 3] == pytest.approx(sheep / 10)
            # The flock's bag by worth, then the tokens that send home (Hills & Sheep's ids).
            bag: BagContents = view.get("bag", {})
            by_worth = [bag.get(f"sheep_{n}", 0) for n in range(1, 9)] + [bag.get("wolf", 0)]
            shared = len(features) - 4 * players - 12
            assert features[shared + 3 : shared + 12].tolist() == pytest.approx(
                [n / 10 for n in by_worth]
            )
            assert features[shared + 2] == pytest.approx(view.get("hidden_tiles", 0) / deck)
        if chosen == {0, 1, 2, 3, 4}:
            break
    assert chosen == {0, 1, 2, 3, 4}, (
        f"a builder, a pig, a shepherd deployed, a flock grown and driven: {chosen}"
    )
    assert hidden > 0, "hills hid tiles"


def giant_set() -> TileSet:
    """The base game with a figure no published set has: the giant, a follower of strength 3
    on cities and roads, one a player."""
    base = TileSet.builtin("base").to_toml()
    giant = (
        '[[figure]]\nid = "giant"\nper_player = 1\nrole = "follower"\nstrength = 3\n'
        'stands_on = ["city", "road"]\n\n'
    )
    return TileSet.from_toml(base.replace("[[figure]]", giant + "[[figure]]", 1), "giants.toml")


def test_an_authors_figure_has_planes_features_and_actions():
    # The giant's deployments come last, a plane a player after every other, its count in
    # hand a feature a player at the end; a game without it encodes exactly as before.
    players = 2
    base = Encoding(Game(["base"], players=players, seed=3))
    game = Game([giant_set()], players=players, seed=3)
    encoding = Encoding(game)
    side = encoding.window(game)[2]
    assert encoding.planes == base.planes + players
    assert encoding.features == base.features + players
    assert encoding.actions(side) == base.actions(side) + 32
    giants = []

    def prefer_giants(indices):
        # The giant's deployments are the last 32 actions of the current window's space.
        first = encoding.actions(encoding.window(game)[2]) - 32
        mine = [i for i in indices if i >= first]
        pick = mine[0] if mine else indices[len(indices) // 2]
        if mine:
            giants.append(encoding.decode(game, pick))
        return pick

    play_checking_every_step(game, encoding, prefer_giants)
    assert giants and all(action.figure == "giant" for action in giants)
    planes, features, _ = encoding.observe(game, 0)
    west, north, side = encoding.window(game)
    for relative in range(players):
        standing = {
            (f["pos"]["x"], f["pos"]["y"])
            for f in game.figures()
            if f["player"] == relative and f["figure"] == "giant"
        }
        shown = {
            (west + column, north - row)
            for row, column in zip(*np.nonzero(planes[base.planes + relative]))
        }
        assert shown == standing
        assert features[base.features + relative] == game.supply(relative)["giant"]
