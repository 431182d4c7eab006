//! A small network that corrects Expert's weighted evaluation where weights per feature cannot
//! see: how pieces stand together. Its output, in hundredths of a man from the side to move's
//! view, is added to the weighted evaluation ([`super::eval::expert`]).
//!
//! Inputs are 128 bits: the side to move's men and kings and the opponent's men and kings,
//! square by square as the side to move sees the board (so one network plays both colours);
//! one hidden layer of rectified units; one output. It is trained ([`train`], `damas tune
//! network`) on the same samples as the weights — quiet positions of finished games, labelled
//! with the result blended with a deeper search's score — to predict what the weights alone
//! miss, so it never replaces them: without a network Expert still plays.
//!
//! The networks live in `data/eval-network.txt`, one `[variant]` section each; a variant
//! without one and kings-only endings (which the endgame tables and the drawish scaling judge)
//! get no correction.
//!
//! The file keeps the weights as trained, in `f32`; Expert evaluates with them quantized on
//! load ([`QuantizedNetwork`]): the first layer in `i16` fixed point, so that its sums are exact
//! whatever the order of the additions. That lets the search step them from a position's
//! parent, by the few pieces that moved, instead of summing every piece again at each leaf, and
//! only when an evaluation reads them ([`PathAccumulators`], as chess and draughts engines with
//! networks do); and a search of a fixed number of nodes gives the same move on any machine,
//! with or without AVX2.

use super::eval;
use super::tune::{fit_steepness, Samples};
use crate::engine::{Color, Position, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::sync::OnceLock;

/// Inputs: 4 kinds of piece × 32 squares.
pub const INPUTS: usize = 128;

/// The widest hidden layer a network file may have: the evaluation keeps it on the stack, and
/// wider layers cost nodes a second (docs/BENCHMARKS.md).
pub const MAX_HIDDEN: usize = 128;

/// How many of the [`MAX_HIDDEN`] units the search's sums step for a network: its hidden size
/// rounded up to one of these (the units past it are 0), so that a network of 64 units costs
/// what it did before wider ones could be read.
const LANES: [usize; 2] = [64, MAX_HIDDEN];

/// The committed networks (`damas tune network` writes them).
pub const NETWORK_FILE: &str = include_str!("../../../data/eval-network.txt");

/// Where the networks live in the repository.
pub const NETWORK_PATH: &str = "data/eval-network.txt";

/// How far outside the search's window (hundredths of a man) the weights alone must put a quiet
/// leaf for the search to leave a network's correction out there, when its file does not say
/// ([`Network::reach`]): wide enough for the largest corrections seen where it matters.
pub const DEFAULT_REACH: i32 = 400;

/// One variant's network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    hidden: usize,
    /// How far its corrections are trusted to reach, in hundredths of a man: a quiet leaf whose
    /// weighted score lies this far outside the search's window gets the bound the weights give,
    /// without the network. Measured for each committed network on the leaves of searches
    /// (docs/BENCHMARKS.md, "The network's cost"); a network trained anew gets
    /// [`DEFAULT_REACH`] until its own is measured.
    reach: i32,
    /// `INPUTS` rows of `hidden` weights: the hidden layer's sums start from `b1` and add the
    /// row of each piece on the board.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Output weights and bias, in hundredths of a man.
    w2: Vec<f32>,
    b2: f32,
}

/// Why a network file does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
    #[error("[{variant}]: {why}")]
    Section { variant: &'static str, why: String },
}

/// The side to move's view of square `i` (0..32).
#[inline(always)]
fn seen_from(me: Color, i: usize) -> usize {
    match me {
        Color::White => i,
        Color::Black => 31 - i,
    }
}

/// Calls `f` with each active input of `pos`.
#[inline(always)]
fn for_each_input(pos: &Position, mut f: impl FnMut(usize)) {
    let me = pos.side_to_move();
    for (plane, bits) in [
        (0, pos.men(me).0),
        (1, pos.kings(me).0),
        (2, pos.men(!me).0),
        (3, pos.kings(!me).0),
    ] {
        let mut b = bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            f(plane * 32 + seen_from(me, i));
        }
    }
}

/// Whether a network judges `pos` at all: not a kings-only ending.
fn has_men(pos: &Position) -> bool {
    (pos.men(Color::White).0 | pos.men(Color::Black).0) != 0
}

