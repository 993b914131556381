// Program.cs: a console sample of the C# binding: one seeded two-player game of the base set with random legal actions,
// then the same tiles played by two bots, then the first move of that game analysed (with progress and cancellation)
// and its board drawn.
//
// Usage: mono Sample.exe [seed]   (seed 1 by default)
//
// The random choice is `legal[splitmix64() % count]` with SplitMix64 seeded with the game's
// seed, the rule our C consumers and the Rust test use, so the last line can be compared:
//   seed=<n> actions=<n> scores=<a,b> winners=<mask>

using System;
using System.Collections.Generic;
using System.Text;
using Carcassonne;
using Action = Carcassonne.Action;

namespace Carcassonne.Sample
{
    /// <summary>SplitMix64 (Steele, Lea and Flood 2014): the shared rule for random choices.</summary>
    internal sealed class SplitMix64
    {
        private ulong state;

        internal SplitMix64(ulong seed) { state = seed; }

        internal ulong Next()
        {
            unchecked
            {
                state += 0x9E3779B97F4A7C15UL;
                ulong z = state;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                return z ^ (z >> 31);
            }
        }
    }

    internal static class Program
    {
        private static int Main(string[] args)
        {
            ulong seed = args.Length > 0 ? ulong.Parse(args[0]) : 1;
            if (!Library.IsCompatible)
            {
                Console.Error.WriteLine("the native library's ABI version " + Library.AbiVersion.ToString("x")
                    + " does not serve this binding");
                return 1;
            }
            Console.WriteLine("carcassonne " + Library.Version);

            Game game;
            using (var baseSet = Catalog.Builtin("base"))
            {
                var setup = new GameSetup { Players = 2, Seed = seed };
                setup.Catalogs.Add(baseSet);
                game = new Game(setup);
            }
            // The catalog is gone; the game keeps what it needs.
            using (game)
            {
                return Play(game, seed);
            }
        }

        private static int Play(Game game, ulong seed)
        {
            var tileIds = new string[game.TileTypeCount];
            for (int tile = 0; tile < tileIds.Length; tile++)
            {
                tileIds[tile] = game.TileInfo((ushort)tile).Id;
            }

            var rng = new SplitMix64(seed);
            var legal = new Action[64];
            var events = new List<Event>();
            var turn = new StringBuilder();
            int turns = 0;
            int actions = 0;
            int winners = -1;
            bool refusalShown = false;

            while (!game.IsOver)
            {
                if (!refusalShown && game.Phase == Phase.Place)
                {
                    ShowRefusal(game);
                    refusalShown = true;
                }
                int count = game.LegalActions(ref legal);
                Action action = legal[(int)(rng.Next() % (ulong)count)];
                events.Clear();
                game.Apply(action, events);
                actions++;
                foreach (var e in events)
                {
                    switch (e.Kind)
                    {
                        case EventKind.TileDrawn:
                            turn.Append("player " + e.Player + " drew " + tileIds[e.Tile]);
                            break;
                        case EventKind.TileDiscarded:
                            turn.Append(" (fits nowhere, discarded), ");
                            break;
                        case EventKind.TilePlaced:
                            turn.Append(", placed at " + e.Pos + " turned " + e.Rotation);
                            break;
                        case EventKind.FigurePlaced:
                            turn.Append(", " + e.Figure + " on segment " + e.Segment);
                            break;
                        case EventKind.AbbotRecalled:
                            turn.Append(", recalled the abbot from " + e.Pos);
                            break;
                        case EventKind.FeatureScored:
                            turn.Append(", " + e.Score.Kind + " scored " + e.Score.Points + " for player " + string.Join(" and ", e.Score.ScoringPlayers));
                            break;
                        case EventKind.GameOver:
                            winners = e.Winners;
                            goto case EventKind.TurnStarted;
                        case EventKind.TurnStarted:
                            turns++;
                            Console.WriteLine("turn " + turns + ": " + turn + "; scores " + Join(game.Scores()));
                            turn.Clear();
                            break;
                    }
                }
            }

            uint[] scores = game.Scores();
            if (winners != game.Leaders)
            {
                Console.Error.WriteLine("the game-over event names winners " + winners + ", the game " + game.Leaders);
                return 1;
            }
            if (!SaveAndLoadAgree(game, scores))
            {
                return 1;
            }
            PlayBots(game, seed);
            AnalyseAndDraw(game, seed);
            Console.WriteLine("seed=" + seed + " actions=" + actions + " scores=" + Join(scores) + " winners=" + winners);
            return 0;
        }

