//! Result codes: what every fallible export returns, in numbered ranges never reused.

use std::ffi::{CStr, c_char};
use std::ptr;

use carcassonne::{ActionError, LandscapeError, PlacementError, SetupError};

use crate::boundary::value_boundary;

/// What a fallible function returns: `CARC_RESULT_OK` (0) or why it failed.
///
/// Codes come in ranges, and a number once given is never reused for another meaning:
/// 1xx the caller's mistakes, 2xx tile set (catalog) errors, 3xx setup errors, 4xx refused
/// actions (one per reason), 5xx JSON, save and landscape errors, 6xx bot profiles, 9xx internal errors.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum carc_result {
    /// Success.
    Ok = 0,

    /// A pointer argument that must not be NULL is NULL.
    NullArgument = 101,
    /// A string argument is not valid UTF-8.
    InvalidUtf8 = 102,
    /// A caller buffer is too small; the count or size argument holds what is needed and
    /// nothing else was written.
    BufferTooSmall = 103,
    /// A value is outside what the argument accepts (a rotation that is not 0, 90, 180 or 270,
    /// a flag that is not 0 or 1).
    InvalidArgument = 104,
    /// A kind field holds a number that is none of its constants.
    InvalidEnum = 105,
    /// An index or number is past the end of what it counts (tile type, segment, player,
    /// placement, diagnostic).
    OutOfRange = 106,
    /// The game has no such thing in its present state (no tile drawn, no tile at the cell).
    NotAvailable = 107,
    /// A handle argument is not a live handle of the kind the function takes: freed already,
    /// of another kind (a catalog for a game), or never made by this library.
    InvalidHandle = 108,
    /// As many handles are live as the library can track (16,777,216 on 64-bit targets);
    /// free some first.
    TooManyHandles = 109,

    /// No built-in tile set has this name.
    UnknownBuiltin = 201,
    /// The tile set text is invalid; the error lists every diagnostic.
    TilesetInvalid = 202,
    /// The tile set file could not be read.
    TilesetIo = 203,
    /// The tile set file is larger than a tile set may be.
    TilesetTooLarge = 204,

    /// The setup lists no tile set.
    NoTileSet = 301,
    /// Fewer than two players.
    TooFewPlayers = 302,
    /// More players than the tile sets bring colours for.
    TooManyPlayers = 303,
    /// Two tile sets use the same tile id.
    DuplicateTileId = 304,
    /// No tile set provides a start tile.
    NoStartTile = 305,
    /// The tile sets have more tile types together than tile numbers.
    TooManyTileTypes = 306,
    /// The tile sets give players no followers.
    NoFollowers = 307,
    /// The tile sets bring more tiles together than a board holds (65,536).
    TooManyTiles = 308,
    /// Two tile sets declare a mark, a rule or a token kind of the same id differently (ABI 1.6).
    ConflictingDeclaration = 309,
    /// The tile sets declare more marks, rules or token kinds together than a game holds (ABI
    /// 1.6).
    TooManyDeclarations = 310,

    /// The action belongs to another phase of the turn.
    WrongPhase = 401,
    /// No tile type has this number.
    UnknownTile = 402,
    /// Every copy of the named tile has been drawn.
    TileNotInBag = 403,
    /// The named tile belongs to a later stage (land tiles before the River is done).
    TileOfLaterStage = 404,
    /// The named tile comes last in its stage (the lake) and others remain.
    TileComesLast = 405,
    /// A tile already lies in the cell.
    CellOccupied = 406,
    /// No tile lies next to the cell (corners do not count).
    NoNeighbour = 407,
    /// An edge does not match the neighbouring tile's.
    EdgeMismatch = 408,
    /// The board holds as many tiles as it can number.
    BoardFull = 409,
    /// The cell is outside the board.
    OutOfBounds = 410,
    /// A river tile must continue the river.
    RiverNotContinued = 411,
    /// Two river curves in a row may not turn the same way.
    RiverTurnsBack = 412,
    /// The placed tile has no segment with this index.
    NoSuchSegment = 413,
    /// This figure may not stand on this kind of segment.
    FigureNotAllowed = 414,
    /// Another figure already stands on the feature.
    FeatureOccupied = 415,
    /// The player has none of this figure in hand.
    NoneLeft = 416,
    /// The player's abbot does not stand at this cell.
    NoAbbotThere = 417,
    /// The abbot's monastery or garden is complete: it scores and returns anyway.
    AbbotFeatureComplete = 418,
    /// The game is over.
    GameOver = 419,
    /// A declared rivalry limits how many rivals a monastery or garden may have around it,
    /// and a tile there would exceed it (The Cult: a shrine beside two monasteries) (ABI 1.8).
    TooManyRivals = 420,
    /// A river tile would join two open ends of the river: its branches never join (The
    /// River II) (ABI 1.8).
    RiverBranchesJoin = 421,
    /// Tiles that come first in the named tile's stage (The River II's fork) are left
    /// (ABI 1.8).
    TilesComeFirst = 422,
    /// A builder or pig goes only where its owner already has a follower (a farmer for the
    /// pig) on the feature (ABI 1.9).
    NeedsOwnFollower = 423,
    /// The feature already has that figure: the player's own builder or pig, or any
    /// player's shepherd (ABI 1.9).
    FigureAlreadyThere = 424,
    /// The flock's bag has no token showing that many sheep (ABI 1.9).
    SheepNotInBag = 425,
    /// The flock's bag holds no wolf (ABI 1.9).
    NoWolfInBag = 426,
    /// The flock's bag is empty: the flock cannot grow (ABI 1.9).
    FlockBagEmpty = 427,

    /// The text is not well-formed JSON; the error has its line and column.
    JsonSyntax = 501,
    /// Well-formed JSON that is not what was asked for: a missing or unknown key, a wrong
    /// type or value, a tile set that cannot be loaded. The error has its line and column.
    JsonContent = 502,
    /// The saved game is in a format version this library does not read.
    SaveFormat = 503,
    /// The saved game holds an action the rules refuse; the message names it and why.
    SaveActionRefused = 504,
    /// The JSON text is longer than the library reads (64 MiB), so it was not parsed.
    JsonTooLarge = 505,
    /// A landscape tile names a tile id that none of its tile sets has.
    LandscapeUnknownTile = 511,
    /// A landscape tile cannot lie where it is listed (occupied cell, edges that do not match).
    LandscapePlacement = 512,
    /// A landscape figure stands on a cell without a tile.
    LandscapeNoTile = 513,
    /// A landscape figure names a segment its tile does not have.
    LandscapeNoSuchSegment = 514,
    /// A landscape figure stands where no such figure may.
    LandscapeFigureNotAllowed = 515,
    /// A landscape figure's player number is beyond the most a game seats.
    LandscapePlayerOutOfRange = 516,

    /// No bot profile has this name; the message lists the names there are.
    UnknownProfile = 601,
    /// The bot profile text is not a valid profile file; the message says where and why.
    ProfileInvalid = 602,

    /// The library panicked: a bug. Nothing unwound into the caller.
    Panic = 901,
    /// An earlier call on this game handle panicked part-way through a change; the game may
    /// be inconsistent, so the handle refuses everything but `carc_game_free`.
    Poisoned = 902,
}

