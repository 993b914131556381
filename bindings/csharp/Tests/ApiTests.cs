// ApiTests.cs: exercises every public member of the C# binding against the native library; run from the repository root.
//
// A plain console program, not a test framework's, so that Mono's mcs and mono are all it
// needs. It prints each failed check and exits with 1 if there was one.

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using Carcassonne;
using Action = Carcassonne.Action;

namespace Carcassonne.Tests
{
    internal static class ApiTests
    {
        private static int checks;
        private static int failures;

        private static void Check(bool condition, string what)
        {
            checks++;
            if (!condition)
            {
                failures++;
                Console.Error.WriteLine("FAILED: " + what);
            }
        }

        private static void Equal<T>(T expected, T actual, string what)
        {
            Check(EqualityComparer<T>.Default.Equals(expected, actual),
                what + ": expected " + expected + ", got " + actual);
        }

        /// <summary>Runs <paramref name="body"/> and checks it throws a CarcassonneException with <paramref name="result"/>.</summary>
        private static CarcassonneException Throws(Result result, System.Action body, string what)
        {
            try
            {
                body();
            }
            catch (CarcassonneException error)
            {
                Equal(result, error.Result, what);
                Check(!string.IsNullOrEmpty(error.Message), what + ": the exception has a message");
                return error;
            }
            Check(false, what + ": no exception, expected " + result);
            return null;
        }

        private static int Main()
        {
            var tests = new System.Action[]
            {
                LibraryInfo, Builtins, TileSetDiagnostics, TileSetFiles, GameQueries, RefusedActions,
                WholeGame, Tokens, SpecialFigures, DeclaredFigures, ByNumber, GameCatalogs, SavesAndSetups, SetupErrors, Landscapes, Disposal, Threads,
                PlayerMasks, Bots, Pictures, Analysis,
                NothingLeaks,
            };
            foreach (var test in tests)
            {
                try
                {
                    test();
                }
                catch (Exception error)
                {
                    failures++;
                    Console.Error.WriteLine("FAILED: " + test.Method.Name + " threw " + error);
                }
            }
            Console.WriteLine(checks + " checks, " + failures + " failed");
            return failures == 0 ? 0 : 1;
        }

        /// <summary>The board and a tile as SVG, and the figure anchor points of a tile.</summary>
        private static void Pictures()
        {
            using (var baseSet = Catalog.Builtin("base"))
            {
                var setup = new GameSetup { Players = 2, Seed = 3 };
                setup.Catalogs.Add(baseSet);
                using (var game = new Game(setup))
                {
                    string board = game.BoardSvg();
                    Check(board.StartsWith("<svg") && board.Contains("score-panel"), "the board with its score panel");
                    Check(!game.BoardSvg((PictureFlags)0).Contains("score-panel"), "the board alone");
                    Throws(Result.InvalidArgument, () => game.BoardSvg((PictureFlags)8), "an unknown picture flag");
                    ushort start = game.Placements()[0].Tile;
                    Check(game.TileSvg(start, 90).Contains("turned 90"), "a tile turned");
                    Throws(Result.InvalidArgument, () => game.TileSvg(start, 45), "a rotation of 45 degrees");
                    Throws(Result.OutOfRange, () => game.TileAnchors(9999, 0), "no such tile");
                    Point[] anchors = game.TileAnchors(start, 180);
                    Equal((int)game.TileInfo(start).SegmentCount, anchors.Length, "a point for every segment");
                    foreach (var point in anchors)
                    {
                        Check(point.X > 0 && point.X < 1 && point.Y > 0 && point.Y < 1, "anchors lie on the tile");
                    }
                }
            }
        }

        /// <summary>An analysis ranks legal moves, reports progress, is the same on any number of
        /// threads, and stops when cancelled.</summary>
        private static void Analysis()
        {
            using (var baseSet = Catalog.Builtin("base"))
            {
                var setup = new GameSetup { Players = 2, Seed = 3 };
                setup.Catalogs.Add(baseSet);
                using (var game = new Game(setup))
                {
                    var config = AnalysisConfig.Default;
                    Equal(20000UL, config.Rollouts, "the default budget");
                    config.Rollouts = 800;
                    Throws(Result.WrongPhase, () => game.Analyze(config, 3), "no move before the draw");
                    game.Apply(Action.Draw());
                    int reports = 0;
                    config.ReportEveryMs = 0;
                    var analysis = game.Analyze(config, 3, (moves, summary) =>
                    {
                        reports++;
                        Check(moves.Length == summary.Moves, "a report ranks every move");
                    });
                    Equal(3, analysis.Moves.Length, "the best three");
                    Equal(800UL, analysis.Summary.Rollouts, "the whole budget");
                    Equal(AnalysisStop.Budget, analysis.Summary.Stop, "stopped by the budget");
                    Check(reports > 0, "progress was reported");
                    var best = analysis.Moves[0];
                    Check(best.HasPlace && game.LegalActions().Contains(best.Place), "the best placement is legal");
                    config.Threads = 2;
                    var again = game.Analyze(config, 3);
                    for (int i = 0; i < 3; i++)
                    {
                        Equal(analysis.Moves[i].Margin, again.Moves[i].Margin, "the same on two threads");
                        Equal(analysis.Moves[i].Place, again.Moves[i].Place, "the same moves on two threads");
                    }
                    Throws(Result.InvalidArgument, () =>
                    {
                        var unbounded = config;
                        unbounded.Rollouts = 0;
                        game.Analyze(unbounded, 1);
                    }, "neither a budget nor a time");
                    var bad = config;
                    bad.Continuation = (Continuation)9;
                    Throws(Result.InvalidEnum, () => game.Analyze(bad, 1), "an unknown continuation");

                    config.Rollouts = 0;
                    config.Seconds = 600;
                    using (var cancel = new System.Threading.CancellationTokenSource())
                    {
                        cancel.Cancel();
                        var started = DateTime.UtcNow;
                        var stopped = game.Analyze(config, 1, null, cancel.Token);
                        Equal(AnalysisStop.Cancelled, stopped.Summary.Stop, "a cancelled token stops it");
                        Check((DateTime.UtcNow - started).TotalSeconds < 60, "promptly");
                    }
                    var thrown = false;
                    try
                    {
                        config.Rollouts = 300;
                        config.Seconds = 0;
                        game.Analyze(config, 1, (moves, summary) => { throw new InvalidOperationException("from the report"); });
                    }
                    catch (InvalidOperationException)
                    {
                        thrown = true;
                    }
                    Check(thrown, "an exception in a report reaches the caller after the call");
                }
            }
        }

