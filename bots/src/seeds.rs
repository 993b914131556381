//! Seeds: how a bot's one seed becomes a separate, reproducible stream for each decision,
//! tree and game.

use carcassonne::Game;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every bot and the arena draw from: small, fast, and the same output for the
/// same seed on every platform.
pub(crate) type Dice = Xoshiro256PlusPlus;

/// SplitMix64's finaliser: spreads every input bit over the whole output.
pub(crate) const fn scramble(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed for the part `salt` of the work seeded by `seed`: distinct salts give unrelated
/// streams.
///
/// ```
/// use carcassonne_bots::derive_seed;
/// assert_ne!(derive_seed(7, 0), derive_seed(7, 1));
/// assert_eq!(derive_seed(7, 1), derive_seed(7, 1));
/// ```
pub const fn derive(seed: u64, salt: u64) -> u64 {
    scramble(seed ^ scramble(salt))
}

/// Dice for `salt` under `seed`.
pub(crate) fn dice(seed: u64, salt: u64) -> Dice {
    Dice::seed_from_u64(derive(seed, salt))
}

/// The seed of one decision: the bot's seed and how far the game has gone, which is public,
/// so the answer does not depend on what the bot was asked before.
pub(crate) fn decision_seed(seed: u64, game: &Game) -> u64 {
    derive(seed, game.actions().len() as u64)
}