        /// <summary>A game's opponents: the same tiles played again, by a medium bot against
        /// an easy one.</summary>
        private static void PlayBots(Game played, ulong seed)
        {
            using (var medium = Bot.Builtin("medium", seed))
            using (var easy = Bot.Builtin("easy", seed + 1))
            using (var game = played.Restarted(seed))
            {
                Bot[] seats = { medium, easy };
                while (!game.IsOver)
                {
                    game.Apply(seats[game.CurrentPlayer].Choose(game));
                }
                uint[] scores = game.Scores();
                Console.WriteLine("bots on the same tiles: " + medium.Name + " " + scores[0] + ", " + easy.Name + " " + scores[1]);
            }
        }

        /// <summary>The first move of the same tiles analysed: the three best moves with their
        /// expected margins, then an analysis cancelled from its own progress report; and the
        /// board as SVG with the points where figures stand on the start tile.</summary>
        private static void AnalyseAndDraw(Game played, ulong seed)
        {
            using (var game = played.Restarted(seed))
            {
                game.Apply(Action.Draw());
                var config = AnalysisConfig.Default;
                config.Rollouts = 3000;
                config.Seed = seed;
                config.Threads = 2;
                config.ReportEveryMs = 5;
                int reports = 0;
                Analysis analysis = game.Analyze(config, 3, (moves, summary) => reports++);
                Console.WriteLine("analysis: " + analysis.Summary.Moves + " moves, " + analysis.Summary.Rollouts
                    + " rollouts, " + analysis.Summary.Stop + ", " + reports + " progress reports");
                foreach (MoveStats move in analysis.Moves)
                {
                    Console.WriteLine("  " + move.Place + " then " + move.Figure + ": margin "
                        + move.Margin.ToString("+0.0;-0.0") + " ± " + move.MarginSe.ToString("0.0")
                        + ", win " + (move.Win * 100).ToString("0") + "%");
                }

                config.Rollouts = 0;
                config.Seconds = 600;
                config.ReportEveryMs = 0;
                using (var cancel = new System.Threading.CancellationTokenSource())
                {
                    Analysis stopped = game.Analyze(config, 1, (moves, summary) =>
                    {
                        if (summary.Rollouts >= 500)
                        {
                            cancel.Cancel();
                        }
                    }, cancel.Token);
                    if (stopped.Summary.Stop != AnalysisStop.Cancelled)
                    {
                        throw new InvalidOperationException("the analysis ran on after its cancellation");
                    }
                    Console.WriteLine("a 10-minute analysis cancelled after " + stopped.Summary.Rollouts + " rollouts in "
                        + stopped.Summary.Seconds.ToString("0.00") + " s");
                }

                string svg = game.BoardSvg();
                Point[] anchors = game.TileAnchors(game.Placements()[0].Tile, 0);
                Console.WriteLine("board picture: " + svg.Length + " characters of SVG; figures on the start tile stand at "
                    + string.Join(" ", Array.ConvertAll(anchors, p => "(" + p.X.ToString("0.00") + ", " + p.Y.ToString("0.00") + ")")));
            }
        }

        /// <summary>Tries to put the drawn tile on the start tile's cell: the rules refuse it with
        /// an exception, and the game is left as it was.</summary>
        private static void ShowRefusal(Game game)
        {
            var occupied = Action.Place(new Pos(0, 0), 0);
            try
            {
                game.Apply(occupied);
                throw new InvalidOperationException("the game accepted a tile on an occupied cell");
            }
            catch (CarcassonneException refused)
            {
                Console.WriteLine("refused as expected: " + refused.ResultName + " (" + (uint)refused.Result + "): " + refused.Message);
            }
        }

        /// <summary>Saves the game as JSON and loads it again: the reloaded game has the same scores.</summary>
        private static bool SaveAndLoadAgree(Game game, uint[] scores)
        {
            string save = game.SaveJson();
            using (var loaded = Game.LoadJson(save))
            {
                string again = Join(loaded.Scores());
                if (again != Join(scores) || !loaded.IsOver)
                {
                    Console.Error.WriteLine("the reloaded game has scores " + again + ", the played one " + Join(scores));
                    return false;
                }
            }
            Console.WriteLine("saved " + save.Length + " characters of JSON; the reloaded game agrees");
            return true;
        }

        private static string Join(uint[] values)
        {
            return string.Join(",", Array.ConvertAll(values, value => value.ToString()));
        }
    }
}
