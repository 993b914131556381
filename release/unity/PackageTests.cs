// PackageTests.cs: the package's tests, in NUnit as Unity's Test Framework runs them (Window >
// General > Test Runner, PlayMode or EditMode); CI runs them under Mono with nunit-console.
// They load the native library from the package's Plugins folder, so a package whose plugin
// is missing, of the wrong platform or of another ABI fails here.

using System.Collections.Generic;
using Carcassonne;
using NUnit.Framework;
using Action = Carcassonne.Action;

namespace Carcassonne.Tests
{
    /// <summary>The package's binding against its own native library.</summary>
    [TestFixture]
    public sealed class PackageTests
    {
        private static Game NewGame(ulong seed, params string[] sets)
        {
            var setup = new GameSetup { Players = 2, Seed = seed };
            var catalogs = new List<Catalog>();
            foreach (var name in sets)
            {
                var catalog = Catalog.Builtin(name);
                catalogs.Add(catalog);
                setup.Catalogs.Add(catalog);
            }
            var game = new Game(setup);
            foreach (var catalog in catalogs)
            {
                catalog.Dispose();
            }
            return game;
        }

        /// <summary>The plugin is the library this binding was written for.</summary>
        [Test]
        public void TheNativeLibraryServesThisBinding()
        {
            Assert.IsTrue(Library.IsCompatible, "ABI version " + Library.AbiVersion.ToString("x"));
            Assert.IsFalse(string.IsNullOrEmpty(Library.Version));
        }

        /// <summary>Random legal actions take a game of two sets to its end.</summary>
        [Test]
        public void RandomLegalActionsEndAGame()
        {
            using (var game = NewGame(11, "base", "inns_and_cathedrals"))
            {
                var legal = new Action[64];
                var random = new System.Random(11);
                int actions = 0;
                while (!game.IsOver)
                {
                    int count = game.LegalActions(ref legal);
                    Assert.Greater(count, 0, "a game not over has a legal action");
                    game.Apply(legal[random.Next(count)]);
                    actions++;
                }
                Assert.Greater(actions, 100);
                Assert.AreEqual(2, game.Scores().Length);
            }
        }

        /// <summary>A built-in bot answers with a legal action until the game ends.</summary>
        [Test]
        public void BotsPlayLegalActions()
        {
            using (var game = NewGame(5, "base"))
            using (var bot = Bot.Builtin("medium", 5))
            {
                var legal = new Action[64];
                while (!game.IsOver)
                {
                    var action = bot.Choose(game);
                    int count = game.LegalActions(ref legal);
                    Assert.Contains(action, new List<Action>(legal).GetRange(0, count));
                    game.Apply(action);
                }
            }
        }

        /// <summary>A refused action throws and leaves the game as it was.</summary>
        [Test]
        public void ARefusedActionChangesNothing()
        {
            using (var game = NewGame(3, "base"))
            {
                var legal = new Action[64];
                int before = game.LegalActions(ref legal);
                Assert.Throws<CarcassonneException>(() => game.Apply(legal[0].Kind == ActionKind.Draw
                    ? Action.Skip()
                    : Action.Draw()));
                Assert.AreEqual(before, game.LegalActions(ref legal));
            }
        }
    }
}