impl Network {
    /// A network whose output is 0 everywhere, with first-layer weights drawn from `seed`
    /// (training starts here: the weighted evaluation alone).
    pub fn untrained(hidden: usize, seed: u64) -> Network {
        let mut rng = SmallRng::seed_from_u64(seed);
        Network {
            hidden,
            reach: DEFAULT_REACH,
            w1: (0..INPUTS * hidden)
                .map(|_| rng.gen_range(-0.1..0.1))
                .collect(),
            b1: vec![0.1; hidden],
            w2: vec![0.0; hidden],
            b2: 0.0,
        }
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// See [`Network`]'s `reach`.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// The output for the active `inputs` and, into `h`, the hidden layer after its
    /// rectifier (hundredths, side to move's view, once trained; men during training).
    fn output(&self, inputs: &[u16], h: &mut [f32]) -> f32 {
        h.copy_from_slice(&self.b1);
        for &a in inputs {
            let row = &self.w1[a as usize * self.hidden..(a as usize + 1) * self.hidden];
            for (x, w) in h.iter_mut().zip(row) {
                *x += w;
            }
        }
        let mut out = self.b2;
        for (x, w) in h.iter_mut().zip(&self.w2) {
            *x = x.max(0.0);
            out += *x * w;
        }
        out
    }

    /// The correction for `pos` as trained, in `f32`, in whole hundredths from the side to
    /// move's view: 0 in a kings-only ending. Expert judges with [`QuantizedNetwork`], which
    /// agrees with this within a hundredth or two (a test measures it).
    pub fn correction(&self, pos: &Position) -> i32 {
        if !has_men(pos) {
            return 0;
        }
        let n = self.hidden;
        let mut buffer = [0f32; MAX_HIDDEN];
        let sums = &mut buffer[..n];
        sums.copy_from_slice(&self.b1);
        for_each_input(pos, |a| {
            for (x, w) in sums.iter_mut().zip(&self.w1[a * n..(a + 1) * n]) {
                *x += w;
            }
        });
        let mut out = self.b2;
        for (x, w) in sums.iter().zip(&self.w2) {
            out += x.max(0.0) * w;
        }
        out as i32
    }

    /// This variant's section of a network file.
    pub fn to_text(&self, variant: Variant) -> String {
        let row = |name: &str, v: &[f32]| {
            let words: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("{name} {}\n", words.join(" "))
        };
        format!(
            "[{}]\nhidden {}\nreach {}\n{}{}{}b2 {}\n",
            variant.id(),
            self.hidden,
            self.reach,
            row("w1", &self.w1),
            row("b1", &self.b1),
            row("w2", &self.w2),
            self.b2
        )
    }

    /// The networks in `text`: `[variant]` sections of `hidden N`, `reach N` (optional:
    /// [`DEFAULT_REACH`]), `w1 …`, `b1 …`, `w2 …` and `b2 x` lines (shortest round-trip
    /// decimals); `#` starts a comment.
    pub fn parse_all(text: &str) -> Result<Vec<(Variant, Network)>, NetworkError> {
        type Rows = Vec<(String, usize, Vec<f32>)>;
        let mut sections: Vec<(Variant, usize, Rows)> = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let bad = |why: String| NetworkError::Line { line: n + 1, why };
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let variant: Variant = name.parse().map_err(|e| bad(format!("{e}")))?;
                if sections.iter().any(|(v, ..)| *v == variant) {
                    return Err(bad(format!("a second [{}] section", variant.id())));
                }
                sections.push((variant, n + 1, Vec::new()));
                continue;
            }
            let Some((_, _, rows)) = sections.last_mut() else {
                return Err(bad("a line before any [variant]".into()));
            };
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default().to_string();
            if !["hidden", "reach", "w1", "b1", "w2", "b2"].contains(&name.as_str()) {
                return Err(bad(format!(
                    "unknown row {name:?} (expected hidden, reach, w1, b1, w2 or b2)"
                )));
            }
            if rows.iter().any(|(r, ..)| *r == name) {
                return Err(bad(format!("a second {name} row")));
            }
            let values = words
                .map(|w| {
                    w.parse::<f32>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| bad(format!("not a number: {w}")))
                })
                .collect::<Result<Vec<f32>, _>>()?;
            rows.push((name, n + 1, values));
        }
        sections
            .into_iter()
            .map(|(variant, _, rows)| {
                let bad = |why: String| NetworkError::Section {
                    variant: variant.id(),
                    why,
                };
                let row = |name: &str| {
                    rows.iter()
                        .find(|(r, ..)| r == name)
                        .map(|(_, _, v)| v.clone())
                        .ok_or_else(|| bad(format!("no {name} row")))
                };
                let hidden = match row("hidden")?[..] {
                    [h] if h >= 1.0 && h <= MAX_HIDDEN as f32 && h.fract() == 0.0 => h as usize,
                    _ => {
                        return Err(bad(format!(
                            "hidden must be one whole number from 1 to {MAX_HIDDEN}"
                        )))
                    }
                };
                let reach = match rows.iter().find(|(r, ..)| r == "reach") {
                    None => DEFAULT_REACH,
                    Some((_, _, v)) => match v[..] {
                        [r] if (1.0..=10_000.0).contains(&r) && r.fract() == 0.0 => r as i32,
                        _ => {
                            return Err(bad(
                                "reach must be one whole number of hundredths from 1 to 10000"
                                    .into(),
                            ))
                        }
                    },
                };
                let (w1, b1, w2, b2) = (row("w1")?, row("b1")?, row("w2")?, row("b2")?);
                for (name, got, want) in [
                    ("w1", w1.len(), INPUTS * hidden),
                    ("b1", b1.len(), hidden),
                    ("w2", w2.len(), hidden),
                    ("b2", b2.len(), 1),
                ] {
                    if got != want {
                        return Err(bad(format!(
                            "{name} has {got} numbers, {want} expected with {hidden} hidden"
                        )));
                    }
                }
                Ok((
                    variant,
                    Network {
                        hidden,
                        reach,
                        w1,
                        b1,
                        w2,
                        b2: b2[0],
                    },
                ))
            })
            .collect()
    }

    /// Expert's network for `variant`, as read: those given to [`Network::use_instead`], else
    /// the committed ones; `None` where there is none.
    pub fn of(variant: Variant) -> Option<&'static Network> {
        loaded()
            .iter()
            .find(|l| l.variant == variant)
            .map(|l| &l.network)
    }

    /// Makes this process's Expert correct its evaluation with exactly the networks in `text`
    /// (a network file's contents; variants it lacks get none, so an empty file turns them
    /// off) — for `damas engine --network`, to measure a candidate in a match without a build,
    /// and for the tuner's labelling searches. Only before the first evaluation and only once:
    /// returns false if the networks were already chosen.
    pub fn use_instead(text: &str) -> Result<bool, NetworkError> {
        let all = load(text)?;
        Ok(INSTEAD.set(all).is_ok())
    }

    /// This network in integers, as Expert evaluates with it; an error says why it cannot be.
    pub fn quantize(&self) -> Result<QuantizedNetwork, String> {
        QuantizedNetwork::of_network(self)
    }
}

/// Networks that replace the committed ones in this process ([`Network::use_instead`]).
static INSTEAD: OnceLock<Vec<Loaded>> = OnceLock::new();

/// The correction Expert adds for `pos`: its variant's network's (in integers), or 0.
#[inline]
pub fn correction(pos: &Position) -> i32 {
    QuantizedNetwork::of(pos.variant()).map_or(0, |n| n.correction(pos))
}

/// One side's view of the hidden layer's sums, in integers; units past the network's hidden
/// size stay 0.
type Sums = [i16; MAX_HIDDEN];

/// The sums of the hidden layer in integers, for both sides' view of one position: the side to
/// move's is read ([`QuantizedNetwork::output`]), and the other one is ready for the next ply,
/// when that side is to move. Stepped from the parent's by the few rows of the pieces that
/// moved ([`QuantizedNetwork::step`]), not counted again a row per piece on the board; the
/// search steps only the views its evaluations read ([`PathAccumulators`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the viewing side's [`Color::index`].
    sums: [Sums; 2],
}

impl Accumulator {
    /// Sums that count no piece and no bias: the search's slots before a position is set.
    pub const EMPTY: Accumulator = Accumulator {
        sums: [[0; MAX_HIDDEN]; 2],
    };
}

/// The input of a piece of `owner` on square `i` as `viewer`, to move, sees it.
#[inline(always)]
fn input_of(viewer: Color, owner: Color, king: bool, i: usize) -> usize {
    let plane = 2 * usize::from(owner != viewer) + usize::from(king);
    plane * 32 + seen_from(viewer, i)
}

/// The first layer's sums are kept in 1/2^`shift` of a unit with at least this many bits
/// after the point, else the network is refused: coarser steps would change its judgement.
const MIN_HIDDEN_SHIFT: u32 = 6;
/// And at most this many: enough that rounding moves the output by about a hundredth.
const MAX_HIDDEN_SHIFT: u32 = 14;
/// Bits after the point of the output weights (and the output's sum), at most.
const MAX_OUTPUT_SHIFT: u32 = 12;

/// A network in integers: Expert's search and [`correction`] evaluate with this.
///
/// The first layer's weights and biases are rounded to multiples of 1/2^`hidden_shift`, the
/// largest step that keeps every possible sum — the bias plus, on each of the 32 squares, the
/// largest of the four pieces' weights — within `i16`; the output layer's to 1/2^`output_shift`
/// hundredths, so that its sum of products stays within `i32`. Integer sums are exact, so the
/// accumulator stepped move by move equals the one counted from scratch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantizedNetwork {
    /// [`INPUTS`] rows of [`MAX_HIDDEN`] (units past `hidden` are 0), in 1/2^hidden_shift.
    w1: Box<[Row; INPUTS]>,
    b1: [i16; MAX_HIDDEN],
    /// In 1/2^output_shift hundredths per unit of hidden sum.
    w2: [i16; MAX_HIDDEN],
    /// In 1/2^(hidden_shift + output_shift) hundredths.
    b2: i32,
    /// [`Network::reach`].
    reach: i32,
    hidden_shift: u32,
    /// 2^(hidden_shift + output_shift): what the output layer's sum is divided by to give
    /// hundredths, the output layer's weights being in 1/2^output_shift.
    output_divisor: PowerOfTwo,
    /// The vector instructions the sums are made with: the widest this processor has. Every
    /// kind gives the same integers.
    simd: Simd,
    /// How many units the search steps ([`LANES`]).
    lanes: usize,
}

