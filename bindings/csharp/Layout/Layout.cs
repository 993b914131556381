// Layout.cs: prints the size and field offsets of every C# struct of the binding and the value of
// every constant, in the form layout.c prints the header's, so the two can be compared line by line.
//
// Compiled together with Carcassonne.cs (not against it as a DLL) to reach the internal structs.

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text;

namespace Carcassonne.LayoutCheck
{
    internal static class Program
    {
        // (C struct, C# type, then pairs of C field and C# field). Array elements of the C
        // structs are separate C# fields, named here one by one.
        private static readonly object[][] Structs =
        {
            new object[] { "carc_diagnostic_info", typeof(DiagnosticInfoNative),
                "file", "File", "line", "Line", "column", "Column", "code", "Code",
                "code_number", "CodeNumber", "message", "Message" },
            new object[] { "carc_rules", typeof(Rules),
                "farmers", "farmers", "farm_scoring", "FarmScoring", "tiny_city", "tinyCity",
                "inn_cathedral_unfinished", "InnCathedralUnfinished", "abbots", "abbots" },
            new object[] { "carc_tileset_info", typeof(TileSetInfoNative),
                "id", "Id", "name", "Name", "edition", "Edition", "followers", "Followers",
                "big_followers", "BigFollowers", "has_start_tile", "HasStartTile",
                "start_tile", "StartTile", "stage", "Stage", "colours", "Colours",
                "tile_types", "TileTypes", "tile_count", "TileCount" },
            new object[] { "carc_tile_info", typeof(TileInfoNative),
                "id", "Id", "name", "Name", "count", "Count", "segment_count", "SegmentCount",
                "edges[0]", "Edge0", "edges[1]", "Edge1", "edges[2]", "Edge2", "edges[3]", "Edge3" },
            new object[] { "carc_segment_info", typeof(SegmentInfo),
                "kind", "Kind", "edges", "Edges", "half_edges", "HalfEdges", "marks", "Marks",
                "cities", "Cities" },
            new object[] { "carc_setup", typeof(SetupNative),
                "catalogs", "Catalogs", "catalog_count", "CatalogCount", "players", "Players",
                "seed", "Seed", "rules", "Rules" },
            new object[] { "carc_pos", typeof(Pos), "x", "X", "y", "Y" },
            new object[] { "carc_supply", typeof(Supply),
                "followers", "Followers", "big_followers", "BigFollowers", "abbots", "Abbots" },
            new object[] { "carc_special_supply", typeof(SpecialSupply),
                "builders", "Builders", "pigs", "Pigs", "shepherds", "Shepherds" },
            new object[] { "carc_sheep_bag", typeof(SheepBag),
                "sheep[0]", "sheep1", "sheep[1]", "sheep2", "sheep[2]", "sheep3", "sheep[3]", "sheep4",
                "sheep[4]", "sheep5", "sheep[5]", "sheep6", "sheep[6]", "sheep7", "sheep[7]", "sheep8",
                "wolves", "Wolves" },
            new object[] { "carc_flock", typeof(Flock),
                "pos", "Pos", "player", "Player", "segment", "Segment", "sheep", "Sheep",
                "tokens[0]", "tokens1", "tokens[1]", "tokens2", "tokens[2]", "tokens3", "tokens[3]", "tokens4",
                "tokens[4]", "tokens5", "tokens[5]", "tokens6", "tokens[6]", "tokens7", "tokens[7]", "tokens8" },
            new object[] { "carc_action", typeof(Carcassonne.Action),
                "kind", "Kind", "figure", "Figure", "pos", "Pos", "tile", "Tile",
                "rotation", "Rotation", "segment", "Segment" },
            new object[] { "carc_feature_score", typeof(FeatureScore),
                "kind", "Kind", "pos", "Pos", "segment", "Segment", "complete", "complete",
                "farmers", "farmers", "scorers", "Scorers", "reason", "Reason",
                "modifier", "Modifier", "tiles", "Tiles", "pennants", "Pennants",
                "cities", "Cities", "points", "Points" },
            new object[] { "carc_event", typeof(Event),
                "kind", "Kind", "player", "Player", "winners", "Winners", "tile", "Tile",
                "pos", "Pos", "rotation", "Rotation", "segment", "Segment", "declared", "Declared",
                "figure", "Figure", "score", "Score" },
            new object[] { "carc_title_info", typeof(TitleInfoNative),
                "id", "Id", "name", "Name", "feature", "Feature", "per_feature", "PerFeature",
                "holding", "Holding", "has_holder", "HasHolder", "holder", "Holder",
                "largest", "Largest", "completed", "Completed" },
            new object[] { "carc_figure_info", typeof(FigureInfoNative),
                "id", "Id", "figure", "Figure", "follower", "Follower", "strength", "Strength",
                "per_player", "PerPlayer", "recall", "Recall" },
            new object[] { "carc_token_info", typeof(TokenInfoNative),
                "id", "Id", "name", "Name", "taken_by", "TakenBy", "majority", "Majority" },
            new object[] { "carc_placement", typeof(Placement),
                "pos", "Pos", "tile", "Tile", "rotation", "Rotation", "order", "Order",
                "edges[0]", "EdgeNorth", "edges[1]", "EdgeEast", "edges[2]", "EdgeSouth",
                "edges[3]", "EdgeWest" },
            new object[] { "carc_segment_state", typeof(SegmentState),
                "kind", "Kind", "feature", "Feature", "has_figure", "hasFigure",
                "player", "Player", "figure", "Figure" },
            new object[] { "carc_feature_info", typeof(FeatureInfo),
                "id", "Id", "kind", "Kind", "complete", "complete", "inn", "inn",
                "cathedral", "cathedral", "leaders", "Leaders", "tiles", "Tiles",
                "open_edges", "OpenEdges", "pennants", "Pennants", "figures", "Figures",
                "figures_by_player[0]", "figuresByPlayer0", "figures_by_player[1]", "figuresByPlayer1",
                "figures_by_player[2]", "figuresByPlayer2", "figures_by_player[3]", "figuresByPlayer3",
                "figures_by_player[4]", "figuresByPlayer4", "figures_by_player[5]", "figuresByPlayer5",
                "figures_by_player[6]", "figuresByPlayer6", "figures_by_player[7]", "figuresByPlayer7",
                "strength_by_player[0]", "strengthByPlayer0", "strength_by_player[1]", "strengthByPlayer1",
                "strength_by_player[2]", "strengthByPlayer2", "strength_by_player[3]", "strengthByPlayer3",
                "strength_by_player[4]", "strengthByPlayer4", "strength_by_player[5]", "strengthByPlayer5",
                "strength_by_player[6]", "strengthByPlayer6", "strength_by_player[7]", "strengthByPlayer7" },
            new object[] { "carc_segment_ref", typeof(SegmentRef), "pos", "Pos", "segment", "Segment" },
            new object[] { "carc_rule_info", typeof(RuleInfoNative), "id", "Id", "kind", "Kind" },
            new object[] { "carc_mark_info", typeof(MarkInfoNative),
                "id", "Id", "name", "Name", "on_tiles", "OnTiles" },
            new object[] { "carc_challenge", typeof(Challenge),
                "marked", "Marked", "plain", "Plain", "marked_player", "MarkedPlayer",
                "plain_player", "PlainPlayer", "rule", "Rule" },
            new object[] { "carc_placed_figure", typeof(PlacedFigure),
                "player", "Player", "figure", "Figure", "pos", "Pos", "segment", "Segment" },
            new object[] { "carc_landscape_options", typeof(LandscapeOptions),
                "rules", "Rules", "claim_all", "claimAll", "has_pennant_value", "hasPennantValue",
                "pennant_value", "pennantValue" },
            new object[] { "carc_landscape_scoring", typeof(LandscapeScoring),
                "rules", "Rules", "claim_all", "claimAll", "pennant_value", "PennantValue",
                "unfinished_pennant_value", "UnfinishedPennantValue" },
            new object[] { "carc_point", typeof(Point), "x", "X", "y", "Y" },
            new object[] { "carc_analysis_config", typeof(AnalysisConfig),
                "rollouts", "Rollouts", "seconds", "Seconds", "seed", "Seed", "threads", "Threads",
                "continuation", "Continuation", "keep", "Keep", "report_every_ms", "ReportEveryMs" },
            new object[] { "carc_move_stats", typeof(MoveStats),
                "place", "Place", "figure", "Figure", "has_place", "hasPlace", "rollouts", "Rollouts",
                "margin", "Margin", "margin_se", "MarginSe", "win", "Win", "win_se", "WinSe",
                "score", "Score" },
            new object[] { "carc_analysis_summary", typeof(AnalysisSummary),
                "rollouts", "Rollouts", "seconds", "Seconds", "moves", "Moves", "stop", "Stop",
                "tile", "Tile", "player", "Player" },
        };

