//! Running means and their standard errors.

/// A sample's count, sum and sum of squares: its mean and the mean's standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    count: u32,
    sum: f64,
    squares: f64,
}

impl Tally {
    pub(crate) fn add(&mut self, value: f64) {
        self.count += 1;
        self.sum += value;
        self.squares += value * value;
    }

    pub(crate) fn count(&self) -> u32 {
        self.count
    }

    /// The mean; 0 for no samples.
    pub(crate) fn mean(&self) -> f64 {
        if self.count == 0 { 0.0 } else { self.sum / f64::from(self.count) }
    }

    /// The standard error of the mean, from the sample variance; infinite below two samples,
    /// where nothing is known of the spread.
    pub(crate) fn standard_error(&self) -> f64 {
        if self.count < 2 {
            return f64::INFINITY;
        }
        let n = f64::from(self.count);
        let variance = ((self.squares - self.sum * self.sum / n) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_standard_error_match_worked_values() {
        let mut tally = Tally::default();
        assert_eq!(tally.mean(), 0.0);
        assert!(tally.standard_error().is_infinite());
        for value in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            tally.add(value);
        }
        assert_eq!(tally.count(), 8);
        assert!((tally.mean() - 5.0).abs() < 1e-12);
        // Sample variance 32/7; the standard error is its square root over √8.
        assert!((tally.standard_error() - (32.0f64 / 7.0 / 8.0).sqrt()).abs() < 1e-12);
    }
}
