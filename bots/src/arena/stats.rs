//! The arena's statistics: Wilson intervals, Elo differences with intervals from paired
//! deals, and the sequential probability ratio test.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval at 95% for `successes` (halves allowed) out of `trials`.
///
/// ```
/// use carcassonne_bots::arena::wilson;
/// let (low, high) = wilson(60.0, 100.0);
/// assert!((low - 0.5020).abs() < 1e-4 && (high - 0.6906).abs() < 1e-4);
/// ```
#[must_use]
pub fn wilson(successes: f64, trials: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / trials;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that gives an expected score of `score` (clamped away from 0 and 1,
/// where it is infinite).
///
/// ```
/// use carcassonne_bots::arena::elo;
/// assert_eq!(elo(0.5), 0.0);
/// assert!((elo(0.64) - 100.0).abs() < 0.5);
/// assert!((elo(0.24025) + 200.0).abs() < 0.5);
/// ```
#[must_use]
pub fn elo(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a player `elo` points stronger.
#[must_use]
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The mean, and its 95% interval by the normal approximation, of per-deal scores: a deal's
/// games share a tile order, so their results are one sample, and the luck they share drops
/// out of the spread.
#[must_use]
pub fn mean_interval(samples: &[f64]) -> (f64, f64, f64) {
    let n = samples.len() as f64;
    if n == 0.0 {
        return (0.5, 0.0, 1.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if n < 2.0 {
        return (mean, 0.0, 1.0);
    }
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = Z95 * (variance / n).sqrt();
    (mean, (mean - half).max(0.0), (mean + half).min(1.0))
}

/// A sequential probability ratio test between two Elo differences.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    /// The difference under the null hypothesis.
    pub elo0: f64,
    /// The difference under the alternative.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// What an SPRT concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtVerdict {
    /// Not enough evidence yet.
    Continue,
    /// The difference is `elo1` or more.
    AcceptH1,
    /// The difference is `elo0` or less.
    AcceptH0,
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after `samples` per-deal scores, by the
    /// normal approximation of the generalised SPRT (as chess engine testers use it).
    ///
    /// ```
    /// use carcassonne_bots::arena::{Sprt, SprtVerdict};
    /// let sprt = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
    /// let strong: Vec<f64> = (0..200).map(|i| if i % 4 == 0 { 0.0 } else { 1.0 }).collect();
    /// assert_eq!(sprt.verdict(&strong), SprtVerdict::AcceptH1);
    /// let even: Vec<f64> = (0..400).map(|i| (i % 2) as f64).collect();
    /// assert_eq!(sprt.verdict(&even), SprtVerdict::AcceptH0);
    /// assert_eq!(sprt.verdict(&even[..10]), SprtVerdict::Continue);
    /// ```
    #[must_use]
    pub fn llr(&self, samples: &[f64]) -> f64 {
        let n = samples.len() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let mean = samples.iter().sum::<f64>() / n;
        let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after `samples`.
    #[must_use]
    pub fn verdict(&self, samples: &[f64]) -> SprtVerdict {
        let llr = self.llr(samples);
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: 60 of 100 gives p = 0.6, z² = 3.8415, centre 0.5962, half 0.0943.
    #[test]
    fn wilson_matches_the_worked_values() {
        let (low, high) = wilson(60.0, 100.0);
        assert!((low - 0.502_0).abs() < 1e-4, "{low}");
        assert!((high - 0.690_6).abs() < 1e-4, "{high}");
        let (low, high) = wilson(0.0, 10.0);
        assert_eq!(low, 0.0);
        assert!((high - 0.277_5).abs() < 1e-4, "{high}");
    }

    #[test]
    fn elo_and_expected_score_are_inverse() {
        for difference in [-400.0, -100.0, 0.0, 35.0, 250.0] {
            assert!((elo(expected_score(difference)) - difference).abs() < 1e-6);
        }
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    /// Samples 0.2, 0.4, 0.6, 0.8: mean 0.5, sample variance 0.0667, half-width
    /// 1.96 × √(0.0667 / 4) = 0.2530.
    #[test]
    fn the_mean_interval_matches_the_worked_values() {
        let (mean, low, high) = mean_interval(&[0.2, 0.4, 0.6, 0.8]);
        assert!((mean - 0.5).abs() < 1e-12);
        assert!((low - 0.2470).abs() < 1e-4 && (high - 0.7530).abs() < 1e-4, "{low} {high}");
    }

    /// LLR by hand: samples (1, 0, 1, 1): mean 0.75, variance 0.1875; s0 = 0.5, s1 =
    /// 0.5714 (50 Elo); 4 × 0.0714 × (1.5 − 1.0714) / 0.375 = 0.3265.
    #[test]
    fn the_llr_matches_the_worked_value() {
        let sprt = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
        let s1 = expected_score(50.0);
        let expected = 4.0 * (s1 - 0.5) * (1.5 - 0.5 - s1) / (2.0 * 0.1875);
        assert!((sprt.llr(&[1.0, 0.0, 1.0, 1.0]) - expected).abs() < 1e-12);
        assert!((expected - 4.0 * 0.0714 * (1.5 - 1.0714) / 0.375).abs() < 1e-3);
    }
}