        // Enums whose C names follow from their C# names: prefix + SCREAMING_SNAKE_CASE.
        private static readonly object[][] Enums =
        {
            new object[] { "CARC_PHASE_", typeof(Phase) },
            new object[] { "CARC_ACTION_KIND_", typeof(ActionKind) },
            new object[] { "CARC_FIGURE_", typeof(Figure) },
            new object[] { "CARC_SEGMENT_KIND_", typeof(SegmentKind) },
            new object[] { "CARC_EDGE_KIND_", typeof(EdgeKind) },
            new object[] { "CARC_EVENT_KIND_", typeof(EventKind) },
            new object[] { "CARC_TOKEN_TAKER_", typeof(TokenTaker) },
            new object[] { "CARC_RULE_KIND_", typeof(RuleKind) },
            new object[] { "CARC_SCORE_REASON_", typeof(ScoreReason) },
            new object[] { "CARC_MODIFIER_", typeof(Modifier) },
            new object[] { "CARC_FARM_SCORING_", typeof(FarmScoring) },
            new object[] { "CARC_UNFINISHED_MARKS_", typeof(UnfinishedMarks) },
            new object[] { "CARC_DIR_", typeof(Dirs) },
            new object[] { "CARC_MARK_", typeof(Marks) },
            new object[] { "CARC_PICTURE_", typeof(PictureFlags) },
            new object[] { "CARC_CONTINUATION_", typeof(Continuation) },
            new object[] { "CARC_ANALYSIS_STOP_", typeof(AnalysisStop) },
        };

