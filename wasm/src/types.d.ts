/** A square of the board: x grows to the east, y to the north; the start tile is at (0, 0). */
export interface Pos { x: number; y: number }

/** Degrees clockwise. */
export type Rotation = 0 | 90 | 180 | 270;

/** A player's seat, from 0. */
export type PlayerId = number;

/**
 * A figure by the id its tile set declares it with: the built-in sets' six, or any other an
 * author's set declares (1 to 16 characters of a-z, 0-9 and _, starting with a letter).
 */
export type Figure = "follower" | "big_follower" | "abbot" | "builder" | "pig" | "shepherd" | (string & {});

export type SegmentKind = "city" | "road" | "field" | "river" | "monastery" | "garden";

/** The phase of the turn, as `Game.phase` names it. */
export type Phase = "draw" | "place" | "figure" | "sheep" | "flock" | "game_over";

/** How fields score: per field (the published rule), per field once, or 4 points a city. */
export type FarmScoring = "per_field" | "per_field_once" | "per_city_4";

/** The rule options; each left out keeps the published rule. */
export interface RuleOptions {
  farmers?: boolean;
  farm_scoring?: FarmScoring;
  tiny_city?: boolean;
  inn_cathedral_unfinished?: "zero" | "normal";
  abbots?: boolean;
  title_scoring?: "printed" | "ten_each" | "fifteen_forty";
}

/** A tile set: a built-in name (see `builtinSets()`) or the text of a tile-set file. */
export type Tileset = string | { toml: string; file?: string };

/** How a game is set up; every field may be left out (the base game, 2 players, seed 0). */
export interface GameSetup {
  tilesets?: Tileset[];
  players?: number;
  /** A whole number from 0 to 2^53 - 1; it fixes the tile order. */
  seed?: number;
  options?: RuleOptions;
}

/** An action, tagged by `action`. */
export type Action =
  | { action: "draw" }
  | { action: "draw_tile"; tile: number }
  | { action: "place"; pos: Pos; rotation: Rotation }
  | { action: "deploy"; segment: number; figure: Figure }
  | { action: "recall_abbot"; pos: Pos }
  | { action: "skip" }
  | { action: "draw_token"; token: string }
  | { action: "grow_flock" }
  | { action: "drive_flock" };

/** Why a feature scored. */
export type ScoreReason = "completed" | "abbot_recalled" | "game_end" | "defeated" | "market";

/** What happened, tagged by `event`. */
export type GameEvent =
  | { event: "tile_drawn"; player: PlayerId; tile: number }
  | { event: "tile_discarded"; player: PlayerId; tile: number }
  | { event: "tile_placed"; player: PlayerId; tile: number; pos: Pos; rotation: Rotation }
  | { event: "figure_placed"; player: PlayerId; figure: Figure; pos: Pos; segment: number }
  | { event: "abbot_recalled"; player: PlayerId; pos: Pos }
  | {
      event: "feature_scored";
      kind: SegmentKind;
      pos: Pos;
      segment: number;
      reason: ScoreReason;
      complete: boolean;
      tiles: number;
      /** Counts of the set's marks (pennants, inns...), by mark, trailing zeros left out. */
      marks: number[];
      cities: number;
      rule?: number;
      farmers: boolean;
      points: number;
      scorers: PlayerId[];
    }
  | { event: "tokens_taken"; player: PlayerId; token: number; count: number; pos: Pos; segment: number }
  | { event: "tokens_scored"; token: number; held: number; points: number; scorers: PlayerId[] }
  | { event: "title_taken"; player: PlayerId; title: number; tiles: number; pos: Pos; segment: number }
  | { event: "title_scored"; title: number; player: PlayerId; features: number; points: number }
  | { event: "figure_returned"; player: PlayerId; figure: Figure; pos: Pos; segment: number }
  | { event: "tile_hidden"; player: PlayerId; pos: Pos }
  | { event: "token_drawn"; player: PlayerId; pos: Pos; segment: number; drawn: string }
  | { event: "extra_turn"; player: PlayerId }
  | { event: "turn_started"; player: PlayerId }
  | { event: "game_over"; winners: PlayerId[] };

/** The phase in a view, with what it is about. */
export type ViewPhase =
  | { phase: "draw" }
  | { phase: "place"; tile: number }
  | { phase: "figure"; pos: Pos }
  | { phase: "sheep"; pos: Pos }
  | { phase: "flock"; pos: Pos }
  | { phase: "game_over" };

export interface TileOnBoard { pos: Pos; tile: number; rotation: Rotation }