impl carc_result {
    /// Every code, in increasing order (the tests check it against the header).
    pub const ALL: [carc_result; 66] = {
        use carc_result::*;
        [
            Ok,
            NullArgument,
            InvalidUtf8,
            BufferTooSmall,
            InvalidArgument,
            InvalidEnum,
            OutOfRange,
            NotAvailable,
            InvalidHandle,
            TooManyHandles,
            UnknownBuiltin,
            TilesetInvalid,
            TilesetIo,
            TilesetTooLarge,
            NoTileSet,
            TooFewPlayers,
            TooManyPlayers,
            DuplicateTileId,
            NoStartTile,
            TooManyTileTypes,
            NoFollowers,
            TooManyTiles,
            ConflictingDeclaration,
            TooManyDeclarations,
            WrongPhase,
            UnknownTile,
            TileNotInBag,
            TileOfLaterStage,
            TileComesLast,
            CellOccupied,
            NoNeighbour,
            EdgeMismatch,
            BoardFull,
            OutOfBounds,
            RiverNotContinued,
            RiverTurnsBack,
            NoSuchSegment,
            FigureNotAllowed,
            FeatureOccupied,
            NoneLeft,
            NoAbbotThere,
            AbbotFeatureComplete,
            GameOver,
            TooManyRivals,
            RiverBranchesJoin,
            TilesComeFirst,
            NeedsOwnFollower,
            FigureAlreadyThere,
            SheepNotInBag,
            NoWolfInBag,
            FlockBagEmpty,
            JsonSyntax,
            JsonContent,
            SaveFormat,
            SaveActionRefused,
            JsonTooLarge,
            LandscapeUnknownTile,
            LandscapePlacement,
            LandscapeNoTile,
            LandscapeNoSuchSegment,
            LandscapeFigureNotAllowed,
            LandscapePlayerOutOfRange,
            UnknownProfile,
            ProfileInvalid,
            Panic,
            Poisoned,
        ]
    };

