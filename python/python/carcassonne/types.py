"""The shapes of the plain values the library passes in and out: events, views, setups,
scores, tile sets, reports and options, as typed dictionaries.

Every dict the library returns is one of these (``Game.apply`` returns a list of ``Event``,
``Game.view()`` a ``GameView``, ``arena`` an ``ArenaReport`` ...). A tagged union such as
``Event`` narrows on its tag: after ``if event["event"] == "tile_placed":`` a type checker
knows ``event["pos"]``. Keys a dict may lack are the ``total=False`` part of its class; a
value that may be None says ``Optional``. The option dicts the library accepts
(``RuleOptions``, ``LandscapeOptions``, ``Landscape``) list every key it reads; any may be
left out.

    from carcassonne.types import Event, GameView
"""

from typing import Dict, List, Literal, Optional, TypedDict, Union

from carcassonne._native import Action

__all__ = [
    "AbbotRecalledEvent",
    "ActionDict",
    "ActionKind",
    "Analysis",
    "AnalysisMove",
    "AnalysisStop",
    "ArenaReport",
    "BagContents",
    "BagRule",
    "BagTokenExport",
    "ChainRule",
    "Challenge",
    "Colour",
    "DeckExport",
    "DeployAction",
    "Diagnostic",
    "Direction",
    "DrawAction",
    "DrawPhase",
    "DrawTileAction",
    "DrawTokenAction",
    "DriveFlockAction",
    "EdgeKind",
    "EntrantReport",
    "Event",
    "ExtraTurnEvent",
    "FarmRule",
    "FarmScoring",
    "Faults",
    "FeatureInfo",
    "FeatureScore",
    "FeatureScoredEvent",
    "FeatureState",
    "Figure",
    "FigurePhase",
    "FigurePlacedEvent",
    "FigureReturnedEvent",
    "FigureExport",
    "FiguresExport",
    "FlockPhase",
    "FullRuleOptions",
    "GameOverEvent",
    "GameOverPhase",
    "GameSetup",
    "GameView",
    "Glyph",
    "GrowFlockAction",
    "HalfEdge",
    "HideRule",
    "Hoard",
    "Landscape",
    "LandscapeFigure",
    "LandscapeOptions",
    "LandscapeScore",
    "LandscapeTile",
    "MarkExport",
    "NeighboursRule",
    "OccupantsRule",
    "PairReport",
    "Phase",
    "PhaseName",
    "PigRule",
    "PlaceAction",
    "PlacePhase",
    "PlacedFigure",
    "PointsByKind",
    "Pos",
    "RecallAbbotAction",
    "RivalRule",
    "Rotation",
    "RuleExport",
    "RuleOptions",
    "ScoreReason",
    "SegmentExport",
    "SegmentKind",
    "SetExport",
    "SheepPhase",
    "SkipAction",
    "Supply",
    "TieBreakRule",
    "TileDiscardedEvent",
    "TileDrawnEvent",
    "TileExport",
    "TileHiddenEvent",
    "TileOnBoard",
    "TilePlacedEvent",
    "TileSetExport",
    "TileSetSpec",
    "TileSetText",
    "TitleExport",
    "TitleScoredEvent",
    "TitleScoring",
    "TitleStanding",
    "TitleTakenEvent",
    "TokenDrawnEvent",
    "TokenExport",
    "TokensScoredEvent",
    "TokensTakenEvent",
    "TurnStartedEvent",
    "UnfinishedMarks",
    "ValueRule",
]

# Names the library spells out. Player, tile, segment, mark, rule, token and title numbers are
# plain ints: they index the game's own lists (``Game.tile_ids()``, ``Game.mark_ids()`` ...).