/// Which vector instructions step the sums and sum the output layer: the same code, compiled
/// for SSE2 (every x86-64; elsewhere, what the target has) or for AVX2 (twice as wide), chosen
/// at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simd {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Simd {
    /// The widest kind this processor runs.
    fn best() -> Simd {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
        Simd::Portable
    }
}

/// A row of the first layer, aligned as the accumulator's so that adding it is whole vector
/// words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Row([i16; MAX_HIDDEN]);

/// `x` in steps of 1/2^`shift`, if it fits an `i16`.
fn fixed_i16(x: f32, shift: u32) -> Option<i16> {
    let q = (f64::from(x) * f64::from(1u32 << shift)).round();
    (q.abs() <= f64::from(i16::MAX)).then_some(q as i16)
}

impl QuantizedNetwork {
    /// `net` in integers, or why it cannot be: weights too large for 16-bit sums with
    /// [`MIN_HIDDEN_SHIFT`] bits after the point.
    pub fn of_network(net: &Network) -> Result<QuantizedNetwork, String> {
        let n = net.hidden;
        let first_layer = |shift: u32| -> Option<(Box<[Row; INPUTS]>, [i16; MAX_HIDDEN])> {
            let mut w1 = Box::new([Row([0i16; MAX_HIDDEN]); INPUTS]);
            let mut b1 = [0i16; MAX_HIDDEN];
            for a in 0..INPUTS {
                for j in 0..n {
                    w1[a].0[j] = fixed_i16(net.w1[a * n + j], shift)?;
                }
            }
            for (q, &x) in b1.iter_mut().zip(&net.b1) {
                *q = fixed_i16(x, shift)?;
            }
            Some((w1, b1))
        };
        // The largest sum each unit can reach, in integers: one piece a square at most.
        let reach = |w1: &[Row; INPUTS], b1: &[i16; MAX_HIDDEN]| {
            let mut most = [0i64; MAX_HIDDEN];
            for (j, m) in most.iter_mut().enumerate() {
                *m = i64::from(b1[j]).abs();
                for square in 0..32 {
                    *m += (0..4)
                        .map(|plane| i64::from(w1[plane * 32 + square].0[j]).abs())
                        .max()
                        .unwrap_or(0);
                }
            }
            most
        };
        let (hidden_shift, w1, b1, most) = (MIN_HIDDEN_SHIFT..=MAX_HIDDEN_SHIFT)
            .rev()
            .find_map(|shift| {
                let (w1, b1) = first_layer(shift)?;
                let most = reach(&w1, &b1);
                most.iter()
                    .all(|&m| m <= i64::from(i16::MAX))
                    .then_some((shift, w1, b1, most))
            })
            .ok_or_else(|| {
                format!(
                    "first-layer weights too large: their sums must stay within ±{} in steps of 1/{}",
                    i16::MAX >> MIN_HIDDEN_SHIFT,
                    1 << MIN_HIDDEN_SHIFT
                )
            })?;
        let output = |shift: u32| -> Option<([i16; MAX_HIDDEN], i32)> {
            let mut w2 = [0i16; MAX_HIDDEN];
            for (q, &x) in w2.iter_mut().zip(&net.w2) {
                *q = fixed_i16(x, shift)?;
            }
            let b2 = (f64::from(net.b2) * f64::from(1u32 << (hidden_shift + shift))).round();
            let total = b2.abs()
                + (0..n)
                    .map(|j| most[j] as f64 * f64::from(w2[j]).abs())
                    .sum::<f64>();
            (total <= f64::from(i32::MAX)).then_some((w2, b2 as i32))
        };
        let (output_shift, w2, b2) = (0..=MAX_OUTPUT_SHIFT)
            .rev()
            .find_map(|shift| output(shift).map(|(w2, b2)| (shift, w2, b2)))
            .ok_or_else(|| "output weights too large to sum in 32 bits".to_string())?;
        Ok(QuantizedNetwork {
            w1,
            b1,
            w2,
            b2,
            reach: net.reach,
            hidden_shift,
            output_divisor: PowerOfTwo::new(hidden_shift + output_shift),
            simd: Simd::best(),
            lanes: LANES.into_iter().find(|&l| n <= l).unwrap_or(MAX_HIDDEN),
        })
    }

    /// [`Network::reach`].
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// This network with its sums made by `simd` (tests compare the kinds).
    #[cfg(test)]
    pub(crate) fn with_simd(&self, simd: Simd) -> QuantizedNetwork {
        QuantizedNetwork {
            simd,
            ..self.clone()
        }
    }

    /// The accumulator of `pos`, counted from scratch.
    pub fn accumulate(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator { sums: [self.b1; 2] };
        for owner in [Color::White, Color::Black] {
            for (king, bits) in [(false, pos.men(owner).0), (true, pos.kings(owner).0)] {
                let mut b = bits;
                while b != 0 {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    for viewer in [Color::White, Color::Black] {
                        add_row(
                            &mut acc.sums[viewer.index()],
                            &self.w1[input_of(viewer, owner, king, i)].0,
                        );
                    }
                }
            }
        }
        acc
    }

    /// The accumulator of `after` from `parent`, that of `before`: the rows of the pieces
    /// that left a square come off, those of the pieces that arrived go on (a move, its
    /// captures and a crowning alike). Exact in any order: the sums wrap as `i16`, and the
    /// result is a position's, which fits.
    pub fn step(&self, parent: &Accumulator, before: &Position, after: &Position) -> Accumulator {
        let mut child = Accumulator::EMPTY;
        for viewer in [Color::White, Color::Black] {
            let v = viewer.index();
            child.sums[v] = self.step_view(&parent.sums[v], viewer, before, after);
        }
        child
    }

    /// `viewer`'s view of [`QuantizedNetwork::step`].
    #[inline]
    fn step_view(&self, parent: &Sums, viewer: Color, before: &Position, after: &Position) -> Sums {
        let mut sums = *parent;
        match self.simd {
            Simd::Portable => step_sums(&self.w1, &mut sums, viewer, planes(before), planes(after)),
            // SAFETY: `Simd::best` chose AVX2 only where the processor has it (and tests
            // construct it only there).
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe {
                step_sums_avx2(&self.w1, &mut sums, viewer, planes(before), planes(after))
            },
        }
        sums
    }

    /// The correction for `pos` from its accumulator, in whole hundredths from the side to
    /// move's view (truncated towards 0, as the float network's): 0 in a kings-only ending.
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        if !has_men(pos) {
            return 0;
        }
        self.output_of(&acc.sums[pos.side_to_move().index()])
    }

    /// The correction of the side to move whose view is `sums`, in a position with men.
    #[inline]
    fn output_of(&self, sums: &Sums) -> i32 {
        let products = match self.simd {
            Simd::Portable => output_sum(sums, &self.w2),
            // SAFETY: as in `step_view`.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => unsafe { output_sum_avx2(sums, &self.w2) },
        };
        self.output_of_sum(products)
    }

    /// The correction from the output layer's sum of products ([`output_sum`]).
    #[inline(always)]
    fn output_of_sum(&self, products: i32) -> i32 {
        // Within i32 by the bound `of_network` checked.
        self.output_divisor.divide(self.b2 + products)
    }

    /// The correction for `pos`, counted from scratch: the same number the search's
    /// accumulators give.
    pub fn correction(&self, pos: &Position) -> i32 {
        if !has_men(pos) {
            return 0;
        }
        self.output(&self.accumulate(pos), pos)
    }

    /// Expert's network for `variant`, in integers: that of [`Network::of`].
    pub fn of(variant: Variant) -> Option<&'static QuantizedNetwork> {
        loaded()
            .iter()
            .find(|l| l.variant == variant)
            .map(|l| &l.quantized)
    }
}