        /// <summary>Bots choose only actions the game accepts, play whole games against each
        /// other, give the same answer for the same seed, and refuse unknown and broken profiles.</summary>
        private static void Bots()
        {
            using (var baseSet = Catalog.Builtin("base"))
            using (var medium = Bot.Builtin("medium", 7))
            using (var easy = Bot.Builtin("easy", 8))
            {
                Equal("medium", medium.Name, "the bot's name");
                var setup = new GameSetup { Players = 2, Seed = 3 };
                setup.Catalogs.Add(baseSet);
                using (var game = new Game(setup))
                {
                    Bot[] seats = { medium, easy };
                    int turns = 0;
                    while (!game.IsOver)
                    {
                        var action = seats[game.CurrentPlayer].Choose(game);
                        if (game.Phase != Phase.Draw)
                        {
                            Check(game.LegalActions().Contains(action), "the bot's action is legal");
                            turns++;
                        }
                        game.Apply(action);
                    }
                    Check(turns > 70, "a whole game of turns");
                    var scores = game.Scores();
                    Check(scores[0] > scores[1], "medium beats easy on seed 3: " + scores[0] + " to " + scores[1]);
                    Throws(Result.GameOver, () => medium.Choose(game), "a finished game has nothing to choose");
                }
                using (var again = Bot.Builtin("medium", 7))
                using (var game = new Game(setup))
                {
                    game.Apply(Action.Draw());
                    Equal(medium.Choose(game), again.Choose(game), "the same seed chooses alike");
                }
            }
            Throws(Result.UnknownProfile, () => Bot.Builtin("grandmaster", 1), "an unknown profile");
            var text = "[[profile]]\nname = \"quick\"\nkind = \"mcts\"\nmcts = { iterations = 50 }\n";
            using (var quick = Bot.FromProfile("mine.toml", text, "quick", 1))
            {
                Equal("quick", quick.Name, "a profile from text");
            }
            var broken = Throws(Result.ProfileInvalid,
                () => Bot.FromProfile("bad.toml", "[[profile]]\nname = \"x\"\nkind = \"mcts\"\nmcts = { iterations = 0 }\n", "x", 1),
                "a profile out of range");
            Check(broken.Message.Contains("iterations"), "the message names the setting: " + broken.Message);
        }

        private static void LibraryInfo()
        {
            Check(!string.IsNullOrEmpty(Library.Version), "the library has a version");
            Equal((uint)(Limits.AbiVersionMajor << 16 | Limits.AbiVersionMinor), Library.AbiVersion, "ABI version");
            Check(Library.IsCompatible, "the library serves this binding");
            Equal("CARC_RESULT_EDGE_MISMATCH", Library.ResultName(Result.EdgeMismatch), "a result's name");
            Equal("carc_result 4242", Library.ResultName((Result)4242), "an unknown code's name");
            var names = Library.BuiltinNames;
            foreach (var name in new[] { "base", "base_c2", "river", "inns_and_cathedrals" })
            {
                Check(names.Contains(name), "built-in " + name + " is listed");
            }
            var palette = Library.Palette;
            Check(palette.Length >= 6, "the palette has the sets' six colours");
            Equal("red", palette[0].Key, "the palette's first colour");
            Equal("#d62828", palette[0].Value, "red's shade");
            Equal("grey", palette[5].Key, "Inns & Cathedrals' colour, spelt grey");
            Rules rules = Rules.Default;
            Check(rules.Farmers && !rules.TinyCity && !rules.Abbots, "default rules: farmers, no tiny city, no abbots");
            Equal(FarmScoring.PerField, rules.FarmScoring, "default farm scoring");
            Equal(UnfinishedMarks.Zero, rules.InnCathedralUnfinished, "default unfinished marks");
        }

        private static void Builtins()
        {
            using (var catalog = Catalog.Builtin("base"))
            {
                TileSetInfo info = catalog.Info;
                Equal("base", info.Id, "base id");
                Equal(72, info.TileCount, "base tiles");
                Equal(24, info.TileTypes, "base tile types");
                Equal(7, info.Followers, "base followers");
                Check(info.StartTile.HasValue, "base has a start tile");
                Equal(info.Colours, catalog.Colours.Length, "base colours");
                Check(catalog.Colours.All(colour => !string.IsNullOrEmpty(colour)), "colours have names");

                ushort? d = catalog.TileById("D");
                Check(d.HasValue, "base has tile D");
                Equal(info.StartTile, d, "D is the start tile");
                TileInfo tile = catalog.TileInfo(d.Value);
                Equal("D", tile.Id, "tile D's id");
                Equal(EdgeKind.City, tile.Edges[0], "D shows a city to the north");
                Equal(4, tile.Edges.Count, "four edges");
                Check(tile.SegmentCount > 0, "D has segments");
                for (byte segment = 0; segment < tile.SegmentCount; segment++)
                {
                    SegmentInfo info2 = catalog.TileSegment(d.Value, segment);
                    Check(info2.Kind <= SegmentKind.Garden, "segment kind is known");
                }
                Throws(Result.OutOfRange, () => catalog.TileSegment(d.Value, (byte)tile.SegmentCount), "a segment past the end");
                Throws(Result.OutOfRange, () => catalog.TileInfo(1000), "a tile past the end");
                Equal(null, catalog.TileById("nothing"), "no tile has id nothing");
                Equal(null, catalog.TileById("é"), "no tile has id é");

                string toml = catalog.ToToml();
                using (var again = Catalog.FromToml("base.toml", toml))
                using (var copy = catalog.Clone())
                {
                    Equal(72, again.Info.TileCount, "the TOML loads back");
                    Equal(toml, again.ToToml(), "the TOML round trip is stable");
                    Equal(toml, copy.ToToml(), "a clone is equal");
                }
            }
            Throws(Result.UnknownBuiltin, () => Catalog.Builtin("nope"), "an unknown built-in");
            using (var catalog = Catalog.Builtin("inns_and_cathedrals"))
            {
                Equal(1, catalog.Info.BigFollowers, "Inns & Cathedrals brings a big follower");
            }
        }

