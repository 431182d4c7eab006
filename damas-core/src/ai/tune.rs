//! Fitting Expert's evaluation to game results (Texel's method): every quiet position of a
//! set of finished games is a sample, labelled with the game's result; the weights of the
//! evaluation's features ([`super::eval::feature`]) are those that best predict the results
//! through a logistic curve, `P(White wins) = 1 / (1 + exp(-k · eval))`.
//!
//! The curve's steepness `k` is fitted first with the game app's evaluation (docs/GAME-APP.md:
//! a man is 100), and then held, so the tuned evaluation keeps the same unit: reviews and the search's margins
//! read it as before. Weights the games say little about (a man on a rare square) are held
//! near the prior, the hand-made evaluation Expert had before.
//!
//! A game's result is a noisy label for its early positions (a game of quick self-play is
//! decided by mistakes made long after them), so the label may also be blended with a deeper
//! search's verdict on the position itself, as engines train on search scores:
//! `λ · result + (1 − λ) · sigmoid(k · score)` ([`Samples::label_with_scores`]), the score from
//! a node-limited search ([`search_scores`]: nodes, not time, so the labels are the same on
//! any machine).

use super::eval::{self, feature, FeatureSink, Weights, FULL_BOARD, WEIGHT_SCALE};
use super::hash::Table;
use super::level::{Level, SearchLimits};
use super::search::{best_move, best_move_with_table, SearchOptions};
use super::EndgameTables;
use crate::engine::{Color, Game, Move, Outcome, Position, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
    /// The positions themselves, for a search to label.
    positions: Vec<Position>,
    /// Searched scores blended into the labels, if any.
    search: Option<SearchLabels>,
    games: usize,
}

/// Scores of a search of every sample (White's view, hundredths) and the weight `lambda` the
/// game's result keeps beside them.
struct SearchLabels {
    scores: Vec<i32>,
    lambda: f64,
}