#: Degrees clockwise a tile is turned.
Rotation = Literal[0, 90, 180, 270]
#: What kind of feature a segment is part of.
SegmentKind = Literal["city", "road", "field", "river", "monastery", "garden"]
#: What kind of edge a tile side is.
EdgeKind = Literal["city", "road", "field", "river"]
#: A tile side, north first.
Direction = Literal["N", "E", "S", "W"]
#: Half a tile side: the side, then the half of it (``N_w`` is the western half of north).
HalfEdge = Literal["N_w", "N_e", "E_n", "E_s", "S_e", "S_w", "W_s", "W_n"]
#: A figure a player puts on a feature, by the id its tile set declares it with: the built-in
#: sets' ``"follower"``, ``"big_follower"``, ``"abbot"``, ``"builder"``, ``"pig"`` and
#: ``"shepherd"``, or any other an author's set declares (1 to 16 characters of a-z, 0-9 and
#: _, starting with a letter).
Figure = str
#: Why a feature scored.
ScoreReason = Literal["completed", "abbot_recalled", "game_end", "defeated", "market"]
#: How fields score at the end of the game.
FarmScoring = Literal["per_field", "per_field_once", "per_city_4"]
#: How inns and cathedrals on unfinished features score at the end of the game.
UnfinishedMarks = Literal["zero", "normal"]
#: How declared titles score.
TitleScoring = Literal["printed", "ten_each", "fifteen_forty", "continuous"]
#: Which features a value rule or a neighbours rule applies to, by completeness.
FeatureState = Literal["complete", "unfinished", "any"]
#: The shape pictures draw a mark or token with.
Glyph = Literal[
    "shield",
    "house",
    "church",
    "barrel",
    "sheaf",
    "cloth",
    "tower",
    "grapes",
    "hill",
    "star",
    "circle",
    "diamond",
]
#: A colour name of ``carcassonne.PALETTE``; a str, as the palette is data the sets share.
Colour = str
#: The phase of a turn (``Game.phase``).
PhaseName = Literal["draw", "place", "figure", "sheep", "flock", "game_over"]
#: The kind of an action (``Action.kind``).
ActionKind = Literal[
    "draw",
    "draw_tile",
    "place",
    "deploy",
    "recall_abbot",
    "skip",
    "draw_token",
    "grow_flock",
    "drive_flock",
]
#: Why an analysis stopped.
AnalysisStop = Literal["running", "budget", "time", "cancelled", "forced"]


class Pos(TypedDict):
    """A board cell: x grows east, y grows north; the start tile is at (0, 0)."""

    x: int
    y: int


# Events (``Game.apply``), tagged by "event".


class TileDrawnEvent(TypedDict):
    """A player drew a tile."""

    event: Literal["tile_drawn"]
    player: int
    tile: int


class TileDiscardedEvent(TypedDict):
    """The drawn tile fits nowhere and leaves the game; the same player draws again."""

    event: Literal["tile_discarded"]
    player: int
    tile: int


class TilePlacedEvent(TypedDict):
    """A tile went down."""

    event: Literal["tile_placed"]
    player: int
    tile: int
    pos: Pos
    rotation: Rotation


class FigurePlacedEvent(TypedDict):
    """A figure went onto a segment of the tile just placed."""

    event: Literal["figure_placed"]
    player: int
    figure: Figure
    pos: Pos
    segment: int


class AbbotRecalledEvent(TypedDict):
    """A player took their abbot back early."""

    event: Literal["abbot_recalled"]
    player: int
    pos: Pos


class _FeatureScoreKeys(TypedDict):
    """The keys every feature score has."""

    kind: SegmentKind
    pos: Pos
    segment: int
    reason: ScoreReason
    complete: bool
    tiles: int
    # Counts by mark number (``Game.mark_ids()``), trailing zeros left out: [] is no mark.
    marks: List[int]
    cities: int
    farmers: bool
    points: int
    scorers: List[int]


class FeatureScore(_FeatureScoreKeys, total=False):
    """One feature's score: what it is, why it scored, how much and to whom."""

    # The declared rule that set the value, by number (``Game.rule_ids()``); absent for the
    # plain value.
    rule: int


class FeatureScoredEvent(FeatureScore):
    """A feature scored."""

    event: Literal["feature_scored"]