        /// <summary>Every golden file of invalid tile sets gives, through the binding, exactly the
        /// diagnostics the command-line tool prints.</summary>
        private static void TileSetDiagnostics()
        {
            int compared = 0;
            foreach (var path in Directory.GetFiles("tests/dsl/invalid", "*.toml").OrderBy(p => p))
            {
                string expectedPath = Path.ChangeExtension(path, ".expected");
                if (!File.Exists(expectedPath))
                {
                    continue;
                }
                string relative = path.Replace('\\', '/');
                string expected = File.ReadAllText(expectedPath).TrimEnd('\n');
                if (!expected.StartsWith("error[", StringComparison.Ordinal))
                {
                    continue;
                }
                var error = Throws(Result.TilesetInvalid, () => Catalog.FromPath(relative).Dispose(), relative);
                if (error == null)
                {
                    continue;
                }
                string actual = string.Join("\n", error.Diagnostics.Select(d => d.ToString()));
                Equal(expected, actual, relative + " diagnostics");
                Equal(error.Diagnostics[0].Line, error.Line, relative + ": the error's line is the first diagnostic's");
                Equal(error.Diagnostics[0].Column, error.Column, relative + ": the error's column is the first diagnostic's");
                compared++;
            }
            Check(compared >= 10, "at least ten golden files compared, not " + compared);

            // A non-ASCII name goes in as UTF-8 and comes back the same.
            const string name = "tuiles/été ✓.toml";
            string text = File.ReadAllText("tests/dsl/invalid/bad_ids.toml");
            var named = Throws(Result.TilesetInvalid, () => Catalog.FromToml(name, text).Dispose(), "bad_ids from a string");
            if (named != null)
            {
                Check(named.Diagnostics.All(d => d.File == name), "diagnostics name the file " + name);
                Check(named.Diagnostics.All(d => d.CodeNumber > 0 && d.Code.StartsWith("dsl-", StringComparison.Ordinal)), "diagnostic codes");
            }
            Throws(Result.TilesetInvalid, () => Catalog.FromToml("empty.toml", "").Dispose(), "an empty tile set");
        }

        private static void TileSetFiles()
        {
            using (var river = Catalog.FromPath("tilesets/river.toml"))
            {
                Equal("river", river.Info.Id, "river from its file");
            }
            Throws(Result.TilesetIo, () => Catalog.FromPath("tilesets/missing.toml").Dispose(), "a missing file");
            try
            {
                Catalog.FromToml("x.toml", "a\0b");
                Check(false, "a string with NUL is refused");
            }
            catch (ArgumentException)
            {
            }
        }

        private static Game NewGame(ulong seed, int players, bool abbots, params string[] sets)
        {
            var catalogs = sets.Select(Catalog.Builtin).ToList();
            try
            {
                var setup = new GameSetup { Players = players, Seed = seed };
                setup.Rules.Abbots = abbots;
                setup.Catalogs.AddRange(catalogs);
                return new Game(setup);
            }
            finally
            {
                catalogs.ForEach(catalog => catalog.Dispose());
            }
        }

        private static void GameQueries()
        {
            using (var game = NewGame(7, 3, true, "base", "inns_and_cathedrals"))
            {
                Equal(3, game.Players, "players");
                Equal(7UL, game.Seed, "seed");
                Check(game.Rules.Abbots && game.Rules.Farmers, "rules in force");
                Equal(Phase.Draw, game.Phase, "a new game draws first");
                Equal(0, game.CurrentPlayer, "player 0 begins");
                Check(!game.IsOver, "not over");
                Equal(null, game.DrawnTile, "nothing drawn yet");
                Equal(null, game.PlacedPos, "nothing placed yet");
                Check(game.TileTypeCount > 24, "two sets' tile types");
                Equal(game.TilesLeft, game.RemainingCopies().Sum(n => (int)n), "remaining adds up to tiles left");
                Equal(0, game.Discarded, "nothing discarded");
                Equal(game.TileTypeCount, game.RemainingCopies().Length, "remaining per tile type");

                Placement? start = game.TileAt(new Pos(0, 0));
                Check(start.HasValue && start.Value.Order == 0, "the start tile lies at (0, 0)");
                Equal(null, game.TileAt(new Pos(5, 5)), "an empty cell");
                Equal(1, game.Placements().Length, "one tile on the board");
                Equal(4, game.Frontier().Length, "four cells around the start tile");
                Equal(0, game.Figures().Length, "no figures yet");
                Equal(0, game.LastEvents().Length, "no events yet");
                Equal(0, game.Actions().Length, "no actions yet");

                TileInfo startInfo = game.TileInfo(start.Value.Tile);
                Equal("D", startInfo.Id, "the start tile is D");
                Equal(start.Value.Tile, game.TileById("D"), "tile by id in the game");
                using (var baseSet = Catalog.Builtin("base"))
                {
                    ushort d = baseSet.TileById("D").Value;
                    Equal(baseSet.TileSegment(d, 0).Kind, game.TileSegment(start.Value.Tile, 0).Kind, "segment 0 of D in the game and the set");
                    Equal(baseSet.TileSegment(d, 0).HalfEdges, game.TileSegment(start.Value.Tile, 0).HalfEdges, "its half-edges");
                }
                Equal(start.Value.EdgeNorth, start.Value.Edge(0), "Edge(0) is the north edge");
                for (byte segment = 0; segment < startInfo.SegmentCount; segment++)
                {
                    SegmentState state = game.Segment(new Pos(0, 0), segment);
                    FeatureInfo feature = game.Feature(new Pos(0, 0), segment);
                    Equal(state.Feature, feature.Id, "segment and feature agree on the number");
                    Equal(state.Kind, feature.Kind, "segment and feature agree on the kind");
                    Check(!state.HasFigure && feature.Figures == 0 && feature.FiguresOf(2) == 0, "no figure yet");
                    var segments = game.FeatureSegments(new Pos(0, 0), segment);
                    Check(segments.Any(s => s.Pos == new Pos(0, 0) && s.Segment == segment), "a feature holds its own segment");
                }
                Throws(Result.NotAvailable, () => game.Segment(new Pos(9, 9), 0), "a segment of an empty cell");
                Throws(Result.OutOfRange, () => game.Feature(new Pos(0, 0), 31), "a segment past the end");

                Supply supply = game.Supply(2);
                Equal((byte)7, supply.Followers, "followers in hand");
                Equal((byte)1, supply.BigFollowers, "big followers in hand");
                Equal((byte)1, supply.Abbots, "abbots in hand");
                Throws(Result.OutOfRange, () => game.Supply(3), "a player not at the table");

                Check(game.LegalActions().SequenceEqual(new[] { Action.Draw() }), "only the draw is legal");
                int drawable = Enumerable.Range(0, game.TileTypeCount).Count(t => game.Drawable((ushort)t));
                Check(drawable > 0, "some tile types can be drawn");

                Event[] events = game.Apply(Action.Draw());
                Check(events.Length >= 1 && events[0].Kind == EventKind.TileDrawn, "a draw reports the tile");
                Equal(Phase.Place, game.Phase, "then the tile is placed");
                Equal(events[events.Length - 1].Tile, game.DrawnTile.GetValueOrDefault(), "the drawn tile");
                Action[] places = game.LegalActions();
                Check(places.Length > 0 && places.All(a => a.Kind == ActionKind.Place), "placements are legal");
                Check(places.All(game.IsLegal), "every legal action passes Check");
                game.Check(places[0]);
                game.Apply(places[0]);
                Equal(places[0].Pos, game.PlacedPos.GetValueOrDefault(), "the placed cell");
                Action[] figureActions = game.LegalActions();
                Equal(Action.Skip(), figureActions[figureActions.Length - 1], "skip comes last");
                Action deploy = figureActions.FirstOrDefault(a => a.Kind == ActionKind.Deploy && a.Figure == Figure.Follower);
                Check(deploy.Kind == ActionKind.Deploy, "a follower can be deployed");
                events = game.Apply(deploy);
                Check(events.Any(e => e.Kind == EventKind.FigurePlaced && e.Segment == deploy.Segment), "the figure is reported");
                Check(events.SequenceEqual(game.LastEvents()), "the last events are kept");
                PlacedFigure[] figures = game.Figures();
                Equal(1, figures.Length, "one figure on the board");
                Equal(Figure.Follower, figures[0].Figure, "the figure is a follower");
                SegmentState occupied = game.Segment(figures[0].Pos, figures[0].Segment);
                Check(occupied.HasFigure && occupied.Player == 0 && occupied.Figure == Figure.Follower, "the segment shows the figure");
                FeatureInfo withFigure = game.Feature(figures[0].Pos, figures[0].Segment);
                Equal(1u, withFigure.FiguresOf(0), "player 0 has a figure on the feature");
                Equal(1u, withFigure.StrengthOf(0), "a follower's strength is 1");
                Equal(0u, withFigure.StrengthOf(1), "player 1 has no strength there");
                Equal((byte)1, withFigure.Leaders, "player 0 leads the feature");
                Equal((byte)6, game.Supply(0).Followers, "one follower fewer in hand");
                Equal(3, game.Actions().Length, "three actions so far");
                Equal(1, game.CurrentPlayer, "player 1's turn");
            }
        }