/// Why search scores cannot label a set of samples.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LabelError {
    #[error("{scores} scores for {samples} positions")]
    Count { scores: usize, samples: usize },
    #[error("the result's weight λ must be between 0 and 1, not {0}")]
    Lambda(f64),
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
            self.positions.push(*pos);
        }
    }

    /// Whether sample `i` belongs to the games kept out of the fit (every tenth).
    pub fn is_held_out(&self, i: usize) -> bool {
        self.held_out[i]
    }

    /// The sampled positions, in order.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Labels every sample with `lambda · result + (1 − lambda) · sigmoid(k · score)`, where
    /// `scores` are White's scores of the samples in order (as [`search_scores`] gives them)
    /// and `k` the steepness the fit finds. `lambda` 1 keeps the results alone.
    pub fn label_with_scores(&mut self, scores: Vec<i32>, lambda: f64) -> Result<(), LabelError> {
        if scores.len() != self.len() {
            return Err(LabelError::Count {
                scores: scores.len(),
                samples: self.len(),
            });
        }
        if !(0.0..=1.0).contains(&lambda) {
            return Err(LabelError::Lambda(lambda));
        }
        self.search = Some(SearchLabels { scores, lambda });
        Ok(())
    }

    /// Each sample's label with the curve's steepness `k`: the game's result, blended with
    /// the searched score when there is one.
    pub fn targets(&self, k: f64) -> Vec<f64> {
        match &self.search {
            None => self.results.iter().map(|&r| r as f64).collect(),
            Some(s) => self
                .results
                .iter()
                .zip(&s.scores)
                .map(|(&r, &score)| {
                    s.lambda * r as f64 + (1.0 - s.lambda) * sigmoid(k * score as f64)
                })
                .collect(),
        }
    }

    fn results(&self) -> Vec<f64> {
        self.results.iter().map(|&r| r as f64).collect()
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
    /// Mean log loss against the labels on the fitted and held-out samples, with the prior
    /// weights and after.
    pub before: (f64, f64),
    pub after: (f64, f64),
    /// The same against the games' results alone (equal to the above unless searched scores
    /// are blended in), which compares fits whatever their labels.
    pub before_results: (f64, f64),
    pub after_results: (f64, f64),
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

/// Mean losses (fitted, held out) of weights `w` (in hundredths, full board then empty)
/// against `labels`.
fn losses(samples: &Samples, w: &[f64], k: f64, labels: &[f64]) -> (f64, f64) {
    let mut sum = [0.0f64; 2];
    let mut n = [0usize; 2];
    for (i, &label) in labels.iter().enumerate() {
        let e = predict(samples, i, w);
        let part = usize::from(samples.held_out[i]);
        sum[part] += log_loss(sigmoid(k * e), label);
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
    let targets = samples.targets(k);
    let results = samples.results();
    let before = losses(samples, &w, k, &targets);
    let before_results = losses(samples, &w, k, &results);
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
            let d = k * (sigmoid(k * e) - targets[i]);
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
    let after = losses(samples, &rounded, k, &targets);
    let after_results = losses(samples, &rounded, k, &results);
    let held_out = samples.held_out.iter().filter(|&&h| h).count();
    let report = FitReport {
        steepness: k,
        samples: samples.len() - held_out,
        held_out,
        before,
        after,
        before_results,
        after_results,
    };
    (tuned, report)
}

/// Positions a thread takes at a time in [`search_scores`]: few, so that a small set is shared
/// out too.
const CHUNK: usize = 16;

/// White's score (hundredths; beyond ±[`super::search::TABLE_BOUND`] a proven win or loss)
/// from Expert's search of each of `positions` at `nodes` nodes, searched on `threads`
/// threads, each position from scratch (no history, an emptied table), so that the scores do
/// not depend on the threads or the machine. Endgame positions `tables` hold (`None`: the
/// process's own, [`EndgameTables::global`]) get the tables' verdict. `progress` hears the
/// number of positions done now and then.
pub fn search_scores(
    positions: &[Position],
    nodes: u64,
    tables: Option<&EndgameTables>,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<i32> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let scores = Mutex::new(vec![0i32; positions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut table = Table::with_memory(64 << 20);
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= positions.len() {
                        break;
                    }
                    let end = (start + CHUNK).min(positions.len());
                    let chunk: Vec<i32> = positions[start..end]
                        .iter()
                        .map(|pos| white_search_score(pos, nodes, tables, &mut table))
                        .collect();
                    scores.lock().unwrap_or_else(|e| e.into_inner())[start..end]
                        .copy_from_slice(&chunk);
                    progress(done.fetch_add(chunk.len(), Ordering::Relaxed) + chunk.len());
                }
            });
        }
    });
    scores.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// White's score of `pos` after a search of `nodes` nodes.
fn white_search_score(
    pos: &Position,
    nodes: u64,
    tables: Option<&EndgameTables>,
    table: &mut Table,
) -> i32 {
    let opts = SearchOptions {
        seed: 1,
        limits: Some(SearchLimits {
            time: None,
            nodes: Some(nodes),
            depth: None,
        }),
        endgame_tables: tables.cloned(),
        ..SearchOptions::default()
    };
    let game = Game::from_position(*pos);
    let score = match best_move_with_table(&game, Level::Expert, &opts, table) {
        Some(r) => r.score,
        // No move: the side to move has lost (quiet samples always have one).
        None => -super::search::MATE,
    };
    match pos.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Settings of self-play games.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub variant: Variant,
    /// Random plies from the start before Expert plays, so that games differ.
    pub random_plies: usize,
    /// Expert's node budget a move (nodes, not time: the games do not depend on the machine).
    pub nodes: u64,
    /// Plies after which a game is scored a draw.
    pub max_plies: usize,
    /// The endgame tables Expert probes; `None` for the process's own
    /// ([`EndgameTables::global`], from the data folder). Tests pass
    /// [`EndgameTables::none`]: their games must not depend on what the user generated.
    pub endgame_tables: Option<EndgameTables>,
}

