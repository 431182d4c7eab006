//! Fitting Expert's evaluation to game results (Texel's method): every quiet position of a
//! set of finished games is a sample, labelled with the game's result; the weights of the
//! evaluation's features ([`super::eval::feature`]) are those that best predict the results
//! through a logistic curve, `P(White wins) = 1 / (1 + exp(-k · eval))`.
//!
//! The curve's steepness `k` is fitted first with the game app's evaluation (docs/GAME-APP.md:
//! a man is 100), and then held, so the tuned evaluation keeps the same unit: reviews and the search's margins
//! read it as before. Weights the games say little about (a man on a rare square) are held
//! near the prior, the hand-made evaluation Expert had before.

use super::eval::{self, feature, FeatureSink, Weights, FULL_BOARD, WEIGHT_SCALE};
use super::level::{Level, SearchLimits};
use super::search::{best_move, SearchOptions};
use crate::engine::{Color, Game, Outcome, Position, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Quiet positions of finished games, their features and White's score in each game.
#[derive(Default)]
pub struct Samples {
    /// Where each sample's features start in `entries` (one more offset than samples).
    offsets: Vec<u32>,
    entries: Vec<(u16, i16)>,
    fullness: Vec<u8>,
    /// White's score in the game: 1, ½ or 0.
    results: Vec<f32>,
    /// Seed 002's evaluation from White's view, for fitting the curve's steepness.
    reference: Vec<i16>,
    /// Samples of every tenth game, kept out of the fit to check it.
    held_out: Vec<bool>,
    games: usize,
}

/// Dense per-position feature counts, cleared after each position.
struct Scratch {
    counts: Vec<i32>,
    touched: Vec<usize>,
}

impl FeatureSink for Scratch {
    fn add(&mut self, f: usize, v: i32) {
        if self.counts[f] == 0 {
            self.touched.push(f);
        }
        self.counts[f] += v;
    }
}

/// White's score in a finished game, if it has a result.
pub fn white_score(outcome: Option<Outcome>) -> Option<f32> {
    match outcome? {
        Outcome::Draw { .. } => Some(0.5),
        Outcome::Win { winner, .. } => Some(if winner == Color::White { 1.0 } else { 0.0 }),
    }
}

/// Whether a position says something a static evaluation can be held to: no capture
/// pending for the side to move, and (with flying kings) not a kings-only ending, which the
/// evaluation scales down and the endgame tables decide.
fn quiet(pos: &Position) -> bool {
    if pos.has_capture() {
        return false;
    }
    let men = pos.men(Color::White).count() + pos.men(Color::Black).count();
    !(pos.variant().flying_kings() && men == 0)
}

impl Samples {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds the quiet positions of `game`, from ply `skip` on, labelled with `white`.
    pub fn add_game(&mut self, game: &Game, white: f32, skip: usize) {
        let held_out = self.games % 10 == 9;
        self.games += 1;
        let mut scratch = Scratch {
            counts: vec![0; feature::COUNT],
            touched: Vec::new(),
        };
        for pos in game.positions().iter().skip(skip) {
            if !quiet(pos) || pos.legal_moves().is_empty() {
                continue;
            }
            if self.offsets.is_empty() {
                self.offsets.push(0);
            }
            eval::features(pos, &mut scratch);
            for &f in &scratch.touched {
                let v = scratch.counts[f];
                if v != 0 {
                    self.entries
                        .push((f as u16, v.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
                }
                scratch.counts[f] = 0;
            }
            scratch.touched.clear();
            self.offsets.push(self.entries.len() as u32);
            self.fullness.push(eval::fullness(pos) as u8);
            self.results.push(white);
            let basic = match pos.side_to_move() {
                Color::White => eval::basic(pos),
                Color::Black => -eval::basic(pos),
            };
            self.reference.push(basic.clamp(-3000, 3000) as i16);
            self.held_out.push(held_out);
        }
    }

    fn features(&self, i: usize) -> &[(u16, i16)] {
        &self.entries[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log loss of predicting `y` with `p`.
fn log_loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The steepness `k` with which the game app's evaluation (docs/GAME-APP.md) best predicts
/// the results.
pub fn fit_steepness(samples: &Samples) -> f64 {
    let loss = |k: f64| {
        (0..samples.len())
            .filter(|&i| !samples.held_out[i])
            .map(|i| {
                log_loss(
                    sigmoid(k * samples.reference[i] as f64),
                    samples.results[i] as f64,
                )
            })
            .sum::<f64>()
    };
    // Golden-section search over a range wide enough for any sensible unit.
    let (mut lo, mut hi) = (1e-4, 0.1);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How a fit went.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub steepness: f64,
    pub samples: usize,
    pub held_out: usize,
    /// Mean log loss on the fitted and held-out samples, with the prior weights and after.
    pub before: (f64, f64),
    pub after: (f64, f64),
}

/// Settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Passes over the samples.
    pub epochs: usize,
    /// Pull towards the prior, per weight (in units of the mean loss per hundredth squared).
    pub l2: f64,
    /// Adam's step, in hundredths of a man.
    pub step: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 300,
            l2: 1e-7,
            step: 1.0,
        }
    }
}

/// Mean losses (fitted, held out) of weights `w` (in hundredths, full board then empty).
fn losses(samples: &Samples, w: &[f64], k: f64) -> (f64, f64) {
    let mut sum = [0.0f64; 2];
    let mut n = [0usize; 2];
    for i in 0..samples.len() {
        let e = predict(samples, i, w);
        let part = usize::from(samples.held_out[i]);
        sum[part] += log_loss(sigmoid(k * e), samples.results[i] as f64);
        n[part] += 1;
    }
    (sum[0] / n[0].max(1) as f64, sum[1] / n[1].max(1) as f64)
}

/// The evaluation (White's view, hundredths) of sample `i` with weights `w`.
fn predict(samples: &Samples, i: usize, w: &[f64]) -> f64 {
    let full = samples.fullness[i] as f64 / FULL_BOARD as f64;
    let mut e = 0.0;
    for &(f, v) in samples.features(i) {
        let f = f as usize;
        e += v as f64 * (w[f] * full + w[feature::COUNT + f] * (1.0 - full));
    }
    e
}

/// Fits the weights to `samples`, starting from and held near `prior`.
pub fn fit(samples: &Samples, prior: &Weights, opts: FitOptions) -> (Weights, FitReport) {
    let k = fit_steepness(samples);
    let scale = WEIGHT_SCALE as f64;
    let start: Vec<f64> = prior
        .full
        .iter()
        .chain(prior.empty.iter())
        .map(|&x| x as f64 / scale)
        .collect();
    let mut w = start.clone();
    let before = losses(samples, &w, k);
    let fitted: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples.held_out[i])
        .collect();
    let n = fitted.len().max(1) as f64;
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    for epoch in 1..=opts.epochs {
        let mut grad = vec![0.0; w.len()];
        for &i in &fitted {
            let e = predict(samples, i, &w);
            let d = k * (sigmoid(k * e) - samples.results[i] as f64);
            let full = samples.fullness[i] as f64 / FULL_BOARD as f64;
            for &(f, x) in samples.features(i) {
                let f = f as usize;
                grad[f] += d * x as f64 * full;
                grad[feature::COUNT + f] += d * x as f64 * (1.0 - full);
            }
        }
        for j in 0..w.len() {
            let g = grad[j] / n + 2.0 * opts.l2 * (w[j] - start[j]);
            m[j] = beta1 * m[j] + (1.0 - beta1) * g;
            v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
            let m_hat = m[j] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[j] / (1.0 - beta2.powi(epoch as i32));
            w[j] -= opts.step * m_hat / (v_hat.sqrt() + eps);
        }
    }
    let mut tuned = Weights::zero();
    for f in 0..feature::COUNT {
        tuned.full[f] = (w[f] * scale).round() as i32;
        tuned.empty[f] = (w[feature::COUNT + f] * scale).round() as i32;
    }
    let rounded: Vec<f64> = tuned
        .full
        .iter()
        .chain(tuned.empty.iter())
        .map(|&x| x as f64 / scale)
        .collect();
    let after = losses(samples, &rounded, k);
    let held_out = samples.held_out.iter().filter(|&&h| h).count();
    let report = FitReport {
        steepness: k,
        samples: samples.len() - held_out,
        held_out,
        before,
        after,
    };
    (tuned, report)
}

/// Settings of self-play games.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    pub variant: Variant,
    /// Random plies from the start before Expert plays, so that games differ.
    pub random_plies: usize,
    /// Expert's node budget a move (nodes, not time: the games do not depend on the machine).
    pub nodes: u64,
    /// Plies after which a game is scored a draw.
    pub max_plies: usize,
}

/// Self-play game number `index` of a series seeded by `seed`: the same arguments give the
/// same game.
pub fn self_play_game(settings: &SelfPlay, seed: u64, index: u64) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = Game::new(settings.variant);
    for _ in 0..settings.random_plies {
        let moves = game.position().legal_moves();
        let Some(mv) = moves.choose(&mut rng) else {
            break;
        };
        if game.play(*mv).is_err() || game.is_over() {
            break;
        }
    }
    while !game.is_over() && game.ply() < settings.max_plies {
        let opts = SearchOptions {
            seed: seed ^ (index << 16) ^ game.ply() as u64,
            limits: Some(SearchLimits {
                time: None,
                nodes: Some(settings.nodes),
                depth: None,
            }),
            ..SearchOptions::default()
        };
        let Some(r) = best_move(&game, Level::Expert, &opts) else {
            break;
        };
        if game.play(r.mv).is_err() {
            break;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games where White wins exactly when it has more men: the fit must learn that a man is
    /// worth something, starting from nothing.
    #[test]
    fn the_fit_learns_what_decides_the_games() {
        let mut samples = Samples::default();
        for seed in 0..60u64 {
            let game = self_play_game(
                &SelfPlay {
                    variant: Variant::English,
                    random_plies: 10,
                    nodes: 300,
                    max_plies: 60,
                },
                seed,
                seed,
            );
            let pos = game.position();
            let men = |c| pos.pieces(c).count() as i32;
            let white = match men(Color::White).cmp(&men(Color::Black)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            };
            samples.add_game(&game, white, 40);
        }
        assert!(samples.len() > 100, "{} samples", samples.len());
        let (w, report) = fit(
            &samples,
            &Weights::zero(),
            FitOptions {
                epochs: 200,
                l2: 0.0,
                step: 2.0,
            },
        );
        assert!(report.after.0 < report.before.0, "{report:?}");
        let mean_man: i32 = (0..32).map(|s| w.full[feature::MAN + s]).sum::<i32>() / 32;
        assert!(mean_man > 0, "a man is worth something: {mean_man}");
    }

    #[test]
    fn a_fit_from_the_prior_never_does_worse_on_its_samples() {
        let mut samples = Samples::default();
        for seed in 0..20u64 {
            let settings = SelfPlay {
                variant: Variant::Spanish,
                random_plies: 6,
                nodes: 500,
                max_plies: 200,
            };
            let game = self_play_game(&settings, 7, seed);
            if let Some(white) = white_score(game.outcome()) {
                samples.add_game(&game, white, 0);
            }
        }
        let prior = Weights::prior(Variant::Spanish);
        let (_, report) = fit(&samples, &prior, FitOptions::default());
        assert!(report.after.0 <= report.before.0 + 1e-6, "{report:?}");
    }

    #[test]
    fn self_play_is_repeatable() {
        let settings = SelfPlay {
            variant: Variant::Portuguese,
            random_plies: 4,
            nodes: 300,
            max_plies: 40,
        };
        let a = self_play_game(&settings, 1, 3);
        let b = self_play_game(&settings, 1, 3);
        let c = self_play_game(&settings, 1, 4);
        assert_eq!(a.moves(), b.moves());
        assert_ne!(a.moves(), c.moves());
    }
}