class TokensTakenEvent(TypedDict):
    """A player took tokens from a feature completed during play."""

    event: Literal["tokens_taken"]
    player: int
    token: int
    count: int
    pos: Pos
    segment: int


class TokensScoredEvent(TypedDict):
    """At the end, the players holding the most tokens of a kind scored its majority."""

    event: Literal["tokens_scored"]
    token: int
    held: int
    points: int
    scorers: List[int]


class TitleTakenEvent(TypedDict):
    """A player completed the largest feature of a kind so far and took (or kept) its title."""

    event: Literal["title_taken"]
    player: int
    title: int
    tiles: int
    pos: Pos
    segment: int


class TitleScoredEvent(TypedDict):
    """At the end of the game, a title's holder scored it."""

    event: Literal["title_scored"]
    title: int
    player: int
    features: int
    points: int


class FigureReturnedEvent(TypedDict):
    """A figure went back to its owner's supply."""

    event: Literal["figure_returned"]
    player: int
    figure: Figure
    pos: Pos
    segment: int


class TileHiddenEvent(TypedDict):
    """A tile went face down under the hill just placed, out of the game, unseen."""

    event: Literal["tile_hidden"]
    player: int
    pos: Pos


class TokenDrawnEvent(TypedDict):
    """A token was drawn from a bag for a figure that draws from it (a sheep or a wolf for a
    shepherd): a kept token joins the figure's hoard, one that sends home is followed by the
    ``figure_returned`` events of the figures it sent."""

    event: Literal["token_drawn"]
    player: int
    pos: Pos
    segment: int
    drawn: str


class ExtraTurnEvent(TypedDict):
    """The player extended a feature holding their builder and takes a second turn at once."""

    event: Literal["extra_turn"]
    player: int


class TurnStartedEvent(TypedDict):
    """The next player's turn begins."""

    event: Literal["turn_started"]
    player: int


class GameOverEvent(TypedDict):
    """The game is over; final scores are in."""

    event: Literal["game_over"]
    winners: List[int]


#: Something that happened during an action, tagged by ``"event"``.
Event = Union[
    TileDrawnEvent,
    TileDiscardedEvent,
    TilePlacedEvent,
    FigurePlacedEvent,
    AbbotRecalledEvent,
    FeatureScoredEvent,
    TokensTakenEvent,
    TokensScoredEvent,
    TitleTakenEvent,
    TitleScoredEvent,
    FigureReturnedEvent,
    TileHiddenEvent,
    TokenDrawnEvent,
    ExtraTurnEvent,
    TurnStartedEvent,
    GameOverEvent,
]


# Actions in the saved-game form (``Action.to_dict()``), tagged by "action".


class DrawAction(TypedDict):
    """Draw a random tile from the bag (or a random token from the flock's bag)."""

    action: Literal["draw"]


class DrawTileAction(TypedDict):
    """Draw this tile type, by tile number."""

    action: Literal["draw_tile"]
    tile: int


class PlaceAction(TypedDict):
    """Place the drawn tile."""

    action: Literal["place"]
    pos: Pos
    rotation: Rotation


class DeployAction(TypedDict):
    """Put a figure on a segment of the tile just placed."""

    action: Literal["deploy"]
    segment: int
    figure: Figure


class RecallAbbotAction(TypedDict):
    """Take the player's abbot back instead of deploying."""

    action: Literal["recall_abbot"]
    pos: Pos


class SkipAction(TypedDict):
    """Deploy no figure."""

    action: Literal["skip"]


class DrawTokenAction(TypedDict):
    """Draw the token of this id from the bag a token is being drawn from."""

    action: Literal["draw_token"]
    token: str


class GrowFlockAction(TypedDict):
    """Grow the flock whose field the tile just placed extended."""

    action: Literal["grow_flock"]


class DriveFlockAction(TypedDict):
    """Drive that flock to market."""

    action: Literal["drive_flock"]


#: One step of a turn in the saved-game form, tagged by ``"action"``.
ActionDict = Union[
    DrawAction,
    DrawTileAction,
    PlaceAction,
    DeployAction,
    RecallAbbotAction,
    SkipAction,
    DrawTokenAction,
    GrowFlockAction,
    DriveFlockAction,
]


