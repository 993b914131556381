// Carcassonne.cs: the C# binding (Unity, Mono, .NET) of the carcassonne rules engine's C ABI, in one file.
//
// Layers, bottom up: `Native` declares every function of include/carcassonne.h as it is; the
// structs below mirror the header's structs field for field; `SafeHandle` subclasses own the
// library's handles; `Catalog`, `Game` and `LandscapeScore` are the API to use.
//
// Written for C# 7 (Mono's mcs) with no `unsafe` code, so Unity projects need not allow it.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace Carcassonne
{
    // ---------------------------------------------------------------------------------------
    // Kinds and codes: the header's #define and enum constants, with the same numbers.
    // ---------------------------------------------------------------------------------------

    /// <summary>What a library call returns: <see cref="Ok"/> or why it failed
    /// (<c>carc_result</c>). Numbers are never reused: 1xx caller mistakes, 2xx tile set errors,
    /// 3xx setup errors, 4xx refused actions, 5xx JSON, save and landscape errors, 9xx internal
    /// errors.</summary>
    public enum Result : uint
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>A pointer argument that must not be NULL is NULL.</summary>
        NullArgument = 101,
        /// <summary>A string argument is not valid UTF-8.</summary>
        InvalidUtf8 = 102,
        /// <summary>A caller buffer is too small (the binding grows its buffers and retries).</summary>
        BufferTooSmall = 103,
        /// <summary>A value is outside what the argument accepts (a rotation of 45).</summary>
        InvalidArgument = 104,
        /// <summary>A kind field holds a number that is none of its constants.</summary>
        InvalidEnum = 105,
        /// <summary>An index or number is past the end of what it counts.</summary>
        OutOfRange = 106,
        /// <summary>The game has no such thing in its present state (an empty cell).</summary>
        NotAvailable = 107,
        /// <summary>A handle is not a live handle of the kind the function takes.</summary>
        InvalidHandle = 108,
        /// <summary>As many handles are live as the library can track.</summary>
        TooManyHandles = 109,
        /// <summary>No built-in tile set has this name.</summary>
        UnknownBuiltin = 201,
        /// <summary>The tile set text is invalid; the exception lists every diagnostic.</summary>
        TilesetInvalid = 202,
        /// <summary>The tile set file could not be read.</summary>
        TilesetIo = 203,
        /// <summary>The tile set file is larger than a tile set may be.</summary>
        TilesetTooLarge = 204,
        /// <summary>The setup lists no tile set.</summary>
        NoTileSet = 301,
        /// <summary>Fewer than two players.</summary>
        TooFewPlayers = 302,
        /// <summary>More players than the tile sets bring colours for.</summary>
        TooManyPlayers = 303,
        /// <summary>Two tile sets use the same tile id.</summary>
        DuplicateTileId = 304,
        /// <summary>No tile set provides a start tile.</summary>
        NoStartTile = 305,
        /// <summary>The tile sets have more tile types together than tile numbers.</summary>
        TooManyTileTypes = 306,
        /// <summary>The tile sets give players no followers.</summary>
        NoFollowers = 307,
        /// <summary>The tile sets bring more tiles together than a board holds (65,536).</summary>
        TooManyTiles = 308,
        /// <summary>Two tile sets declare a mark, a rule or a token kind of the same id differently (ABI 1.6).</summary>
        ConflictingDeclaration = 309,
        /// <summary>The tile sets declare more marks, rules or token kinds together than a game holds (ABI 1.6).</summary>
        TooManyDeclarations = 310,
        /// <summary>The action belongs to another phase of the turn.</summary>
        WrongPhase = 401,
        /// <summary>No tile type has this number.</summary>
        UnknownTile = 402,
        /// <summary>Every copy of the named tile has been drawn.</summary>
        TileNotInBag = 403,
        /// <summary>The named tile belongs to a later stage.</summary>
        TileOfLaterStage = 404,
        /// <summary>The named tile comes last in its stage and others remain.</summary>
        TileComesLast = 405,
        /// <summary>A tile already lies in the cell.</summary>
        CellOccupied = 406,
        /// <summary>No tile lies next to the cell.</summary>
        NoNeighbour = 407,
        /// <summary>An edge does not match the neighbouring tile's.</summary>
        EdgeMismatch = 408,
        /// <summary>The board holds as many tiles as it can number.</summary>
        BoardFull = 409,
        /// <summary>The cell is outside the board.</summary>
        OutOfBounds = 410,
        /// <summary>A river tile must continue the river.</summary>
        RiverNotContinued = 411,
        /// <summary>Two river curves in a row may not turn the same way.</summary>
        RiverTurnsBack = 412,
        /// <summary>The placed tile has no segment with this index.</summary>
        NoSuchSegment = 413,
        /// <summary>This figure may not stand on this kind of segment.</summary>
        FigureNotAllowed = 414,
        /// <summary>Another figure already stands on the feature.</summary>
        FeatureOccupied = 415,
        /// <summary>The player has none of this figure in hand.</summary>
        NoneLeft = 416,
        /// <summary>The player's abbot does not stand at this cell.</summary>
        NoAbbotThere = 417,
        /// <summary>The abbot's monastery or garden is complete.</summary>
        AbbotFeatureComplete = 418,
        /// <summary>The game is over.</summary>
        GameOver = 419,
        /// <summary>A declared rivalry's limit: a monastery or garden would have too many rivals around it (ABI 1.8).</summary>
        TooManyRivals = 420,
        /// <summary>A river tile would join two branches of the river (ABI 1.8).</summary>
        RiverBranchesJoin = 421,
        /// <summary>Tiles that come first in the named tile's stage are left (ABI 1.8).</summary>
        TilesComeFirst = 422,
        /// <summary>A builder or pig goes only where its owner already has a follower (a farmer for the pig) on the feature (ABI 1.9).</summary>
        NeedsOwnFollower = 423,
        /// <summary>The feature already has that figure: the player's own builder or pig, or any player's shepherd (ABI 1.9).</summary>
        FigureAlreadyThere = 424,
        /// <summary>The flock's bag has no token showing that many sheep (ABI 1.9).</summary>
        SheepNotInBag = 425,
        /// <summary>The flock's bag holds no wolf (ABI 1.9).</summary>
        NoWolfInBag = 426,
        /// <summary>The flock's bag is empty: the flock cannot grow (ABI 1.9).</summary>
        FlockBagEmpty = 427,
        /// <summary>The text is not well-formed JSON.</summary>
        JsonSyntax = 501,
        /// <summary>Well-formed JSON that is not what was asked for.</summary>
        JsonContent = 502,
        /// <summary>The saved game is in a format version this library does not read.</summary>
        SaveFormat = 503,
        /// <summary>The saved game holds an action the rules refuse.</summary>
        SaveActionRefused = 504,
        /// <summary>The JSON text is longer than the library reads (64 MiB).</summary>
        JsonTooLarge = 505,
        /// <summary>A landscape tile names a tile id that none of its tile sets has.</summary>
        LandscapeUnknownTile = 511,
        /// <summary>A landscape tile cannot lie where it is listed.</summary>
        LandscapePlacement = 512,
        /// <summary>A landscape figure stands on a cell without a tile.</summary>
        LandscapeNoTile = 513,
        /// <summary>A landscape figure names a segment its tile does not have.</summary>
        LandscapeNoSuchSegment = 514,
        /// <summary>A landscape figure stands where no such figure may.</summary>
        LandscapeFigureNotAllowed = 515,
        /// <summary>A landscape figure's player number is beyond the most a game seats.</summary>
        LandscapePlayerOutOfRange = 516,
        /// <summary>No bot profile has this name; the message lists the names there are.</summary>
        UnknownProfile = 601,
        /// <summary>The bot profile text is not a valid profile file; the message says where and why.</summary>
        ProfileInvalid = 602,
        /// <summary>The library panicked: a bug. Nothing unwound into the caller.</summary>
        Panic = 901,
        /// <summary>An earlier call panicked while changing this game; only disposing it works.</summary>
        Poisoned = 902,
    }

    /// <summary>What <see cref="Game.BoardSvg"/> draws beside the board (<c>CARC_PICTURE_*</c>).</summary>
    [Flags]
    public enum PictureFlags : uint
    {
        /// <summary>A panel with each player's score and figures in supply, the tiles left and whose turn it is.</summary>
        ScorePanel = 1,
        /// <summary>An outline round the tile placed last.</summary>
        LastMove = 2,
    }

    /// <summary>How the game is played on after each move an analysis measures (<c>CARC_CONTINUATION_*</c>).</summary>
    public enum Continuation : uint
    {
        /// <summary>Random legal placements, a figure half the time: tens of thousands of rollouts a second.</summary>
        Random = 0,
        /// <summary>The greedy bot for every player: about a thousand times slower, but sensibly played.</summary>
        Greedy = 1,
    }

    /// <summary>Why an analysis stopped (<c>CARC_ANALYSIS_STOP_*</c>).</summary>
    public enum AnalysisStop : uint
    {
        /// <summary>Still running: in progress reports.</summary>
        Running = 0,
        /// <summary>The rollout budget is spent.</summary>
        Budget = 1,
        /// <summary>The time is up.</summary>
        Time = 2,
        /// <summary>The cancellation token was cancelled.</summary>
        Cancelled = 3,
        /// <summary>Only one move was possible.</summary>
        Forced = 4,
    }

    /// <summary>Where the turn cycle stands (<c>CARC_PHASE_*</c>).</summary>
    public enum Phase : uint
    {
        /// <summary>The current player draws a tile.</summary>
        Draw = 0,
        /// <summary>The current player places the drawn tile.</summary>
        Place = 1,
        /// <summary>The current player may deploy a figure, recall an abbot, or skip.</summary>
        Figure = 2,
        /// <summary>The last tile is down and the final scores are in.</summary>
        GameOver = 3,
        /// <summary>A token is drawn from the flock's bag for the shepherd just deployed or the flock just
        /// grown: <see cref="ActionKind.Draw"/>, <see cref="ActionKind.DrawSheep"/> or <see cref="ActionKind.DrawWolf"/>
        /// (Hills &amp; Sheep, ABI 1.9).</summary>
        Sheep = 4,
        /// <summary>The tile placed extended the field of the current player's shepherd:
        /// <see cref="ActionKind.GrowFlock"/> or <see cref="ActionKind.DriveFlock"/> (ABI 1.9).</summary>
        Flock = 5,
    }

    /// <summary>What an <see cref="Action"/> does (<c>CARC_ACTION_KIND_*</c>).</summary>
    public enum ActionKind : uint
    {
        /// <summary>Draw a random tile from the bag, by the game's seed.</summary>
        Draw = 0,
        /// <summary>Draw the tile type <see cref="Action.Tile"/>, which the bag must be able to give.</summary>
        DrawTile = 1,
        /// <summary>Place the drawn tile at <see cref="Action.Pos"/>, turned <see cref="Action.Rotation"/>.</summary>
        Place = 2,
        /// <summary>Put <see cref="Action.Figure"/> on segment <see cref="Action.Segment"/> of the tile just placed.</summary>
        Deploy = 3,
        /// <summary>Take the player's abbot back from <see cref="Action.Pos"/>.</summary>
        RecallAbbot = 4,
        /// <summary>Deploy no figure.</summary>
        Skip = 5,
        /// <summary>Draw the token showing <see cref="Action.Tile"/> sheep from the flock's bag, which must hold one (ABI 1.9).</summary>
        DrawSheep = 6,
        /// <summary>Draw a wolf from the flock's bag, which must hold one (ABI 1.9).</summary>
        DrawWolf = 7,
        /// <summary>Grow the flock of the player's shepherd whose field the tile extended (ABI 1.9).</summary>
        GrowFlock = 8,
        /// <summary>Drive that flock to market: every shepherd of the field scores its sheep (ABI 1.9).</summary>
        DriveFlock = 9,
    }

    /// <summary>A figure a player puts on a feature (<c>CARC_FIGURE_*</c>).</summary>
    public enum Figure : uint
    {
        /// <summary>An ordinary follower (a farmer on a field).</summary>
        Follower = 0,
        /// <summary>The big follower of Inns &amp; Cathedrals: counts as two for majorities.</summary>
        BigFollower = 1,
        /// <summary>The abbot: only on a monastery or garden, and may be recalled early.</summary>
        Abbot = 2,
        /// <summary>The builder (Traders &amp; Builders): on a road or city holding its owner's follower; a
        /// later tile of its owner there gives a second turn. Not a follower (ABI 1.9).</summary>
        Builder = 3,
        /// <summary>The pig (Traders &amp; Builders): on a field holding its owner's farmer; each completed
        /// city pays its owner more there. Not a follower (ABI 1.9).</summary>
        Pig = 4,
        /// <summary>The shepherd (Hills &amp; Sheep): on a field, with a flock of sheep tokens. Not a follower (ABI 1.9).</summary>
        Shepherd = 5,
        /// <summary>The first figure of a game that no built-in set brings, a figure of an author's set
        /// (ABI 1.10): the game's n-th such figure, in the order <see cref="Game.FigureInfo"/> lists the
        /// game's figures, is <c>Declared + n</c>.</summary>
        Declared = 64,
    }

    /// <summary>What kind of feature a segment is part of (<c>CARC_SEGMENT_KIND_*</c>).</summary>
    public enum SegmentKind : uint
    {
        /// <summary>A city.</summary>
        City = 0,
        /// <summary>A road.</summary>
        Road = 1,
        /// <summary>A field.</summary>
        Field = 2,
        /// <summary>The river: never occupied or scored.</summary>
        River = 3,
        /// <summary>A monastery.</summary>
        Monastery = 4,
        /// <summary>A garden: scored as a monastery is; the sets that bring one let only an abbot stand on it.</summary>
        Garden = 5,
    }

    /// <summary>What an edge of a tile shows (<c>CARC_EDGE_KIND_*</c>).</summary>
    public enum EdgeKind : uint
    {
        /// <summary>A city edge.</summary>
        City = 0,
        /// <summary>A road crosses the edge.</summary>
        Road = 1,
        /// <summary>Open land.</summary>
        Field = 2,
        /// <summary>A river crosses the edge.</summary>
        River = 3,
    }

    /// <summary>What an <see cref="Event"/> reports (<c>CARC_EVENT_KIND_*</c>).</summary>
    public enum EventKind : uint
    {
        /// <summary><see cref="Event.Player"/> drew <see cref="Event.Tile"/>.</summary>
        TileDrawn = 0,
        /// <summary>The drawn tile fits nowhere and leaves the game; the player draws again.</summary>
        TileDiscarded = 1,
        /// <summary>The player placed <see cref="Event.Tile"/> at <see cref="Event.Pos"/>.</summary>
        TilePlaced = 2,
        /// <summary>The player put <see cref="Event.Figure"/> on <see cref="Event.Segment"/> at <see cref="Event.Pos"/>.</summary>
        FigurePlaced = 3,
        /// <summary>The player took their abbot back (its score follows as <see cref="FeatureScored"/>).</summary>
        AbbotRecalled = 4,
        /// <summary>A feature scored: <see cref="Event.Score"/> says what, why, how much and to whom.</summary>
        FeatureScored = 5,
        /// <summary>A figure went back to its owner's supply.</summary>
        FigureReturned = 6,
        /// <summary>The turn of <see cref="Event.Player"/> begins.</summary>
        TurnStarted = 7,
        /// <summary>The game is over; <see cref="Event.Winners"/> holds the players with the highest score.</summary>
        GameOver = 8,
        /// <summary><see cref="Event.Player"/> took <c>Score.Points</c> tokens of kind <see cref="Event.Declared"/>
        /// from the feature completed at <see cref="Event.Pos"/>, <see cref="Event.Segment"/> (ABI 1.7).</summary>
        TokensTaken = 9,
        /// <summary>At the end, the players in <c>Score.Scorers</c> held the most tokens of kind
        /// <see cref="Event.Declared"/> (<c>Score.Tiles</c> each) and scored <c>Score.Points</c> each (ABI 1.7).</summary>
        TokensScored = 10,
        /// <summary><see cref="Event.Player"/> completed a feature of <c>Score.Tiles</c> tiles, larger than every
        /// one of its kind before, and took (or kept) title <see cref="Event.Declared"/> (ABI 1.7).</summary>
        TitleTaken = 11,
        /// <summary>At the end, <see cref="Event.Player"/> held title <see cref="Event.Declared"/> and scored
        /// <c>Score.Points</c>, with <c>Score.Cities</c> features of its kind completed (ABI 1.7).</summary>
        TitleScored = 12,
        /// <summary>A tile went face down under the tile <see cref="Event.Player"/> placed at <see cref="Event.Pos"/>,
        /// out of the game, unseen (Hills &amp; Sheep's hills) (ABI 1.9).</summary>
        TileHidden = 13,
        /// <summary>A token showing <see cref="Event.Tile"/> sheep joined the flock of <see cref="Event.Player"/>'s
        /// shepherd at <see cref="Event.Pos"/>, segment <see cref="Event.Segment"/> (ABI 1.9).</summary>
        SheepDrawn = 14,
        /// <summary>A wolf was drawn for the flock of <see cref="Event.Player"/>'s shepherd at <see cref="Event.Pos"/>:
        /// the shepherds it sends home follow as <see cref="FigureReturned"/> (ABI 1.9).</summary>
        WolfDrawn = 15,
        /// <summary><see cref="Event.Player"/> extended a road or city holding their builder and takes a second
        /// turn at once; a <see cref="TurnStarted"/> for the same player follows (ABI 1.9).</summary>
        ExtraTurn = 16,
    }

    /// <summary>Who takes the tokens of a completed feature (<c>CARC_TOKEN_TAKER_*</c>).</summary>
    public enum TokenTaker : uint
    {
        /// <summary>The player who placed the tile that completed it, whoever holds it.</summary>
        Completer = 0,
        /// <summary>Each player who scores it.</summary>
        Scorers = 1,
    }

    /// <summary>What a declared rule does: the table a tile set file declares it in
    /// (<c>CARC_RULE_KIND_*</c>, ABI 1.8).</summary>
    public enum RuleKind : uint
    {
        /// <summary><c>[[value]]</c>: what a city or road is worth by its marks.</summary>
        Value = 0,
        /// <summary><c>[[farm]]</c>: what a completed city pays its farmers by its marks.</summary>
        Farm = 1,
        /// <summary><c>[[neighbours]]</c>: a bonus per marked tile around a monastery or garden.</summary>
        Neighbours = 2,
        /// <summary><c>[[tiebreak]]</c>: who takes a tied majority.</summary>
        Tiebreak = 3,
        /// <summary><c>[[rival]]</c>: monasteries or gardens that challenge their neighbours.</summary>
        Rival = 4,
        /// <summary><c>[[chain]]</c>: river tiles that continue the river.</summary>
        Chain = 5,
        /// <summary><c>[[occupants]]</c>: which figures may stand on a kind of segment.</summary>
        Occupants = 6,
        /// <summary><c>[[pig]]</c>: what a pig adds per completed city to its owner's farm (ABI 1.9).</summary>
        Pig = 7,
        /// <summary><c>[[flock]]</c>: the shepherds' bag and what a sheep is worth at market (ABI 1.9).</summary>
        Flock = 8,
        /// <summary><c>[[hide]]</c>: a tile carrying a mark hides a tile under it (ABI 1.9).</summary>
        Hide = 9,
    }

    /// <summary>When a feature scored (<c>CARC_SCORE_REASON_*</c>).</summary>
    public enum ScoreReason : uint
    {
        /// <summary>It was completed during play.</summary>
        Completed = 0,
        /// <summary>Its abbot was recalled before it was complete.</summary>
        AbbotRecalled = 1,
        /// <summary>The game ended (or a landscape was scored).</summary>
        GameEnd = 2,
        /// <summary>A rival beside it was completed first: its figures went home with nothing (ABI 1.8).</summary>
        Defeated = 3,
        /// <summary>A field's flock was driven to market: every shepherd there scores its sheep (Hills &amp; Sheep, ABI 1.9).</summary>
        Market = 4,
    }

    /// <summary>A rule that changed a feature's value from the plain one (<c>CARC_MODIFIER_*</c>).</summary>
    public enum Modifier : uint
    {
        /// <summary>The plain value.</summary>
        None = 0,
        /// <summary>A completed road with an inn: 2 per tile.</summary>
        Inn = 1,
        /// <summary>A completed city with a cathedral: 3 per tile and pennant.</summary>
        Cathedral = 2,
        /// <summary>An unfinished road with an inn: nothing.</summary>
        UnfinishedInn = 3,
        /// <summary>An unfinished city with a cathedral: nothing.</summary>
        UnfinishedCathedral = 4,
        /// <summary>A completed city of two tiles under the tiny-city rule.</summary>
        TinyCity = 5,
    }

    /// <summary>How fields score at the end of the game (<c>CARC_FARM_SCORING_*</c>).</summary>
    public enum FarmScoring : uint
    {
        /// <summary>Each field scores 3 per completed city it borders, to its majority.</summary>
        PerField = 0,
        /// <summary>As <see cref="PerField"/>, but each player scores each city at most once.</summary>
        PerFieldOnce = 1,
        /// <summary>Per completed city, the players with most farmers around it score 4.</summary>
        PerCity4 = 2,
    }

    /// <summary>How inns and cathedrals on unfinished features score (<c>CARC_UNFINISHED_MARKS_*</c>).</summary>
    public enum UnfinishedMarks : uint
    {
        /// <summary>They score 0 (the published rule).</summary>
        Zero = 0,
        /// <summary>They score as plain unfinished roads and cities (a house rule).</summary>
        Normal = 1,
    }

    /// <summary>A set of tile edges (<c>CARC_DIR_*</c> bits); edges are listed N, E, S, W.</summary>
    [Flags]
    public enum Dirs : byte
    {
        /// <summary>No edge.</summary>
        None = 0,
        /// <summary>The north edge.</summary>
        N = 1,
        /// <summary>The east edge.</summary>
        E = 2,
        /// <summary>The south edge.</summary>
        S = 4,
        /// <summary>The west edge.</summary>
        W = 8,
    }

    /// <summary>A set of half-edges, where fields touch (<c>CARC_HALF_EDGE_*</c> bits), clockwise
    /// from the north-west corner.</summary>
    [Flags]
    public enum HalfEdges : byte
    {
        /// <summary>No half-edge.</summary>
        None = 0,
        /// <summary>The western half of the north edge.</summary>
        NorthWest = 1,
        /// <summary>The eastern half of the north edge.</summary>
        NorthEast = 2,
        /// <summary>The northern half of the east edge.</summary>
        EastNorth = 4,
        /// <summary>The southern half of the east edge.</summary>
        EastSouth = 8,
        /// <summary>The eastern half of the south edge.</summary>
        SouthEast = 16,
        /// <summary>The western half of the south edge.</summary>
        SouthWest = 32,
        /// <summary>The southern half of the west edge.</summary>
        WestSouth = 64,
        /// <summary>The northern half of the west edge.</summary>
        WestNorth = 128,
    }

    /// <summary>The marks printed on a segment (<c>CARC_MARK_*</c> bits).</summary>
    [Flags]
    public enum Marks : byte
    {
        /// <summary>No mark.</summary>
        None = 0,
        /// <summary>A pennant.</summary>
        Pennant = 1,
        /// <summary>A cathedral (Inns &amp; Cathedrals).</summary>
        Cathedral = 2,
        /// <summary>An inn (Inns &amp; Cathedrals).</summary>
        Inn = 4,
    }

    /// <summary>The header's numeric limits and the ABI version this file was written for.</summary>
    public static class Limits
    {
        /// <summary>The most players a game seats; sets of players are byte masks, bit p for player p.</summary>
        public const int MaxPlayers = 8;
        /// <summary>The most segments a tile type has.</summary>
        public const int MaxSegmentsPerTile = 32;
        /// <summary>The ABI major version of the header this binding mirrors.</summary>
        public const int AbiVersionMajor = 1;
        /// <summary>The ABI minor version of the header this binding mirrors.</summary>
        public const int AbiVersionMinor = 10;
    }

    // ---------------------------------------------------------------------------------------
    // Value structs. Every one is blittable (only integers, enums over integers, IntPtr and
    // other such structs), so arrays of them go to the library pinned, without copies. The
    // ABI's flags are bytes, shown as bool properties; its fixed arrays are spelled out as
    // separate fields, because `fixed` buffers need `unsafe` and MarshalAs(ByValArray) makes
    // a struct non-blittable.
    // ---------------------------------------------------------------------------------------

    // The library writes most of these fields, which the compiler cannot see.
