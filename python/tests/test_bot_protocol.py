"""Bots in Python through the engine's bot protocol: ``serve`` answers as the protocol says,
and the arena plays such bots as separate programs, the example bot among them."""

import io
import json
import sys
from pathlib import Path
from typing import Any, Dict

import carcassonne
from carcassonne import Action, Game
from carcassonne.bot_protocol import PROTOCOL_VERSION, Turn, serve

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "evaluator_bot.py"


def turn_message(game: Game) -> Dict[str, Any]:
    """A turn as the engine writes it: the public game, the view and the legal actions."""
    return {
        "type": "turn",
        "seat": game.current_player,
        "time_ms": 1000,
        "legal": [action.to_dict() for action in game.legal_actions()],
        "view": game.view(),
        "game": json.loads(game.reshuffled(0).save_json()),
    }


def test_serve_answers_hello_and_turns_and_ignores_the_unknown():
    game = Game(["base"], players=2, seed=3)
    game.apply(Action.draw())
    seen = []

    def choose(turn: Turn):
        seen.append(turn)
        return 2 if len(seen) == 1 else turn.legal[1]

    lines = [
        {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": "test"},
        {"type": "news_of_a_later_version"},
        turn_message(game),
        turn_message(game),
    ]
    out = io.StringIO()
    serve(
        choose,
        name="tester",
        stdin=io.StringIO("".join(json.dumps(m) + "\n" for m in lines)),
        stdout=out,
    )
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0] == {"type": "ready", "name": "tester"}
    assert replies[1] == {"type": "play", "index": 2}
    assert replies[2] == {"type": "play", "action": game.legal_actions()[1].to_dict()}
    turn = seen[0]
    assert turn.seat == 0 and turn.time_ms == 1000
    assert turn.legal == game.legal_actions()
    # The bot's game is the real one but for the bag's order, which it never sees.
    assert turn.game.view() == game.view()
    assert turn.game.seed == 0


def external(name: str, *command: str) -> str:
    """A profile file with one external bot."""
    words = json.dumps([sys.executable, *command])
    return f'[[profile]]\nname = "{name}"\nkind = "external"\nexternal = {{ command = {words} }}\n'


def test_the_example_bot_plays_the_arena_without_a_fault_and_beats_random():
    report = carcassonne.arena(
        ["evaluator", "random"], 4, seed=5, threads=2, profiles=external("evaluator", str(EXAMPLE))
    )
    mine, theirs = report["entrants"]
    assert (
        mine["faults"]["slow"]
        + mine["faults"]["exited"]
        + mine["faults"]["garbage"]
        + mine["faults"]["illegal"]
        == 0
    ), mine["faults"]
    assert mine["wins"] > theirs["wins"]
    assert mine["mean_score"] > theirs["mean_score"] + 20


def test_a_python_bot_that_answers_with_actions_and_one_that_fails(tmp_path):
    last = tmp_path / "last.py"
    last.write_text(
        "from carcassonne.bot_protocol import serve\nserve(lambda turn: turn.legal[-1])\n"
    )
    broken = tmp_path / "broken.py"
    broken.write_text("from carcassonne.bot_protocol import serve\nserve(lambda turn: 1 / 0)\n")
    profiles = external("last", str(last)) + external("broken", str(broken))
    report = carcassonne.arena(["last", "broken"], 2, seed=1, profiles=profiles)
    last_faults, broken_faults = (entrant["faults"] for entrant in report["entrants"])
    # Every count: every key but "first", the words.
    assert sum(v for v in last_faults.values() if isinstance(v, int)) == 0, last_faults
    # The broken bot raises at its first move: its process ends, it is started again up to
    # its limit, and every one of its moves goes to a random one; the games still end.
    assert broken_faults["exited"] > 0 and (broken_faults["first"] or "").startswith("exited")
    assert report["games"] == 2