# The phase of a turn in a view, tagged by "phase".


class DrawPhase(TypedDict):
    """The current player draws a tile."""

    phase: Literal["draw"]


class PlacePhase(TypedDict):
    """The current player places the drawn tile."""

    phase: Literal["place"]
    tile: int


class FigurePhase(TypedDict):
    """The current player deploys a figure on the tile placed at ``pos``, recalls or skips."""

    phase: Literal["figure"]
    pos: Pos


class SheepPhase(TypedDict):
    """A token is drawn from the flock's bag for the turn's tile at ``pos``."""

    phase: Literal["sheep"]
    pos: Pos


class FlockPhase(TypedDict):
    """The current player grows their shepherd's flock or drives it to market."""

    phase: Literal["flock"]
    pos: Pos


class GameOverPhase(TypedDict):
    """The last tile is down and the final scores are in."""

    phase: Literal["game_over"]


#: Where the turn cycle stands, tagged by ``"phase"``.
Phase = Union[DrawPhase, PlacePhase, FigurePhase, SheepPhase, FlockPhase, GameOverPhase]


# Options.


class RuleOptions(TypedDict, total=False):
    """Rule options to set up a game with; a key left out keeps the published rule."""

    farmers: bool
    farm_scoring: FarmScoring
    tiny_city: bool
    inn_cathedral_unfinished: UnfinishedMarks
    abbots: bool
    title_scoring: TitleScoring


class _FullRuleOptionsKeys(TypedDict):
    """The rule options a game always states."""

    farmers: bool
    farm_scoring: FarmScoring
    tiny_city: bool
    inn_cathedral_unfinished: UnfinishedMarks
    abbots: bool


class FullRuleOptions(_FullRuleOptionsKeys, total=False):
    """A game's rule options, every one stated (a view's and a setup's ``options``)."""

    # Absent while it is "printed", the default.
    title_scoring: TitleScoring


# What a game shows (``Game.view()``, ``Game.figures()``, ``Game.supply()``).


class PlacedFigure(TypedDict):
    """A figure standing on the board."""

    player: int
    figure: Figure
    pos: Pos
    segment: int


class TileOnBoard(TypedDict):
    """A tile on the board: its cell, tile number and rotation."""

    pos: Pos
    tile: int
    rotation: Rotation


class _PointsByKindKeys(TypedDict):
    """The kinds of points every player's tally has."""

    city: int
    road: int
    monastery: int
    garden: int
    farms: int
    tokens: int
    titles: int


class PointsByKind(_PointsByKindKeys, total=False):
    """A player's points by the kind of feature that paid them."""

    # Absent while the player has scored no flock.
    flocks: int


Supply = Dict[str, int]
"""The figures a player has in hand: a count for every figure the game has, by figure id
(``"follower"``, ``"big_follower"``, ``"abbot"``, or the id an author's set declares), in the
game's order: the followers, then the companions."""


class TitleStanding(TypedDict):
    """Where a title stands: its holder, the largest feature of its kind and how many."""

    holder: Optional[int]
    largest: int
    completed: int


class Challenge(TypedDict):
    """Two occupied, unfinished rivals beside each other (The Cult)."""

    rule: int
    marked: Pos
    marked_player: int
    plain: Pos
    plain_player: int


BagContents = Dict[str, int]
"""Tokens by id, as the bags hold them or a figure keeps them."""


class Hoard(TypedDict):
    """A figure on the board that draws from a bag (a shepherd), with what it keeps (its
    flock): the bag's id, what its tokens are worth together, and its tokens by id."""

    player: int
    pos: Pos
    segment: int
    bag: str
    worth: int
    tokens: BagContents