/// A division by 2^`shift`, truncated towards 0 as `/` is, for `shift` below 31: a shift and an
/// addition where `/` by a divisor known only at run time is a division instruction, tens of
/// cycles at every evaluation (measured with `perf record`; docs/BENCHMARKS.md). Made once per
/// network, so that an evaluation does not count `2^shift - 1` again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PowerOfTwo {
    shift: u32,
    /// `2^shift - 1`.
    below: i32,
}

impl PowerOfTwo {
    fn new(shift: u32) -> PowerOfTwo {
        debug_assert!(shift < 31);
        PowerOfTwo {
            shift,
            below: (1 << shift) - 1,
        }
    }

    /// `x / 2^shift`.
    #[inline(always)]
    fn divide(self, x: i32) -> i32 {
        // A negative `x` is raised by 2^shift - 1 first, so that the shift, which rounds down,
        // rounds it towards 0. The sum cannot overflow: it only moves a negative number up.
        let towards_zero = (x >> 31) & self.below;
        (x + towards_zero) >> self.shift
    }
}

#[inline(always)]
fn add_row<const H: usize>(sums: &mut [i16; H], row: &Sums) {
    for (x, w) in sums.iter_mut().zip(first::<H>(row)) {
        *x = x.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub_row<const H: usize>(sums: &mut [i16; H], row: &Sums) {
    for (x, w) in sums.iter_mut().zip(first::<H>(row)) {
        *x = x.wrapping_sub(*w);
    }
}

/// The first `H` units of `sums` (`H` is one of [`LANES`]).
#[inline(always)]
fn first<const H: usize>(sums: &Sums) -> &[i16; H] {
    sums.first_chunk::<H>()
        .expect("no more lanes than MAX_HIDDEN")
}

#[inline(always)]
fn first_mut<const H: usize>(sums: &mut Sums) -> &mut [i16; H] {
    sums.first_chunk_mut::<H>()
        .expect("no more lanes than MAX_HIDDEN")
}

/// A position's pieces as the network's inputs with White to move: for each side a 64-bit
/// word, its men then its kings, whose bit `n` is input `64 * side + n`.
type Planes = [u64; 2];

/// Whether the pieces `planes` holds include men (each word's low half).
#[inline(always)]
fn has_men_planes(planes: Planes) -> bool {
    (planes[0] | planes[1]) as u32 != 0
}

#[inline(always)]
fn planes(pos: &Position) -> Planes {
    let side = |c: Color| u64::from(pos.men(c).0) | u64::from(pos.kings(c).0) << 32;
    [side(Color::White), side(Color::Black)]
}

/// Steps `viewer`'s `sums` of the position `before` to those of `after`, any two positions:
/// the rows of the inputs that are gone come off, those of the inputs that came go on.
/// Black to move sees the other side's pieces, the board turned: input `plane * 32 + i` is its
/// `(plane ^ 2) * 32 + (31 - i)`, which is the input XOR 0b101_1111.
#[inline(always)]
fn step_sums<const H: usize>(
    w1: &[Row; INPUTS],
    sums: &mut [i16; H],
    viewer: Color,
    before: Planes,
    after: Planes,
) {
    let turn = match viewer {
        Color::White => 0,
        Color::Black => 0b101_1111,
    };
    for (first, old, new) in [(0, before[0], after[0]), (64, before[1], after[1])] {
        let (mut gone, mut came) = (old & !new, new & !old);
        while gone != 0 {
            sub_row(sums, &w1[(first + gone.trailing_zeros() as usize) ^ turn].0);
            gone &= gone - 1;
        }
        while came != 0 {
            add_row(sums, &w1[(first + came.trailing_zeros() as usize) ^ turn].0);
            came &= came - 1;
        }
    }
}

/// The output layer's sum of products, before its bias: the rectified sums times the weights.
#[inline(always)]
fn output_sum<const H: usize>(sums: &[i16; H], w2: &Sums) -> i32 {
    let mut total = 0i32;
    for (&x, &w) in sums.iter().zip(first::<H>(w2)) {
        // Each product fits: |x|, |w| < 2^15.
        total = total.wrapping_add(i32::from(x.max(0)) * i32::from(w));
    }
    total
}

/// Makes `viewer`'s sums of the position at `ply` on `path` and returns the output layer's
/// sum there ([`output_sum`]). They come from the nearest ply above that has that view: if it
/// is not the parent, the parent's sums are made first, straight from that ply's (a step over
/// several moves: the pieces that are gone, the pieces that came), for the parent's other
/// children; then the move to `ply`. In one function, so that the sums stay in registers. Only
/// the first `H` units, the network's lanes: the others are 0.
#[inline(always)]
fn step_path<const H: usize>(path: &mut PathAccumulators, ply: usize, viewer: Color) -> i32 {
    let net = path.net;
    let v = viewer.index();
    // Plies wrap at the path's length (a power of two), which costs an `and` where a bound
    // check would cost a comparison and a branch at every node: the search never goes
    // deeper (`enter` asserts it in tests).
    let ply = ply % PATH_PLIES;
    let from = path.plies[ply].made[v] as usize % PATH_PLIES;
    let mut sums = *first::<H>(&path.accumulators[from].sums[v]);
    if from < ply {
        let parent = ply - 1;
        if from < parent {
            let (old, new) = (path.plies[from].planes, path.plies[parent].planes);
            step_sums(&net.w1, &mut sums, viewer, old, new);
            *first_mut::<H>(&mut path.accumulators[parent].sums[v]) = sums;
            path.plies[parent].made[v] = parent as u8;
        }
        let (old, new) = (path.plies[parent].planes, path.plies[ply].planes);
        step_sums(&net.w1, &mut sums, viewer, old, new);
        *first_mut::<H>(&mut path.accumulators[ply].sums[v]) = sums;
        path.plies[ply].made[v] = ply as u8;
    }
    output_sum(&sums, &net.w2)
}

/// [`step_sums`] in AVX2.
///
/// # Safety
/// Only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn step_sums_avx2(
    w1: &[Row; INPUTS],
    sums: &mut Sums,
    viewer: Color,
    before: Planes,
    after: Planes,
) {
    step_sums(w1, sums, viewer, before, after)
}

/// [`output_sum`] in AVX2.
///
/// # Safety
/// Only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2(sums: &Sums, w2: &Sums) -> i32 {
    output_sum(sums, w2)
}

/// [`step_path`] in AVX2.
///
/// # Safety
/// Only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn step_path_avx2<const H: usize>(
    path: &mut PathAccumulators,
    ply: usize,
    viewer: Color,
) -> i32 {
    step_path::<H>(path, ply, viewer)
}

/// How many plies a [`PathAccumulators`] holds: the deepest path a search may follow. A power
/// of two, so that indexing wraps with an `and`.
pub const PATH_PLIES: usize = 128;
const _: () = assert!(PATH_PLIES.is_power_of_two() && PATH_PLIES <= u8::MAX as usize + 1);