export interface PlacedFigure { player: PlayerId; figure: Figure; pos: Pos; segment: number }

export interface PointsByKind {
  city: number;
  road: number;
  monastery: number;
  garden: number;
  farms: number;
  tokens: number;
  titles: number;
  flocks?: number;
}

/**
 * Figures in a player's supply: a count for every figure the game has, by figure id
 * (`follower`, `big_follower`, `abbot`, `builder`, `pig`, `shepherd`, or the id an author's
 * set declares), in the game's order: the followers, then the companions.
 */
export type Supply = Record<string, number>;

export interface TitleStanding { holder: PlayerId | null; largest: number; completed: number }

export interface Challenge {
  rule: number;
  marked: Pos;
  marked_player: PlayerId;
  plain: Pos;
  plain_player: PlayerId;
}

/** Tokens by id, as a bag holds them or a figure keeps them. */
export type BagContents = Record<string, number>;

/** A figure that draws from a bag (a shepherd), with the tokens it keeps (its flock). */
export interface Hoard {
  player: PlayerId;
  pos: Pos;
  segment: number;
  /** The id of the bag it draws from. */
  bag: string;
  /** What its tokens are worth together (the sheep of a flock). */
  worth: number;
  tokens: BagContents;
}

/** What the player to move knows: never the bag's order. */
export interface PlayerView {
  sets: string[];
  options: RuleOptions;
  players: number;
  phase: ViewPhase;
  current_player: PlayerId;
  tiles: TileOnBoard[];
  figures: PlacedFigure[];
  scores: number[];
  points_by_kind: PointsByKind[];
  supplies: Supply[];
  tokens: number[][];
  titles: TitleStanding[];
  challenges: Challenge[];
  /** Tiles left in the bag by tile index. */
  remaining: number[];
  tiles_left: number;
  discarded: number;
  hidden_tiles?: number;
  /** What the bags hold, by token id; absent without a bag. */
  bag?: BagContents;
  hoards?: Hoard[];
  second_turn?: boolean;
}

/** What the move analyzer is given; every field may be left out. */
export interface AnalysisOptions {
  /** Rollouts in all, over every candidate (20,000 by default); `null` for none. */
  rollouts?: number | null;
  /** Time to think, in seconds; the analysis stops at the budget or the time, whichever
   * comes first (give `rollouts: null` for time alone). */
  seconds?: number;
  seed?: number;
  /** How the game is played on after each candidate. */
  continuation?: "random" | "greedy";
  /** Candidates that stay in the race to the end. */
  keep?: number;
  /** Seconds between progress reports (0.25 by default). */
  report_every?: number;
}

/** One way to play the turn and what it leads to. */
export interface AnalysedMove {
  /** The placement; `null` when the analysis began after the tile was placed. */
  place: Action | null;
  /** The figure action after it: a deployment, an abbot's recall or a skip. */
  figure: Action;
  rollouts: number;
  /** Mean final margin of the player to move over the best other player. */
  margin: number;
  margin_se: number | null;
  /** Mean share of the win. */
  win: number;
  win_se: number | null;
  score: number;
  /** How the game might go on (the kept moves of a finished analysis). */
  continuation: Action[];
  pinned: boolean;
}

/** The analyzer's ranking, finished or so far. */
export interface Analysis {
  player: PlayerId;
  tile: number;
  rollouts: number;
  /** The rollouts planned in all, where a budget bounds the analysis. */
  planned: number | null;
  seconds: number;
  stop: "running" | "budget" | "time" | "cancelled" | "forced";
  /** Best first. */
  moves: AnalysedMove[];
}

/** `new OfflineServer(options)`: whole numbers of milliseconds, each optional. */
export interface OfflineOptions {
  /** Between a bot's actions (600 by default). */
  botDelayMs?: number;
  /** How long a placed tile waits for its figure action (20000). */
  figureGraceMs?: number;
}

/** A timer an `OfflineServer` asks for: call `ring(id)` after `delayMs`. */
export interface OfflineTimer {
  id: number;
  delayMs: number;
}

/** What a frame or a timer produced: the frames for the client in order, and timers to set. */
export interface OfflineOutcome {
  frames: string[];
  timers: OfflineTimer[];
}

/** One turn of a reviewed game: the move played against the best one found there. */
export interface TurnReview {
  /** The turn, from 1 (the first tile placed after the start tile). */
  turn: number;
  player: PlayerId;
  tile: number;
  played: AnalysedMove;
  best: AnalysedMove;
  /** Expected final margin the move played gave away; 0 when it was the best. */
  loss: number;
  /** How many moves were compared. */
  candidates: number;
}
