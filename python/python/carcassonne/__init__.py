"""A complete, fast Carcassonne rules engine (written in Rust) for Python.

    >>> import carcassonne
    >>> game = carcassonne.Game(["base"], players=2, seed=7)
    >>> while not game.is_over:
    ...     actions = game.legal_actions()
    ...     events = game.apply(actions[0])
    >>> len(game.scores())
    2

Every refusal raises a typed exception (``IllegalActionError`` with a ``reason``,
``TileSetError`` with every ``diagnostics`` entry) and leaves the game as it was.
"""

from carcassonne._native import (
    Action,
    CarcassonneError,
    Game,
    IllegalActionError,
    SaveError,
    SetupError,
    TileSet,
    TileSetError,
    __version__,
)

__all__ = [
    "Action",
    "CarcassonneError",
    "Game",
    "IllegalActionError",
    "SaveError",
    "SetupError",
    "TileSet",
    "TileSetError",
    "__version__",
]