/// What the path records at one ply when it is entered: its pieces, and for each side's view
/// the nearest ply at or above it whose sums of that view are made (ply 0 has both), so that
/// an evaluation finds where to step from without walking up the plies (a loop of
/// unpredictable length, measured as a tenth of the time the sums took). Kept together and
/// small: entering a ply, at every node of the search, writes one record.
#[derive(Clone, Copy)]
struct PlyRecord {
    planes: Planes,
    made: [u8; 2],
}

/// The network's first layer along a search's current path: the pieces at each ply and, for
/// each side's view, the sums once an evaluation asked for them. Entering a ply only records
/// its pieces; an evaluation makes its side's view from the nearest ply above that has it.
/// Many nodes of a search are never evaluated nor have an evaluated child (cut by the table,
/// drawn, in the endgame tables), and a leaf reads one view of its parent, not two: made
/// lazily, as engines with networks do, the sums cost a fraction of stepping both views at
/// every move.
pub struct PathAccumulators<'a> {
    net: &'a QuantizedNetwork,
    /// The network's reach, kept here to spare the leaf a pointer to follow.
    reach: i32,
    accumulators: Box<[Accumulator; PATH_PLIES]>,
    plies: Box<[PlyRecord; PATH_PLIES]>,
    /// The side to move at even plies (the search alternates).
    root_side: Color,
}

impl<'a> PathAccumulators<'a> {
    /// A path of up to [`PATH_PLIES`] plies from `root`, whose sums are counted now.
    pub fn new(net: &'a QuantizedNetwork, root: &Position) -> PathAccumulators<'a> {
        let mut accumulators = Box::new([Accumulator::EMPTY; PATH_PLIES]);
        accumulators[0] = net.accumulate(root);
        PathAccumulators {
            net,
            reach: net.reach,
            accumulators,
            plies: Box::new(
                [PlyRecord {
                    planes: planes(root),
                    made: [0; 2],
                }; PATH_PLIES],
            ),
            root_side: root.side_to_move(),
        }
    }

    /// The network's [`Network::reach`].
    #[inline(always)]
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// The path now reaches `pos` at `ply` (from 1 to [`PATH_PLIES`] - 1), a child of the
    /// position at `ply - 1`; what was recorded at `ply` and below is forgotten.
    #[inline(always)]
    pub fn enter(&mut self, ply: usize, pos: &Position) {
        debug_assert!((1..PATH_PLIES).contains(&ply));
        debug_assert_eq!(pos.side_to_move(), self.side_at(ply));
        // The views made above stay made: those of the parent, made later, are recorded at
        // both plies when they are.
        let made = self.plies[(ply - 1) % PATH_PLIES].made;
        self.plies[ply % PATH_PLIES] = PlyRecord {
            planes: planes(pos),
            made,
        };
    }

    #[inline(always)]
    fn side_at(&self, ply: usize) -> Color {
        if ply % 2 == 0 {
            self.root_side
        } else {
            !self.root_side
        }
    }

    /// The network's correction for the position at `ply` ([`QuantizedNetwork::output`]),
    /// which has men: kings-only endings get none, and the search knows it has men before it
    /// asks.
    #[inline]
    pub fn correction(&mut self, ply: usize) -> i32 {
        debug_assert!(has_men_planes(self.plies[ply % PATH_PLIES].planes));
        let products = self.step_to(ply, self.side_at(ply));
        self.net.output_of_sum(products)
    }

    /// Makes `viewer`'s sums at `ply` ([`step_path`]).
    #[inline(always)]
    fn step_to(&mut self, ply: usize, viewer: Color) -> i32 {
        const NARROW: usize = LANES[0];
        match (self.net.simd, self.net.lanes) {
            (Simd::Portable, NARROW) => step_path::<NARROW>(self, ply, viewer),
            (Simd::Portable, _) => step_path::<MAX_HIDDEN>(self, ply, viewer),
            // SAFETY: as in `QuantizedNetwork::step_view`.
            #[cfg(target_arch = "x86_64")]
            (Simd::Avx2, NARROW) => unsafe { step_path_avx2::<NARROW>(self, ply, viewer) },
            #[cfg(target_arch = "x86_64")]
            (Simd::Avx2, _) => unsafe { step_path_avx2::<MAX_HIDDEN>(self, ply, viewer) },
        }
    }

    /// Whether the side to move's view at `ply`, made as for an evaluation, is the one of
    /// `pos` counted from scratch, and `pos` the position recorded there (the search's check
    /// mode asks).
    pub fn matches_counted(&mut self, ply: usize, pos: &Position) -> bool {
        let viewer = self.side_at(ply);
        self.step_to(ply, viewer);
        let v = viewer.index();
        self.plies[ply % PATH_PLIES].planes == planes(pos)
            && viewer == pos.side_to_move()
            && self.accumulators[ply % PATH_PLIES].sums[v] == self.net.accumulate(pos).sums[v]
    }
}

/// A variant's network as read and in integers.
struct Loaded {
    variant: Variant,
    network: Network,
    quantized: QuantizedNetwork,
}

/// The networks in `text`, each with its integer form.
fn load(text: &str) -> Result<Vec<Loaded>, NetworkError> {
    Network::parse_all(text)?
        .into_iter()
        .map(|(variant, network)| {
            let quantized =
                QuantizedNetwork::of_network(&network).map_err(|why| NetworkError::Section {
                    variant: variant.id(),
                    why,
                })?;
            Ok(Loaded {
                variant,
                network,
                quantized,
            })
        })
        .collect()
}

/// This process's networks: those given to [`Network::use_instead`], else the committed ones.
fn loaded() -> &'static [Loaded] {
    static COMMITTED: OnceLock<Result<Vec<Loaded>, NetworkError>> = OnceLock::new();
    match INSTEAD.get() {
        Some(all) => all,
        None => match COMMITTED.get_or_init(|| load(NETWORK_FILE)) {
            Ok(all) => all,
            // A test reads the file, so a build with a bad one never ships.
            Err(e) => panic!("{NETWORK_PATH}: {e}"),
        },
    }
}

/// Settings of a training.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    pub hidden: usize,
    /// Passes over the fitted samples; the network of the pass with the lowest held-out loss
    /// is kept.
    pub epochs: usize,
    /// Draws the first layer's starting weights and the order of the samples.
    pub seed: u64,
}

/// How a training went: mean log loss against the labels, fitted and held-out samples, of the
/// weighted evaluation alone and with the network's correction.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub steepness: f64,
    pub samples: usize,
    pub held_out: usize,
    pub before: (f64, f64),
    pub after: (f64, f64),
    /// The pass whose network was kept (1-based; 0: none improved on the weights alone).
    pub best_epoch: usize,
}

/// One training sample: the active inputs, the weighted evaluation and the label, all from the
/// side to move's view.
struct Example {
    inputs: Vec<u16>,
    weighted: f32,
    target: f32,
    held_out: bool,
}

/// Output scale during training: the network learns in men, the file keeps hundredths, so that
/// Adam's one step size suits both layers.
const SCALE: f32 = 100.0;