        private static void RefusedActions()
        {
            using (var game = NewGame(3, 2, false, "base"))
            {
                var skip = Throws(Result.WrongPhase, () => game.Apply(Action.Skip()), "skip in the draw phase");
                Check(skip != null && skip.Line == 0 && skip.Diagnostics.Count == 0, "no location for a refused action");
                Throws(Result.WrongPhase, () => game.Check(Action.Skip()), "check agrees");
                Check(!game.IsLegal(Action.Skip()), "IsLegal agrees");
                Throws(Result.UnknownTile, () => game.Apply(Action.DrawTile(5000)), "an unknown tile");
                game.Apply(Action.Draw());
                string before = game.SaveJson();
                Throws(Result.CellOccupied, () => game.Apply(Action.Place(new Pos(0, 0), 0)), "an occupied cell");
                Throws(Result.NoNeighbour, () => game.Apply(Action.Place(new Pos(7, 7), 0)), "a cell with no neighbour");
                Throws(Result.InvalidArgument, () => game.Apply(Action.Place(new Pos(0, 1), 45)), "a rotation of 45");
                Equal(before, game.SaveJson(), "refused actions leave the game as it was");
                Equal(Phase.Place, game.Phase, "still placing");
            }
        }

        /// <summary>Plays random games to the end, checking the invariants a UI relies on, and
        /// that a clone plays on independently.</summary>
        private static void WholeGame()
        {
            using (var game = NewGame(11, 4, true, "base", "river", "inns_and_cathedrals"))
            {
                var random = new Random(11);
                Action[] legal = null;
                Game clone = null;
                int cloneAt = 0;
                int steps = 0;
                var events = new List<Event>();
                while (!game.IsOver)
                {
                    int count = game.LegalActions(ref legal);
                    Check(count > 0, "a game not over has legal actions");
                    if (steps == 100)
                    {
                        clone = game.Clone();
                        cloneAt = steps;
                    }
                    game.Apply(legal[random.Next(count)], events);
                    steps++;
                }
                Equal(Phase.GameOver, game.Phase, "the phase at the end");
                Equal(0, game.LegalActions().Length, "nothing is legal at the end");
                Equal(0, game.TilesLeft, "the bag is empty");
                Event last = events[events.Count - 1];
                Equal(EventKind.GameOver, last.Kind, "the last event is the game's end");
                Equal(game.Leaders, last.Winners, "the winners lead");
                uint[] scores = game.Scores();
                Equal(4, scores.Length, "four scores");
                uint best = scores.Max();
                for (int player = 0; player < 4; player++)
                {
                    Equal(scores[player] == best, (last.Winners >> player & 1) == 1, "winner bit of player " + player);
                }
                var scored = events.Where(e => e.Kind == EventKind.FeatureScored).ToList();
                Check(scored.Count > 0, "features scored");
                long points = scored.Sum(e => (long)e.Score.Points * CountBits(e.Score.Scorers));
                Equal(scores.Sum(s => (long)s), points, "the scores add up from the feature scores");
                Check(scored.Any(e => e.Score.Farmers) && scored.Any(e => e.Score.Complete), "farmers and completed features score");
                Check(events.Any(e => e.Kind == EventKind.TilePlaced && e.Tile < game.TileTypeCount), "tiles were placed");

                using (clone)
                {
                    Check(clone != null && !clone.IsOver, "the clone is where it was taken");
                    Action[] history = game.Actions();
                    Equal(cloneAt, clone.Actions().Length, "the clone's history");
                    for (int index = cloneAt; index < history.Length; index++)
                    {
                        clone.Apply(history[index]);
                    }
                    Equal(string.Join(",", scores), string.Join(",", clone.Scores()), "the clone replays to the same scores");
                }
                using (var fresh = game.Restarted(99))
                {
                    Equal(99UL, fresh.Seed, "restarted seed");
                    Equal(Phase.Draw, fresh.Phase, "restarted from the start");
                    Equal(0, fresh.Actions().Length, "restarted has no history");
                    Equal(4, fresh.Players, "restarted keeps the setup");
                }
            }
        }

