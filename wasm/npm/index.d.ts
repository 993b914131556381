// The package's types: the classes and functions wasm-bindgen declares, with the forms of the
// values that cross (actions, events, the player's view, the setup) written beside them.
export { Bot, Game, builtinSets, tileSvg } from "./pkg/carcassonne_wasm.js";
export type {
  Action,
  Challenge,
  FarmScoring,
  Figure,
  Flock,
  GameEvent,
  GameSetup,
  Phase,
  PlacedFigure,
  PlayerId,
  PlayerView,
  PointsByKind,
  Pos,
  Rotation,
  RuleOptions,
  ScoreReason,
  SegmentKind,
  SheepBag,
  Supply,
  TileOnBoard,
  Tileset,
  TitleStanding,
  ViewPhase,
} from "./pkg/carcassonne_wasm.js";
