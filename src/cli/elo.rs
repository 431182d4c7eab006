//! The statistics of a match between two engines: the Elo difference a score implies, its
//! 95% interval, and a sequential probability ratio test (SPRT) that ends a match as soon as
//! the result is clear.
//!
//! The formulas are those engine testers use: the interval is cutechess-cli's (a normal
//! approximation of the mean score, each game scoring 1, ½ or 0); the SPRT's log-likelihood
//! ratio is fishtest's generalised SPRT for logistic Elo (Michel Van den Bergh), which
//! compares the observed mean and variance of a game's score with the scores `elo0` and
//! `elo1` predict.

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// A side's results so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The expected score of a side `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference an expected score implies (±infinity at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The mean score of a game, 0 to 1 (½ before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// The variance of one game's score around the mean.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let mu = self.score();
        (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n
    }

    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// The 95% interval of the Elo difference, low end first.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let margin = Z_95 * (self.variance() / n).sqrt();
        let mu = self.score();
        (elo_of_score(mu - margin), elo_of_score(mu + margin))
    }

    /// The log-likelihood ratio of "the difference is `elo1`" against "it is `elo0`".
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if self.games() == 0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// A sequential test of H0 "A is `elo0` stronger" against H1 "A is `elo1` stronger", with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (the converse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// Not clear yet: play on.
    Continue,
    /// H0 holds: A is not `elo1` stronger.
    H0,
    /// H1 holds: A is at least about `elo1` stronger.
    H1,
}

impl Sprt {
    /// Checks the bounds: `elo0 < elo1`, both error rates strictly between 0 and ½.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "the SPRT's elo0 ({elo0}) must be below its elo1 ({elo1})"
            ));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!(
                    "the SPRT's {name} must be between 0 and 0.5, not {p}"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratios at which H0 and H1 are accepted.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, tally: &Tally) -> SprtVerdict {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    // The expected values below were computed separately (Python, from the formulas in
    // cutechess-cli's EloCalculator and fishtest's stat_util.LLR_logistic).

    #[test]
    fn elo_and_score_convert_both_ways() {
        assert!(close(elo_of_score(0.5), 0.0));
        assert!(close(elo_of_score(0.75), 190.848_501_887_865));
        assert!(close(elo_of_score(0.25), -190.848_501_887_865));
        assert!(close(score_of_elo(190.848_501_887_865), 0.75));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_interval_matches_known_values() {
        let t = tally(60, 80, 40);
        assert!(close(t.score(), 0.555_555_555_555_555_6));
        assert!(close(t.elo(), 38.764_005_203_222_61));
        let (lo, hi) = t.elo_interval();
        assert!(close(lo, 1.195_486_979_060_137_5), "{lo}");
        assert!(close(hi, 77.261_278_081_635_82), "{hi}");
        let (lo, hi) = tally(120, 60, 20).elo_interval();
        assert!(close(lo, 150.108_564_538_362_83), "{lo}");
        assert!(close(hi, 237.032_071_510_672_75), "{hi}");
        // An even score: a symmetric interval around 0.
        let (lo, hi) = tally(30, 140, 30).elo_interval();
        assert!(
            close(lo, -26.424_347_454_468_656) && close(hi, -lo),
            "{lo} {hi}"
        );
    }

    #[test]
    fn llr_matches_known_values() {
        assert!(close(
            tally(60, 80, 40).llr(0.0, 10.0),
            0.922_241_298_826_251_5
        ));
        assert!(close(
            tally(60, 80, 40).llr(0.0, 50.0),
            1.877_751_061_754_566_5
        ));
        assert!(close(
            tally(30, 140, 30).llr(0.0, 50.0),
            -6.809_302_866_298_807
        ));
        assert!(close(
            tally(120, 60, 20).llr(0.0, 10.0),
            6.210_312_013_131_548
        ));
        assert_eq!(Tally::default().llr(0.0, 10.0), 0.0);
        assert_eq!(
            tally(0, 10, 0).llr(0.0, 10.0),
            0.0,
            "no variance, no evidence"
        );
    }

    #[test]
    fn sprt_stops_when_clear_and_not_before() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).expect("valid bounds");
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979_166_440_3));
        assert!(close(upper, 2.944_438_979_166_440_3));
        assert_eq!(sprt.verdict(&tally(120, 60, 20)), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&tally(30, 140, 30)), SprtVerdict::H0);
        assert_eq!(sprt.verdict(&tally(60, 80, 40)), SprtVerdict::Continue);
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.7).is_err());
    }
}