        /// <summary>The builder, the pig, the shepherd and the hill (ABI 1.9): the special supply, the
        /// sheep bag's counts conserved with the flocks, the typed refusals of the sheep phase, and
        /// random games of the built-in sets that prefer special figures meeting a second turn, a hidden tile, a flock step
        /// and a market.</summary>
        private static void SpecialFigures()
        {
            bool secondTurn = false, hidden = false, flockStep = false, market = false, sheepDrawn = false;
            var deployed = new HashSet<Figure>();
            for (ulong seed = 1; seed <= 12 && !(secondTurn && hidden && flockStep && market && sheepDrawn && deployed.Count == 3); seed++)
            {
                using (var baseSet = Catalog.Builtin("base"))
                using (var traders = Catalog.Builtin("traders_and_builders"))
                using (var hills = Catalog.Builtin("hills_and_sheep"))
                {
                    var setup = new GameSetup { Players = 2, Seed = seed };
                    setup.Catalogs.Add(baseSet);
                    setup.Catalogs.Add(traders);
                    setup.Catalogs.Add(hills);
                    using (var game = new Game(setup))
                    {
                        SpecialSupply start = game.SpecialSupply(1);
                        Check(start.Builders == 1 && start.Pigs == 1 && start.Shepherds == 1, "a builder, a pig and a shepherd each");
                        Throws(Result.OutOfRange, () => game.SpecialSupply(2), "no third player");
                        SheepBag full = game.SheepBag();
                        Check(full.TokensShowing(1) == 4 && full.TokensShowing(2) == 5 && full.TokensShowing(3) == 5
                            && full.TokensShowing(4) == 2 && full.Wolves == 2 && full.Tokens == 18, "the declared bag of 18 tokens");
                        Equal(0, game.Flocks().Length, "no flock yet");
                        Equal(0, game.HiddenTiles, "nothing hidden yet");
                        var random = new Random((int)seed);
                        for (int step = 0; step < 2000 && !game.IsOver; step++)
                        {
                            if (game.IsSecondTurn) secondTurn = true;
                            if (game.Phase == Phase.Sheep)
                            {
                                SheepBag bag = game.SheepBag();
                                if (bag.Wolves == 0)
                                {
                                    Throws(Result.NoWolfInBag, () => game.Apply(Action.DrawWolf()), "no wolf to draw");
                                }
                                Throws(Result.SheepNotInBag, () => game.Apply(Action.DrawSheep(5)), "no token shows 5 sheep");
                                Equal(Phase.Sheep, game.Phase, "a refused draw leaves the phase");
                            }
                            if (game.Phase == Phase.Flock)
                            {
                                flockStep = true;
                                Action[] choices = game.LegalActions();
                                Check(choices.Contains(Action.DriveFlock()) && choices.All(a => a.Equals(Action.GrowFlock()) || a.Equals(Action.DriveFlock())),
                                    "grow or drive");
                            }
                            Action[] legal = game.LegalActions();
                            Action[] special = legal.Where(a => a.Kind == ActionKind.Deploy && a.Figure >= Figure.Builder).ToArray();
                            Action action = special.Length > 0 && random.Next(2) == 0
                                ? special[random.Next(special.Length)]
                                : legal[random.Next(legal.Length)];
                            Event[] events = game.Apply(action);
                            if (action.Kind == ActionKind.Deploy && action.Figure >= Figure.Builder) deployed.Add(action.Figure);
                            hidden |= events.Any(e => e.Kind == EventKind.TileHidden);
                            sheepDrawn |= events.Any(e => e.Kind == EventKind.SheepDrawn);
                            market |= events.Any(e => e.Kind == EventKind.FeatureScored && e.Score.Reason == ScoreReason.Market);
                            if (events.Any(e => e.Kind == EventKind.ExtraTurn))
                            {
                                Check(events.Last().Kind == EventKind.TurnStarted && events.Last().Player == events.First(e => e.Kind == EventKind.ExtraTurn).Player,
                                    "a second turn starts for the same player");
                            }
                            SheepBag now = game.SheepBag();
                            Flock[] flocks = game.Flocks();
                            for (int sheep = 1; sheep <= 4; sheep++)
                            {
                                int total = now.TokensShowing(sheep) + flocks.Sum(f => f.TokensShowing(sheep));
                                Equal(full.TokensShowing(sheep), total, "tokens showing " + sheep + " sheep are in the bag or a flock");
                            }
                            foreach (Flock flock in flocks)
                            {
                                Equal((uint)Enumerable.Range(1, 8).Sum(n => n * flock.TokensShowing(n)), flock.Sheep, "a flock's sheep add up");
                                Check(game.Figures().Any(f => f.Figure == Figure.Shepherd && f.Pos == flock.Pos && f.Player == flock.Player),
                                    "a flock's shepherd stands on the board");
                            }
                            Equal(game.RemainingCopies().Sum(n => (int)n) - game.HiddenTiles, game.TilesLeft, "hidden tiles are not left to draw");
                        }
                        Check(game.IsOver, "the game ends");
                        bool refused = false;
                        try
                        {
                            game.SheepBag().TokensShowing(9);
                        }
                        catch (ArgumentOutOfRangeException)
                        {
                            refused = true;
                        }
                        Check(refused, "a token shows at most 8 sheep");
                    }
                }
            }
            Check(deployed.Count == 3, "a builder, a pig and a shepherd deployed");
            Check(secondTurn, "a builder's second turn");
            Check(hidden, "a tile hidden under a hill");
            Check(sheepDrawn && flockStep && market, "a flock grown and driven to market");
        }

