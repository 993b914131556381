"""Bots in Python for the engine's bot protocol (docs/bot-protocol.md in the repository).

The engine (``carcassonne arena``, ``carcassonne play``, the server) starts a bot as a program
and writes it one JSON object a line; the bot answers each with one line. ``serve`` does the
reading and writing: give it a function that takes a :class:`Turn` and returns the index of an
action in ``turn.legal`` (or the action itself)::

    from carcassonne.bot_protocol import serve

    def choose(turn):
        return 0  # the first legal action

    if __name__ == "__main__":
        serve(choose, name="first")

Every turn carries the whole public game, loaded here as a :class:`carcassonne.Game` whose bag
is shuffled anew (seed 0): the bot sees what a player sees and nothing of the bag's order. Log
to stderr: stdout carries the protocol only.
"""

import json
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, TextIO, Union

from carcassonne._native import Action, Game
from carcassonne.types import GameView

#: The protocol version this module speaks (``hello``'s ``protocol``).
PROTOCOL_VERSION = 1


@dataclass
class Turn:
    """One decision: the game as a player sees it and the actions to choose from."""

    #: The game so far, every draw named and the bag reshuffled: search it freely.
    game: Game
    #: The legal actions, in the engine's order; answer with an index into this list.
    legal: List[Action]
    #: The seat to move (``game.current_player``).
    seat: int
    #: How long the answer may take, in milliseconds, from when the engine wrote the request.
    time_ms: int
    #: The engine's view of the position (``Game.view()``'s dictionary).
    view: GameView


Choose = Callable[[Turn], Union[int, Action]]


def serve(
    choose: Choose,
    name: Optional[str] = None,
    stdin: Optional[TextIO] = None,
    stdout: Optional[TextIO] = None,
) -> None:
    """Answers the engine until it closes our stdin: ``ready`` to ``hello`` and ``choose``'s
    answer to each ``turn``. Messages of other types (from later versions) are ignored."""
    reader = stdin if stdin is not None else sys.stdin
    writer = stdout if stdout is not None else sys.stdout
    for line in reader:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL_VERSION:
                print(
                    f"bot_protocol: the engine speaks protocol {message.get('protocol')}, "
                    f"this module {PROTOCOL_VERSION}",
                    file=sys.stderr,
                )
            reply: Dict[str, Any] = {"type": "ready"}
            if name is not None:
                reply["name"] = name
        elif kind == "turn":
            reply = {"type": "play", **_answer(choose, message)}
        else:
            continue
        writer.write(json.dumps(reply) + "\n")
        writer.flush()


def _answer(choose: Choose, message: Dict[str, Any]) -> Dict[str, Any]:
    game = Game.load_json(json.dumps(message["game"]))
    turn = Turn(
        game=game,
        legal=game.legal_actions(),
        seat=int(message["seat"]),
        time_ms=int(message["time_ms"]),
        view=message["view"],
    )
    choice = choose(turn)
    if isinstance(choice, Action):
        return {"action": choice.to_dict()}
    return {"index": int(choice)}
