// RandomGameBehaviour.cs: the Unity sample's component. Add it to any GameObject and press
// Play: two built-in bots play one base game and the Console shows the final scores.
// (UnityEngine is Unity's own; outside the editor the game itself is RandomGame.Play.)

using UnityEngine;

namespace Carcassonne.Samples
{
    /// <summary>Plays one game between two built-in bots when the scene starts.</summary>
    public sealed class RandomGameBehaviour : MonoBehaviour
    {
        /// <summary>The first player's bot.</summary>
        public string first = "hard";

        /// <summary>The second player's bot.</summary>
        public string second = "medium";

        /// <summary>The seed of the tile order and both bots.</summary>
        public ulong seed = 7;

        private void Start()
        {
            if (!Library.IsCompatible)
            {
                Debug.LogError("the native library's ABI version does not serve this binding");
                return;
            }
            Debug.Log("carcassonne " + Library.Version + "\n" + RandomGame.Play(first, second, seed));
        }
    }
}