        /// <summary>A figure of a set's own, the giant (a follower of strength 3 on cities and roads):
        /// listed with its id and rules, numbered Figure.Declared, offered, deployed and counted in hand
        /// by that number (ABI 1.10).</summary>
        private static void DeclaredFigures()
        {
            string toml;
            using (var baseSet = Catalog.Builtin("base"))
            {
                toml = baseSet.ToToml();
            }
            const string giant = "[[figure]]\nid = \"giant\"\nper_player = 1\nrole = \"follower\"\nstrength = 3\n" +
                "stands_on = [\"city\", \"road\"]\n\n";
            int at = toml.IndexOf("[[figure]]", StringComparison.Ordinal);
            using (var giants = Catalog.FromToml("giants.toml", toml.Substring(0, at) + giant + toml.Substring(at)))
            {
                var setup = new GameSetup { Players = 2, Seed = 3 };
                setup.Catalogs.Add(giants);
                using (var game = new Game(setup))
                {
                    Equal(2, game.FigureCount, "the follower and the giant");
                    FigureInfo follower = game.FigureInfo(0), info = game.FigureInfo(1);
                    Equal("follower", follower.Id, "the follower first");
                    Equal(Figure.Follower, follower.Figure, "by its constant");
                    Equal("giant", info.Id, "then the giant");
                    Equal(Figure.Declared, info.Figure, "numbered from Declared");
                    Check(info.IsFollower && info.Strength == 3 && info.PerPlayer == 1 && !info.Recall, "as declared");
                    Throws(Result.OutOfRange, () => game.FigureInfo(2), "figure 2 of 2");
                    Equal((byte)1, game.InHand(0, Figure.Declared), "a giant in hand");
                    Equal((byte)0, game.InHand(0, Figure.Builder), "no builder in this game");
                    Throws(Result.InvalidEnum, () => game.InHand(0, Figure.Declared + 1), "no second figure of its own");
                    // D east of the start: its city and road take the giant.
                    game.Apply(Action.DrawTile(game.TileById("D").Value));
                    game.Apply(Action.Place(new Pos(1, 0), 0));
                    Check(game.LegalActions().Any(a => a.Kind == ActionKind.Deploy && a.Figure == Figure.Declared),
                        "the giant is offered");
                    Event[] placed = game.Apply(Action.Deploy(0, Figure.Declared));
                    Check(placed.Any(e => e.Kind == EventKind.FigurePlaced && e.Figure == Figure.Declared), "the event names it");
                    Equal((byte)0, game.InHand(0, Figure.Declared), "none left");
                }
            }
        }

        /// <summary>Traders &amp; Builders' goods: the declared kinds, the tokens taken as the events
        /// say, and the majorities adding up to the scores with the features.</summary>
        private static void Tokens()
        {
            using (var game = NewGame(5, 3, true, "base", "traders_and_builders"))
            {
                Equal(3, game.TokenKindCount, "wine, grain and cloth");
                Equal("wine grain cloth", string.Join(" ", Enumerable.Range(0, 3).Select(k => game.TokenInfo((byte)k).Id)), "the kinds in order");
                TokenInfo wine = game.TokenInfo(0);
                Equal(TokenTaker.Completer, wine.TakenBy, "the completer takes goods");
                Equal(10u, wine.Majority, "the most wine scores 10");
                Throws(Result.OutOfRange, () => game.TokenInfo(3), "kind 3 of 3");
                Throws(Result.OutOfRange, () => game.TokensHeld(3), "player 3 of 3");
                var random = new Random(5);
                var events = new List<Event>();
                var taken = new uint[3, 3];
                while (!game.IsOver)
                {
                    Action[] legal = game.LegalActions();
                    events.Clear();
                    game.Apply(legal[random.Next(legal.Length)], events);
                    foreach (Event e in events.Where(e => e.Kind == EventKind.TokensTaken))
                    {
                        Equal((byte)(1 << e.Player), e.Score.Scorers, "the taker receives the tokens");
                        taken[e.Player, e.Declared] += e.Score.Points;
                    }
                }
                for (int player = 0; player < 3; player++)
                {
                    uint[] held = game.TokensHeld(player);
                    Equal(3, held.Length, "one count per kind");
                    for (int kind = 0; kind < 3; kind++)
                    {
                        Equal(taken[player, kind], held[kind], "player " + player + " kind " + kind);
                    }
                }
                Check(taken.Cast<uint>().Sum(n => (long)n) > 0, "goods were taken in a whole game");
            }
            using (var game = NewGame(6, 2, false, "base", "king_and_robber"))
            {
                Equal(2, game.TitleCount, "the King and the Robber Baron");
                Equal("king", game.TitleInfo(0).Id, "the King first");
                Equal(SegmentKind.Road, game.TitleInfo(1).Feature, "the Robber Baron is won on roads");
                Equal(-1, game.TitleInfo(0).Holder, "nobody is king before a city is completed");
                Throws(Result.OutOfRange, () => game.TitleInfo(2), "title 2 of 2");
                var random = new Random(6);
                var events = new List<Event>();
                int[] holder = { -1, -1 };
                while (!game.IsOver)
                {
                    Action[] legal = game.LegalActions();
                    events.Clear();
                    game.Apply(legal[random.Next(legal.Length)], events);
                    foreach (Event e in events.Where(e => e.Kind == EventKind.TitleTaken))
                    {
                        holder[e.Declared] = e.Player;
                    }
                }
                for (byte title = 0; title < 2; title++)
                {
                    Equal(holder[title], game.TitleInfo(title).Holder, "title " + title + "'s holder");
                }
                Check(holder[0] >= 0 && holder[1] >= 0, "somebody took each title in a whole game");
            }
            using (var game = NewGame(1, 2, false, "base", "cult"))
            {
                Equal(0, game.Challenges().Length, "no challenge on an empty board");
                string[] ids = { "B", "CU01" };
                for (int x = 0; x < 2; x++)
                {
                    ushort tile = 0;
                    while (game.TileInfo(tile).Id != ids[x]) tile++;
                    game.Apply(Action.DrawTile(tile));
                    game.Apply(Action.Place(new Pos(x, -1), 0));
                    game.Apply(Action.Deploy(0, Figure.Follower));
                }
                Challenge[] challenges = game.Challenges();
                Equal(1, challenges.Length, "the heretic beside the monk");
                Equal(new Pos(1, -1), challenges[0].Marked, "the shrine first");
                Equal(new Pos(0, -1), challenges[0].Plain, "then the monastery");
                Equal(1, (int)challenges[0].MarkedPlayer, "the heretic is green's");
                RuleInfo rivalry = game.RuleInfo(challenges[0].Rule);
                Equal("challenge", rivalry.Id, "the Cult's rivalry");
                Equal(RuleKind.Rival, rivalry.Kind, "a rivalry");
                Throws(Result.OutOfRange, () => game.RuleInfo((byte)game.RuleCount), "one past the last rule");
                int shrine = 0;
                while (game.MarkInfo((byte)shrine).Id != "shrine") shrine++;
                Equal("shrine", game.MarkInfo((byte)shrine).Name, "the shrine mark");
                uint[] carried = game.FeatureMarks(new Pos(1, -1), 0);
                Equal(game.MarkCount, carried.Length, "one count per mark");
                Equal(1u, carried[shrine], "the shrine carries its mark");
                Equal(0u, game.FeatureMarks(new Pos(0, -1), 0)[shrine], "the monastery does not");
            }
        }

