"""A complete, fast Carcassonne rules engine (written in Rust) for Python.

    >>> import carcassonne
    >>> game = carcassonne.Game(["base"], players=2, seed=7)
    >>> while not game.is_over:
    ...     actions = game.legal_actions()
    ...     events = game.apply(actions[0])
    >>> len(game.scores())
    2

Bots (``Bot("hard", seed)``), the ``Evaluator``, the ``arena`` and ``analyze`` work from
Python too, with the GIL released while they think.

Every refusal raises a typed exception (``IllegalActionError`` with a ``reason``,
``TileSetError`` with every ``diagnostics`` entry) and leaves the game as it was.
"""

from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Optional, Tuple, Union

from carcassonne import _native
from carcassonne._native import (
    PALETTE,
    Action,
    Bot,
    CarcassonneError,
    Encoding,
    Evaluator,
    Game,
    IllegalActionError,
    SaveError,
    SetupError,
    TileSet,
    TileSetError,
    VectorGames,
    __version__,
    score_landscape,
)
from carcassonne.types import Analysis, ArenaReport, FullRuleOptions, RuleOptions

if TYPE_CHECKING:
    from carcassonne.pettingzoo_env import CarcassonneParallelEnv

__all__ = [
    "env",
    "parallel_env",
    "Action",
    "Bot",
    "CarcassonneError",
    "Encoding",
    "Evaluator",
    "Game",
    "analyze",
    "arena",
    "IllegalActionError",
    "PALETTE",
    "SaveError",
    "SetupError",
    "TileSet",
    "TileSetError",
    "VectorGames",
    "__version__",
    "score_landscape",
]


def _bar(total: Optional[int], unit: str) -> Any:
    """A tqdm progress bar, or None where tqdm is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit=unit)


def arena(
    bots: List[str],
    games: int,
    *,
    seed: int = 0,
    threads: int = 1,
    tilesets: Optional[Iterable[Union[str, TileSet]]] = None,
    options: Union[RuleOptions, FullRuleOptions, None] = None,
    profiles: Optional[str] = None,
    progress: Union[bool, Callable[[int, int], Any], None] = True,
) -> ArenaReport:
    """Paired games between bots (each tile order once per seat rotation, so luck cancels).

    Returns the report: per bot its wins, win rate with a Wilson 95% interval, mean score
    and margin, time per turn; per pair the Elo difference with its interval. ``progress``
    is True for a tqdm bar (where tqdm is installed), a callable ``(done, planned)``, or
    None. The same seed gives the same report whatever ``threads`` is.
    """
    bar = _bar(None, "game") if progress is True else None
    callback: Optional[Callable[[Tuple[int, int]], Any]] = None
    if bar is not None:

        def advance(pair: Tuple[int, int]) -> None:
            done, planned = pair
            bar.total = planned
            bar.n = done
            bar.refresh()

        callback = advance
    elif callable(progress):
        report = progress

        def forward(pair: Tuple[int, int]) -> Any:
            return report(*pair)

        callback = forward
    try:
        return _native.arena(
            bots,
            games,
            seed=seed,
            threads=threads,
            tilesets=tilesets,
            options=options,
            profiles=profiles,
            progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()


def analyze(
    game: Game,
    *,
    rollouts: Optional[int] = 20_000,
    seconds: Optional[float] = None,
    seed: int = 0,
    threads: int = 1,
    continuation: str = "random",
    keep: int = 5,
    report_every: float = 0.25,
    progress: Union[bool, Callable[[Analysis], Any], None] = True,
) -> Analysis:
    """Ranks the moves of the player to move by the final margin and win share they lead to.

    Every move (placement and figure) is played out ``rollouts`` times in all on fresh
    shuffles of the tiles (the analysis never sees the bag's order); the result lists the
    moves best first with their mean margin, win share, standard errors, mean score and,
    for the ``keep`` best, a likely continuation. ``progress`` is True for a tqdm bar, a
    callable receiving the ranking so far (return True from it to stop early), or None.
    The same seed and rollouts give the same analysis whatever ``threads`` is.
    """
    bar = _bar(rollouts, "rollout") if progress is True else None
    callback: Optional[Callable[[Analysis], Any]] = None
    if bar is not None:

        def advance(partial: Analysis) -> None:
            bar.n = partial["rollouts"]
            bar.refresh()

        callback = advance
    elif callable(progress):
        callback = progress
    try:
        return _native.analyze(
            game,
            rollouts=rollouts,
            seconds=seconds,
            seed=seed,
            threads=threads,
            continuation=continuation,
            keep=keep,
            report_every=report_every,
            progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()


# Any: pettingzoo's AECEnv, which has no type information (and pettingzoo is optional).
def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (``carcassonne.pettingzoo_env``; needs pettingzoo):
    ``env(tilesets=("base",), players=2, options=None, reward="score_delta",
    render_mode=None, window=None, max_cycles=None)``."""
    from carcassonne import pettingzoo_env

    return pettingzoo_env.env(**kwargs)


def parallel_env(**kwargs: Any) -> "CarcassonneParallelEnv":
    """The parallel view of the PettingZoo environment (one agent acts a step)."""
    from carcassonne import pettingzoo_env

    return pettingzoo_env.parallel_env(**kwargs)


try:
    import gymnasium as _gymnasium
except ImportError:  # the Gymnasium environment needs gymnasium: pip install './python[rl]'
    pass
else:
    if "Carcassonne-v0" not in _gymnasium.registry:
        _gymnasium.register(
            id="Carcassonne-v0",
            entry_point="carcassonne.gymnasium_env:CarcassonneGymEnv",
            vector_entry_point="carcassonne.vector_env:CarcassonneVectorEnv",
        )
