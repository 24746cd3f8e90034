//! Match statistics: the score, the Elo difference with its error bar, and the
//! sequential probability ratio test that stops a match once it has decided.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Two-sided 95% normal quantile.
const Z95: f64 = 1.959_964;

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Counts a game in which the first engine scored `points` (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        match points {
            p if p > 0.75 => self.wins += 1,
            p if p < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game and its per-game variance.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let s = self.points() / n;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some((s, var))
    }

    /// The Elo difference and the half-width of its 95% confidence interval.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let (s, var) = self.moments()?;
        if var == 0.0 {
            // All wins, all losses or all draws: no spread to measure yet.
            return Some((elo_of(s), f64::INFINITY));
        }
        let se = (var / f64::from(self.games())).sqrt();
        let elo = elo_of(s);
        let hi = elo_of(s + Z95 * se);
        let lo = elo_of(s - Z95 * se);
        Some((elo, (hi - lo) / 2.0))
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), by the normal
    /// approximation to the generalised SPRT (as fishtest and cutechess use it).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some((s, var)) = self.moments() else { return 0.0 };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        f64::from(self.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// An SPRT with error rates alpha = beta = 0.05.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted: it is not.
    H0,
}

impl Sprt {
    /// Parses `elo0,elo1`.
    ///
    /// # Errors
    /// When the text is not two numbers with `elo0 < elo1`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let (a, b) = text.split_once(',').ok_or("--sprt takes elo0,elo1 (for example 0,10)")?;
        let elo0: f64 = a.trim().parse().map_err(|_| format!("--sprt: {a:?} is not a number"))?;
        let elo1: f64 = b.trim().parse().map_err(|_| format!("--sprt: {b:?} is not a number"))?;
        if elo0 >= elo1 {
            return Err("--sprt: elo0 must be below elo1".into());
        }
        Ok(Sprt { elo0, elo1 })
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        let (alpha, beta) = (0.05f64, 0.05f64);
        ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
    }

    pub fn verdict(&self, t: &Tally) -> Verdict {
        let llr = t.llr(self.elo0, self.elo1);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The first verdict an SPRT reached and the tally it was reached on. Games already
/// under way when a test decides still finish and are counted in the score, but
/// they cannot undo the decision: the test's error rates hold only for the verdict
/// at the moment a bound was crossed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub verdict: Verdict,
    pub at: Tally,
}

impl Sprt {
    /// Folds one more finished game's tally into `decided`; true once the match should stop.
    pub fn follow(&self, decided: &mut Option<Decision>, t: &Tally) -> bool {
        if decided.is_none() {
            let verdict = self.verdict(t);
            if verdict != Verdict::Continue {
                *decided = Some(Decision { verdict, at: *t });
            }
        }
        decided.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally { wins: 10, draws: 20, losses: 10 };
        let (elo, err) = t.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(err > 0.0);
    }

    #[test]
    fn three_quarters_is_about_191_elo() {
        let t = Tally { wins: 30, draws: 0, losses: 10 };
        assert!((t.elo().unwrap().0 - 190.85).abs() < 0.1);
    }

    #[test]
    fn sprt_accepts_a_clear_improvement_and_rejects_a_regression() {
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(sprt.verdict(&Tally { wins: 600, draws: 300, losses: 300 }), Verdict::H1);
        assert_eq!(sprt.verdict(&Tally { wins: 300, draws: 300, losses: 600 }), Verdict::H0);
        assert_eq!(sprt.verdict(&Tally { wins: 3, draws: 3, losses: 2 }), Verdict::Continue);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("x").is_err());
    }

    #[test]
    fn a_decision_stands_when_games_in_flight_pull_the_ratio_back() {
        let sprt = Sprt::parse("0,10").unwrap();
        let mut decided = None;
        let mut t = Tally { wins: 93, draws: 64, losses: 33 };
        assert!(!sprt.follow(&mut decided, &t), "LLR {}", t.llr(0.0, 10.0));
        t.wins += 1;
        assert!(sprt.follow(&mut decided, &t), "LLR {}", t.llr(0.0, 10.0));
        let at = t;
        // As in a match at 3+0.03: H1 at game 191, then two losses from games already under way.
        t.losses += 2;
        assert_eq!(sprt.verdict(&t), Verdict::Continue);
        assert!(sprt.follow(&mut decided, &t));
        assert_eq!(decided, Some(Decision { verdict: Verdict::H1, at }));
    }
}