/// How self-play games meant to grow an opening book play their first plies after the random
/// ones: Expert weighs every legal move with a deep search of its own and plays one of those
/// it finds good, at random, so that the games are deep where the book will be and spread
/// over the good moves instead of repeating Expert's one favourite line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookOpening {
    /// Plies played this way (after [`SelfPlay::random_plies`]).
    pub plies: usize,
    /// Nodes of the search that weighs each legal move.
    pub nodes: u64,
    /// A move is good when its score is within this many hundredths of a man of the best.
    pub margin: i32,
}

/// Every legal move of `game` with its score for the side to move, each from an Expert search
/// of `nodes` nodes of the position it leads to, best first (ties in the order of the legal
/// moves). A move that ends the game scores the game's result. `tables` as in
/// [`SelfPlay::endgame_tables`].
pub fn weigh_moves(
    game: &Game,
    nodes: u64,
    tables: Option<&EndgameTables>,
    seed: u64,
) -> Vec<(Move, i32)> {
    let mover = game.position().side_to_move();
    let mut weighed: Vec<(Move, i32)> = game
        .position()
        .legal_moves()
        .iter()
        .filter_map(|mv| {
            let mut next = game.clone();
            next.play(*mv).ok()?;
            let score = match next.outcome() {
                Some(o) => match o.winner() {
                    Some(w) if w == mover => super::search::MATE,
                    Some(_) => -super::search::MATE,
                    None => 0,
                },
                None => {
                    let opts = SearchOptions {
                        seed,
                        limits: Some(SearchLimits {
                            time: None,
                            nodes: Some(nodes),
                            depth: None,
                        }),
                        endgame_tables: tables.cloned(),
                        ..SearchOptions::default()
                    };
                    // The opponent's best, turned round; no move for it is a loss for it.
                    best_move(&next, Level::Expert, &opts).map_or(super::search::MATE, |r| -r.score)
                }
            };
            Some((*mv, score))
        })
        .collect();
    weighed.sort_by_key(|(_, score)| std::cmp::Reverse(*score));
    weighed
}

/// Self-play game number `index` of a series seeded by `seed`: the same arguments give the
/// same game.
pub fn self_play_game(settings: &SelfPlay, seed: u64, index: u64) -> Game {
    self_play_game_from(settings, None, seed, index)
}