    /// The code with this number, if there is one.
    #[must_use]
    pub fn from_u32(number: u32) -> Option<carc_result> {
        carc_result::ALL.into_iter().find(|code| *code as u32 == number)
    }

    /// The constant's name as the header spells it.
    #[must_use]
    pub const fn name(self) -> &'static CStr {
        use carc_result::*;
        match self {
            Ok => c"CARC_RESULT_OK",
            NullArgument => c"CARC_RESULT_NULL_ARGUMENT",
            InvalidUtf8 => c"CARC_RESULT_INVALID_UTF8",
            BufferTooSmall => c"CARC_RESULT_BUFFER_TOO_SMALL",
            InvalidArgument => c"CARC_RESULT_INVALID_ARGUMENT",
            InvalidEnum => c"CARC_RESULT_INVALID_ENUM",
            OutOfRange => c"CARC_RESULT_OUT_OF_RANGE",
            NotAvailable => c"CARC_RESULT_NOT_AVAILABLE",
            InvalidHandle => c"CARC_RESULT_INVALID_HANDLE",
            TooManyHandles => c"CARC_RESULT_TOO_MANY_HANDLES",
            UnknownBuiltin => c"CARC_RESULT_UNKNOWN_BUILTIN",
            TilesetInvalid => c"CARC_RESULT_TILESET_INVALID",
            TilesetIo => c"CARC_RESULT_TILESET_IO",
            TilesetTooLarge => c"CARC_RESULT_TILESET_TOO_LARGE",
            NoTileSet => c"CARC_RESULT_NO_TILE_SET",
            TooFewPlayers => c"CARC_RESULT_TOO_FEW_PLAYERS",
            TooManyPlayers => c"CARC_RESULT_TOO_MANY_PLAYERS",
            DuplicateTileId => c"CARC_RESULT_DUPLICATE_TILE_ID",
            NoStartTile => c"CARC_RESULT_NO_START_TILE",
            TooManyTileTypes => c"CARC_RESULT_TOO_MANY_TILE_TYPES",
            NoFollowers => c"CARC_RESULT_NO_FOLLOWERS",
            TooManyTiles => c"CARC_RESULT_TOO_MANY_TILES",
            ConflictingDeclaration => c"CARC_RESULT_CONFLICTING_DECLARATION",
            TooManyDeclarations => c"CARC_RESULT_TOO_MANY_DECLARATIONS",
            WrongPhase => c"CARC_RESULT_WRONG_PHASE",
            UnknownTile => c"CARC_RESULT_UNKNOWN_TILE",
            TileNotInBag => c"CARC_RESULT_TILE_NOT_IN_BAG",
            TileOfLaterStage => c"CARC_RESULT_TILE_OF_LATER_STAGE",
            TileComesLast => c"CARC_RESULT_TILE_COMES_LAST",
            CellOccupied => c"CARC_RESULT_CELL_OCCUPIED",
            NoNeighbour => c"CARC_RESULT_NO_NEIGHBOUR",
            EdgeMismatch => c"CARC_RESULT_EDGE_MISMATCH",
            BoardFull => c"CARC_RESULT_BOARD_FULL",
            OutOfBounds => c"CARC_RESULT_OUT_OF_BOUNDS",
            RiverNotContinued => c"CARC_RESULT_RIVER_NOT_CONTINUED",
            RiverTurnsBack => c"CARC_RESULT_RIVER_TURNS_BACK",
            NoSuchSegment => c"CARC_RESULT_NO_SUCH_SEGMENT",
            FigureNotAllowed => c"CARC_RESULT_FIGURE_NOT_ALLOWED",
            FeatureOccupied => c"CARC_RESULT_FEATURE_OCCUPIED",
            NoneLeft => c"CARC_RESULT_NONE_LEFT",
            NoAbbotThere => c"CARC_RESULT_NO_ABBOT_THERE",
            AbbotFeatureComplete => c"CARC_RESULT_ABBOT_FEATURE_COMPLETE",
            GameOver => c"CARC_RESULT_GAME_OVER",
            TooManyRivals => c"CARC_RESULT_TOO_MANY_RIVALS",
            RiverBranchesJoin => c"CARC_RESULT_RIVER_BRANCHES_JOIN",
            TilesComeFirst => c"CARC_RESULT_TILES_COME_FIRST",
            NeedsOwnFollower => c"CARC_RESULT_NEEDS_OWN_FOLLOWER",
            FigureAlreadyThere => c"CARC_RESULT_FIGURE_ALREADY_THERE",
            SheepNotInBag => c"CARC_RESULT_SHEEP_NOT_IN_BAG",
            NoWolfInBag => c"CARC_RESULT_NO_WOLF_IN_BAG",
            FlockBagEmpty => c"CARC_RESULT_FLOCK_BAG_EMPTY",
            JsonSyntax => c"CARC_RESULT_JSON_SYNTAX",
            JsonContent => c"CARC_RESULT_JSON_CONTENT",
            SaveFormat => c"CARC_RESULT_SAVE_FORMAT",
            SaveActionRefused => c"CARC_RESULT_SAVE_ACTION_REFUSED",
            JsonTooLarge => c"CARC_RESULT_JSON_TOO_LARGE",
            LandscapeUnknownTile => c"CARC_RESULT_LANDSCAPE_UNKNOWN_TILE",
            LandscapePlacement => c"CARC_RESULT_LANDSCAPE_PLACEMENT",
            LandscapeNoTile => c"CARC_RESULT_LANDSCAPE_NO_TILE",
            LandscapeNoSuchSegment => c"CARC_RESULT_LANDSCAPE_NO_SUCH_SEGMENT",
            LandscapeFigureNotAllowed => c"CARC_RESULT_LANDSCAPE_FIGURE_NOT_ALLOWED",
            LandscapePlayerOutOfRange => c"CARC_RESULT_LANDSCAPE_PLAYER_OUT_OF_RANGE",
            UnknownProfile => c"CARC_RESULT_UNKNOWN_PROFILE",
            ProfileInvalid => c"CARC_RESULT_PROFILE_INVALID",
            Panic => c"CARC_RESULT_PANIC",
            Poisoned => c"CARC_RESULT_POISONED",
        }
    }
}

