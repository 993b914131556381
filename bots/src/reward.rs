//! How a search values an outcome: each player's share of a win, blended with a smooth
//! function of their margin so that a search still prefers winning by more and losing by less.

use serde::Deserialize;

/// The reward of a finished game, or of a position's expected final points.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct Reward {
    /// Weight of the win share (the rest goes to the margin): 1 plays only to win.
    pub win_weight: f32,
    /// Points of margin that take the margin term from 0.5 to about 0.73.
    pub margin_scale: f32,
}

impl Default for Reward {
    fn default() -> Reward {
        Reward { win_weight: 0.7, margin_scale: 12.0 }
    }
}

impl Reward {
    /// Sets [`win_weight`](Self::win_weight), for chaining.
    #[must_use]
    pub fn with_win_weight(mut self, win_weight: f32) -> Reward {
        self.win_weight = win_weight;
        self
    }

    /// Sets [`margin_scale`](Self::margin_scale), for chaining.
    #[must_use]
    pub fn with_margin_scale(mut self, margin_scale: f32) -> Reward {
        self.margin_scale = margin_scale;
        self
    }

    /// Each player's reward in `[0, 1]` from final scores: `win_weight` times their share of
    /// the win (a shared win is split) plus the rest times the margin's sigmoid.
    pub(crate) fn of_scores(&self, scores: &[f32], out: &mut [f32]) {
        let best = scores.iter().copied().fold(f32::MIN, f32::max);
        let winners = scores.iter().filter(|score| **score >= best).count() as f32;
        for (player, score) in scores.iter().enumerate() {
            let win = if *score >= best { 1.0 / winners } else { 0.0 };
            let margin = sigmoid(margin(scores, player) / self.margin_scale);
            out[player] = self.win_weight * win + (1.0 - self.win_weight) * margin;
        }
    }

    /// Each player's reward from expected final points, where who wins is not known yet: the
    /// win share becomes a sigmoid of the margin too, steeper than the margin term.
    pub(crate) fn of_estimates(&self, points: &[f32], out: &mut [f32]) {
        for (player, out) in out.iter_mut().enumerate().take(points.len()) {
            let margin = margin(points, player);
            let win = sigmoid(margin / (self.margin_scale * 0.5));
            *out = self.win_weight * win
                + (1.0 - self.win_weight) * sigmoid(margin / self.margin_scale);
        }
    }
}

/// A player's points less the best of the others.
pub(crate) fn margin(points: &[f32], player: usize) -> f32 {
    let best_other = points
        .iter()
        .enumerate()
        .filter(|(other, _)| *other != player)
        .map(|(_, points)| *points)
        .fold(f32::MIN, f32::max);
    if best_other == f32::MIN { 0.0 } else { points[player] - best_other }
}

pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_win_is_split_and_rewards_stay_in_range() {
        let reward = Reward { win_weight: 1.0, margin_scale: 10.0 };
        let mut out = [0.0; 3];
        reward.of_scores(&[30.0, 30.0, 10.0], &mut out);
        assert_eq!(out, [0.5, 0.5, 0.0]);
        let reward = Reward::default();
        reward.of_scores(&[80.0, 20.0, 50.0], &mut out);
        assert!(out[0] > out[2] && out[2] > out[1]);
        assert!(out.iter().all(|r| (0.0..=1.0).contains(r)));
        reward.of_estimates(&[80.0, 20.0, 50.0], &mut out);
        assert!(out[0] > out[2] && out[2] > out[1]);
    }
}