/// [`self_play_game`] whose first plies after the random ones are played as `book` says.
pub fn self_play_game_from(
    settings: &SelfPlay,
    book: Option<&BookOpening>,
    seed: u64,
    index: u64,
) -> Game {
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
    if let Some(book) = book {
        for _ in 0..book.plies {
            if game.is_over() {
                break;
            }
            let weighed = weigh_moves(
                &game,
                book.nodes,
                settings.endgame_tables.as_ref(),
                seed ^ (index << 16) ^ game.ply() as u64,
            );
            let Some(&(_, best)) = weighed.first() else {
                break;
            };
            let good: Vec<Move> = weighed
                .iter()
                .take_while(|(_, score)| *score >= best.saturating_sub(book.margin))
                .map(|(mv, _)| *mv)
                .collect();
            let Some(mv) = good.choose(&mut rng) else {
                break;
            };
            if game.play(*mv).is_err() {
                break;
            }
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
            endgame_tables: settings.endgame_tables.clone(),
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
        for seed in 0..100u64 {
            let game = self_play_game(
                &SelfPlay {
                    variant: Variant::English,
                    random_plies: 10,
                    nodes: 300,
                    max_plies: 60,
                    endgame_tables: Some(EndgameTables::none()),
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
        // A man up is worth something — through the men's own weights or the lead's, which
        // share the material between them differently from one fit to the next: a position
        // with one of Black's men taken off scores above the full board, by a good part of a
        // man on average over the twelve men. Not for each man: a square's own weight is fitted
        // on few games, and which square's man comes out worthless moves with the games that
        // Expert's network plays (two did with 60 games of the second English network, one with
        // 100 of the third), which says nothing of the fit.
        let full = Position::start(Variant::English);
        let gains: Vec<i32> = (1..=12)
            .map(|taken| {
                let fen = format!(
                    "B:W21-32:B{}",
                    (1..=12)
                        .filter(|s| *s != taken)
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                );
                let up = Position::from_fen(Variant::English, &fen).expect("a FEN");
                // Black to move in both: Black's score, turned to White's.
                eval::expert_with(&full, &w) - eval::expert_with(&up, &w)
            })
            .collect();
        let mean = gains.iter().sum::<i32>() / gains.len() as i32;
        assert!(mean > 40, "a man up is worth something: {gains:?}");
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
                endgame_tables: Some(EndgameTables::none()),
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

    fn short() -> SelfPlay {
        SelfPlay {
            variant: Variant::Spanish,
            random_plies: 0,
            nodes: 200,
            max_plies: 30,
            endgame_tables: Some(EndgameTables::none()),
        }
    }

    /// No tables: the tests' searches must not depend on what the user has generated.
    fn no_tables() -> Option<&'static EndgameTables> {
        static NONE: std::sync::OnceLock<EndgameTables> = std::sync::OnceLock::new();
        Some(NONE.get_or_init(EndgameTables::none))
    }

    #[test]
    fn weighing_scores_every_legal_move_best_first() {
        let game = Game::new(Variant::Spanish);
        let weighed = weigh_moves(&game, 2_000, no_tables(), 3);
        assert_eq!(weighed.len(), game.position().legal_moves().len());
        assert!(weighed.windows(2).all(|w| w[0].1 >= w[1].1), "{weighed:?}");
        assert_eq!(
            weigh_moves(&game, 2_000, no_tables(), 3),
            weighed,
            "the same budget, the same scores"
        );
    }

    /// The book plies play only moves Expert scores within the margin of the best, and a
    /// margin lets different games take different good moves.
    #[test]
    fn book_plies_play_good_moves_and_spread_over_them() {
        let strict = BookOpening {
            plies: 2,
            nodes: 2_000,
            margin: 0,
        };
        for index in 0..3 {
            let game = self_play_game_from(&short(), Some(&strict), 9, index);
            let mut replay = Game::new(Variant::Spanish);
            for mv in &game.moves()[..2] {
                let weighed = weigh_moves(
                    &replay,
                    strict.nodes,
                    no_tables(),
                    9 ^ (index << 16) ^ replay.ply() as u64,
                );
                let best = weighed[0].1;
                let played = weighed.iter().find(|(m, _)| m == mv).map(|(_, s)| *s);
                assert_eq!(played, Some(best), "game {index}: {weighed:?}");
                replay.play(*mv).expect("legal");
            }
        }
        let wide = BookOpening {
            margin: 1_000,
            ..strict
        };
        let firsts: std::collections::HashSet<Move> = (0..12)
            .map(|index| self_play_game_from(&short(), Some(&wide), 9, index).moves()[0])
            .collect();
        assert!(firsts.len() >= 2, "{firsts:?}");
        assert_eq!(
            self_play_game_from(&short(), Some(&wide), 9, 4).moves(),
            self_play_game_from(&short(), Some(&wide), 9, 4).moves(),
            "the same seed and index, the same game"
        );
    }

    /// A few short Spanish games' samples.
    fn spanish_samples(games: u64) -> Samples {
        let mut samples = Samples::default();
        let settings = SelfPlay {
            variant: Variant::Spanish,
            random_plies: 6,
            nodes: 300,
            max_plies: 200,
            endgame_tables: Some(EndgameTables::none()),
        };
        for index in 0..games {
            let game = self_play_game(&settings, 5, index);
            if let Some(white) = white_score(game.outcome()) {
                samples.add_game(&game, white, 0);
            }
        }
        samples
    }

    #[test]
    fn search_scores_blend_with_the_results_as_lambda_says() {
        let mut samples = spanish_samples(4);
        assert!(samples.len() > 20, "{} samples", samples.len());
        let scores: Vec<i32> = (0..samples.len() as i32)
            .map(|i| (i * 37) % 900 - 450)
            .collect();
        let k = 0.004;
        let results = samples.targets(k);
        samples
            .label_with_scores(scores.clone(), 0.25)
            .unwrap_or_else(|e| panic!("{e}"));
        let blended = samples.targets(k);
        for i in 0..samples.len() {
            let expected = 0.25 * results[i] + 0.75 / (1.0 + (-k * scores[i] as f64).exp());
            assert!((blended[i] - expected).abs() < 1e-12, "sample {i}");
        }
        samples
            .label_with_scores(scores.clone(), 0.0)
            .unwrap_or_else(|e| panic!("{e}"));
        let searched_only = samples.targets(k);
        assert!((searched_only[0] - 1.0 / (1.0 + (k * 450.0).exp())).abs() < 1e-12);
        // Bad labels change nothing.
        assert_eq!(
            samples.label_with_scores(scores[1..].to_vec(), 0.5),
            Err(LabelError::Count {
                scores: scores.len() - 1,
                samples: scores.len()
            })
        );
        assert_eq!(
            samples.label_with_scores(scores, 1.5),
            Err(LabelError::Lambda(1.5))
        );
        assert_eq!(samples.targets(k), searched_only);
    }

    #[test]
    fn lambda_one_reproduces_the_fit_on_the_results() {
        let mut samples = spanish_samples(6);
        let prior = Weights::prior(Variant::Spanish);
        let opts = FitOptions {
            epochs: 30,
            ..FitOptions::default()
        };
        let (on_results, report) = fit(&samples, &prior, opts);
        let scores = vec![400; samples.len()];
        samples
            .label_with_scores(scores, 1.0)
            .unwrap_or_else(|e| panic!("{e}"));
        let (again, again_report) = fit(&samples, &prior, opts);
        assert_eq!(again, on_results);
        assert_eq!(again_report.after, report.after);
        assert_eq!(again_report.after, again_report.after_results);
        // While the searched scores, all saying White wins, move the fit when they count.
        samples
            .label_with_scores(vec![400; samples.len()], 0.5)
            .unwrap_or_else(|e| panic!("{e}"));
        let (searched, _) = fit(&samples, &prior, opts);
        assert_ne!(searched, on_results);
    }

    #[test]
    fn search_scores_are_white_s_and_do_not_depend_on_the_threads() {
        // Two kings against two men far from crowning, the men's side to move: a win for the
        // side with the kings, White in the first position and Black in the second.
        let white_wins = Position::from_fen(Variant::Spanish, "B:WK9,K14:B28,32");
        let black_wins = Position::from_fen(Variant::Spanish, "W:W1,5:BK19,K24");
        let (Ok(white_wins), Ok(black_wins)) = (white_wins, black_wins) else {
            panic!("bad test FEN");
        };
        let samples = spanish_samples(4);
        let mut positions = vec![white_wins, black_wins];
        // More than two chunks of positions, so that two threads share them out, searched
        // deep enough that a table kept from one position to the next changes some scores.
        positions.extend(samples.positions().iter().take(46));
        assert!(positions.len() > 2 * CHUNK, "{} positions", positions.len());
        let one = search_scores(&positions, 20_000, no_tables(), 1, &|_| {});
        let two = search_scores(&positions, 20_000, no_tables(), 2, &|_| {});
        assert_eq!(one, two);
        assert!(one[0] > 200, "{}", one[0]);
        assert!(one[1] < -200, "{}", one[1]);
    }

    #[test]
    fn self_play_is_repeatable() {
        let settings = SelfPlay {
            variant: Variant::Portuguese,
            random_plies: 4,
            nodes: 300,
            max_plies: 40,
            endgame_tables: Some(EndgameTables::none()),
        };
        let a = self_play_game(&settings, 1, 3);
        let b = self_play_game(&settings, 1, 3);
        let c = self_play_game(&settings, 1, 4);
        assert_eq!(a.moves(), b.moves());
        assert_ne!(a.moves(), c.moves());
    }
}
