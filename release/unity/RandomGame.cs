// RandomGame.cs: the Unity sample's game, in plain C# so that it runs anywhere the binding
// does: two built-in bots play one seeded base game to its end.

using System.Text;
using Carcassonne;

namespace Carcassonne.Samples
{
    /// <summary>A whole game between two built-in bots, as the sample plays it.</summary>
    public static class RandomGame
    {
        /// <summary>
        /// Plays a base game of two players, <paramref name="first"/> against
        /// <paramref name="second"/> (built-in bot names such as "easy", "medium", "hard"),
        /// from <paramref name="seed"/>, and returns one line per player with the final score.
        /// </summary>
        public static string Play(string first, string second, ulong seed)
        {
            Game game;
            using (var baseSet = Catalog.Builtin("base"))
            {
                var setup = new GameSetup { Players = 2, Seed = seed };
                setup.Catalogs.Add(baseSet);
                game = new Game(setup);
            }
            using (game)
            using (var one = Bot.Builtin(first, seed))
            using (var two = Bot.Builtin(second, seed + 1))
            {
                while (!game.IsOver)
                {
                    var bot = game.CurrentPlayer == 0 ? one : two;
                    game.Apply(bot.Choose(game));
                }
                var scores = game.Scores();
                var text = new StringBuilder();
                text.Append(first).Append(" (player 0): ").Append(scores[0]).Append('\n');
                text.Append(second).Append(" (player 1): ").Append(scores[1]);
                return text.ToString();
            }
        }
    }
}