        /// <summary>Playing by number (ApplyLegal) and by action (Apply) give the same game.</summary>
        private static void ByNumber()
        {
            using (var byAction = NewGame(21, 3, true, "base", "inns_and_cathedrals"))
            using (var byNumber = byAction.Clone())
            {
                var random = new Random(21);
                int count = byNumber.LegalActionCount;
                int steps = 0;
                while (count > 0)
                {
                    Action[] legal = byAction.LegalActions();
                    Equal(legal.Length, count, "the count of legal actions");
                    int index = random.Next(count);
                    if (steps % 25 == 0)
                    {
                        Equal(legal[index], byNumber.LegalAction(index), "legal action by number");
                        Throws(Result.OutOfRange, () => byNumber.LegalAction(count), "a legal action past the end");
                        Throws(Result.OutOfRange, () => byNumber.ApplyLegal(count), "applying past the end");
                    }
                    byAction.Apply(legal[index]);
                    count = byNumber.ApplyLegal(index);
                    steps++;
                }
                Check(byNumber.IsOver && byAction.IsOver, "both games are over");
                Equal(byAction.SaveJson(), byNumber.SaveJson(), "both routes play the same game");
                Check(byAction.LastEvents().SequenceEqual(byNumber.LastEvents()), "and report the same last events");
                Throws(Result.GameOver, () => byNumber.ApplyLegal(0), "applying after the end");
            }
        }

        private static void GameCatalogs()
        {
            using (var game = NewGame(2, 2, false, "base", "river"))
            {
                Catalog[] catalogs = game.Catalogs();
                try
                {
                    Equal("base,river", string.Join(",", catalogs.Select(c => c.Info.Id)), "the game's tile sets");
                    Equal(game.TileTypeCount, catalogs.Sum(c => c.Info.TileTypes), "their tile types add up");
                    ushort riverFirst = (ushort)catalogs[0].Info.TileTypes;
                    Equal(catalogs[1].TileInfo(0).Id, game.TileInfo(riverFirst).Id, "a set's tile numbers are offset by the sets before it");
                }
                finally
                {
                    foreach (var catalog in catalogs)
                    {
                        catalog.Dispose();
                    }
                }
            }
        }

        /// <summary>Everything made above was disposed or finalized, errors included.</summary>
        private static void NothingLeaks()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Equal(0L, Library.LiveHandles, "live handles at the end");
        }

        private static int CountBits(byte mask)
        {
            int count = 0;
            for (; mask != 0; mask &= (byte)(mask - 1))
            {
                count++;
            }
            return count;
        }

        private static void SavesAndSetups()
        {
            using (var game = NewGame(5, 2, false, "base"))
            {
                var random = new Random(5);
                for (int step = 0; step < 40; step++)
                {
                    Action[] legal = game.LegalActions();
                    game.Apply(legal[random.Next(legal.Length)]);
                }
                string save = game.SaveJson();
                Check(save.StartsWith("{", StringComparison.Ordinal) && save.Contains("\"format\""), "a save is JSON with its format");
                using (var loaded = Game.LoadJson(save))
                {
                    Equal(save, loaded.SaveJson(), "a loaded game saves the same");
                    Equal(0, loaded.LastEvents().Length, "a loaded game has no last events");
                    Equal(game.Phase, loaded.Phase, "the loaded phase");
                }
                string setup = game.SetupJson();
                using (var again = Game.FromJson(setup))
                {
                    Equal(setup, again.SetupJson(), "the setup round trip");
                    Equal(5UL, again.Seed, "the setup's seed");
                    Equal(0, again.Actions().Length, "a setup starts a new game");
                }
            }
            using (var game = Game.FromJson("{\"tilesets\": [\"base\", \"river\"], \"players\": 3, \"seed\": 9, \"options\": {\"abbots\": true}}"))
            {
                Equal(3, game.Players, "players from JSON");
                Check(game.Rules.Abbots, "options from JSON");
            }
            var syntax = Throws(Result.JsonSyntax, () => Game.FromJson("{\n  \"players\": ,\n}").Dispose(), "bad JSON");
            Check(syntax != null && syntax.Line == 2 && syntax.Column > 0, "the JSON error has its line and column");
            Throws(Result.JsonContent, () => Game.FromJson("{\"tilesets\": [\"base\"], \"players\": 2, \"colour\": 1}").Dispose(), "an unknown key");
            Throws(Result.SaveFormat, () => Game.LoadJson("{\"format\": 999, \"setup\": {\"tilesets\": [\"base\"], \"players\": 2}, \"actions\": []}").Dispose(), "a future save format");
        }

        private static void SetupErrors()
        {
            Throws(Result.NoTileSet, () => new Game(new GameSetup()).Dispose(), "no tile set");
            Throws(Result.TooFewPlayers, () => NewGame(0, 1, false, "base").Dispose(), "one player");
            Throws(Result.TooManyPlayers, () => NewGame(0, 6, false, "base").Dispose(), "six players with the base set");
            using (var base1 = Catalog.Builtin("base"))
            using (var base2 = Catalog.Builtin("base"))
            {
                var setup = new GameSetup();
                setup.Catalogs.Add(base1);
                setup.Catalogs.Add(base2);
                Throws(Result.DuplicateTileId, () => new Game(setup).Dispose(), "two base sets");
                setup = new GameSetup();
                setup.Catalogs.Add(base1);
                setup.Rules.FarmScoring = (FarmScoring)77;
                Throws(Result.InvalidEnum, () => new Game(setup).Dispose(), "an unknown farm scoring");
            }
        }

