//! Shared by the bots' integration tests.

use carcassonne_bots::{BotKind, Profile, Profiles};

/// Every built-in profile, its searches cut to at most `iterations` (a lookahead to 3
/// candidates and 2 samples) and without a time cap (a cap makes a search depend on the
/// machine's speed).
pub fn builtin_profiles_cut_to(iterations: u32) -> Vec<Profile> {
    Profiles::builtin()
        .profiles()
        .iter()
        .map(|profile| {
            let mut profile = profile.clone();
            match &mut profile.kind {
                BotKind::Mcts(config) => {
                    config.iterations = config.iterations.min(iterations);
                    config.seconds = None;
                }
                BotKind::Lookahead(config) => {
                    config.candidates = config.candidates.min(3);
                    config.samples = config.samples.min(2);
                    config.seconds = None;
                }
                _ => {}
            }
            profile
        })
        .collect()
}