class _GameViewKeys(TypedDict):
    """What every view states."""

    sets: List[str]
    options: FullRuleOptions
    players: int
    phase: Phase
    current_player: int
    tiles: List[TileOnBoard]
    figures: List[PlacedFigure]
    scores: List[int]
    points_by_kind: List[PointsByKind]
    supplies: List[Supply]
    tokens: List[List[int]]
    titles: List[TitleStanding]
    challenges: List[Challenge]
    remaining: List[int]
    tiles_left: int
    discarded: int


class GameView(_GameViewKeys, total=False):
    """What every player may know of a game: never the bag's order or the seed."""

    # Each left out at its default (0, no bag, no hoard, false), so that views of games
    # without Hills & Sheep or Traders & Builders read as they did before those sets.
    hidden_tiles: int
    bag: BagContents
    hoards: List[Hoard]
    second_turn: bool


class FeatureInfo(TypedDict):
    """What is known of the feature a segment belongs to (``Game.feature``)."""

    kind: SegmentKind
    complete: bool
    tiles: int
    open_edges: int
    # Counts by mark id, only of the marks it carries.
    marks: Dict[str, int]
    pennants: int
    inn: bool
    cathedral: bool
    points: int
    points_if_complete: int
    figures: int
    leaders: List[int]


# Setups (``Game.setup()``) and the tile sets they name.


class TileSetText(TypedDict):
    """A tile set that is not built in, as its whole TOML text and a file name."""

    file: str
    toml: str


class TileSetSpec(TypedDict, total=False):
    """A tile set in a document: a built-in by ``builtin``, or ``toml`` text (one of them)."""

    builtin: str
    file: str
    toml: str


class GameSetup(TypedDict):
    """A game's setup: built-in sets by name, others as their text; players, seed, options."""

    tilesets: List[Union[str, TileSetText]]
    players: int
    seed: int
    options: FullRuleOptions


# Tile sets in the export form (``TileSet.to_dict()``).


class SetExport(TypedDict):
    """A tile set's id, name and edition."""

    id: str
    name: str
    edition: int


class _DeckExportKeys(TypedDict):
    """The deck rules every set states."""

    # The start tile's id; None for a set that adds tiles to another's start.
    start: Optional[str]
    stage: int
    last: List[str]


class DeckExport(_DeckExportKeys, total=False):
    """A set's deck rules: its start tile, stage, and tiles drawn first and last."""

    # Absent when no tile must come first.
    first: List[str]


class _FigureExportKeys(TypedDict):
    """The keys every declared figure states."""

    id: Figure
    per_player: int
    role: Literal["follower", "companion"]
    # 0 for a companion.
    strength: int
    stands_on: List[SegmentKind]
    farmer: bool
    # [option name, value] pairs the game's options must match for players to have it.
    option: List[List[str]]
    recall: bool
    farm_bonus: bool


class FigureExport(_FigureExportKeys, total=False):
    """A figure as its set's ``[[figure]]`` table declares it; a companion's keys only on one."""

    joins: Literal["any", "own_follower"]
    alone: Literal["owner", "all"]
    extended: Literal["extra_turn", "draw_or_cash"]
    # The id of the bag it draws from.
    draws: str


class FiguresExport(TypedDict):
    """The figures a set gives each player, and the seat colours it adds."""

    declared: List[FigureExport]
    colours: List[Colour]


class MarkExport(TypedDict):
    """A mark a set declares, as its ``[[mark]]`` table."""

    id: str
    name: str
    # Segment kinds it may stand on, and "tile" for a mark printed on a whole tile.
    on: List[Literal["city", "road", "field", "river", "monastery", "garden", "tile"]]
    merge: Literal["count", "flag"]
    complete: int
    unfinished: int
    glyph: Glyph
    colour: Colour


# "with" is a keyword, hence the functional form.
_RuleKeys = TypedDict("_RuleKeys", {"id": str, "with": List[str], "precedence": int})


class _ValueRuleKeys(_RuleKeys):
    """The keys every value rule has."""

    type: Literal["value"]
    feature: SegmentKind
    state: FeatureState
    per_tile: int


