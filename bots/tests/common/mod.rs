//! Shared by the bots' integration tests.

use carcassonne_bots::{BotKind, Profile, Profiles};

/// Every built-in profile, its searches cut to at most `iterations` and without a time cap
/// (a cap makes a search depend on the machine's speed).
pub fn builtin_profiles_cut_to(iterations: u32) -> Vec<Profile> {
    Profiles::builtin()
        .profiles()
        .iter()
        .map(|profile| {
            let mut profile = profile.clone();
            if let BotKind::Mcts(config) = &mut profile.kind {
                config.iterations = config.iterations.min(iterations);
                config.seconds = None;
            }
            profile
        })
        .collect()
}