/// Trains a network for `variant` on `samples` (labelled as for [`super::tune::fit`]) to
/// correct the weights `Weights::of(variant)`: Adam, mini-batches of 256, a light pull of every
/// weight towards 0, keeping the pass that best predicts the held-out games.
pub fn train(samples: &Samples, variant: Variant, opts: TrainOptions) -> (Network, TrainReport) {
    let k = fit_steepness(samples);
    let weights = eval::Weights::of(variant);
    let targets = samples.targets(k);
    let examples: Vec<Example> = samples
        .positions()
        .iter()
        .enumerate()
        .filter(|(_, pos)| has_men(pos))
        .map(|(i, pos)| {
            let mut inputs = Vec::with_capacity(32);
            for_each_input(pos, |a| inputs.push(a as u16));
            let white = pos.side_to_move() == Color::White;
            let t = targets[i] as f32;
            Example {
                inputs,
                weighted: eval::expert_with(pos, weights) as f32,
                target: if white { t } else { 1.0 - t },
                held_out: samples.is_held_out(i),
            }
        })
        .collect();
    let k = k as f32;
    let hidden = opts.hidden.clamp(1, MAX_HIDDEN);
    let mut net = Network::untrained(hidden, opts.seed);
    // The network in training outputs men: its output layer is kept divided by SCALE.
    let losses = |net: &Network| {
        let mut h = vec![0f32; hidden];
        let mut sum = [0f64; 2];
        let mut n = [0usize; 2];
        for e in &examples {
            let o = SCALE * net.output(&e.inputs, &mut h);
            let p = sigmoid(k * (e.weighted + o)).clamp(1e-6, 1.0 - 1e-6) as f64;
            let t = e.target as f64;
            let part = usize::from(e.held_out);
            sum[part] -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
            n[part] += 1;
        }
        (sum[0] / n[0].max(1) as f64, sum[1] / n[1].max(1) as f64)
    };
    let before = losses(&net);
    let mut best = (before, 0usize, net.clone());
    let mut order: Vec<usize> = (0..examples.len())
        .filter(|&i| !examples[i].held_out)
        .collect();
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    let params = INPUTS * hidden + 2 * hidden + 1;
    let (b1_at, w2_at) = (INPUTS * hidden, INPUTS * hidden + hidden);
    let (mut m, mut v) = (vec![0f32; params], vec![0f32; params]);
    let (beta1, beta2, step_size, eps, l2) = (0.9f32, 0.999f32, 1e-3f32, 1e-8f32, 1e-5f32);
    let mut grad = vec![0f32; params];
    let mut h = vec![0f32; hidden];
    let mut step = 0;
    for epoch in 1..=opts.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(256) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let e = &examples[i];
                let o = SCALE * net.output(&e.inputs, &mut h);
                let g = (sigmoid(k * (e.weighted + o)) - e.target) * k * SCALE / batch.len() as f32;
                for j in 0..hidden {
                    grad[w2_at + j] += g * h[j];
                    if h[j] > 0.0 {
                        let dh = g * net.w2[j];
                        grad[b1_at + j] += dh;
                        for &a in &e.inputs {
                            grad[a as usize * hidden + j] += dh;
                        }
                    }
                }
                grad[params - 1] += g;
            }
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for (idx, g) in grad.iter().enumerate() {
                let param = if idx < b1_at {
                    &mut net.w1[idx]
                } else if idx < w2_at {
                    &mut net.b1[idx - b1_at]
                } else if idx < params - 1 {
                    &mut net.w2[idx - w2_at]
                } else {
                    &mut net.b2
                };
                let g = g + l2 * *param;
                m[idx] = beta1 * m[idx] + (1.0 - beta1) * g;
                v[idx] = beta2 * v[idx] + (1.0 - beta2) * g * g;
                *param -= step_size * (m[idx] / c1) / ((v[idx] / c2).sqrt() + eps);
            }
        }
        let now = losses(&net);
        if now.1 < best.0 .1 {
            best = (now, epoch, net.clone());
        }
    }
    let (after, best_epoch, mut kept) = best;
    kept.w2.iter_mut().for_each(|w| *w *= SCALE);
    kept.b2 *= SCALE;
    let held_out = examples.iter().filter(|e| e.held_out).count();
    let report = TrainReport {
        steepness: k as f64,
        samples: examples.len() - held_out,
        held_out,
        before,
        after,
        best_epoch,
    };
    (kept, report)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::eval::tests::pos;
    use crate::ai::tune::{self_play_game, white_score, SelfPlay};

    /// A network that answers `bias` everywhere, whatever the pieces.
    fn constant(bias: f32) -> Network {
        Network {
            b2: bias,
            ..Network::untrained(4, 1)
        }
    }

    #[test]
    fn the_committed_file_reads_and_corrects_every_variant() {
        let all = Network::parse_all(NETWORK_FILE).unwrap_or_else(|e| panic!("{e}"));
        let variants: Vec<Variant> = all.iter().map(|(v, _)| *v).collect();
        assert_eq!(
            variants,
            [Variant::Spanish, Variant::English, Variant::Portuguese],
            "each measured in a match before it was built in"
        );
        // Each network says something somewhere in a middle game.
        for (variant, middle) in [
            (
                Variant::Spanish,
                [
                    "W:W1-3,5,6,8,11,12:B18,22,24,25,27,28,31,32",
                    "B:W1-3,5,6,8,11,12:B18,22,24,25,27,28,31,32",
                    "W:W1-12:B21-32",
                ],
            ),
            (
                Variant::English,
                [
                    "B:W21-26,28,30,32:B2-4,7,9-12,14",
                    "W:W21-26,28,30,32:B2-4,7,9-12,14",
                    "B:W21-32:B1-12",
                ],
            ),
            (
                Variant::Portuguese,
                [
                    "W:W1-3,5,6,8,11,12:B18,22,24,25,27,28,31,32",
                    "B:W1-3,5,6,8,11,12:B18,22,24,25,27,28,31,32",
                    "W:W1-12:B21-32",
                ],
            ),
        ] {
            assert!(
                middle.iter().any(|f| correction(&pos(variant, f)) != 0),
                "{variant}: no correction at all"
            );
        }
    }

    #[test]
    fn kings_only_endings_get_no_correction() {
        let net = constant(250.0);
        let with_men = pos(Variant::Spanish, "W:WK1,5:B28");
        let kings_only = pos(Variant::Spanish, "W:WK1,K5:BK28");
        assert_eq!(net.correction(&with_men), 250);
        assert_eq!(net.correction(&kings_only), 0);
    }

    /// The same position with the colours swapped and the board turned: the side to move sees
    /// the same thing, so the correction is the same.
    #[test]
    fn both_colours_are_judged_alike() {
        let Some(net) = Network::of(Variant::Spanish) else {
            panic!("no Spanish network")
        };
        let turned = |squares: &[u32], king: &[u32]| {
            squares
                .iter()
                .map(|s| {
                    let k = if king.contains(s) { "K" } else { "" };
                    format!("{k}{}", 33 - s)
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let plain = |squares: &[u32], king: &[u32]| {
            squares
                .iter()
                .map(|s| {
                    let k = if king.contains(s) { "K" } else { "" };
                    format!("{k}{s}")
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        for (white, black, kings) in [
            (
                &[1u32, 2, 3, 5, 6, 8, 11, 12][..],
                &[18u32, 22, 24, 25, 27, 28, 31, 32][..],
                &[][..],
            ),
            (&[4, 9, 10, 14, 17][..], &[20, 23, 26, 29][..], &[29u32][..]),
        ] {
            let a = pos(
                Variant::Spanish,
                &format!("W:W{}:B{}", plain(white, kings), plain(black, kings)),
            );
            let b = pos(
                Variant::Spanish,
                &format!("B:W{}:B{}", turned(black, kings), turned(white, kings)),
            );
            assert_eq!(net.correction(&a), net.correction(&b));
            // And the two sides of one position are not simply the same number.
            let other_side = pos(
                Variant::Spanish,
                &format!("B:W{}:B{}", plain(white, kings), plain(black, kings)),
            );
            assert_ne!(net.correction(&a), net.correction(&other_side));
        }
    }

    /// Positions of `games` random games of `variant` (every ply of each), from `seed`.
    fn random_positions(variant: Variant, games: u64, seed: u64) -> Vec<Vec<Position>> {
        let mut rng = SmallRng::seed_from_u64(seed);
        (0..games)
            .map(|_| {
                let mut pos = Position::start(variant);
                let mut line = vec![pos];
                for _ in 0..150 {
                    let moves = pos.legal_moves();
                    let Some(mv) = moves.choose(&mut rng) else {
                        break;
                    };
                    pos = pos.apply(mv);
                    line.push(pos);
                }
                line
            })
            .collect()
    }

    /// A network with every weight drawn at random, the output layer too.
    fn random_network(hidden: usize, seed: u64) -> Network {
        let mut net = Network::untrained(hidden, seed);
        let mut rng = SmallRng::seed_from_u64(seed + 1);
        net.b1
            .iter_mut()
            .for_each(|b| *b = rng.gen_range(-0.5..0.5));
        net.w2
            .iter_mut()
            .for_each(|w| *w = rng.gen_range(-150.0..150.0));
        net.b2 = 7.5;
        net
    }

    /// The accumulator stepped move by move — captures, crownings, kings' moves, both
    /// colours — is exactly the one counted from scratch, in every variant and for a network
    /// narrower than the widest.
    #[test]
    fn the_accumulator_stepped_by_each_move_is_the_positions_own() {
        for (variant, hidden) in [
            (Variant::Spanish, MAX_HIDDEN),
            (Variant::English, 24),
            (Variant::Portuguese, MAX_HIDDEN),
        ] {
            let net = random_network(hidden, 5)
                .quantize()
                .unwrap_or_else(|e| panic!("{e}"));
            let (mut crownings, mut captures) = (0, 0);
            for line in random_positions(variant, 30, 9) {
                let mut acc = net.accumulate(&line[0]);
                for pair in line.windows(2) {
                    let (before, after) = (&pair[0], &pair[1]);
                    acc = net.step(&acc, before, after);
                    assert_eq!(acc, net.accumulate(after), "{variant}: {}", after.fen());
                    assert_eq!(net.output(&acc, after), net.correction(after));
                    captures += usize::from(after.occupied().count() < before.occupied().count());
                    let kings = |p: &Position| p.kings(Color::White).0 | p.kings(Color::Black).0;
                    crownings +=
                        usize::from(kings(after).count_ones() > kings(before).count_ones());
                }
            }
            assert!(
                captures > 100 && crownings > 10,
                "{variant}: {captures} captures, {crownings} crownings"
            );
        }
    }

    /// The search's path of sums — positions entered ply by ply, returning to any ply above
    /// to try another move, each side's view stepped only when an evaluation asks for it —
    /// gives every position the correction counted from scratch, in every variant, for networks
    /// of both lane widths (the widest, one that fills the narrow lanes in part, one that fills
    /// the wide lanes in part), and with each kind of vector instructions.
    #[test]
    fn the_path_steps_only_what_is_asked_and_gives_the_counted_correction() {
        for (variant, hidden) in [
            (Variant::Spanish, MAX_HIDDEN),
            (Variant::English, 24),
            (Variant::Portuguese, 100),
        ] {
            let net = random_network(hidden, 11)
                .quantize()
                .unwrap_or_else(|e| panic!("{e}"));
            for simd in simds() {
                let net = net.with_simd(simd);
                let mut rng = SmallRng::seed_from_u64(13);
                let (mut checked, mut deepest) = (0, 0);
                for _ in 0..20 {
                    // A walk through a tree: down by a random legal move, now and then back
                    // up to a random ply, evaluating one position in two.
                    let mut line = vec![Position::start(variant)];
                    let mut path = PathAccumulators::new(&net, &line[0]);
                    for _ in 0..400 {
                        let here = *line.last().unwrap_or(&line[0]);
                        let moves = here.legal_moves();
                        match moves.choose(&mut rng) {
                            Some(mv) if line.len() < 64 && rng.gen_ratio(4, 5) => {
                                let child = here.apply(mv);
                                path.enter(line.len(), &child);
                                line.push(child);
                            }
                            _ => line.truncate(rng.gen_range(1..=line.len())),
                        }
                        deepest = deepest.max(line.len());
                        if rng.gen_bool(0.5) {
                            let ply = line.len() - 1;
                            let pos = &line[ply];
                            // The path is asked only where there are men, as the search asks.
                            let stepped = if has_men(pos) {
                                path.correction(ply)
                            } else {
                                0
                            };
                            assert_eq!(
                                stepped,
                                net.correction(pos),
                                "{variant}, {simd:?}: {}",
                                pos.fen()
                            );
                            assert!(path.matches_counted(ply, pos), "{variant}: {}", pos.fen());
                            checked += 1;
                        }
                    }
                }
                assert!(
                    checked > 3_000 && deepest > 30,
                    "{variant}: {checked} checked, {deepest} plies deep"
                );
            }
        }
    }

    /// Every kind of vector instructions this processor runs.
    fn simds() -> Vec<Simd> {
        let mut all = vec![Simd::Portable];
        if Simd::best() != Simd::Portable {
            all.push(Simd::best());
        }
        all
    }

    /// The sums made with AVX2 are those of the portable code, step by step, and so is the
    /// output layer's sum (where the processor has AVX2; elsewhere there is nothing to
    /// compare, and the test says so).
    #[test]
    fn every_kind_of_vector_instructions_gives_the_same_integers() {
        let kinds = simds();
        if kinds.len() == 1 {
            eprintln!("skipped: this processor has no AVX2 to compare with the portable code");
            return;
        }
        let net = random_network(MAX_HIDDEN, 17)
            .quantize()
            .unwrap_or_else(|e| panic!("{e}"));
        let (portable, wide) = (net.with_simd(kinds[0]), net.with_simd(kinds[1]));
        let mut compared = 0;
        for variant in Variant::ALL {
            for line in random_positions(variant, 10, 3) {
                let (mut a, mut b) = (portable.accumulate(&line[0]), wide.accumulate(&line[0]));
                for pair in line.windows(2) {
                    a = portable.step(&a, &pair[0], &pair[1]);
                    b = wide.step(&b, &pair[0], &pair[1]);
                    assert_eq!(a, b, "{variant}: {}", pair[1].fen());
                    assert_eq!(portable.output(&a, &pair[1]), wide.output(&b, &pair[1]));
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_000, "{compared} positions");
    }

    /// The output's division by a power of two made with shifts truncates towards 0 exactly as
    /// `/` does, for negative sums too, at every shift the quantization can choose.
    #[test]
    fn the_output_is_divided_as_integer_division_does() {
        let mut rng = SmallRng::seed_from_u64(29);
        for shift in 0..=MAX_HIDDEN_SHIFT + MAX_OUTPUT_SHIFT {
            let d = 1i32 << shift;
            let edges = [
                0,
                1,
                -1,
                d - 1,
                d,
                d + 1,
                -d + 1,
                -d,
                -d - 1,
                i32::MAX,
                i32::MIN + d,
            ];
            let random = (0..2_000).map(|_| rng.gen::<i32>() >> rng.gen_range(0..31));
            for x in edges.into_iter().chain(random) {
                assert_eq!(PowerOfTwo::new(shift).divide(x), x / d, "{x} / 2^{shift}");
            }
        }
    }

    /// Expert's integer network judges as the trained one: on thousands of positions of
    /// random games the two differ by at most two hundredths of a man, and most often not at
    /// all.
    #[test]
    fn the_integer_network_agrees_with_the_trained_one() {
        let Some(net) = Network::of(Variant::Spanish) else {
            panic!("no Spanish network")
        };
        let Some(quantized) = QuantizedNetwork::of(Variant::Spanish) else {
            panic!("no Spanish network")
        };
        let (mut n, mut same, mut worst, mut nonzero) = (0, 0, 0, 0);
        for line in random_positions(Variant::Spanish, 200, 21) {
            for pos in line {
                let (float, integer) = (net.correction(&pos), quantized.correction(&pos));
                let gap = (float - integer).abs();
                worst = worst.max(gap);
                same += usize::from(gap == 0);
                nonzero += usize::from(float != 0);
                n += 1;
            }
        }
        assert!(
            n > 5_000 && nonzero > n / 2,
            "{n} positions, {nonzero} corrected"
        );
        // Rounding 16-bit sums moves the output by about half a hundredth on average (measured:
        // the same whole hundredths on 61% of 9,950 positions, never more than 2 apart).
        assert!(worst <= 2, "differ by up to {worst} hundredths");
        assert!(same * 2 >= n, "the same on only {same} of {n}");
    }

    #[test]
    fn a_network_too_large_for_integer_sums_is_refused() {
        let mut net = Network::untrained(4, 1);
        net.w1[0] = 900.0;
        let text = net.to_text(Variant::Spanish);
        let refused = load(&text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            refused.starts_with("[spanish]: first-layer weights too large"),
            "{refused:?}"
        );
        // Large but summable weights are kept, with fewer bits after the point.
        net.w1[0] = 100.0;
        net.w2 = vec![1.0; 4];
        let kept = net.quantize().unwrap_or_else(|e| panic!("{e}"));
        assert!(kept.hidden_shift < MAX_HIDDEN_SHIFT);
        // White's man on 1 is input 0.
        let big = pos(Variant::Spanish, "W:W1:B28");
        assert!(net.correction(&big) >= 100);
        assert!((kept.correction(&big) - net.correction(&big)).abs() <= 1);
    }

    #[test]
    fn a_network_reads_back_as_written() {
        let mut net = Network::untrained(8, 3);
        net.w2 = (0..8).map(|i| i as f32 * 0.37 - 1.1).collect();
        net.b2 = -3.25;
        net.reach = 175;
        let text = format!("# note\n{}", net.to_text(Variant::Portuguese));
        let read = Network::parse_all(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read, vec![(Variant::Portuguese, net.clone())]);
        assert_eq!(
            QuantizedNetwork::of_network(&net).map(|q| q.reach()),
            Ok(175)
        );
        // A file without the row: the default reach.
        let read = Network::parse_all(&text.replace("reach 175\n", "")).expect("reads");
        assert_eq!(read[0].1.reach(), DEFAULT_REACH);
    }

    #[test]
    fn a_bad_network_file_says_what_is_wrong() {
        let good = Network::untrained(2, 1).to_text(Variant::Spanish);
        let cases = [
            (
                good.replace("hidden 2", "hidden 3"),
                "[spanish]: w1 has 256 numbers, 384 expected with 3 hidden",
            ),
            (
                good.replace("b2 0", "b2 zero"),
                "line 7: not a number: zero",
            ),
            (good.replace("b2 0", "b2 NaN"), "line 7: not a number: NaN"),
            (
                good.replace("hidden 2", "hidden 129"),
                "[spanish]: hidden must be one whole number from 1 to 128",
            ),
            (good.replace("b2 0\n", ""), "[spanish]: no b2 row"),
            (
                good.replace("b2 0", "b3 0"),
                "line 7: unknown row \"b3\" (expected hidden, reach, w1, b1, w2 or b2)",
            ),
            (
                good.replace("reach 400", "reach 0"),
                "[spanish]: reach must be one whole number of hundredths from 1 to 10000",
            ),
            (
                good.replace("reach 400", "reach 2.5"),
                "[spanish]: reach must be one whole number",
            ),
            (
                format!("{good}{good}"),
                "line 8: a second [spanish] section",
            ),
            (
                good.replace("[spanish]", "[polish]"),
                "line 1: unknown variant",
            ),
            (
                format!("b2 1\n{good}"),
                "line 1: a line before any [variant]",
            ),
        ];
        for (text, want) in cases {
            let got = Network::parse_all(&text)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(got.starts_with(want), "{got:?} is not {want:?}");
        }
    }

    /// Labels that the weights cannot know — a bonus for men on the four central squares,
    /// judged by who holds them against the side to move — are learnt: the network
    /// predicts the held-out games' labels better than the weights alone.
    #[test]
    fn training_learns_what_the_weights_miss() {
        let settings = SelfPlay {
            variant: Variant::Spanish,
            random_plies: 6,
            nodes: 300,
            max_plies: 200,
            endgame_tables: Some(crate::ai::EndgameTables::none()),
        };
        let mut samples = Samples::default();
        for index in 0..40 {
            let game = self_play_game(&settings, 11, index);
            if let Some(white) = white_score(game.outcome()) {
                samples.add_game(&game, white, 0);
            }
        }
        assert!(samples.len() > 1_000, "{} samples", samples.len());
        let weights = eval::Weights::of(Variant::Spanish);
        const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
        let scores: Vec<i32> = samples
            .positions()
            .iter()
            .map(|p| {
                let white = match p.side_to_move() {
                    Color::White => eval::expert_with(p, weights),
                    Color::Black => -eval::expert_with(p, weights),
                };
                let held = |c: Color| (p.men(c).0 & CENTRE).count_ones() as i32;
                white + 150 * (held(Color::White) - held(Color::Black))
            })
            .collect();
        if let Err(e) = samples.label_with_scores(scores, 0.0) {
            panic!("{e}");
        }
        let opts = TrainOptions {
            hidden: 16,
            epochs: 200,
            seed: 1,
        };
        let (net, report) = train(&samples, Variant::Spanish, opts);
        assert!(report.best_epoch > 0, "{report:?}");
        // The least loss any prediction can have is the labels' own entropy: the network must
        // close most of the gap between the weights alone and that.
        let targets = samples.targets(report.steepness);
        let (mut entropy, mut n) = (0.0, 0);
        for (i, p) in samples.positions().iter().enumerate() {
            if samples.is_held_out(i) && has_men(p) {
                let t = targets[i].clamp(1e-6, 1.0 - 1e-6);
                entropy -= t * t.ln() + (1.0 - t) * (1.0 - t).ln();
                n += 1;
            }
        }
        let floor = entropy / n as f64;
        let learnt = (report.before.1 - report.after.1) / (report.before.1 - floor);
        assert!(
            learnt > 0.8,
            "held out: {learnt:.2} of the gap to {floor:.4}: {report:?}"
        );
        // And it learnt the bonus itself: a man on square 15 is worth more to the network than
        // one on square 6, with nothing else changed.
        let centre = pos(Variant::Spanish, "W:W5,15:B28,32");
        let back = pos(Variant::Spanish, "W:W5,6:B28,32");
        assert!(net.correction(&centre) > net.correction(&back) + 50);
    }
}