class ValueRule(_ValueRuleKeys, total=False):
    """What a feature carrying the ``with`` marks is worth: per tile and per mark."""

    # The feature's size in tiles it applies to; absent for any size.
    tiles: int
    # [option name, value] pairs the game's options must match; absent for none.
    option: List[List[str]]
    # [mark id, points] pairs; absent when no mark has points of its own.
    per_mark: List[List[Union[str, int]]]


class FarmRule(_RuleKeys):
    """Completed cities carrying the ``with`` marks pay farmers ``times`` as much."""

    type: Literal["farm"]
    times: int


class NeighboursRule(_RuleKeys):
    """A feature scores ``each`` more for every neighbouring tile carrying ``mark``."""

    type: Literal["neighbours"]
    feature: SegmentKind
    state: FeatureState
    mark: str
    each: int


class TieBreakRule(_RuleKeys):
    """Players tied for a feature are split by their figures on tiles carrying ``mark``."""

    type: Literal["tiebreak"]
    mark: str
    by: Literal["any", "most"]


class _OccupantsRuleKeys(_RuleKeys):
    """The keys every occupants rule has."""

    type: Literal["occupants"]
    feature: SegmentKind


class OccupantsRule(_OccupantsRuleKeys, total=False):
    """Only these figures may occupy features of ``feature``'s kind."""

    figures: List[Figure]


class PigRule(_RuleKeys):
    """A pig makes each completed city its field pays its owner ``per_city`` more."""

    type: Literal["pig"]
    per_city: int


class BagTokenExport(TypedDict):
    """A kind of token of a bag: how many the full bag holds, what one kept is worth (0 for
    one that is not kept) and what it does when drawn."""

    token: str
    count: int
    worth: int
    then: Literal["keep", "send_home"]


class BagRule(_RuleKeys):
    """A bag of tokens drawn unseen (the flock's sheep and wolves); ``points`` a unit of
    worth pays when its figures cash in."""

    type: Literal["bag"]
    points: int
    tokens: List[BagTokenExport]


class HideRule(_RuleKeys):
    """A tile carrying ``mark`` hides a tile of the bag under it."""

    type: Literal["hide"]
    mark: str


class ChainRule(_RuleKeys):
    """Tiles with ``edge`` edges are placed as one chain (the River)."""

    type: Literal["chain"]
    edge: EdgeKind
    turns: Literal["any", "alternate"]


class _RivalRuleKeys(_RuleKeys):
    """The keys every rivalry has."""

    type: Literal["rival"]
    feature: SegmentKind


class RivalRule(_RivalRuleKeys, total=False):
    """Features carrying ``marks`` and plain ones of ``feature``'s kind are rivals."""

    marks: List[str]
    at_most: int


#: A rule a set declares, tagged by ``"type"``.
RuleExport = Union[
    ValueRule,
    FarmRule,
    NeighboursRule,
    TieBreakRule,
    OccupantsRule,
    PigRule,
    BagRule,
    HideRule,
    ChainRule,
    RivalRule,
]

# "from" is a keyword, hence the functional form.
_TokenKeys = TypedDict("_TokenKeys", {"from": List[str]})


class TokenExport(_TokenKeys):
    """A token kind a set declares: taken from the marks ``from``, scored by majority."""

    id: str
    name: str
    taken_by: Literal["completer", "scorers"]
    majority: int
    glyph: Glyph
    colour: Colour


class TitleExport(TypedDict):
    """A title a set declares: won by the largest city or road completed."""

    id: str
    name: str
    feature: Literal["city", "road"]
    per_feature: int
    holding: int


class SegmentExport(TypedDict):
    """A segment of a tile type, with what it reaches and carries."""

    index: int
    kind: SegmentKind
    edges: List[Direction]
    half_edges: List[HalfEdge]
    marks: List[str]
    # For a field, the city segments of the same tile it borders.
    cities: List[int]


class TileExport(TypedDict):
    """A tile type: id, name, copies, edge kinds (N, E, S, W), marks and segments."""

    id: str
    name: str
    count: int
    edges: List[EdgeKind]
    marks: List[str]
    segments: List[SegmentExport]


