r"""A bot in Python for the engine's bot protocol: it tries every legal action on a copy of the
game and plays the one after which the package's Evaluator (on the built-in learned weights)
gives it the largest lead over the best other player. One ply, like the built-in ``greedy``
bot, written here in a few lines.

    carcassonne arena evaluator random \
        --bot "evaluator=python3 python/examples/bots/evaluator_bot.py"
"""

from carcassonne import Evaluator
from carcassonne.bot_protocol import Turn, serve

evaluator = Evaluator(learned="builtin")


def lead(points, seat):
    """The seat's expected points less the best other player's."""
    others = [p for player, p in enumerate(points) if player != seat]
    return points[seat] - max(others)


def choose(turn: Turn) -> int:
    best, best_lead = 0, float("-inf")
    for index, action in enumerate(turn.legal):
        after = turn.game.clone()
        after.apply(action)
        value = lead(evaluator.expected_points(after), turn.seat)
        if value > best_lead:
            best, best_lead = index, value
    return best


if __name__ == "__main__":
    serve(choose, name="evaluator (Python)")