/// The code of a refused action: one per reason.
pub(crate) fn action_code(error: &ActionError) -> carc_result {
    match error {
        ActionError::WrongPhase { .. } => carc_result::WrongPhase,
        ActionError::UnknownTile { .. } => carc_result::UnknownTile,
        ActionError::TileNotInBag { .. } => carc_result::TileNotInBag,
        ActionError::TileOfLaterStage { .. } => carc_result::TileOfLaterStage,
        ActionError::TileComesLast { .. } => carc_result::TileComesLast,
        ActionError::Placement(placement) => placement_code(placement),
        ActionError::RiverNotContinued { .. } => carc_result::RiverNotContinued,
        ActionError::RiverTurnsBack { .. } => carc_result::RiverTurnsBack,
        ActionError::TooManyRivals { .. } => carc_result::TooManyRivals,
        ActionError::RiverBranchesJoin { .. } => carc_result::RiverBranchesJoin,
        ActionError::TilesComeFirst { .. } => carc_result::TilesComeFirst,
        ActionError::NoSuchSegment { .. } => carc_result::NoSuchSegment,
        ActionError::FigureNotAllowed { .. } => carc_result::FigureNotAllowed,
        ActionError::FeatureOccupied { .. } => carc_result::FeatureOccupied,
        ActionError::NoneLeft { .. } => carc_result::NoneLeft,
        ActionError::NoAbbotThere { .. } => carc_result::NoAbbotThere,
        ActionError::AbbotFeatureComplete { .. } => carc_result::AbbotFeatureComplete,
        ActionError::NeedsOwnFollower { .. } => carc_result::NeedsOwnFollower,
        ActionError::FigureAlreadyThere { .. } => carc_result::FigureAlreadyThere,
        ActionError::TokenNotInBag { then: Some(carcassonne::Drawn::SendHome), .. } => {
            carc_result::NoWolfInBag
        }
        ActionError::TokenNotInBag { .. } => carc_result::SheepNotInBag,
        ActionError::FlockBagEmpty => carc_result::FlockBagEmpty,
        ActionError::GameOver => carc_result::GameOver,
    }
}