class TileSetExport(TypedDict):
    """A tile set in its JSON export form (``TileSet.to_dict()``)."""

    format: int
    set: SetExport
    deck: DeckExport
    figures: FiguresExport
    marks: List[MarkExport]
    rules: List[RuleExport]
    tokens: List[TokenExport]
    titles: List[TitleExport]
    tiles: List[TileExport]


class Diagnostic(TypedDict):
    """A problem in a tile set file (``TileSetError.diagnostics``)."""

    file: str
    line: int
    column: int
    # A stable code such as "dsl-unknown-key"; a str, as later versions may add codes.
    code: str
    message: str


# Landscapes (``score_landscape``).


class _LandscapeTileKeys(TypedDict):
    """The keys every landscape tile needs."""

    tile: str
    x: int
    y: int


class LandscapeTile(_LandscapeTileKeys, total=False):
    """A tile of a landscape: a tile id, a cell and a rotation (0 if left out)."""

    rotation: Rotation


class _LandscapeFigureKeys(TypedDict):
    """The keys every landscape figure needs."""

    player: int
    x: int
    y: int
    segment: int


class LandscapeFigure(_LandscapeFigureKeys, total=False):
    """A figure of a landscape on a segment of the tile at a cell (a follower if left out)."""

    figure: Figure


class _LandscapeKeys(TypedDict):
    """The keys every landscape needs."""

    tiles: List[LandscapeTile]


class Landscape(_LandscapeKeys, total=False):
    """A board to score as at the end of a game: tiles, figures and the sets they come from."""

    # Built-in names or whole sets as text (never a path); None or absent for the sets
    # given to ``score_landscape``, or else the base set.
    tilesets: Optional[List[Union[str, TileSetText, TileSetSpec]]]
    figures: List[LandscapeFigure]


class LandscapeOptions(TypedDict, total=False):
    """How a landscape is scored; a key left out keeps the published end-of-game scoring."""

    rules: Union[RuleOptions, FullRuleOptions]
    claim_all: bool
    pennant_value: Optional[int]
    unfinished_pennant_value: Optional[int]


class LandscapeScore(TypedDict):
    """A landscape's score: points by player, and every feature that scored."""

    total: List[int]
    features: List[FeatureScore]


# The arena (``arena``).


class Faults(TypedDict):
    """The moves an external bot lost to a random legal one, by cause."""

    slow: int
    exited: int
    garbage: int
    illegal: int
    abandoned: int
    first: Optional[str]


class EntrantReport(TypedDict):
    """One entrant's results in the arena."""

    name: str
    games: int
    wins: float
    win_rate: float
    # [low, high]: JSON has no tuples.
    win_rate_interval: List[float]
    mean_score: float
    mean_margin: float
    ms_per_turn: float
    max_ms_per_turn: float
    faults: Faults


class PairReport(TypedDict):
    """How one entrant fared against another: mean pairwise score and Elo, with intervals."""

    first: str
    second: str
    score: float
    score_interval: List[float]
    elo: float
    elo_interval: List[float]


class ArenaReport(TypedDict):
    """The arena's results: per entrant, per pair, and how long it took."""

    deals: int
    games: int
    entrants: List[EntrantReport]
    pairs: List[PairReport]
    # Always None: the arena runs no sequential test when called from Python.
    sprt: None
    seconds: float


# The analyzer (``analyze``).


class AnalysisMove(TypedDict):
    """One candidate move: its rollouts' mean margin, win share and score, and a likely line."""

    # None when the analysis began after the tile was placed.
    place: Optional[Action]
    figure: Action
    rollouts: int
    margin: float
    # None below two rollouts, which measure no spread.
    margin_se: Optional[float]
    win: float
    win_se: Optional[float]
    score: float
    continuation: List[Action]


class Analysis(TypedDict):
    """An analysis of the player to move's choices, best first."""

    player: int
    tile: int
    rollouts: int
    seconds: float
    stop: AnalysisStop
    moves: List[AnalysisMove]