        private static void Landscapes()
        {
            string json = File.ReadAllText("examples/landscape.json");
            LandscapeScore score = LandscapeScore.Compute(json);
            Equal("13,6", string.Join(",", score.Totals), "the example landscape's totals");
            Check(score.Features.Length > 0 && score.Features.All(f => f.Reason == ScoreReason.GameEnd), "features scored at the end");
            Equal(13L + 6L, score.Features.Sum(f => (long)f.Points * CountBits(f.Scorers)), "the features add up");
            Check(score.Json.Contains("\"total\""), "the JSON has the totals");

            string withoutSets = json.Replace("\"tilesets\": [\"base\"],", "");
            Check(withoutSets != json, "the example names its tile sets as expected");
            using (var catalog = Catalog.Builtin("base"))
            {
                var options = LandscapeOptions.Default;
                Equal("13,6", string.Join(",", LandscapeScore.Compute(withoutSets, options, catalog).Totals), "with a catalog handle");
                Throws(Result.InvalidArgument, () => LandscapeScore.Compute(json, options, catalog), "catalogs and tilesets");
                options.ClaimAll = true;
                Equal(1, LandscapeScore.Compute(withoutSets, options, catalog).Totals.Length, "claim all scores for one player");
                options = LandscapeOptions.Default;
                options.PennantValue = 10;
                Equal(10u, options.PennantValue.GetValueOrDefault(), "the pennant value reads back");
                LandscapeScore.Compute(withoutSets, options, catalog);
            }
            Throws(Result.LandscapeUnknownTile, () => LandscapeScore.Compute("{\"tiles\": [{\"tile\": \"ZZ\", \"x\": 0, \"y\": 0, \"rotation\": 0}], \"figures\": []}"), "an unknown landscape tile");

            // Tile F alone: an unfinished city of one tile with a pennant, and two fields.
            const string lone = "{\"tiles\": [{\"tile\": \"F\", \"x\": 0, \"y\": 0}]}";
            LandscapeScoring solo = LandscapeScoring.SoloPuzzle;
            Check(solo.ClaimAll && !solo.Rules.Farmers && solo.PennantValue == 0 && solo.UnfinishedPennantValue == 0, "the solo puzzles' scoring");
            Equal("1", string.Join(",", LandscapeScore.Compute(lone, solo).Totals), "a solo city scores no pennant");
            LandscapeScoring claimed = LandscapeScoring.Default;
            Check(!claimed.ClaimAll && claimed.PennantValue == 2 && claimed.UnfinishedPennantValue == 1, "the published scoring");
            claimed.ClaimAll = true;
            Equal("2", string.Join(",", LandscapeScore.Compute(lone, claimed).Totals), "an unfinished pennant scores 1; fields border no completed city");
        }

        private static void Disposal()
        {
            var game = NewGame(1, 2, false, "base");
            game.Dispose();
            game.Dispose();
            try
            {
                var phase = game.Phase;
                Check(false, "a disposed game answered " + phase);
            }
            catch (ObjectDisposedException)
            {
            }
            var catalog = Catalog.Builtin("base");
            catalog.Dispose();
            try
            {
                var setup = new GameSetup();
                setup.Catalogs.Add(catalog);
                new Game(setup).Dispose();
                Check(false, "a disposed catalog made a game");
            }
            catch (ObjectDisposedException)
            {
            }
            // Handles nobody disposes are freed by their finalizers.
            for (int index = 0; index < 200; index++)
            {
                NewGame((ulong)index, 2, false, "base").Apply(Action.Draw());
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
            using (var after = NewGame(1, 2, false, "base"))
            {
                Equal(Phase.Draw, after.Phase, "games still work after finalizers ran");
            }
        }

        /// <summary>Player masks read as lists of players.</summary>
        private static void PlayerMasks()
        {
            Equal("", string.Join(",", PlayerMask.Players(0)), "nobody");
            Equal("0,2,7", string.Join(",", PlayerMask.Players(0x85)), "players 0, 2 and 7");
        }

        /// <summary>Games on separate threads, and one game shared by several.</summary>
        private static void Threads()
        {
            var results = new string[4];
            using (var template = NewGame(0, 2, false, "base"))
            {
                var threads = Enumerable.Range(0, results.Length).Select(index =>
                {
                    Game game = template.Restarted((ulong)index + 1);
                    return new Thread(() =>
                    {
                        using (game)
                        {
                            var random = new Random(index);
                            Action[] legal = null;
                            while (!game.IsOver)
                            {
                                int count = game.LegalActions(ref legal);
                                game.Apply(legal[random.Next(count)]);
                            }
                            results[index] = string.Join(",", game.Scores());
                        }
                    });
                }).ToList();
                threads.ForEach(thread => thread.Start());
                threads.ForEach(thread => thread.Join());
            }
            Check(results.All(result => result != null), "every thread finished its game");

            // One game shared by four threads at once (ABI 1.2): calls take turns, Apply
            // returns its own action's events, and the game saves and loads back. An action
            // or number another thread made stale is refused with its reason, nothing worse.
            var unexpected = new List<string>();
            using (var shared = NewGame(7, 3, true, "base", "inns_and_cathedrals"))
            {
                var threads = Enumerable.Range(0, 4).Select(index => new Thread(() =>
                {
                    var random = new Random(index);
                    Action[] legal = null;
                    for (int step = 0; step < 150 && !shared.IsOver; step++)
                    {
                        try
                        {
                            if (index % 2 == 0)
                            {
                                int count = shared.LegalActions(ref legal);
                                Event[] events = shared.Apply(legal[random.Next(count)]);
                                Check(events.Length > 0, "an applied action has its events");
                            }
                            else
                            {
                                int count = shared.LegalActionCount;
                                if (count > 0)
                                {
                                    shared.ApplyLegal(random.Next(count));
                                }
                                shared.SaveJson();
                            }
                        }
                        catch (CarcassonneException error)
                        {
                            bool stale = error.Result == Result.OutOfRange || error.Result == Result.GameOver ||
                                ((int)error.Result >= 400 && (int)error.Result < 500);
                            if (!stale)
                            {
                                lock (unexpected) { unexpected.Add(error.Result + ": " + error.Message); }
                            }
                        }
                    }
                })).ToList();
                threads.ForEach(thread => thread.Start());
                threads.ForEach(thread => thread.Join());
                string save = shared.SaveJson();
                using (var loaded = Game.LoadJson(save))
                {
                    Equal(save, loaded.SaveJson(), "a game four threads shared saves and loads back");
                }
            }
            Check(unexpected.Count == 0, "a shared game only refused stale actions: " + string.Join("; ", unexpected));
        }
    }
}