fn placement_code(error: &PlacementError) -> carc_result {
    match error {
        PlacementError::Occupied { .. } => carc_result::CellOccupied,
        PlacementError::NoNeighbour { .. } => carc_result::NoNeighbour,
        PlacementError::EdgeMismatch { .. } => carc_result::EdgeMismatch,
        PlacementError::BoardFull => carc_result::BoardFull,
        PlacementError::OutOfBounds { .. } => carc_result::OutOfBounds,
    }
}

/// The code of a setup the rules cannot make a game of: one per reason.
pub(crate) fn setup_code(error: &SetupError) -> carc_result {
    match error {
        SetupError::NoTileSet => carc_result::NoTileSet,
        SetupError::TooFewPlayers { .. } => carc_result::TooFewPlayers,
        SetupError::TooManyPlayers { .. } => carc_result::TooManyPlayers,
        SetupError::DuplicateTileId { .. } => carc_result::DuplicateTileId,
        SetupError::NoStartTile => carc_result::NoStartTile,
        SetupError::TooManyTileTypes { .. } => carc_result::TooManyTileTypes,
        SetupError::NoFollowers => carc_result::NoFollowers,
        SetupError::TooManyTiles { .. } => carc_result::TooManyTiles,
        // Two rules of equal standing are declarations that conflict, as two of one id are.
        SetupError::ConflictingDeclaration { .. }
        | SetupError::EqualStanding { .. }
        | SetupError::TokenInTwoBags { .. } => carc_result::ConflictingDeclaration,
        SetupError::TooManyMarks
        | SetupError::TooManyBagKinds
        | SetupError::TooManyFigureKinds { .. }
        | SetupError::TooManyRules
        | SetupError::TooManyTokens
        | SetupError::TooManyTitles => carc_result::TooManyDeclarations,
    }
}

/// The code of a landscape that cannot be scored.
pub(crate) fn landscape_code(error: &LandscapeError) -> carc_result {
    match error {
        LandscapeError::Sets(setup) => setup_code(setup),
        LandscapeError::SetsGivenTwice => carc_result::InvalidArgument,
        LandscapeError::UnknownTile { .. } => carc_result::LandscapeUnknownTile,
        LandscapeError::Placement { .. } => carc_result::LandscapePlacement,
        LandscapeError::NoTile { .. } => carc_result::LandscapeNoTile,
        LandscapeError::NoSuchSegment { .. } => carc_result::LandscapeNoSuchSegment,
        LandscapeError::FigureNotAllowed { .. } => carc_result::LandscapeFigureNotAllowed,
        LandscapeError::TooManyFigureKinds { .. } => carc_result::TooManyDeclarations,
        LandscapeError::PlayerOutOfRange { .. } => carc_result::LandscapePlayerOutOfRange,
    }
}

/// The name of result code `code` as the header spells it, such as `"CARC_RESULT_OK"`; NULL
/// for a number that is no result code.
///
/// The string is static: never free it.
#[unsafe(no_mangle)]
pub extern "C" fn carc_result_name(code: u32) -> *const c_char {
    value_boundary(ptr::null(), || {
        carc_result::from_u32(code).map_or(ptr::null(), |code| code.name().as_ptr())
    })
}