        // The half-edges have readable C# names; the header spells them by edge and half.
        private static readonly object[] HalfEdgeNames =
        {
            HalfEdges.NorthWest, "N_W", HalfEdges.NorthEast, "N_E", HalfEdges.EastNorth, "E_N",
            HalfEdges.EastSouth, "E_S", HalfEdges.SouthEast, "S_E", HalfEdges.SouthWest, "S_W",
            HalfEdges.WestSouth, "W_S", HalfEdges.WestNorth, "W_N",
        };

        private static int failures;

        private static int Main()
        {
            foreach (var entry in Structs)
            {
                PrintStruct((string)entry[0], (Type)entry[1], entry);
            }
            PrintConst("CARC_ABI_VERSION_MAJOR", Limits.AbiVersionMajor);
            PrintConst("CARC_ABI_VERSION_MINOR", Limits.AbiVersionMinor);
            PrintConst("CARC_MAX_PLAYERS", Limits.MaxPlayers);
            PrintConst("CARC_MAX_SEGMENTS_PER_TILE", Limits.MaxSegmentsPerTile);
            foreach (var entry in Enums)
            {
                PrintEnum((string)entry[0], (Type)entry[1]);
            }
            PrintHalfEdges();
            PrintResults();
            return failures == 0 ? 0 : 1;
        }

        private static void Fail(string message)
        {
            Console.Error.WriteLine("layout: " + message);
            failures++;
        }

        private static void PrintStruct(string cName, Type type, object[] entry)
        {
            Console.WriteLine("size " + cName + " " + Marshal.SizeOf(type));
            var mapped = new HashSet<string>();
            for (int index = 2; index < entry.Length; index += 2)
            {
                var cField = (string)entry[index];
                var csField = (string)entry[index + 1];
                mapped.Add(csField);
                Console.WriteLine("offset " + cName + "." + cField + " " + Marshal.OffsetOf(type, csField));
            }
            var fields = type.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
            foreach (var field in fields)
            {
                if (!mapped.Contains(field.Name))
                {
                    Fail(type.Name + "." + field.Name + " has no C counterpart listed");
                }
            }
            try
            {
                // Pinning succeeds only for blittable types: those the marshaller passes
                // without copying, with the same layout in managed and native memory.
                GCHandle.Alloc(Activator.CreateInstance(type), GCHandleType.Pinned).Free();
            }
            catch (ArgumentException)
            {
                Fail(type.Name + " is not blittable");
            }
        }

        private static void PrintConst(string name, object value)
        {
            Console.WriteLine("const " + name + " " + Convert.ToUInt64(value));
        }

        private static void PrintEnum(string prefix, Type type)
        {
            foreach (var value in Enum.GetValues(type))
            {
                string name = Enum.GetName(type, value);
                if (name == "None" && (type == typeof(Dirs) || type == typeof(Marks)))
                {
                    continue;
                }
                PrintConst(prefix + Snake(name), value);
            }
        }

        private static void PrintHalfEdges()
        {
            var named = new HashSet<HalfEdges>();
            for (int index = 0; index < HalfEdgeNames.Length; index += 2)
            {
                named.Add((HalfEdges)HalfEdgeNames[index]);
                PrintConst("CARC_HALF_EDGE_" + (string)HalfEdgeNames[index + 1], HalfEdgeNames[index]);
            }
            foreach (HalfEdges value in Enum.GetValues(typeof(HalfEdges)))
            {
                if (value != HalfEdges.None && !named.Contains(value))
                {
                    Fail("HalfEdges." + value + " has no C name listed");
                }
            }
        }

        private static void PrintResults()
        {
            // The library names every code; the C# name must be that name in C# case.
            foreach (Result value in Enum.GetValues(typeof(Result)))
            {
                string libraryName = Library.ResultName(value);
                string expected = "CARC_RESULT_" + Snake(value.ToString(), false);
                if (libraryName != expected)
                {
                    Fail("Result." + value + " = " + (uint)value + " is " + libraryName + " in the library");
                }
                PrintConst(expected, value);
            }
        }

        /// <summary>"PerCity4" as "PER_CITY_4"; with <paramref name="splitDigits"/> false,
        /// "InvalidUtf8" as "INVALID_UTF8".</summary>
        private static string Snake(string name, bool splitDigits = true)
        {
            var text = new StringBuilder();
            for (int index = 0; index < name.Length; index++)
            {
                char c = name[index];
                bool boundary = index > 0
                    && (char.IsUpper(c) || (splitDigits && char.IsDigit(c) && !char.IsDigit(name[index - 1])));
                if (boundary)
                {
                    text.Append('_');
                }
                text.Append(char.ToUpperInvariant(c));
            }
            return text.ToString();
        }
    }
}