#pragma warning disable 0649

    /// <summary>A cell of the board (<c>carc_pos</c>): x grows east, y grows north; the start
    /// tile lies at (0, 0).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Pos : IEquatable<Pos>
    {
        /// <summary>Column, growing east.</summary>
        public readonly short X;
        /// <summary>Row, growing north.</summary>
        public readonly short Y;

        /// <summary>The cell (x, y).</summary>
        public Pos(short x, short y)
        {
            X = x;
            Y = y;
        }

        /// <summary>The cell (x, y); throws when a coordinate does not fit in 16 bits.</summary>
        public Pos(int x, int y)
        {
            X = checked((short)x);
            Y = checked((short)y);
        }

        /// <summary>Whether both coordinates are equal.</summary>
        public bool Equals(Pos other) { return X == other.X && Y == other.Y; }

        /// <summary>Whether <paramref name="obj"/> is an equal <see cref="Pos"/>.</summary>
        public override bool Equals(object obj) { return obj is Pos && Equals((Pos)obj); }

        /// <summary>A hash of both coordinates.</summary>
        public override int GetHashCode() { return (X << 16) ^ (ushort)Y; }

        /// <summary>Whether both coordinates are equal.</summary>
        public static bool operator ==(Pos a, Pos b) { return a.Equals(b); }

        /// <summary>Whether a coordinate differs.</summary>
        public static bool operator !=(Pos a, Pos b) { return !a.Equals(b); }

        /// <summary>"(x, y)".</summary>
        public override string ToString() { return "(" + X + ", " + Y + ")"; }
    }

    /// <summary>Everything the rules leave open (<c>carc_rules</c>). Start from
    /// <see cref="Default"/>: <c>default(Rules)</c> has farmers off.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Rules
    {
        private byte farmers;
        /// <summary>How fields score.</summary>
        public FarmScoring FarmScoring;
        private byte tinyCity;
        /// <summary>How inns and cathedrals on unfinished features score.</summary>
        public UnfinishedMarks InnCathedralUnfinished;
        private byte abbots;

        /// <summary>Whether followers may go on fields as farmers.</summary>
        public bool Farmers { get { return farmers != 0; } set { farmers = Flag.Of(value); } }

        /// <summary>The first-edition rule: a completed city of two tiles scores 1 per tile and pennant.</summary>
        public bool TinyCity { get { return tinyCity != 0; } set { tinyCity = Flag.Of(value); } }

        /// <summary>Whether each player has an abbot.</summary>
        public bool Abbots { get { return abbots != 0; } set { abbots = Flag.Of(value); } }

        /// <summary>The published rules: farmers on, per-field farm scoring, no tiny city,
        /// unfinished inns and cathedrals score zero, no abbots.</summary>
        public static Rules Default
        {
            get
            {
                Rules rules;
                Errors.Check(Native.carc_rules_default(out rules));
                return rules;
            }
        }
    }

    /// <summary>One segment of a tile type, unrotated (<c>carc_segment_info</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SegmentInfo
    {
        /// <summary>The kind of feature it is part of.</summary>
        public readonly SegmentKind Kind;
        /// <summary>The edges a city, road or river segment joins.</summary>
        public readonly Dirs Edges;
        /// <summary>The half-edges a field touches.</summary>
        public readonly HalfEdges HalfEdges;
        /// <summary>The marks printed on it.</summary>
        public readonly Marks Marks;
        /// <summary>For a field, the city segments of the same tile it borders: bit i for segment i.</summary>
        public readonly uint Cities;
    }

    /// <summary>The figures a player has in hand (<c>carc_supply</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Supply
    {
        /// <summary>Ordinary followers.</summary>
        public readonly byte Followers;
        /// <summary>Big followers.</summary>
        public readonly byte BigFollowers;
        /// <summary>Abbots.</summary>
        public readonly byte Abbots;
    }

    /// <summary>The special figures a player has in hand (<c>carc_special_supply</c>, ABI 1.9).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SpecialSupply
    {
        /// <summary>Builders (Traders &amp; Builders).</summary>
        public readonly byte Builders;
        /// <summary>Pigs (Traders &amp; Builders).</summary>
        public readonly byte Pigs;
        /// <summary>Shepherds (Hills &amp; Sheep).</summary>
        public readonly byte Shepherds;
    }

    /// <summary>What the flock's bag holds (<c>carc_sheep_bag</c>, ABI 1.9): public counts, never its order.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SheepBag
    {
        private readonly byte sheep1;
        private readonly byte sheep2;
        private readonly byte sheep3;
        private readonly byte sheep4;
        private readonly byte sheep5;
        private readonly byte sheep6;
        private readonly byte sheep7;
        private readonly byte sheep8;
        /// <summary>Wolves in the bag.</summary>
        public readonly byte Wolves;

        /// <summary>Tokens in the bag showing <paramref name="sheep"/> sheep, from 1 to 8.</summary>
        public byte TokensShowing(int sheep)
        {
            return SheepCounts.Pick(sheep, sheep1, sheep2, sheep3, sheep4, sheep5, sheep6, sheep7, sheep8);
        }

        /// <summary>Every token in the bag, wolves included.</summary>
        public int Tokens
        {
            get { return sheep1 + sheep2 + sheep3 + sheep4 + sheep5 + sheep6 + sheep7 + sheep8 + Wolves; }
        }
    }

    /// <summary>A shepherd on the board and its flock (<c>carc_flock</c>, ABI 1.9).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Flock
    {
        /// <summary>The shepherd's cell.</summary>
        public readonly Pos Pos;
        /// <summary>Whose shepherd.</summary>
        public readonly byte Player;
        /// <summary>The shepherd's segment.</summary>
        public readonly byte Segment;
        /// <summary>The sheep its tokens show together.</summary>
        public readonly uint Sheep;
        private readonly byte tokens1;
        private readonly byte tokens2;
        private readonly byte tokens3;
        private readonly byte tokens4;
        private readonly byte tokens5;
        private readonly byte tokens6;
        private readonly byte tokens7;
        private readonly byte tokens8;

        /// <summary>Its tokens showing <paramref name="sheep"/> sheep, from 1 to 8.</summary>
        public byte TokensShowing(int sheep)
        {
            return SheepCounts.Pick(sheep, tokens1, tokens2, tokens3, tokens4, tokens5, tokens6, tokens7, tokens8);
        }
    }

    /// <summary>Reads the eight counts of sheep tokens that <see cref="SheepBag"/> and <see cref="Flock"/> hold.</summary>
    internal static class SheepCounts
    {
        internal static byte Pick(int sheep, byte one, byte two, byte three, byte four, byte five, byte six, byte seven, byte eight)
        {
            switch (sheep)
            {
                case 1: return one;
                case 2: return two;
                case 3: return three;
                case 4: return four;
                case 5: return five;
                case 6: return six;
                case 7: return seven;
                case 8: return eight;
                default: throw new ArgumentOutOfRangeException("sheep", "a token shows 1 to 8 sheep");
            }
        }
    }

    /// <summary>A point on a tile in tile sides from its north-west corner as it lies
    /// (<c>carc_point</c>): X grows east, Y grows south, both from 0 to 1.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Point
    {
        /// <summary>From the west edge, in tile sides.</summary>
        public readonly double X;
        /// <summary>From the north edge, in tile sides.</summary>
        public readonly double Y;
    }

    /// <summary>How much to analyse, and how (<c>carc_analysis_config</c>). Start from
    /// <see cref="Default"/>: 20,000 rollouts on the calling thread, the random continuation.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AnalysisConfig
    {
        /// <summary>Rollouts in all; 0 for no limit (then <see cref="Seconds"/> must stop it).</summary>
        public ulong Rollouts;
        /// <summary>Seconds to think; 0 for no limit.</summary>
        public double Seconds;
        /// <summary>The seed: the same seed and rollouts give the same analysis whatever <see cref="Threads"/> is.</summary>
        public ulong Seed;
        /// <summary>Threads to roll out on; 0 and 1 both mean the calling thread alone.</summary>
        public uint Threads;
        /// <summary>How the game is played on after each move.</summary>
        public Continuation Continuation;
        /// <summary>Moves kept in the race to the end (at least 1).</summary>
        public uint Keep;
        /// <summary>Milliseconds between progress reports; 0 after every batch of rollouts.</summary>
        public uint ReportEveryMs;

        /// <summary>20,000 rollouts, no time limit, seed 0, one thread, the random continuation,
        /// 5 moves kept, a report every 250 ms.</summary>
        public static AnalysisConfig Default
        {
            get
            {
                AnalysisConfig config;
                Errors.Check(Native.carc_analysis_config_default(out config));
                return config;
            }
        }
    }

    /// <summary>One way to play the turn and what it leads to (<c>carc_move_stats</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MoveStats
    {
        /// <summary>The placement, when <see cref="HasPlace"/>.</summary>
        public readonly Action Place;
        /// <summary>The figure action after it: a deployment, an abbot's recall or a skip.</summary>
        public readonly Action Figure;
        private readonly byte hasPlace;
        /// <summary>Rollouts played from this move.</summary>
        public readonly uint Rollouts;
        /// <summary>Mean final margin of the player to move over the best other player.</summary>
        public readonly double Margin;
        /// <summary>Standard error of <see cref="Margin"/>; infinite below two rollouts.</summary>
        public readonly double MarginSe;
        /// <summary>The player's mean share of the win, from 0 to 1.</summary>
        public readonly double Win;
        /// <summary>Standard error of <see cref="Win"/>; infinite below two rollouts.</summary>
        public readonly double WinSe;
        /// <summary>Mean final score of the player.</summary>
        public readonly double Score;

        /// <summary>Whether <see cref="Place"/> is set: false when the analysis began after the tile was placed.</summary>
        public bool HasPlace { get { return hasPlace != 0; } }
    }

    /// <summary>The whole of an analysis beside its moves (<c>carc_analysis_summary</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AnalysisSummary
    {
        /// <summary>Rollouts played.</summary>
        public readonly ulong Rollouts;
        /// <summary>Seconds spent.</summary>
        public readonly double Seconds;
        /// <summary>How many moves were compared.</summary>
        public readonly uint Moves;
        /// <summary>Why it stopped.</summary>
        public readonly AnalysisStop Stop;
        /// <summary>The tile drawn.</summary>
        public readonly ushort Tile;
        /// <summary>The player to move.</summary>
        public readonly byte Player;
    }

    /// <summary>One step of a turn (<c>carc_action</c>). <see cref="Kind"/> says which fields
    /// count; make one with the static methods or take it from <see cref="Game.LegalActions()"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Action : IEquatable<Action>
    {
        /// <summary>What the action does.</summary>
        public readonly ActionKind Kind;
        /// <summary>Deploy: the figure.</summary>
        public readonly Figure Figure;
        /// <summary>Place: the cell; RecallAbbot: where the abbot stands.</summary>
        public readonly Pos Pos;
        /// <summary>DrawTile: the tile type, numbered across the game's tile sets.</summary>
        public readonly ushort Tile;
        /// <summary>Place: degrees clockwise, 0, 90, 180 or 270.</summary>
        public readonly ushort Rotation;
        /// <summary>Deploy: the segment of the placed tile.</summary>
        public readonly byte Segment;

        private Action(ActionKind kind, Figure figure, Pos pos, ushort tile, ushort rotation, byte segment)
        {
            Kind = kind;
            Figure = figure;
            Pos = pos;
            Tile = tile;
            Rotation = rotation;
            Segment = segment;
        }

        /// <summary>Draw a random tile from the bag.</summary>
        public static Action Draw() { return new Action(ActionKind.Draw, 0, default(Pos), 0, 0, 0); }

        /// <summary>Draw tile type <paramref name="tile"/> (a real table's draw, or a chance outcome a search explores).</summary>
        public static Action DrawTile(ushort tile) { return new Action(ActionKind.DrawTile, 0, default(Pos), tile, 0, 0); }

        /// <summary>Place the drawn tile at <paramref name="pos"/>, turned <paramref name="rotation"/> degrees clockwise.</summary>
        public static Action Place(Pos pos, ushort rotation) { return new Action(ActionKind.Place, 0, pos, 0, rotation, 0); }

        /// <summary>Put <paramref name="figure"/> on segment <paramref name="segment"/> of the tile just placed.</summary>
        public static Action Deploy(byte segment, Figure figure) { return new Action(ActionKind.Deploy, figure, default(Pos), 0, 0, segment); }

        /// <summary>Take the player's abbot back from the monastery or garden at <paramref name="pos"/>.</summary>
        public static Action RecallAbbot(Pos pos) { return new Action(ActionKind.RecallAbbot, 0, pos, 0, 0, 0); }

        /// <summary>Deploy no figure.</summary>
        public static Action Skip() { return new Action(ActionKind.Skip, 0, default(Pos), 0, 0, 0); }

        /// <summary>Draw the token showing <paramref name="sheep"/> sheep from the flock's bag (a real table's draw,
        /// or a chance outcome a search explores) (ABI 1.9).</summary>
        public static Action DrawSheep(ushort sheep) { return new Action(ActionKind.DrawSheep, 0, default(Pos), sheep, 0, 0); }

        /// <summary>Draw a wolf from the flock's bag (ABI 1.9).</summary>
        public static Action DrawWolf() { return new Action(ActionKind.DrawWolf, 0, default(Pos), 0, 0, 0); }

        /// <summary>Grow the flock whose field the tile just placed extended (ABI 1.9).</summary>
        public static Action GrowFlock() { return new Action(ActionKind.GrowFlock, 0, default(Pos), 0, 0, 0); }

        /// <summary>Drive that flock to market (ABI 1.9).</summary>
        public static Action DriveFlock() { return new Action(ActionKind.DriveFlock, 0, default(Pos), 0, 0, 0); }

        /// <summary>Whether every field is equal.</summary>
        public bool Equals(Action other)
        {
            return Kind == other.Kind && Figure == other.Figure && Pos == other.Pos && Tile == other.Tile
                && Rotation == other.Rotation && Segment == other.Segment;
        }

        /// <summary>Whether <paramref name="obj"/> is an equal <see cref="Action"/>.</summary>
        public override bool Equals(object obj) { return obj is Action && Equals((Action)obj); }

        /// <summary>A hash of every field.</summary>
        public override int GetHashCode()
        {
            int hash = (int)Kind;
            hash = hash * 31 + (int)Figure;
            hash = hash * 31 + Pos.GetHashCode();
            hash = hash * 31 + Tile;
            hash = hash * 31 + Rotation;
            return hash * 31 + Segment;
        }

        /// <summary>A short description, such as "place (1, 0) 90".</summary>
        public override string ToString()
        {
            switch (Kind)
            {
                case ActionKind.Draw: return "draw";
                case ActionKind.DrawTile: return "draw tile " + Tile;
                case ActionKind.Place: return "place " + Pos + " " + Rotation;
                case ActionKind.Deploy: return "deploy " + Figure + " on segment " + Segment;
                case ActionKind.RecallAbbot: return "recall abbot at " + Pos;
                case ActionKind.Skip: return "skip";
                default: return "action kind " + (uint)Kind;
            }
        }
    }

    /// <summary>One feature's score: what it is, why it scored, how much and to whom
    /// (<c>carc_feature_score</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FeatureScore
    {
        /// <summary>The kind of feature; a city paying its farmers has kind City and <see cref="Farmers"/> true.</summary>
        public readonly SegmentKind Kind;
        /// <summary>A cell holding a segment of the feature.</summary>
        public readonly Pos Pos;
        /// <summary>That segment's number in its tile type.</summary>
        public readonly byte Segment;
        private readonly byte complete;
        private readonly byte farmers;
        /// <summary>The players who score, bit p for player p; each receives <see cref="Points"/>.</summary>
        public readonly byte Scorers;
        /// <summary>The players who score, by number: <see cref="Scorers"/> read.</summary>
        public int[] ScoringPlayers { get { return PlayerMask.Players(Scorers); } }
        /// <summary>When it scored.</summary>
        public readonly ScoreReason Reason;
        /// <summary>The rule that changed its value.</summary>
        public readonly Modifier Modifier;
        /// <summary>Distinct tiles it covers.</summary>
        public readonly uint Tiles;
        /// <summary>Pennants in a city.</summary>
        public readonly uint Pennants;
        /// <summary>For fields: the completed cities that pay out.</summary>
        public readonly uint Cities;
        /// <summary>The points each scorer receives.</summary>
        public readonly uint Points;

        /// <summary>Whether it was complete (a closed city or road, a surrounded monastery or garden).</summary>
        public bool Complete { get { return complete != 0; } }

        /// <summary>Whether the score goes to farmers (a field, or a city paying its farmers).</summary>
        public bool Farmers { get { return farmers != 0; } }
    }

    /// <summary>Something that happened during an action (<c>carc_event</c>). <see cref="Kind"/>
    /// says which fields count; the others are 0.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Event
    {
        /// <summary>What happened.</summary>
        public readonly EventKind Kind;
        /// <summary>Who acted, or whose figure or turn it is (all kinds but FeatureScored, TokensScored and GameOver).</summary>
        public readonly byte Player;
        /// <summary>GameOver: the players with the highest score, bit p for player p.</summary>
        public readonly byte Winners;
        /// <summary>GameOver: the winners by number: <see cref="Winners"/> read.</summary>
        public int[] WinningPlayers { get { return PlayerMask.Players(Winners); } }
        /// <summary>TileDrawn, TileDiscarded, TilePlaced: the tile type.</summary>
        public readonly ushort Tile;
        /// <summary>TilePlaced, FigurePlaced, AbbotRecalled, FigureReturned: the cell.</summary>
        public readonly Pos Pos;
        /// <summary>TilePlaced: degrees clockwise.</summary>
        public readonly ushort Rotation;
        /// <summary>FigurePlaced, FigureReturned, TokensTaken: the segment.</summary>
        public readonly byte Segment;
        /// <summary>TokensTaken, TokensScored: the token kind, numbered as <see cref="Game.TokenInfo"/> lists them;
        /// TitleTaken, TitleScored: the title, numbered as <see cref="Game.TitleInfo"/> lists them (ABI 1.7);
        /// FeatureScored: 1 + the declared rule that set the score, numbered as <see cref="Game.RuleInfo"/> lists
        /// them, or 0 for the plain value (ABI 1.8).</summary>
        public readonly byte Declared;
        /// <summary>FigurePlaced, FigureReturned: the figure.</summary>
        public readonly Figure Figure;
        /// <summary>FeatureScored: the score. TokensTaken, TokensScored: who received what, as the kinds say.</summary>
        public readonly FeatureScore Score;
    }

    /// <summary>A tile on the board (<c>carc_placement</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Placement
    {
        /// <summary>Its cell.</summary>
        public readonly Pos Pos;
        /// <summary>Its tile type.</summary>
        public readonly ushort Tile;
        /// <summary>How it is turned: degrees clockwise.</summary>
        public readonly ushort Rotation;
        /// <summary>When it was placed: 0 for the start tile, then 1, 2, ...</summary>
        public readonly uint Order;
        /// <summary>Its north edge as it lies (<c>edges[0]</c>).</summary>
        public readonly EdgeKind EdgeNorth;
        /// <summary>Its east edge as it lies (<c>edges[1]</c>).</summary>
        public readonly EdgeKind EdgeEast;
        /// <summary>Its south edge as it lies (<c>edges[2]</c>).</summary>
        public readonly EdgeKind EdgeSouth;
        /// <summary>Its west edge as it lies (<c>edges[3]</c>).</summary>
        public readonly EdgeKind EdgeWest;

        /// <summary>Edge <paramref name="index"/> as it lies: 0 north, 1 east, 2 south, 3 west.</summary>
        public EdgeKind Edge(int index)
        {
            switch (index)
            {
                case 0: return EdgeNorth;
                case 1: return EdgeEast;
                case 2: return EdgeSouth;
                case 3: return EdgeWest;
                default: throw new ArgumentOutOfRangeException("index");
            }
        }
    }

    /// <summary>A segment of a placed tile: its kind, its feature and the figure on it
    /// (<c>carc_segment_state</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SegmentState
    {
        /// <summary>The kind of feature it is part of.</summary>
        public readonly SegmentKind Kind;
        /// <summary>Its feature's number; numbers hold until the next tile is placed.</summary>
        public readonly uint Feature;
        private readonly byte hasFigure;
        /// <summary>The figure's owner, when <see cref="HasFigure"/>.</summary>
        public readonly byte Player;
        /// <summary>The figure, when <see cref="HasFigure"/>.</summary>
        public readonly Figure Figure;

        /// <summary>Whether a figure stands on this very segment.</summary>
        public bool HasFigure { get { return hasFigure != 0; } }
    }

    /// <summary>A whole feature as it stands now (<c>carc_feature_info</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FeatureInfo
    {
        /// <summary>The feature's number, as in <see cref="SegmentState.Feature"/>.</summary>
        public readonly uint Id;
        /// <summary>Its kind.</summary>
        public readonly SegmentKind Kind;
        private readonly byte complete;
        private readonly byte inn;
        private readonly byte cathedral;
        /// <summary>Who would take it now: the players with most strength on it, bit p for player p.</summary>
        public readonly byte Leaders;
        /// <summary>Distinct tiles it covers.</summary>
        public readonly uint Tiles;
        /// <summary>City, road or river edges that still face an empty cell.</summary>
        public readonly uint OpenEdges;
        /// <summary>Pennants on its segments.</summary>
        public readonly uint Pennants;
        /// <summary>Figures standing on it.</summary>
        public readonly uint Figures;
        private readonly uint figuresByPlayer0;
        private readonly uint figuresByPlayer1;
        private readonly uint figuresByPlayer2;
        private readonly uint figuresByPlayer3;
        private readonly uint figuresByPlayer4;
        private readonly uint figuresByPlayer5;
        private readonly uint figuresByPlayer6;
        private readonly uint figuresByPlayer7;
        private readonly uint strengthByPlayer0;
        private readonly uint strengthByPlayer1;
        private readonly uint strengthByPlayer2;
        private readonly uint strengthByPlayer3;
        private readonly uint strengthByPlayer4;
        private readonly uint strengthByPlayer5;
        private readonly uint strengthByPlayer6;
        private readonly uint strengthByPlayer7;

        /// <summary>Whether it is complete (a closed city, road or river, a surrounded monastery or garden).</summary>
        public bool Complete { get { return complete != 0; } }

        /// <summary>Whether an inn is on it.</summary>
        public bool Inn { get { return inn != 0; } }

        /// <summary>Whether a cathedral is in it.</summary>
        public bool Cathedral { get { return cathedral != 0; } }

        /// <summary>Figures of player <paramref name="player"/> standing on it (a big follower counts once).</summary>
        public uint FiguresOf(int player)
        {
            switch (player)
            {
                case 0: return figuresByPlayer0;
                case 1: return figuresByPlayer1;
                case 2: return figuresByPlayer2;
                case 3: return figuresByPlayer3;
                case 4: return figuresByPlayer4;
                case 5: return figuresByPlayer5;
                case 6: return figuresByPlayer6;
                case 7: return figuresByPlayer7;
                default: throw new ArgumentOutOfRangeException("player");
            }
        }

        /// <summary>Strength of player <paramref name="player"/> on it, what majorities are
        /// decided by (a big follower counts 2); <see cref="Leaders"/> have the most.</summary>
        public uint StrengthOf(int player)
        {
            switch (player)
            {
                case 0: return strengthByPlayer0;
                case 1: return strengthByPlayer1;
                case 2: return strengthByPlayer2;
                case 3: return strengthByPlayer3;
                case 4: return strengthByPlayer4;
                case 5: return strengthByPlayer5;
                case 6: return strengthByPlayer6;
                case 7: return strengthByPlayer7;
                default: throw new ArgumentOutOfRangeException("player");
            }
        }
    }

    /// <summary>A segment of a placed tile, named by its cell and number (<c>carc_segment_ref</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SegmentRef
    {
        /// <summary>The tile's cell.</summary>
        public readonly Pos Pos;
        /// <summary>The segment's number in the tile type.</summary>
        public readonly byte Segment;
    }

    /// <summary>Two occupied, unfinished rivals beside each other under a declared rivalry (The Cult: a
    /// shrine with a heretic beside a monastery with a monk): whichever is completed first scores, the
    /// other's figures go home with nothing (<c>carc_challenge</c>, ABI 1.8).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Challenge
    {
        /// <summary>The cell of the feature carrying the rivalry's marks (the shrine).</summary>
        public readonly Pos Marked;
        /// <summary>The cell of the other (the monastery).</summary>
        public readonly Pos Plain;
        /// <summary>Whose figure stands on the marked one.</summary>
        public readonly byte MarkedPlayer;
        /// <summary>Whose figure stands on the other.</summary>
        public readonly byte PlainPlayer;
        /// <summary>The rivalry, by its number among the game's declared rules.</summary>
        public readonly byte Rule;
    }

    /// <summary>A figure on the board (<c>carc_placed_figure</c>).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PlacedFigure
    {
        /// <summary>Whose figure.</summary>
        public readonly byte Player;
        /// <summary>Which figure.</summary>
        public readonly Figure Figure;
        /// <summary>The cell of the tile it stands on.</summary>
        public readonly Pos Pos;
        /// <summary>The segment of that tile it stands on.</summary>
        public readonly byte Segment;
    }

    /// <summary>How a landscape is scored: the rules plus two overrides for puzzles
    /// (<c>carc_landscape_options</c>). Start from <see cref="Default"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct LandscapeOptions
    {
        /// <summary>The rule options.</summary>
        public Rules Rules;
        private byte claimAll;
        private byte hasPennantValue;
        private uint pennantValue;

        /// <summary>True: every feature counts for player 0, whatever stands on it (solo puzzles).</summary>
        public bool ClaimAll { get { return claimAll != 0; } set { claimAll = Flag.Of(value); } }

        /// <summary>Points per pennant of a completed city without a cathedral; null for the usual 2.</summary>
        public uint? PennantValue
        {
            get { return hasPennantValue != 0 ? pennantValue : (uint?)null; }
            set
            {
                hasPennantValue = Flag.Of(value.HasValue);
                pennantValue = value.GetValueOrDefault();
            }
        }

        /// <summary>The published rules, figures deciding, 2 points per pennant.</summary>
        public static LandscapeOptions Default
        {
            get
            {
                var options = new LandscapeOptions();
                options.Rules = Rules.Default;
                return options;
            }
        }
    }

    /// <summary>How a landscape is scored, in full (<c>carc_landscape_scoring</c>, ABI 1.2):
    /// the rules, who claims the features, and what a pennant is worth. Fields score only when
    /// <c>Rules</c> has farmers, claimed or not. Start from <see cref="Default"/> or
    /// <see cref="SoloPuzzle"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct LandscapeScoring
    {
        /// <summary>The rule options.</summary>
        public Rules Rules;
        private byte claimAll;
        /// <summary>Points per pennant in a completed city without a cathedral (published: 2).</summary>
        public uint PennantValue;
        /// <summary>Points per pennant in an unfinished city without a cathedral (published: 1).</summary>
        public uint UnfinishedPennantValue;

        /// <summary>True: every feature counts for player 0, whatever stands on it (solo puzzles).</summary>
        public bool ClaimAll { get { return claimAll != 0; } set { claimAll = Flag.Of(value); } }

        /// <summary>The published end-of-game scoring: figures decide, pennants 2 and 1.</summary>
        public static LandscapeScoring Default
        {
            get
            {
                LandscapeScoring scoring;
                Errors.Check(Native.carc_landscape_scoring_default(out scoring), IntPtr.Zero);
                return scoring;
            }
        }

        /// <summary>The published solo puzzles: player 0 owns every feature; cities 2 a tile
        /// complete and 1 unfinished, no pennant bonus; roads 1 a tile; monasteries 9 or 1 plus
        /// their neighbours; no fields.</summary>
        public static LandscapeScoring SoloPuzzle
        {
            get
            {
                LandscapeScoring scoring;
                Errors.Check(Native.carc_landscape_scoring_solo_puzzle(out scoring), IntPtr.Zero);
                return scoring;
            }
        }
    }

    /// <summary>Sets of players as the library writes them: a byte, bit p for player p.</summary>
    public static class PlayerMask
    {
        /// <summary>The players in <paramref name="mask"/>, in increasing order.</summary>
        public static int[] Players(byte mask)
        {
            var players = new List<int>();
            for (int player = 0; player < 8; player++)
            {
                if ((mask >> player & 1) != 0)
                {
                    players.Add(player);
                }
            }
            return players.ToArray();
        }
    }

    // The structs the library fills with pointers to its strings: internal, because those
    // pointers die with the handle; the public API copies them into the classes below.

    [StructLayout(LayoutKind.Sequential)]
    internal struct DiagnosticInfoNative
    {
        internal IntPtr File;
        internal uint Line;
        internal uint Column;
        internal IntPtr Code;
        internal uint CodeNumber;
        internal IntPtr Message;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct TileSetInfoNative
    {
        internal IntPtr Id;
        internal IntPtr Name;
        internal byte Edition;
        internal byte Followers;
        internal byte BigFollowers;
        internal byte HasStartTile;
        internal ushort StartTile;
        internal sbyte Stage;
        internal UIntPtr Colours;
        internal UIntPtr TileTypes;
        internal UIntPtr TileCount;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct TileInfoNative
    {
        internal IntPtr Id;
        internal IntPtr Name;
        internal ushort Count;
        internal byte SegmentCount;
        internal EdgeKind Edge0;
        internal EdgeKind Edge1;
        internal EdgeKind Edge2;
        internal EdgeKind Edge3;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct TitleInfoNative
    {
        internal IntPtr Id;
        internal IntPtr Name;
        internal SegmentKind Feature;
        internal uint PerFeature;
        internal uint Holding;
        internal byte HasHolder;
        internal byte Holder;
        internal uint Largest;
        internal uint Completed;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct RuleInfoNative
    {
        internal IntPtr Id;
        internal RuleKind Kind;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct MarkInfoNative
    {
        internal IntPtr Id;
        internal IntPtr Name;
        internal byte OnTiles;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct FigureInfoNative
    {
        internal IntPtr Id;
        internal Figure Figure;
        internal byte Follower;
        internal byte Strength;
        internal byte PerPlayer;
        internal byte Recall;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct TokenInfoNative
    {
        internal IntPtr Id;
        internal IntPtr Name;
        internal TokenTaker TakenBy;
        internal uint Majority;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct SetupNative
    {
        internal IntPtr Catalogs;
        internal UIntPtr CatalogCount;
        internal byte Players;
        internal ulong Seed;
        internal Rules Rules;
    }

#pragma warning restore 0649

    /// <summary>One problem in a tile set file, with where it is and its stable code.</summary>
    public sealed class Diagnostic
    {
        /// <summary>The file name given when the tile set was loaded.</summary>
        public string File { get; private set; }
        /// <summary>The 1-based line of the problem.</summary>
        public int Line { get; private set; }
        /// <summary>The 1-based column, in characters.</summary>
        public int Column { get; private set; }
        /// <summary>The stable code, such as "dsl-unknown-half-edge".</summary>
        public string Code { get; private set; }
        /// <summary>The same code as a stable number, from 1.</summary>
        public int CodeNumber { get; private set; }
        /// <summary>What is wrong, lower case, without a trailing period.</summary>
        public string Message { get; private set; }

        internal Diagnostic(DiagnosticInfoNative info)
        {
            File = Utf8.Read(info.File);
            Line = (int)info.Line;
            Column = (int)info.Column;
            Code = Utf8.Read(info.Code);
            CodeNumber = (int)info.CodeNumber;
            Message = Utf8.Read(info.Message);
        }

        /// <summary>"error[code]: file:line:column: message", as the command-line tool prints it.</summary>
        public override string ToString()
        {
            return "error[" + Code + "]: " + File + ":" + Line + ":" + Column + ": " + Message;
        }
    }

    /// <summary>Who a tile set is and what it brings.</summary>
    public sealed class TileSetInfo
    {
        /// <summary>The id the set is known by, such as "base".</summary>
        public string Id { get; private set; }
        /// <summary>The name shown to people.</summary>
        public string Name { get; private set; }
        /// <summary>Which printing of the set the data follows (1 = first edition).</summary>
        public int Edition { get; private set; }
        /// <summary>Followers per player.</summary>
        public int Followers { get; private set; }
        /// <summary>Big followers per player.</summary>
        public int BigFollowers { get; private set; }
        /// <summary>The start tile's number in the set, or null when the set has none.</summary>
        public ushort? StartTile { get; private set; }
        /// <summary>All tiles of a lower stage are drawn before any tile of a higher stage.</summary>
        public int Stage { get; private set; }
        /// <summary>How many player colours the set adds.</summary>
        public int Colours { get; private set; }
        /// <summary>How many tile types the set has.</summary>
        public int TileTypes { get; private set; }
        /// <summary>How many tiles the set has, counting every copy.</summary>
        public int TileCount { get; private set; }

        internal TileSetInfo(TileSetInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Name = Utf8.Read(info.Name);
            Edition = info.Edition;
            Followers = info.Followers;
            BigFollowers = info.BigFollowers;
            StartTile = info.HasStartTile != 0 ? info.StartTile : (ushort?)null;
            Stage = info.Stage;
            Colours = Sizes.ToInt(info.Colours);
            TileTypes = Sizes.ToInt(info.TileTypes);
            TileCount = Sizes.ToInt(info.TileCount);
        }
    }

    /// <summary>One tile type, unrotated.</summary>
    public sealed class TileInfo
    {
        /// <summary>The id, unique across the tile sets of a game, such as "D".</summary>
        public string Id { get; private set; }
        /// <summary>The name shown to people.</summary>
        public string Name { get; private set; }
        /// <summary>How many copies the set contains.</summary>
        public int Count { get; private set; }
        /// <summary>How many segments the tile has; they are numbered from 0.</summary>
        public int SegmentCount { get; private set; }
        /// <summary>The edge kinds in the order N, E, S, W.</summary>
        public IReadOnlyList<EdgeKind> Edges { get; private set; }

        internal TileInfo(TileInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Name = Utf8.Read(info.Name);
            Count = info.Count;
            SegmentCount = info.SegmentCount;
            Edges = Array.AsReadOnly(new[] { info.Edge0, info.Edge1, info.Edge2, info.Edge3 });
        }

        /// <summary>The id.</summary>
        public override string ToString() { return Id; }
    }

    /// <summary>A declared rule (ABI 1.8): FEATURE_SCORED events name the one that set a score by
    /// <see cref="Event.Declared"/>, numbered from 1 (0 for the plain value).</summary>
    public sealed class RuleInfo
    {
        /// <summary>The id events name it by, such as "cathedral" or "vineyards".</summary>
        public string Id { get; private set; }
        /// <summary>What it does.</summary>
        public RuleKind Kind { get; private set; }

        internal RuleInfo(RuleInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Kind = info.Kind;
        }
    }

    /// <summary>A mark as the game's tile sets declare it (ABI 1.8).</summary>
    public sealed class MarkInfo
    {
        /// <summary>The id tiles name it by, such as "pennant" or "wine".</summary>
        public string Id { get; private set; }
        /// <summary>The name shown to people.</summary>
        public string Name { get; private set; }
        /// <summary>Whether it is printed on whole tiles (a hill, a vineyard) rather than on segments.</summary>
        public bool OnTiles { get; private set; }

        internal MarkInfo(MarkInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Name = Utf8.Read(info.Name);
            OnTiles = info.OnTiles != 0;
        }
    }

    /// <summary>A title the game's tile sets declare (King &amp; Robber Baron's King and Robber Baron), and
    /// where it stood when it was read.</summary>
    public sealed class TitleInfo
    {
        /// <summary>The id events name it by, such as "king".</summary>
        public string Id { get; private set; }
        /// <summary>The name shown to people.</summary>
        public string Name { get; private set; }
        /// <summary>The kind of feature that wins it and that it scores: City or Road.</summary>
        public SegmentKind Feature { get; private set; }
        /// <summary>Points at the end per feature of that kind completed in the game.</summary>
        public uint PerFeature { get; private set; }
        /// <summary>Points at the end for holding it.</summary>
        public uint Holding { get; private set; }
        /// <summary>The player holding it, or -1 before anyone completed a feature of its kind.</summary>
        public int Holder { get; private set; }
        /// <summary>Tiles of the largest feature of its kind completed so far.</summary>
        public uint Largest { get; private set; }
        /// <summary>Features of its kind completed so far.</summary>
        public uint Completed { get; private set; }

        internal TitleInfo(TitleInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Name = Utf8.Read(info.Name);
            Feature = info.Feature;
            PerFeature = info.PerFeature;
            Holding = info.Holding;
            Holder = info.HasHolder != 0 ? info.Holder : -1;
            Largest = info.Largest;
            Completed = info.Completed;
        }

        /// <summary>The id.</summary>
        public override string ToString() { return Id; }
    }

    /// <summary>A figure the game's players have, as its tile set declares it (ABI 1.10).</summary>
    public sealed class FigureInfo
    {
        /// <summary>The id files, JSON and events name it by, such as "follower" or an author's "giant".</summary>
        public string Id { get; private set; }
        /// <summary>Its number in actions, events and the figure lists: a published figure, or
        /// <see cref="Carcassonne.Figure.Declared"/> and up for one no built-in set brings.</summary>
        public Figure Figure { get; private set; }
        /// <summary>Whether it is a follower (it occupies its feature and counts in its majority); else
        /// a companion, which stands beside followers.</summary>
        public bool IsFollower { get; private set; }
        /// <summary>What it weighs in a majority: 1 to 10 for a follower, 0 for a companion.</summary>
        public byte Strength { get; private set; }
        /// <summary>How many each player starts with.</summary>
        public byte PerPlayer { get; private set; }
        /// <summary>Whether its owner may take it back early, as the abbot.</summary>
        public bool Recall { get; private set; }

        internal FigureInfo(FigureInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Figure = info.Figure;
            IsFollower = info.Follower != 0;
            Strength = info.Strength;
            PerPlayer = info.PerPlayer;
            Recall = info.Recall != 0;
        }

        /// <summary>The id.</summary>
        public override string ToString() { return Id; }
    }

    /// <summary>A token kind the game's tile sets declare (Traders &amp; Builders' goods).</summary>
    public sealed class TokenInfo
    {
        /// <summary>The id events name it by, such as "wine".</summary>
        public string Id { get; private set; }
        /// <summary>The name shown to people.</summary>
        public string Name { get; private set; }
        /// <summary>Who takes them when a feature carrying them is completed.</summary>
        public TokenTaker TakenBy { get; private set; }
        /// <summary>Points at the end to each player holding the most of this kind.</summary>
        public uint Majority { get; private set; }

        internal TokenInfo(TokenInfoNative info)
        {
            Id = Utf8.Read(info.Id);
            Name = Utf8.Read(info.Name);
            TakenBy = info.TakenBy;
            Majority = info.Majority;
        }

        /// <summary>The id.</summary>
        public override string ToString() { return Id; }
    }

    // ---------------------------------------------------------------------------------------
    // Errors.
    // ---------------------------------------------------------------------------------------

    /// <summary>A library call failed: <see cref="Result"/> says why, the message explains, and
    /// for a text the library read (a tile set, JSON) <see cref="Line"/> and
    /// <see cref="Column"/> say where. A refused action leaves the game as it was.</summary>
    public class CarcassonneException : Exception
    {
        /// <summary>The result code.</summary>
        public Result Result { get; private set; }
        /// <summary>The code's name as the header spells it, such as "CARC_RESULT_EDGE_MISMATCH".</summary>
        public string ResultName { get { return Library.ResultName(Result); } }
        /// <summary>The 1-based line of the problem in the text read, 0 when there is none.</summary>
        public int Line { get; private set; }
        /// <summary>The 1-based column that goes with <see cref="Line"/>, 0 when there is none.</summary>
        public int Column { get; private set; }
        /// <summary>Every problem of an invalid tile set (<see cref="Carcassonne.Result.TilesetInvalid"/>); empty otherwise.</summary>
        public IReadOnlyList<Diagnostic> Diagnostics { get; private set; }

        /// <summary>An exception for <paramref name="result"/> with a message and no location.</summary>
        public CarcassonneException(Result result, string message)
            : this(result, message, 0, 0, new Diagnostic[0])
        {
        }

        /// <summary>An exception with every detail the library gives.</summary>
        public CarcassonneException(Result result, string message, int line, int column, IList<Diagnostic> diagnostics)
            : base(message)
        {
            Result = result;
            Line = line;
            Column = column;
            Diagnostics = new List<Diagnostic>(diagnostics).AsReadOnly();
        }
    }

    /// <summary>Turning result codes and error handles into exceptions.</summary>
    internal static class Errors
    {
        /// <summary>Throws for a failure of a call without an error argument.</summary>
        internal static void Check(Result result)
        {
            if (result != Result.Ok)
            {
                throw new CarcassonneException(result, Library.ResultName(result));
            }
        }

        /// <summary>Frees <paramref name="err"/> whatever happens, and throws for a failure
        /// with the details it holds.</summary>
        internal static void Check(Result result, IntPtr err)
        {
            using (var handle = new ErrorHandle(err))
            {
                if (result == Result.Ok)
                {
                    return;
                }
                if (handle.IsInvalid)
                {
                    // The library could not make an error object (no free handle).
                    throw new CarcassonneException(result, Library.ResultName(result));
                }
                throw FromHandle(result, handle);
            }
        }

        /// <summary>The handle a making call wrote, or the exception for its failure.</summary>
        internal static T Adopt<T>(Result result, T handle, IntPtr err) where T : CarcHandle
        {
            if (result != Result.Ok)
            {
                // Outputs are written only on success: whatever the marshaller put in the
                // handle is not the library's, so it must never be freed.
                handle.SetHandleAsInvalid();
            }
            Check(result, err);
            return handle;
        }

        private static CarcassonneException FromHandle(Result result, ErrorHandle err)
        {
            string message = Utf8.Read(Native.carc_error_message(err)) ?? Library.ResultName(result);
            int line = (int)Native.carc_error_line(err);
            int column = (int)Native.carc_error_column(err);
            int count = Sizes.ToInt(Native.carc_error_count(err));
            var diagnostics = new List<Diagnostic>(count);
            for (int index = 0; index < count; index++)
            {
                DiagnosticInfoNative info;
                if (Native.carc_error_diagnostic(err, (UIntPtr)(uint)index, out info) == Result.Ok)
                {
                    diagnostics.Add(new Diagnostic(info));
                }
            }
            return new CarcassonneException(result, message, line, column, diagnostics);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Handles. Each owns one library handle and frees it once, from Dispose or the
    // finalizer; the P/Invoke marshaller keeps a handle alive while a call uses it, so a game
    // cannot be freed under a running call.
    // ---------------------------------------------------------------------------------------

    /// <summary>A library handle: valid unless zero.</summary>
    internal abstract class CarcHandle : SafeHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        protected CarcHandle() : base(IntPtr.Zero, true) { }

        /// <summary>Whether the handle holds nothing.</summary>
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    /// <summary>Owns a <c>carc_catalog</c>.</summary>
    internal sealed class CatalogHandle : CarcHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        public CatalogHandle() { }

        /// <summary>Frees the catalog.</summary>
        protected override bool ReleaseHandle() { Native.carc_catalog_free(handle); return true; }
    }

    /// <summary>Owns a <c>carc_game</c>.</summary>
    internal sealed class GameHandle : CarcHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        public GameHandle() { }

        /// <summary>Frees the game.</summary>
        protected override bool ReleaseHandle() { Native.carc_game_free(handle); return true; }
    }

    /// <summary>Owns a <c>carc_error</c>.</summary>
    internal sealed class ErrorHandle : CarcHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        public ErrorHandle() { }

        /// <summary>Takes ownership of <paramref name="error"/>, which may be zero.</summary>
        public ErrorHandle(IntPtr error) { SetHandle(error); }

        /// <summary>Frees the error.</summary>
        protected override bool ReleaseHandle() { Native.carc_error_free(handle); return true; }
    }

    /// <summary>Owns a <c>carc_landscape_score</c>.</summary>
    internal sealed class LandscapeScoreHandle : CarcHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        public LandscapeScoreHandle() { }

        /// <summary>Frees the score.</summary>
        protected override bool ReleaseHandle() { Native.carc_landscape_score_free(handle); return true; }
    }

    /// <summary>Owns a <c>carc_bot</c>.</summary>
    internal sealed class BotHandle : CarcHandle
    {
        /// <summary>An empty handle, for the marshaller to fill.</summary>
        public BotHandle() { }

        /// <summary>Frees the bot.</summary>
        protected override bool ReleaseHandle() { Native.carc_bot_free(handle); return true; }
    }

    // ---------------------------------------------------------------------------------------
    // Helpers: UTF-8 both ways, size_t, flags, caller buffers.
    // ---------------------------------------------------------------------------------------

    /// <summary>UTF-8 by hand: the marshaller's default for strings is the ANSI code page,
    /// which is UTF-8 on Linux and macOS but not on Windows.</summary>
    internal static class Utf8
    {
        /// <summary><paramref name="text"/> as NUL-terminated UTF-8.</summary>
        internal static byte[] Bytes(string text, string name)
        {
            if (text == null)
            {
                throw new ArgumentNullException(name);
            }
            if (text.IndexOf('\0') >= 0)
            {
                throw new ArgumentException("contains a NUL character, which would cut the text short", name);
            }
            var bytes = new byte[Encoding.UTF8.GetByteCount(text) + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The NUL-terminated UTF-8 string at <paramref name="ptr"/>, or null for NULL.</summary>
        internal static string Read(IntPtr ptr)
        {
            if (ptr == IntPtr.Zero)
            {
                return null;
            }
            int length = 0;
            while (Marshal.ReadByte(ptr, length) != 0)
            {
                length++;
            }
            var bytes = new byte[length];
            Marshal.Copy(ptr, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>A text the library writes into a caller buffer: asks for the size, then fills.</summary>
        internal static string ReadText(TextCall call)
        {
            var size = UIntPtr.Zero;
            byte[] buffer = null;
            while (true)
            {
                int cap = buffer == null ? 0 : buffer.Length;
                Result result = call(buffer, (UIntPtr)(uint)cap, ref size);
                if (result == Result.Ok && buffer != null)
                {
                    // The size counts the terminating NUL.
                    return Encoding.UTF8.GetString(buffer, 0, Sizes.ToInt(size) - 1);
                }
                if (result != Result.BufferTooSmall)
                {
                    Errors.Check(result);
                }
                buffer = new byte[Sizes.ToInt(size)];
            }
        }
    }

    /// <summary>A call writing text into a caller buffer: (buf, cap, &amp;size).</summary>
    internal delegate Result TextCall(byte[] buf, UIntPtr cap, ref UIntPtr size);

    /// <summary>A call writing a list into a caller buffer: (buf, cap, &amp;count).</summary>
    internal delegate Result ListCall<T>(T[] buf, UIntPtr cap, ref UIntPtr count);

    internal static class Lists
    {
        /// <summary>A list the library writes into a caller buffer, as an array of exactly its
        /// length: asks for the count, then fills.</summary>
        internal static T[] Read<T>(ListCall<T> call)
        {
            var count = UIntPtr.Zero;
            T[] buffer = null;
            while (true)
            {
                int cap = buffer == null ? 0 : buffer.Length;
                Result result = call(buffer, (UIntPtr)(uint)cap, ref count);
                if (result == Result.Ok)
                {
                    buffer = buffer ?? new T[0];
                    if (Sizes.ToInt(count) != buffer.Length)
                    {
                        Array.Resize(ref buffer, Sizes.ToInt(count));
                    }
                    return buffer;
                }
                if (result != Result.BufferTooSmall)
                {
                    Errors.Check(result);
                }
                buffer = new T[Sizes.ToInt(count)];
            }
        }
    }

    internal static class Sizes
    {
        /// <summary>A size_t the library wrote, as an int; no list or text comes near 2^31.</summary>
        internal static int ToInt(UIntPtr size) { return checked((int)size.ToUInt64()); }
    }

    internal static class Flag
    {
        internal static byte Of(bool value) { return value ? (byte)1 : (byte)0; }
    }

    // ---------------------------------------------------------------------------------------
    // The library as a whole.
    // ---------------------------------------------------------------------------------------

    /// <summary>What the linked native library is.</summary>
    public static class Library
    {
        /// <summary>The library's release, such as "0.1.0".</summary>
        public static string Version { get { return Utf8.Read(Native.carc_version()); } }

        /// <summary>The linked library's ABI version as (major &lt;&lt; 16) | minor.</summary>
        public static uint AbiVersion { get { return Native.carc_abi_version(); } }

        /// <summary>Whether the linked library serves this binding: the same ABI major version and
        /// at least its minor version. Check it once at start-up.</summary>
        public static bool IsCompatible
        {
            get
            {
                uint version = AbiVersion;
                return version >> 16 == Limits.AbiVersionMajor && (version & 0xFFFF) >= Limits.AbiVersionMinor;
            }
        }

        /// <summary>The name of <paramref name="result"/> as the header spells it, such as
        /// "CARC_RESULT_OK", or "carc_result N" for a number that is no result code.</summary>
        public static string ResultName(Result result)
        {
            return Utf8.Read(Native.carc_result_name((uint)result)) ?? "carc_result " + (uint)result;
        }

        /// <summary>How many handles of every kind are live in the process: made and not yet
        /// freed. Handles not disposed are freed by finalizers, so count after
        /// <c>GC.Collect(); GC.WaitForPendingFinalizers();</c> when hunting a leak.</summary>
        public static long LiveHandles { get { return (long)Native.carc_live_handles().ToUInt64(); } }

        /// <summary>The names of the built-in tile sets, such as "base", in the order they are listed to users.</summary>
        public static string[] BuiltinNames
        {
            get
            {
                int count = Sizes.ToInt(Native.carc_builtin_count());
                var names = new string[count];
                for (int index = 0; index < count; index++)
                {
                    names[index] = Utf8.Read(Native.carc_builtin_name((UIntPtr)(uint)index));
                }
                return names;
            }
        }

        /// <summary>Every player colour, by name ("red", as tile sets and
        /// <see cref="Catalog.Colours"/> spell it), with its shade as CSS writes it ("#d62828"):
        /// the engine's one palette, which pictures and the server's page draw with too.</summary>
        public static KeyValuePair<string, string>[] Palette
        {
            get
            {
                int count = Sizes.ToInt(Native.carc_palette_count());
                var colours = new KeyValuePair<string, string>[count];
                for (int index = 0; index < count; index++)
                {
                    colours[index] = new KeyValuePair<string, string>(
                        Utf8.Read(Native.carc_palette_name((UIntPtr)(uint)index)),
                        Utf8.Read(Native.carc_palette_shade((UIntPtr)(uint)index)));
                }
                return colours;
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Catalogs.
    // ---------------------------------------------------------------------------------------

    /// <summary>A validated tile set: a built-in one or the user's. Games copy what they need, so
    /// it may be disposed once they are made.</summary>
    public sealed class Catalog : IDisposable
    {
        internal readonly CatalogHandle Handle;

        internal Catalog(CatalogHandle handle) { Handle = handle; }

        private static Catalog Made(Result result, CatalogHandle handle, IntPtr err)
        {
            return new Catalog(Errors.Adopt(result, handle, err));
        }

        /// <summary>The built-in tile set <paramref name="name"/> ("base", "base_c2", "river",
        /// "inns_and_cathedrals"); see <see cref="Library.BuiltinNames"/>.</summary>
        /// <exception cref="CarcassonneException">UnknownBuiltin.</exception>
        public static Catalog Builtin(string name)
        {
            CatalogHandle handle;
            var err = IntPtr.Zero;
            Result result = Native.carc_catalog_builtin(Utf8.Bytes(name, "name"), out handle, ref err);
            return Made(result, handle, err);
        }

        /// <summary>Reads and validates a tile set from TOML <paramref name="text"/>;
        /// <paramref name="file"/> names it in diagnostics.</summary>
        /// <exception cref="CarcassonneException">TilesetInvalid with every problem in <see cref="CarcassonneException.Diagnostics"/>.</exception>
        public static Catalog FromToml(string file, string text)
        {
            CatalogHandle handle;
            var err = IntPtr.Zero;
            Result result = Native.carc_catalog_from_toml(
                Utf8.Bytes(file, "file"), Utf8.Bytes(text, "text"), out handle, ref err);
            return Made(result, handle, err);
        }

        /// <summary>Reads and validates the tile set file at <paramref name="path"/> (relative
        /// paths are taken from the process's working directory).</summary>
        /// <exception cref="CarcassonneException">TilesetIo, TilesetTooLarge, TilesetInvalid.</exception>
        public static Catalog FromPath(string path)
        {
            CatalogHandle handle;
            var err = IntPtr.Zero;
            Result result = Native.carc_catalog_from_path(Utf8.Bytes(path, "path"), out handle, ref err);
            return Made(result, handle, err);
        }

        /// <summary>An independent copy.</summary>
        public Catalog Clone()
        {
            CatalogHandle handle;
            Result result = Native.carc_catalog_clone(Handle, out handle);
            return Made(result, handle, IntPtr.Zero);
        }

        /// <summary>Who the tile set is and what it brings.</summary>
        public TileSetInfo Info
        {
            get
            {
                TileSetInfoNative info;
                Errors.Check(Native.carc_catalog_info(Handle, out info));
                return new TileSetInfo(info);
            }
        }

        /// <summary>The names of the player colours the set adds.</summary>
        public string[] Colours
        {
            get
            {
                int count = Info.Colours;
                var names = new string[count];
                for (int index = 0; index < count; index++)
                {
                    IntPtr name;
                    Errors.Check(Native.carc_catalog_colour(Handle, (UIntPtr)(uint)index, out name));
                    names[index] = Utf8.Read(name);
                }
                return names;
            }
        }

        /// <summary>Tile type <paramref name="tile"/> of the set (from 0, in file order).</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public TileInfo TileInfo(ushort tile)
        {
            TileInfoNative info;
            Errors.Check(Native.carc_catalog_tile_info(Handle, tile, out info));
            return new TileInfo(info);
        }

        /// <summary>Segment <paramref name="segment"/> of tile type <paramref name="tile"/>.</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public SegmentInfo TileSegment(ushort tile, byte segment)
        {
            SegmentInfo info;
            Errors.Check(Native.carc_catalog_tile_segment(Handle, tile, segment, out info));
            return info;
        }

        /// <summary>The number of the tile type with id <paramref name="id"/>, or null when none has it.</summary>
        public ushort? TileById(string id)
        {
            ushort tile;
            Result result = Native.carc_catalog_tile_by_id(Handle, Utf8.Bytes(id, "id"), out tile);
            if (result == Result.NotAvailable)
            {
                return null;
            }
            Errors.Check(result);
            return tile;
        }

        /// <summary>The set in the tile set format (TOML, canonical form); loading it gives an equal catalog.</summary>
        public string ToToml()
        {
            return Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                Native.carc_catalog_to_toml(Handle, buf, cap, ref size));
        }

        /// <summary>Frees the catalog now rather than at finalization.</summary>
        public void Dispose() { Handle.Dispose(); }
    }

    // ---------------------------------------------------------------------------------------
    // Games.
    // ---------------------------------------------------------------------------------------

    /// <summary>Everything that decides a game before its first action.</summary>
    public sealed class GameSetup
    {
        /// <summary>The tile sets in play; their tile types are numbered in this order.</summary>
        public List<Catalog> Catalogs = new List<Catalog>();
        /// <summary>How many players, 2 up to the colours the sets bring.</summary>
        public int Players = 2;
        /// <summary>The seed of the tile bag: the same seed and actions give the same game.</summary>
        public ulong Seed;
        /// <summary>The rule options.</summary>
        public Rules Rules = Rules.Default;
    }

    /// <summary>A game in progress, or over. <see cref="Apply(Action)"/> is the only thing that
    /// changes it.
    /// <para>Threads: a game may be used from any thread, by several at once (ABI 1.2): the
    /// library's calls on one game take turns, and the methods here that make two calls or
    /// share a buffer hold the game's lock, so <see cref="Apply(Action)"/> returns the events of
    /// its own action. An action or number chosen before another thread moved the game on is
    /// refused like any illegal one. <see cref="Clone"/> gives each worker its own game to
    /// run in parallel.</para></summary>
    public sealed class Game : IDisposable
    {
        private readonly GameHandle handle;
        private Action[] actionBuffer = new Action[64];
        private Event[] eventBuffer = new Event[16];
        /// <summary>Held by the methods that share the buffers or make two calls that belong together.</summary>
        private readonly object sync = new object();

        private Game(GameHandle handle) { this.handle = handle; }

        /// <summary>The handle, for the classes that take a game (a bot).</summary>
        internal GameHandle NativeHandle { get { return handle; } }

        private static Game Made(Result result, GameHandle handle, IntPtr err)
        {
            return new Game(Errors.Adopt(result, handle, err));
        }

        /// <summary>Checks <paramref name="setup"/> and starts a game: the start tile laid and the
        /// first player about to draw.</summary>
        /// <exception cref="CarcassonneException">InvalidEnum for a rule constant out of range,
        /// and the 3xx code of a setup the rules cannot make a game of.</exception>
        public Game(GameSetup setup)
        {
            if (setup == null)
            {
                throw new ArgumentNullException("setup");
            }
            if (setup.Catalogs == null)
            {
                throw new ArgumentNullException("setup", "Catalogs is null");
            }
            if (setup.Players < 0 || setup.Players > byte.MaxValue)
            {
                throw new ArgumentOutOfRangeException("setup", "Players must fit in a byte");
            }
            var catalogs = new IntPtr[setup.Catalogs.Count];
            var added = new bool[catalogs.Length];
            GCHandle pin = default(GCHandle);
            try
            {
                for (int index = 0; index < catalogs.Length; index++)
                {
                    if (setup.Catalogs[index] == null)
                    {
                        throw new ArgumentNullException("setup", "Catalogs holds null");
                    }
                    // The marshaller keeps only direct handle arguments alive; these sit in an
                    // array inside a struct, so they are held here for the call.
                    setup.Catalogs[index].Handle.DangerousAddRef(ref added[index]);
                    catalogs[index] = setup.Catalogs[index].Handle.DangerousGetHandle();
                }
                pin = GCHandle.Alloc(catalogs, GCHandleType.Pinned);
                var native = new SetupNative
                {
                    Catalogs = catalogs.Length == 0 ? IntPtr.Zero : pin.AddrOfPinnedObject(),
                    CatalogCount = (UIntPtr)(uint)catalogs.Length,
                    Players = (byte)setup.Players,
                    Seed = setup.Seed,
                    Rules = setup.Rules,
                };
                GameHandle made;
                var err = IntPtr.Zero;
                Result result = Native.carc_game_new(ref native, out made, ref err);
                handle = Errors.Adopt(result, made, err);
            }
            finally
            {
                if (pin.IsAllocated)
                {
                    pin.Free();
                }
                for (int index = 0; index < catalogs.Length; index++)
                {
                    if (added[index])
                    {
                        setup.Catalogs[index].Handle.DangerousRelease();
                    }
                }
            }
        }

        /// <summary>Starts a game from a setup in JSON, the form saved games use:
        /// <c>{"tilesets": ["base"], "players": 2, "seed": 7, "options": {"abbots": true}}</c>.</summary>
        /// <exception cref="CarcassonneException">JsonSyntax or JsonContent with the line and
        /// column, and the 3xx code of a setup the rules refuse.</exception>
        public static Game FromJson(string setupJson)
        {
            GameHandle made;
            var err = IntPtr.Zero;
            Result result = Native.carc_game_new_json(Utf8.Bytes(setupJson, "setupJson"), out made, ref err);
            return Made(result, made, err);
        }

        /// <summary>Loads a saved game (what <see cref="SaveJson"/> writes) by replaying its
        /// actions, each checked again.</summary>
        /// <exception cref="CarcassonneException">JsonSyntax, JsonContent, SaveFormat, a 3xx
        /// setup code, or SaveActionRefused naming the first refused action.</exception>
        public static Game LoadJson(string saveJson)
        {
            GameHandle made;
            var err = IntPtr.Zero;
            Result result = Native.carc_game_load_json(Utf8.Bytes(saveJson, "saveJson"), out made, ref err);
            return Made(result, made, err);
        }

        /// <summary>An independent copy, events of the last action included (a search, a rollout).</summary>
        public Game Clone()
        {
            GameHandle made;
            Result result = Native.carc_game_clone(handle, out made);
            return Made(result, made, IntPtr.Zero);
        }

        /// <summary>A new game with the same setup but seed <paramref name="seed"/>, from the
        /// start; cheaper than a new setup (the tile tables are shared).</summary>
        public Game Restarted(ulong seed)
        {
            GameHandle made;
            Result result = Native.carc_game_restarted(handle, seed, out made);
            return Made(result, made, IntPtr.Zero);
        }

        /// <summary>Frees the game now rather than at finalization.</summary>
        public void Dispose() { handle.Dispose(); }

        /// <summary>Where the turn cycle stands.</summary>
        public Phase Phase
        {
            get
            {
                Phase phase;
                Errors.Check(Native.carc_game_phase(handle, out phase));
                return phase;
            }
        }

        /// <summary>Whether the game is over.</summary>
        public bool IsOver
        {
            get
            {
                byte over;
                Errors.Check(Native.carc_game_is_over(handle, out over));
                return over != 0;
            }
        }

        /// <summary>How many players sit at the table.</summary>
        public int Players
        {
            get
            {
                byte players;
                Errors.Check(Native.carc_game_players(handle, out players));
                return players;
            }
        }

        /// <summary>Whose turn it is (once the game is over, who would have been next).</summary>
        public int CurrentPlayer
        {
            get
            {
                byte player;
                Errors.Check(Native.carc_game_current_player(handle, out player));
                return player;
            }
        }

        /// <summary>The tile type drawn and waiting to be placed; null outside the place phase.</summary>
        public ushort? DrawnTile
        {
            get
            {
                ushort tile;
                Result result = Native.carc_game_drawn_tile(handle, out tile);
                if (result == Result.NotAvailable)
                {
                    return null;
                }
                Errors.Check(result);
                return tile;
            }
        }

        /// <summary>The cell of the tile placed this turn; null outside the figure phase.</summary>
        public Pos? PlacedPos
        {
            get
            {
                Pos pos;
                Result result = Native.carc_game_placed_pos(handle, out pos);
                if (result == Result.NotAvailable)
                {
                    return null;
                }
                Errors.Check(result);
                return pos;
            }
        }

        /// <summary>The seed of the tile bag.</summary>
        public ulong Seed
        {
            get
            {
                ulong seed;
                Errors.Check(Native.carc_game_seed(handle, out seed));
                return seed;
            }
        }

        /// <summary>The rule options in force.</summary>
        public Rules Rules
        {
            get
            {
                Rules rules;
                Errors.Check(Native.carc_game_rules(handle, out rules));
                return rules;
            }
        }

        /// <summary>How many tile types the game's tile sets have together; tile types are numbered below this.</summary>
        public int TileTypeCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_tile_type_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Tile type <paramref name="tile"/>, unrotated.</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public TileInfo TileInfo(ushort tile)
        {
            TileInfoNative info;
            Errors.Check(Native.carc_game_tile_info(handle, tile, out info));
            return new TileInfo(info);
        }

        /// <summary>Segment <paramref name="segment"/> of tile type <paramref name="tile"/>, unrotated.</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public SegmentInfo TileSegment(ushort tile, byte segment)
        {
            SegmentInfo info;
            Errors.Check(Native.carc_game_tile_segment(handle, tile, segment, out info));
            return info;
        }

        /// <summary>Copies of the game's tile sets, in setup order, each to be disposed by the
        /// caller: tile type t of set k is the game's tile type t plus the
        /// <see cref="TileSetInfo.TileTypes"/> of the sets before it.</summary>
        public Catalog[] Catalogs()
        {
            UIntPtr count;
            Errors.Check(Native.carc_game_catalog_count(handle, out count));
            var catalogs = new Catalog[Sizes.ToInt(count)];
            try
            {
                for (int index = 0; index < catalogs.Length; index++)
                {
                    CatalogHandle made;
                    Result result = Native.carc_game_catalog(handle, (UIntPtr)(uint)index, out made);
                    catalogs[index] = new Catalog(Errors.Adopt(result, made, IntPtr.Zero));
                }
                return catalogs;
            }
            catch
            {
                foreach (var catalog in catalogs)
                {
                    if (catalog != null)
                    {
                        catalog.Dispose();
                    }
                }
                throw;
            }
        }

        /// <summary>The number of the tile type with id <paramref name="id"/>, or null when none has it.</summary>
        public ushort? TileById(string id)
        {
            ushort tile;
            Result result = Native.carc_game_tile_by_id(handle, Utf8.Bytes(id, "id"), out tile);
            if (result == Result.NotAvailable)
            {
                return null;
            }
            Errors.Check(result);
            return tile;
        }

        /// <summary>The copies of each tile type left in the bag, by tile number.</summary>
        public ushort[] RemainingCopies()
        {
            return Lists.Read<ushort>((ushort[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_remaining_copies(handle, buf, cap, ref count));
        }

        /// <summary>How many tiles are left in the bag.</summary>
        public int TilesLeft
        {
            get
            {
                uint left;
                Errors.Check(Native.carc_game_tiles_left(handle, out left));
                return (int)left;
            }
        }

        /// <summary>How many drawn tiles fit nowhere and left the game.</summary>
        public int Discarded
        {
            get
            {
                uint discarded;
                Errors.Check(Native.carc_game_discarded(handle, out discarded));
                return (int)discarded;
            }
        }

        /// <summary>Whether the bag could give tile type <paramref name="tile"/> now
        /// (<see cref="Action.DrawTile"/> would be accepted in the draw phase).</summary>
        public bool Drawable(ushort tile)
        {
            byte drawable;
            Errors.Check(Native.carc_game_drawable(handle, tile, out drawable));
            return drawable != 0;
        }

        /// <summary>The scores, one per player in turn order.</summary>
        public uint[] Scores()
        {
            return Lists.Read<uint>((uint[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_scores(handle, buf, cap, ref count));
        }

        /// <summary>The players with the highest score, bit p for player p: the winners once the game is over.</summary>
        public byte Leaders
        {
            get
            {
                byte leaders;
                Errors.Check(Native.carc_game_leaders(handle, out leaders));
                return leaders;
            }
        }

        /// <summary>How many figures the game's players have, numbered from 0: the followers first,
        /// then the companions, the published figures before any other (ABI 1.10).</summary>
        public int FigureCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_figure_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>The game's figure number <paramref name="index"/> (ABI 1.10).</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public FigureInfo FigureInfo(byte index)
        {
            FigureInfoNative info;
            Errors.Check(Native.carc_game_figure_info(handle, index, out info));
            return new FigureInfo(info);
        }

        /// <summary>How many of <paramref name="figure"/> player <paramref name="player"/> has in hand:
        /// 0 for a published figure the game does not have (ABI 1.10).</summary>
        /// <exception cref="CarcassonneException">OutOfRange for a player not at the table,
        /// InvalidEnum for a number that names no figure of the game.</exception>
        public byte InHand(byte player, Figure figure)
        {
            byte count;
            Errors.Check(Native.carc_game_in_hand(handle, player, figure, out count));
            return count;
        }

        /// <summary>How many token kinds the game's tile sets declare; they are numbered from 0.</summary>
        public int TokenKindCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_token_kind_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Token kind <paramref name="token"/>.</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public TokenInfo TokenInfo(byte token)
        {
            TokenInfoNative info;
            Errors.Check(Native.carc_game_token_info(handle, token, out info));
            return new TokenInfo(info);
        }

        /// <summary>How many rules the game's tile sets declare; they are numbered from 0 (ABI 1.8).</summary>
        public int RuleCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_rule_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Rule <paramref name="rule"/>: its id and kind (ABI 1.8).</summary>
        /// <exception cref="CarcassonneException">OutOfRange past the last rule.</exception>
        public RuleInfo RuleInfo(byte rule)
        {
            RuleInfoNative info;
            Errors.Check(Native.carc_game_rule_info(handle, rule, out info));
            return new RuleInfo(info);
        }

        /// <summary>How many marks the game's tile sets declare; they are numbered from 0 (ABI 1.8).</summary>
        public int MarkCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_mark_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Mark <paramref name="mark"/>: its id and name (ABI 1.8).</summary>
        /// <exception cref="CarcassonneException">OutOfRange past the last mark.</exception>
        public MarkInfo MarkInfo(byte mark)
        {
            MarkInfoNative info;
            Errors.Check(Native.carc_game_mark_info(handle, mark, out info));
            return new MarkInfo(info);
        }

        /// <summary>The marks the feature of segment <paramref name="segment"/> at <paramref name="pos"/>
        /// carries, one count per declared mark (ABI 1.8).</summary>
        /// <exception cref="CarcassonneException">NotAvailable for an empty cell, OutOfRange for a segment the tile lacks.</exception>
        public uint[] FeatureMarks(Pos pos, byte segment)
        {
            return Lists.Read<uint>((uint[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_feature_marks(handle, pos, segment, buf, cap, ref count));
        }

        /// <summary>How many titles the game's tile sets declare; they are numbered from 0.</summary>
        public int TitleCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_title_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Title <paramref name="title"/>, with its holder and record now.</summary>
        /// <exception cref="CarcassonneException">OutOfRange.</exception>
        public TitleInfo TitleInfo(byte title)
        {
            TitleInfoNative info;
            Errors.Check(Native.carc_game_title_info(handle, title, out info));
            return new TitleInfo(info);
        }

        /// <summary>How many tokens of each kind player <paramref name="player"/> holds, one per kind.</summary>
        /// <exception cref="CarcassonneException">OutOfRange for a player not at the table.</exception>
        public uint[] TokensHeld(int player)
        {
            byte seat = checked((byte)player);
            return Lists.Read<uint>((uint[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_tokens_held(handle, seat, buf, cap, ref count));
        }

        /// <summary>The challenges standing now between rival monasteries (The Cult); empty without
        /// rivalries (ABI 1.8).</summary>
        public Challenge[] Challenges()
        {
            return Lists.Read<Challenge>((Challenge[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_challenges(handle, buf, cap, ref count));
        }

        /// <summary>The figures player <paramref name="player"/> has in hand.</summary>
        /// <exception cref="CarcassonneException">OutOfRange for a player not at the table.</exception>
        public Supply Supply(int player)
        {
            Supply supply;
            Errors.Check(Native.carc_game_supply(handle, checked((byte)player), out supply));
            return supply;
        }

        /// <summary>The special figures player <paramref name="player"/> has in hand (ABI 1.9).</summary>
        /// <exception cref="CarcassonneException">OutOfRange for a player not at the table.</exception>
        public SpecialSupply SpecialSupply(int player)
        {
            SpecialSupply supply;
            Errors.Check(Native.carc_game_special_supply(handle, checked((byte)player), out supply));
            return supply;
        }

        /// <summary>What the flock's bag holds; all 0 in games without a flock (ABI 1.9).</summary>
        public SheepBag SheepBag()
        {
            SheepBag bag;
            Errors.Check(Native.carc_game_sheep_bag(handle, out bag));
            return bag;
        }

        /// <summary>The shepherds on the board with their flocks, in the order they were deployed (ABI 1.9).</summary>
        public Flock[] Flocks()
        {
            return Lists.Read<Flock>((Flock[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_flocks(handle, buf, cap, ref count));
        }

        /// <summary>How many tiles lie hidden under hills, out of the game and unseen (ABI 1.9). They are among
        /// <see cref="RemainingCopies"/> and never drawn; <see cref="TilesLeft"/> leaves them out.</summary>
        public int HiddenTiles
        {
            get
            {
                uint hidden;
                Errors.Check(Native.carc_game_hidden_tiles(handle, out hidden));
                return (int)hidden;
            }
        }

        /// <summary>Whether the current turn is a builder's second turn, which gives no third (ABI 1.9).</summary>
        public bool IsSecondTurn
        {
            get
            {
                byte second;
                Errors.Check(Native.carc_game_is_second_turn(handle, out second));
                return second != 0;
            }
        }

        /// <summary>Every legal action now, in a new array: the draw; the placements of the drawn
        /// tile; or the figure actions, abbot recalls, then skip. None once the game is over.</summary>
        public Action[] LegalActions()
        {
            lock (sync)
            {
                int count = LegalActions(ref actionBuffer);
                var actions = new Action[count];
                Array.Copy(actionBuffer, actions, count);
                return actions;
            }
        }

        /// <summary>Writes every legal action now to the start of <paramref name="buffer"/>,
        /// replacing it with a larger array when they do not fit, and returns how many there
        /// are: a loop that keeps its buffer allocates nothing.</summary>
        public int LegalActions(ref Action[] buffer)
        {
            if (buffer == null || buffer.Length == 0)
            {
                buffer = new Action[64];
            }
            while (true)
            {
                var count = UIntPtr.Zero;
                Result result = Native.carc_game_legal_actions(handle, buffer, (UIntPtr)(uint)buffer.Length, ref count);
                if (result == Result.Ok)
                {
                    return Sizes.ToInt(count);
                }
                if (result != Result.BufferTooSmall)
                {
                    Errors.Check(result);
                }
                buffer = new Action[Math.Max(Sizes.ToInt(count), buffer.Length * 2)];
            }
        }

        private int FillEvents()
        {
            while (true)
            {
                var count = UIntPtr.Zero;
                Result result = Native.carc_game_last_events(handle, eventBuffer, (UIntPtr)(uint)eventBuffer.Length, ref count);
                if (result == Result.Ok)
                {
                    return Sizes.ToInt(count);
                }
                if (result != Result.BufferTooSmall)
                {
                    Errors.Check(result);
                }
                eventBuffer = new Event[Math.Max(Sizes.ToInt(count), eventBuffer.Length * 2)];
            }
        }

        /// <summary>How many legal actions there are now (0 once the game is over), without listing them.</summary>
        public int LegalActionCount
        {
            get
            {
                UIntPtr count;
                Errors.Check(Native.carc_game_legal_action_count(handle, out count));
                return Sizes.ToInt(count);
            }
        }

        /// <summary>Legal action number <paramref name="index"/>, in the order of <see cref="LegalActions()"/>.</summary>
        /// <exception cref="CarcassonneException">OutOfRange when <paramref name="index"/> is not below <see cref="LegalActionCount"/>.</exception>
        public Action LegalAction(int index)
        {
            if (index < 0)
            {
                throw new ArgumentOutOfRangeException("index");
            }
            Action action;
            Errors.Check(Native.carc_game_legal_action(handle, (UIntPtr)(uint)index, out action));
            return action;
        }

        /// <summary>Applies legal action number <paramref name="index"/> (in the order of
        /// <see cref="LegalActions()"/>) and returns how many legal actions the new state has:
        /// a bot that picks by number makes one call per step and handles no action structs.
        /// <see cref="LastEvents"/> tells what happened.</summary>
        /// <exception cref="CarcassonneException">GameOver once the game is over, OutOfRange
        /// when <paramref name="index"/> is not below <see cref="LegalActionCount"/>.</exception>
        public int ApplyLegal(int index)
        {
            if (index < 0)
            {
                throw new ArgumentOutOfRangeException("index");
            }
            var next = UIntPtr.Zero;
            var err = IntPtr.Zero;
            Result result = Native.carc_game_apply_legal(handle, (UIntPtr)(uint)index, ref next, ref err);
            Errors.Check(result, err);
            return Sizes.ToInt(next);
        }

        /// <summary>Throws the reason <see cref="Apply(Action)"/> would refuse
        /// <paramref name="action"/>, without changing the game.</summary>
        /// <exception cref="CarcassonneException">InvalidEnum or InvalidArgument for a malformed
        /// action, and the 4xx code of the rule that refuses it.</exception>
        public void Check(Action action)
        {
            var err = IntPtr.Zero;
            Result result = Native.carc_game_check(handle, ref action, ref err);
            Errors.Check(result, err);
        }

        /// <summary>Whether <see cref="Apply(Action)"/> would accept <paramref name="action"/> now.</summary>
        public bool IsLegal(Action action)
        {
            var err = IntPtr.Zero;
            Result result = Native.carc_game_check(handle, ref action, ref err);
            new ErrorHandle(err).Dispose();
            return result == Result.Ok;
        }

        /// <summary>Applies <paramref name="action"/> and returns what happened, in order. A
        /// refused action throws and leaves the game exactly as it was.</summary>
        /// <exception cref="CarcassonneException">The 4xx code of the rule that refuses it, with a message.</exception>
        public Event[] Apply(Action action)
        {
            lock (sync)
            {
                ApplyOnly(action);
                return LastEvents();
            }
        }

        /// <summary>Applies <paramref name="action"/> as <see cref="Apply(Action)"/> does and
        /// appends what happened to <paramref name="events"/>, without allocating an array.</summary>
        public void Apply(Action action, List<Event> events)
        {
            lock (sync)
            {
                ApplyOnly(action);
                int count = FillEvents();
                for (int index = 0; index < count; index++)
                {
                    events.Add(eventBuffer[index]);
                }
            }
        }

        private void ApplyOnly(Action action)
        {
            var err = IntPtr.Zero;
            Result result = Native.carc_game_apply(handle, ref action, ref err);
            Errors.Check(result, err);
        }

        /// <summary>The events of the last action the game accepted; none for a new, loaded or restarted game.</summary>
        public Event[] LastEvents()
        {
            lock (sync)
            {
                int count = FillEvents();
                var events = new Event[count];
                Array.Copy(eventBuffer, events, count);
                return events;
            }
        }

        /// <summary>Every action applied since the start, in order: with the setup, the whole game.</summary>
        public Action[] Actions()
        {
            return Lists.Read<Action>((Action[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_actions(handle, buf, cap, ref count));
        }

        /// <summary>Every tile on the board, in the order they were placed (the start tile first).</summary>
        public Placement[] Placements()
        {
            return Lists.Read<Placement>((Placement[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_placements(handle, buf, cap, ref count));
        }

        /// <summary>The tile at <paramref name="pos"/>, or null when the cell is empty.</summary>
        public Placement? TileAt(Pos pos)
        {
            Placement placement;
            Result result = Native.carc_game_tile_at(handle, pos, out placement);
            if (result == Result.NotAvailable)
            {
                return null;
            }
            Errors.Check(result);
            return placement;
        }

        /// <summary>Segment <paramref name="segment"/> of the tile at <paramref name="pos"/>: its kind, feature and figure.</summary>
        /// <exception cref="CarcassonneException">NotAvailable for an empty cell, OutOfRange for no such segment.</exception>
        public SegmentState Segment(Pos pos, byte segment)
        {
            SegmentState state;
            Errors.Check(Native.carc_game_segment(handle, pos, segment, out state));
            return state;
        }

        /// <summary>The feature that segment <paramref name="segment"/> of the tile at <paramref name="pos"/> belongs to.</summary>
        /// <exception cref="CarcassonneException">NotAvailable for an empty cell, OutOfRange for no such segment.</exception>
        public FeatureInfo Feature(Pos pos, byte segment)
        {
            FeatureInfo info;
            Errors.Check(Native.carc_game_feature(handle, pos, segment, out info));
            return info;
        }

        /// <summary>Every segment of the feature that segment <paramref name="segment"/> of the
        /// tile at <paramref name="pos"/> belongs to, that one included: what to highlight.</summary>
        /// <exception cref="CarcassonneException">NotAvailable for an empty cell, OutOfRange for no such segment.</exception>
        public SegmentRef[] FeatureSegments(Pos pos, byte segment)
        {
            return Lists.Read<SegmentRef>((SegmentRef[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_feature_segments(handle, pos, segment, buf, cap, ref count));
        }

        /// <summary>Every figure on the board, in the order they were placed.</summary>
        public PlacedFigure[] Figures()
        {
            return Lists.Read<PlacedFigure>((PlacedFigure[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_figures(handle, buf, cap, ref count));
        }

        /// <summary>Every empty cell next to a tile: where a tile could go if its edges match.</summary>
        public Pos[] Frontier()
        {
            return Lists.Read<Pos>((Pos[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_frontier(handle, buf, cap, ref count));
        }

        /// <summary>The setup as JSON (the form <see cref="FromJson"/> reads, seed included).</summary>
        public string SetupJson()
        {
            return Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                Native.carc_game_setup_json(handle, buf, cap, ref size));
        }

        /// <summary>The game in the saved-game form (format version, setup and actions), which
        /// <see cref="LoadJson"/> reads back into an equal game.</summary>
        public string SaveJson()
        {
            return Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                Native.carc_game_save_json(handle, buf, cap, ref size));
        }

        /// <summary>The board as a standalone SVG document: every tile as it lies, the figures
        /// in their players' colours, and what <paramref name="flags"/> asks for.</summary>
        public string BoardSvg(PictureFlags flags = PictureFlags.ScorePanel | PictureFlags.LastMove)
        {
            return Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                Native.carc_game_board_svg(handle, (uint)flags, buf, cap, ref size));
        }

        /// <summary>Tile type <paramref name="tile"/> turned <paramref name="rotation"/>
        /// degrees clockwise as a standalone SVG document, 120 units square, drawn as the board draws it.</summary>
        /// <exception cref="CarcassonneException">OutOfRange, InvalidArgument for a rotation other than 0, 90, 180, 270.</exception>
        public string TileSvg(ushort tile, ushort rotation)
        {
            return Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                Native.carc_game_tile_svg(handle, tile, rotation, buf, cap, ref size));
        }

        /// <summary>Where a figure stands on each segment of tile type <paramref name="tile"/>
        /// turned <paramref name="rotation"/> degrees, in segment order: the points the board
        /// picture draws figures at, in tile sides.</summary>
        /// <exception cref="CarcassonneException">OutOfRange, InvalidArgument.</exception>
        public Point[] TileAnchors(ushort tile, ushort rotation)
        {
            return Lists.Read<Point>((Point[] buf, UIntPtr cap, ref UIntPtr count) =>
                Native.carc_game_tile_anchors(handle, tile, rotation, buf, cap, ref count));
        }

        /// <summary>Ranks every way the player to move can play the turn by the final margin
        /// and win share it leads to, from rollouts on fresh shuffles of the tiles (never the
        /// bag's own order), and returns the best <paramref name="top"/>, best first.
        /// <paramref name="progress"/> (may be null) hears the ranking so far about every
        /// <see cref="AnalysisConfig.ReportEveryMs"/>, on the calling thread; cancelling
        /// <paramref name="cancel"/> stops the analysis within a batch of rollouts and returns
        /// what it has. The game may be used from other threads meanwhile.</summary>
        /// <exception cref="CarcassonneException">WrongPhase before the draw, GameOver,
        /// InvalidArgument or InvalidEnum for a bad configuration.</exception>
        public Analysis Analyze(AnalysisConfig config, int top,
                                Action<MoveStats[], AnalysisSummary> progress = null,
                                System.Threading.CancellationToken cancel = default(System.Threading.CancellationToken))
        {
            if (top < 0)
            {
                throw new ArgumentOutOfRangeException("top", "top must be 0 or more");
            }
            var moves = new MoveStats[top];
            var flag = new int[1];
            var pinned = GCHandle.Alloc(flag, GCHandleType.Pinned);
            var context = GCHandle.Alloc(new AnalysisContext(progress, flag));
            try
            {
                using (cancel.Register(() => System.Threading.Interlocked.Exchange(ref flag[0], 1)))
                {
                    var count = UIntPtr.Zero;
                    AnalysisSummary summary;
                    var err = IntPtr.Zero;
                    Result result = Native.carc_game_analyze(
                        handle, ref config, progress == null ? null : AnalysisContext.Callback,
                        GCHandle.ToIntPtr(context), pinned.AddrOfPinnedObject(), moves,
                        (UIntPtr)(uint)top, ref count, out summary, ref err);
                    Errors.Check(result, err);
                    var reported = (AnalysisContext)context.Target;
                    if (reported.Failure != null)
                    {
                        throw reported.Failure;
                    }
                    Array.Resize(ref moves, Sizes.ToInt(count));
                    return new Analysis(moves, summary);
                }
            }
            finally
            {
                context.Free();
                pinned.Free();
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Landscapes.
    // ---------------------------------------------------------------------------------------

    /// <summary>An analysis: the best moves, best first, and its summary.</summary>
    public sealed class Analysis
    {
        internal Analysis(MoveStats[] moves, AnalysisSummary summary)
        {
            Moves = moves;
            Summary = summary;
        }

        /// <summary>The best moves asked for, best first.</summary>
        public MoveStats[] Moves { get; private set; }

        /// <summary>Rollouts, time, moves compared and why it stopped.</summary>
        public AnalysisSummary Summary { get; private set; }
    }

    /// <summary>What a progress report reaches through the native call: the caller's
    /// delegate, and an exception it threw, kept until the call returns (an exception may not
    /// cross native frames).</summary>
    internal sealed class AnalysisContext
    {
        private readonly Action<MoveStats[], AnalysisSummary> progress;
        private readonly int[] cancel;
        internal Exception Failure;

        internal AnalysisContext(Action<MoveStats[], AnalysisSummary> progress, int[] cancel)
        {
            this.progress = progress;
            this.cancel = cancel;
        }

        // One static delegate for every call: IL2CPP can call back only into static methods.
        internal static readonly Native.AnalysisProgress Callback = Report;

        [AOT.MonoPInvokeCallback(typeof(Native.AnalysisProgress))]
        private static void Report(IntPtr user, IntPtr moves, UIntPtr count, IntPtr summary)
        {
            var context = (AnalysisContext)GCHandle.FromIntPtr(user).Target;
            if (context.Failure != null || context.progress == null)
            {
                return;
            }
            try
            {
                int n = Sizes.ToInt(count);
                var ranked = new MoveStats[n];
                int size = Marshal.SizeOf(typeof(MoveStats));
                for (int i = 0; i < n; i++)
                {
                    ranked[i] = (MoveStats)Marshal.PtrToStructure(new IntPtr(moves.ToInt64() + (long)i * size), typeof(MoveStats));
                }
                var read = (AnalysisSummary)Marshal.PtrToStructure(summary, typeof(AnalysisSummary));
                context.progress(ranked, read);
            }
            catch (Exception exception)
            {
                // Kept for the caller, and the analysis stopped: its result will not be used.
                context.Failure = exception;
                System.Threading.Interlocked.Exchange(ref context.cancel[0], 1);
            }
        }
    }

    /// <summary>A bot: an opponent for a game (ABI 1.3). It sees only what a player sees,
    /// and its choices depend only on its seed and the game. A bot may play any number of
    /// games and seats; calls on one bot take turns, and while it thinks the game stays free
    /// for other calls (it thinks on a copy).</summary>
    public sealed class Bot : IDisposable
    {
        private readonly BotHandle handle;

        private Bot(BotHandle handle) { this.handle = handle; }

        /// <summary>A bot of the built-in profile <paramref name="name"/>: the levels "easy",
        /// "medium", "hard" and "expert" (at most 1 s a turn on one core), "random", "greedy" and "anchor".</summary>
        /// <exception cref="CarcassonneException">UnknownProfile, listing the names there are.</exception>
        public static Bot Builtin(string name, ulong seed)
        {
            BotHandle made;
            var err = IntPtr.Zero;
            Result result = Native.carc_bot_new(Utf8.Bytes(name, "name"), seed, out made, ref err);
            return new Bot(Errors.Adopt(result, made, err));
        }

        /// <summary>A bot of profile <paramref name="name"/> from the text of a bot profile
        /// file (TOML), whose profiles join the built-in ones; <paramref name="file"/> names
        /// the text in messages.</summary>
        /// <exception cref="CarcassonneException">ProfileInvalid, UnknownProfile.</exception>
        public static Bot FromProfile(string file, string text, string name, ulong seed)
        {
            BotHandle made;
            var err = IntPtr.Zero;
            Result result = Native.carc_bot_from_profile(
                Utf8.Bytes(file, "file"), Utf8.Bytes(text, "text"), Utf8.Bytes(name, "name"),
                seed, out made, ref err);
            return new Bot(Errors.Adopt(result, made, err));
        }

        /// <summary>The bot's profile name.</summary>
        public string Name
        {
            get { return Utf8.Read(Native.carc_bot_name(handle)) ?? ""; }
        }

        /// <summary>The action the player to move in <paramref name="game"/> should take:
        /// a draw in the draw phase, else a placement or a figure action the game accepts.</summary>
        /// <exception cref="CarcassonneException">GameOver.</exception>
        public Action Choose(Game game)
        {
            Action action;
            var err = IntPtr.Zero;
            Result result = Native.carc_bot_choose(handle, game.NativeHandle, out action, ref err);
            Errors.Check(result, err);
            return action;
        }

        /// <summary>Frees the bot.</summary>
        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>The scores of a landscape described in JSON: points per player and every
    /// feature that scored. Read in full when computed; nothing to dispose.</summary>
    public sealed class LandscapeScore
    {
        /// <summary>Points of each player, from player 0 up to the highest with a figure (one
        /// entry under <see cref="LandscapeOptions.ClaimAll"/>).</summary>
        public uint[] Totals { get; private set; }
        /// <summary>Every feature that scored, in end-of-game order (roads, cities, monasteries
        /// and gardens, fields).</summary>
        public FeatureScore[] Features { get; private set; }
        /// <summary>The scores as JSON, <c>{"total": [...], "features": [...]}</c>, as the command-line tool's <c>score</c> writes them.</summary>
        public string Json { get; private set; }

        private LandscapeScore() { }

        /// <summary>Scores <paramref name="json"/> with the published rules; its
        /// <c>tilesets</c> (default <c>["base"]</c>) are built-in names or inline TOML
        /// (<c>{"toml": ..., "file": ...}</c>), never paths: load a file with
        /// <see cref="Catalog.FromPath"/> and pass it instead.</summary>
        /// <exception cref="CarcassonneException">JsonSyntax, JsonContent, a 2xx or 3xx code, or a Landscape* code.</exception>
        public static LandscapeScore Compute(string json)
        {
            return Compute(json, LandscapeOptions.Default);
        }

        /// <summary>Scores <paramref name="json"/> with <paramref name="options"/>; with
        /// <paramref name="catalogs"/>, the JSON must have no <c>tilesets</c>.</summary>
        /// <exception cref="CarcassonneException">As <see cref="Compute(string)"/>, and
        /// InvalidArgument for both catalogs and <c>tilesets</c>.</exception>
        public static LandscapeScore Compute(string json, LandscapeOptions options, params Catalog[] catalogs)
        {
            return Compute(json, catalogs, (byte[] text, IntPtr[] pointers, out LandscapeScoreHandle handle, ref IntPtr err) =>
                Native.carc_landscape_score_new(
                    text, pointers.Length == 0 ? null : pointers, (UIntPtr)(uint)pointers.Length,
                    ref options, out handle, ref err));
        }

        /// <summary>Scores <paramref name="json"/> with <paramref name="scoring"/> (ABI 1.2),
        /// which also sets the pennants of unfinished cities: <see cref="LandscapeScoring.SoloPuzzle"/>
        /// scores the published solo puzzles.</summary>
        /// <exception cref="CarcassonneException">As <see cref="Compute(string, LandscapeOptions, Catalog[])"/>.</exception>
        public static LandscapeScore Compute(string json, LandscapeScoring scoring, params Catalog[] catalogs)
        {
            return Compute(json, catalogs, (byte[] text, IntPtr[] pointers, out LandscapeScoreHandle handle, ref IntPtr err) =>
                Native.carc_landscape_score_new_scoring(
                    text, pointers.Length == 0 ? null : pointers, (UIntPtr)(uint)pointers.Length,
                    ref scoring, out handle, ref err));
        }

        private delegate Result Scorer(byte[] json, IntPtr[] catalogs, out LandscapeScoreHandle handle, ref IntPtr err);

        private static LandscapeScore Compute(string json, Catalog[] catalogs, Scorer scorer)
        {
            byte[] text = Utf8.Bytes(json, "json");
            catalogs = catalogs ?? new Catalog[0];
            var pointers = new IntPtr[catalogs.Length];
            var added = new bool[catalogs.Length];
            try
            {
                for (int index = 0; index < catalogs.Length; index++)
                {
                    if (catalogs[index] == null)
                    {
                        throw new ArgumentNullException("catalogs");
                    }
                    // As in Game(GameSetup): handles inside an array are not kept alive by the marshaller.
                    catalogs[index].Handle.DangerousAddRef(ref added[index]);
                    pointers[index] = catalogs[index].Handle.DangerousGetHandle();
                }
                LandscapeScoreHandle handle;
                var err = IntPtr.Zero;
                Result result = scorer(text, pointers, out handle, ref err);
                using (Errors.Adopt(result, handle, err))
                {
                    var score = new LandscapeScore();
                    score.Totals = Lists.Read<uint>((uint[] buf, UIntPtr cap, ref UIntPtr count) =>
                        Native.carc_landscape_score_totals(handle, buf, cap, ref count));
                    score.Features = Lists.Read<FeatureScore>((FeatureScore[] buf, UIntPtr cap, ref UIntPtr count) =>
                        Native.carc_landscape_score_features(handle, buf, cap, ref count));
                    score.Json = Utf8.ReadText((byte[] buf, UIntPtr cap, ref UIntPtr size) =>
                        Native.carc_landscape_score_json(handle, buf, cap, ref size));
                    return score;
                }
            }
            finally
            {
                for (int index = 0; index < catalogs.Length; index++)
                {
                    if (added[index])
                    {
                        catalogs[index].Handle.DangerousRelease();
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Every function of include/carcassonne.h, declared as it is. Strings go in as
    // NUL-terminated UTF-8 byte arrays and come out as IntPtr (a `string` return would make
    // the marshaller free the library's memory); size_t is UIntPtr.
    // ---------------------------------------------------------------------------------------

    internal static class Native
    {
#if UNITY_IOS && !UNITY_EDITOR
        // iOS links the static library into the player: its symbols are in the executable.
        internal const string LibraryName = "__Internal";
#else
        internal const string LibraryName = "carcassonne_capi";
#endif

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint carc_abi_version();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_version();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_result_name(uint code);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_error_code(ErrorHandle err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_error_message(ErrorHandle err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint carc_error_line(ErrorHandle err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern uint carc_error_column(ErrorHandle err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern UIntPtr carc_error_count(ErrorHandle err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_error_diagnostic(ErrorHandle err, UIntPtr index, out DiagnosticInfoNative info);

        // Takes the raw pointer: it runs from ErrorHandle.ReleaseHandle, when the SafeHandle is closed.
        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void carc_error_free(IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_rules_default(out Rules rules);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_builtin(byte[] name, out CatalogHandle catalog, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_from_toml(byte[] file, byte[] text, out CatalogHandle catalog, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_from_path(byte[] path, out CatalogHandle catalog, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_clone(CatalogHandle catalog, out CatalogHandle copy);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void carc_catalog_free(IntPtr catalog);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_info(CatalogHandle catalog, out TileSetInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_colour(CatalogHandle catalog, UIntPtr index, out IntPtr name);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_tile_info(CatalogHandle catalog, ushort tile, out TileInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_tile_segment(CatalogHandle catalog, ushort tile, byte segment, out SegmentInfo info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_tile_by_id(CatalogHandle catalog, byte[] id, out ushort tile);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_catalog_to_toml(CatalogHandle catalog, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern UIntPtr carc_builtin_count();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_builtin_name(UIntPtr index);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern UIntPtr carc_palette_count();

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_palette_name(UIntPtr index);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_palette_shade(UIntPtr index);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_setup_default(out SetupNative setup);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_new(ref SetupNative setup, out GameHandle game, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_clone(GameHandle game, out GameHandle copy);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_restarted(GameHandle game, ulong seed, out GameHandle restarted);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void carc_game_free(IntPtr game);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_phase(GameHandle game, out Phase phase);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_drawn_tile(GameHandle game, out ushort tile);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_placed_pos(GameHandle game, out Pos pos);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_players(GameHandle game, out byte players);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_current_player(GameHandle game, out byte player);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_is_over(GameHandle game, out byte over);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_seed(GameHandle game, out ulong seed);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_rules(GameHandle game, out Rules rules);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_type_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_info(GameHandle game, ushort tile, out TileInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_segment(GameHandle game, ushort tile, byte segment, out SegmentInfo info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_catalog_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_catalog(GameHandle game, UIntPtr index, out CatalogHandle catalog);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_by_id(GameHandle game, byte[] id, out ushort tile);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_remaining_copies(GameHandle game, [Out] ushort[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tiles_left(GameHandle game, out uint left);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_discarded(GameHandle game, out uint discarded);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_drawable(GameHandle game, ushort tile, out byte drawable);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_scores(GameHandle game, [Out] uint[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_leaders(GameHandle game, out byte leaders);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_supply(GameHandle game, byte player, out Supply supply);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_special_supply(GameHandle game, byte player, out SpecialSupply supply);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_sheep_bag(GameHandle game, out SheepBag bag);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_flocks(GameHandle game, [Out] Flock[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_hidden_tiles(GameHandle game, out uint hidden);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_is_second_turn(GameHandle game, out byte second);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_figure_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_figure_info(GameHandle game, byte index, out FigureInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_in_hand(GameHandle game, byte player, Figure figure, out byte count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_token_kind_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_title_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_rule_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_rule_info(GameHandle game, byte rule, out RuleInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_mark_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_mark_info(GameHandle game, byte mark, out MarkInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_feature_marks(GameHandle game, Pos pos, byte segment, [Out] uint[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_title_info(GameHandle game, byte title, out TitleInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_token_info(GameHandle game, byte token, out TokenInfoNative info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tokens_held(GameHandle game, byte player, [Out] uint[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_challenges(GameHandle game, [Out] Challenge[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_legal_actions(GameHandle game, [Out] Action[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_legal_action_count(GameHandle game, out UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_legal_action(GameHandle game, UIntPtr index, out Action action);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_check(GameHandle game, ref Action action, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_apply(GameHandle game, ref Action action, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_apply_legal(GameHandle game, UIntPtr index, ref UIntPtr legalCount, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_last_events(GameHandle game, [Out] Event[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_actions(GameHandle game, [Out] Action[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_placements(GameHandle game, [Out] Placement[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_at(GameHandle game, Pos pos, out Placement placement);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_segment(GameHandle game, Pos pos, byte segment, out SegmentState state);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_feature(GameHandle game, Pos pos, byte segment, out FeatureInfo info);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_feature_segments(GameHandle game, Pos pos, byte segment, [Out] SegmentRef[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_figures(GameHandle game, [Out] PlacedFigure[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_frontier(GameHandle game, [Out] Pos[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_new_json(byte[] json, out GameHandle game, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_setup_json(GameHandle game, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_save_json(GameHandle game, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_load_json(byte[] json, out GameHandle game, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_score_new(
            byte[] json, IntPtr[] catalogs, UIntPtr catalogCount, ref LandscapeOptions options,
            out LandscapeScoreHandle score, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_score_new_scoring(
            byte[] json, IntPtr[] catalogs, UIntPtr catalogCount, ref LandscapeScoring scoring,
            out LandscapeScoreHandle score, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_scoring_default(out LandscapeScoring scoring);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_scoring_solo_puzzle(out LandscapeScoring scoring);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void carc_landscape_score_free(IntPtr score);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_bot_new(byte[] name, ulong seed, out BotHandle bot, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_bot_from_profile(byte[] file, byte[] text, byte[] name, ulong seed, out BotHandle bot, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_bot_choose(BotHandle bot, GameHandle game, out Action action, ref IntPtr err);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void AnalysisProgress(IntPtr user, IntPtr moves, UIntPtr count, IntPtr summary);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_board_svg(GameHandle game, uint flags, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_svg(GameHandle game, ushort tile, ushort rotation, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_tile_anchors(GameHandle game, ushort tile, ushort rotation, [Out] Point[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_analysis_config_default(out AnalysisConfig config);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_game_analyze(GameHandle game, ref AnalysisConfig config, AnalysisProgress progress, IntPtr user, IntPtr cancel, [Out] MoveStats[] moves, UIntPtr cap, ref UIntPtr count, out AnalysisSummary summary, ref IntPtr err);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern IntPtr carc_bot_name(BotHandle bot);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void carc_bot_free(IntPtr bot);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_score_totals(LandscapeScoreHandle score, [Out] uint[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_score_features(LandscapeScoreHandle score, [Out] FeatureScore[] buf, UIntPtr cap, ref UIntPtr count);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern Result carc_landscape_score_json(LandscapeScoreHandle score, [Out] byte[] buf, UIntPtr cap, ref UIntPtr size);

        [DllImport(LibraryName, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern UIntPtr carc_live_handles();
    }
}

#if !UNITY_5_3_OR_NEWER
namespace AOT
{
    /// <summary>Marks a static method that native code calls back, as Unity's attribute of
    /// the same name does for IL2CPP; outside Unity it only documents the method.</summary>
    [System.AttributeUsage(System.AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : System.Attribute
    {
        /// <summary>The delegate type the method is called through.</summary>
        public MonoPInvokeCallbackAttribute(System.Type type) { DelegateType = type; }

        /// <summary>The delegate type the method is called through.</summary>
        public System.Type DelegateType { get; private set; }
    }
}
#endif
