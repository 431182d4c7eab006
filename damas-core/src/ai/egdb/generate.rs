//! Retrograde analysis: the tables of a variant, built from the engine's own moves.
//!
//! Materials are built in the order [`Material::all_up_to`] gives, a material together with
//! its mirror (the same pieces, the other side to move), since a move leads from one to the
//! other. Within a pair the men fix a *slice*, and slices are taken from the most advanced
//! men backwards: a man's move only ever leads to a slice solved before, a capture or a
//! crowning to a material solved before. Inside a layer of slices only kings move, and kings'
//! moves can be undone, so the layer is solved backwards from what is known:
//!
//! 1. Every position's moves come from [`Position::legal_moves`]; a move that leaves the
//!    layer is judged at once from the finished tables (with the draw counts: see
//!    [`super::value`]), and the king moves that stay are counted.
//! 2. Results are then settled by distance, shortest first: a position lost in `d` makes every
//!    position one king move before it won in `d + 1`; a position won in `d` takes one from
//!    the count of each position a king move before it, which is lost once none is left and
//!    none of its moves out of the layer saves it.
//!
//! "A king move before" is found with the engine too: the squares a king can have come from
//! are the squares it can go to now (the move generator's, with every other piece made a
//! blocker of its own side so that nothing can be captured), and the position before must not
//! have offered a capture ([`Position::has_capture`]), since captures are compulsory.
//! `damas egdb verify` then checks every entry against its successors, forwards.

use super::index::{spread, Canonical};
use super::material::sets;
use super::material::Material;
use super::value::{under_counts, Stored};
use super::EndgameVerdict;
use crate::engine::{DrawCounters, Move, Piece, Position, Role, Square, Variant};
use std::sync::Arc;

/// The finished tables of one variant, whole in memory (for building and checking).
pub(crate) struct Library {
    variant: Variant,
    tables: Vec<Option<Arc<Vec<u8>>>>,
}

impl Library {
    pub fn new(variant: Variant) -> Library {
        Library {
            variant,
            tables: vec![None; Material::CODES],
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn insert(&mut self, m: Material, values: Arc<Vec<u8>>) {
        self.tables[m.code()] = Some(values);
    }

    pub fn get(&self, m: Material) -> Option<&Arc<Vec<u8>>> {
        self.tables[m.code()].as_ref()
    }

    /// The entry of any position (either side to move): a side without pieces has lost;
    /// `None` when its material is not in the library.
    pub fn stored(&self, pos: &Position) -> Option<Stored> {
        if pos.pieces(pos.side_to_move()).is_empty() {
            return Some(Stored::Loss(0));
        }
        let c = Canonical::of(pos);
        let table = self.get(c.material())?;
        Some(Stored::decode(*table.get(c.index()? as usize)?))
    }
}

/// What one move gives the player making it, from the entry of the position it leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum MoveResult {
    /// Wins, converting in this many plies (the move included).
    Win(u32),
    Draw,
    /// Loses, the opponent converting in this many plies (the move included).
    Loss(u32),
    /// Leads to three kings against one in Spanish where the count decides and the tables
    /// cannot tell (see [`under_counts`]); taken as a draw.
    Unknown,
}

/// The result of `mv` (from `before` to `after`) for its player, given the entry of `after`.
/// A move that restarts the no-progress count (the engine's [`DrawCounters`] say which) is a
/// conversion: it counts one ply, and `after` is judged afresh, with the counts it starts
/// with; any other move adds one ply to `after`'s distance, which must stay within the count.
pub(crate) fn move_result(
    before: &Position,
    mv: &Move,
    after: &Position,
    after_entry: Stored,
) -> MoveResult {
    let counters = DrawCounters::default().after(before, mv, after);
    if counters.no_progress_plies() == 0 {
        return match under_counts(after, after_entry, &counters) {
            Some(EndgameVerdict::Win { .. }) => MoveResult::Loss(1),
            Some(EndgameVerdict::Loss { .. }) => MoveResult::Win(1),
            Some(EndgameVerdict::Draw) => MoveResult::Draw,
            None => MoveResult::Unknown,
        };
    }
    let limit = before.variant().no_progress_limit() as u32;
    match after_entry {
        Stored::Win(d) if (d as u32) < limit => MoveResult::Loss(d as u32 + 1),
        Stored::Loss(d) if (d as u32) < limit => MoveResult::Win(d as u32 + 1),
        _ => MoveResult::Draw,
    }
}

/// The entry a position deserves from the results of its moves: the quickest win, else a
/// draw if any move draws, else the slowest loss (lost at once with no move).
pub(crate) fn best_of(results: impl IntoIterator<Item = MoveResult>) -> Stored {
    let mut win: Option<u32> = None;
    let mut draw = false;
    let mut loss = 0;
    for r in results {
        match r {
            MoveResult::Win(d) => win = Some(win.map_or(d, |w| w.min(d))),
            MoveResult::Draw | MoveResult::Unknown => draw = true,
            MoveResult::Loss(d) => loss = loss.max(d),
        }
    }
    match (win, draw) {
        (Some(d), _) => Stored::Win(d as u8),
        (None, true) => Stored::Draw,
        (None, false) => Stored::Loss(loss as u8),
    }
}

/// Figures of one table, for the generation's log and the README.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Entries that are positions (placements where men would collide left out).
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest distance to conversion.
    pub longest: u32,
    /// Moves into three kings against one (Spanish) that the tables could not judge, taken
    /// as draws.
    pub unknown_moves: u64,
}

impl TableStats {
    fn add(&mut self, s: Stored) {
        self.positions += 1;
        match s {
            Stored::Win(d) => {
                self.wins += 1;
                self.longest = self.longest.max(d as u32);
            }
            Stored::Draw => self.draws += 1,
            Stored::Loss(d) => {
                self.losses += 1;
                self.longest = self.longest.max(d as u32);
            }
        }
    }

    /// The figures of a finished table.
    pub(crate) fn of(m: Material, values: &[u8]) -> TableStats {
        let mut s = TableStats::default();
        for (slice, _, _) in m.each_slice() {
            let start = (slice * m.slice_positions()) as usize;
            for &b in &values[start..start + m.slice_positions() as usize] {
                s.add(Stored::decode(b));
            }
        }
        s
    }
}

/// Count marking a settled position.
const SETTLED: u8 = u8::MAX;
/// "A move out of the layer saves this position from losing."
const ESCAPES: u8 = u8::MAX;
/// Marks a loss (rather than a win) in the queues.
const LOSS_TAG: u32 = 1 << 31;

/// Builds the tables of `m` and of its mirror; every table a move leads out to must be in
/// `library`. Returns each material with its entries (one, for a material that is its own
/// mirror).
pub(crate) fn solve_pair(
    library: &Library,
    m: Material,
) -> Result<Vec<(Material, Vec<u8>, TableStats)>, String> {
    let variant = library.variant();
    let mirror = m.mirror();
    let parts: Vec<Material> = if mirror == m {
        vec![m]
    } else {
        vec![m, mirror]
    };
    let mut offsets = vec![0u64];
    for p in &parts {
        offsets.push(offsets.last().copied().unwrap_or(0) + p.positions());
    }
    let total = offsets[parts.len()];
    if total >= u64::from(LOSS_TAG) {
        return Err(format!(
            "{m}: {total} positions is more than this builder indexes"
        ));
    }
    for target in exits(&parts) {
        if library.get(target).is_none() {
            return Err(format!("{m} needs the table {target} first"));
        }
    }
    let mut solver = Solver {
        variant,
        library,
        parts: parts.clone(),
        offsets: offsets.clone(),
        values: vec![0; total as usize],
        count: vec![0; total as usize],
        escape: vec![0; total as usize],
        queues: Vec::new(),
        limit: variant.no_progress_limit() as u32,
        unknown: vec![0; parts.len()],
    };
    // Layers by the men's progress, most advanced first.
    let mut layers: Vec<Vec<(usize, u64, u32, u32)>> = Vec::new();
    for (part, pm) in parts.iter().enumerate() {
        for (slice, mover, other) in pm.each_slice() {
            let p = progress(mover, other) as usize;
            if layers.len() <= p {
                layers.resize(p + 1, Vec::new());
            }
            layers[p].push((part, slice, mover, other));
        }
    }
    for layer in layers.iter().rev() {
        solver.solve_layer(layer)?;
    }
    let Solver {
        values, unknown, ..
    } = solver;
    let mut out = Vec::new();
    for (i, pm) in parts.iter().enumerate() {
        let part = values[offsets[i] as usize..offsets[i + 1] as usize].to_vec();
        let mut stats = TableStats::of(*pm, &part);
        stats.unknown_moves = unknown[i];
        out.push((*pm, part, stats));
    }
    Ok(out)
}

/// `targets`, their mirrors and every table their moves lead to, however far.
pub(crate) fn with_dependencies(targets: &[Material]) -> Vec<Material> {
    let mut out: Vec<Material> = Vec::new();
    let mut todo: Vec<Material> = targets.to_vec();
    while let Some(m) = todo.pop() {
        if out.contains(&m) {
            continue;
        }
        out.push(m);
        todo.push(m.mirror());
        todo.extend(exits(&[m, m.mirror()]));
    }
    out
}

/// The materials a move can lead to out of `parts` (captures and crownings), which must be
/// built before.
fn exits(parts: &[Material]) -> Vec<Material> {
    let mut out = Vec::new();
    for m in parts {
        // After the mover's move the other side moves: its material comes first.
        let mut push = |x: Material| {
            if x.mover_men + x.mover_kings > 0 && !parts.contains(&x) && !out.contains(&x) {
                out.push(x);
            }
        };
        let (a, b, c, d) = (m.mover_men, m.mover_kings, m.other_men, m.other_kings);
        // Crowning without a capture.
        if a > 0 {
            push(Material::new(c, d, a - 1, b + 1));
        }
        // Captures of any number of men and kings, crowning or not.
        for men in 0..=c {
            for kings in 0..=d {
                if men + kings == 0 {
                    continue;
                }
                push(Material::new(c - men, d - kings, a, b));
                if a > 0 {
                    push(Material::new(c - men, d - kings, a - 1, b + 1));
                }
            }
        }
    }
    out
}

/// How far the men have come: rows advanced by the mover's men plus rows advanced by the
/// other side's. Every man's move adds one.
fn progress(mover_men: u32, other_men: u32) -> u32 {
    let rows = |set: u32| -> u32 {
        let mut s = set;
        let mut sum = 0;
        while s != 0 {
            sum += s.trailing_zeros() / 4;
            s &= s - 1;
        }
        sum
    };
    rows(mover_men) + 7 * other_men.count_ones() - rows(other_men)
}

struct Solver<'a> {
    variant: Variant,
    library: &'a Library,
    parts: Vec<Material>,
    offsets: Vec<u64>,
    /// Entries of the pair, part after part.
    values: Vec<u8>,
    /// King moves not yet known to lose ([`SETTLED`] once the entry is final).
    count: Vec<u8>,
    /// The slowest loss among the moves out of the layer, or [`ESCAPES`].
    escape: Vec<u8>,
    /// Positions to settle at each distance, with [`LOSS_TAG`] for losses.
    queues: Vec<Vec<u32>>,
    limit: u32,
    unknown: Vec<u64>,
}

impl Solver<'_> {
    fn part_of(&self, m: Material) -> Option<usize> {
        self.parts.iter().position(|p| *p == m)
    }

    fn push(&mut self, level: u32, item: u32) {
        let level = level as usize;
        if self.queues.len() <= level {
            self.queues.resize(level + 1, Vec::new());
        }
        self.queues[level].push(item);
    }

    /// The entry of a position out of the layer: in this pair (a man moved, a slice solved
    /// before) or in the library.
    fn entry(&self, pos: &Position) -> Result<Stored, String> {
        if pos.pieces(pos.side_to_move()).is_empty() {
            return Ok(Stored::Loss(0));
        }
        let c = Canonical::of(pos);
        let m = c.material();
        let index = c
            .index()
            .ok_or_else(|| format!("no index for {}", pos.fen()))?;
        if let Some(part) = self.part_of(m) {
            let i = self.offsets[part] + index;
            return Ok(Stored::decode(self.values[i as usize]));
        }
        self.library
            .stored(pos)
            .ok_or_else(|| format!("{} leads to {m}, not built", pos.fen()))
    }

    fn solve_layer(&mut self, layer: &[(usize, u64, u32, u32)]) -> Result<(), String> {
        self.queues.clear();
        for &(part, slice, mover_men, other_men) in layer {
            let m = self.parts[part];
            let base = self.offsets[part] + slice * m.slice_positions();
            for (i, c) in slice_positions(m, mover_men, other_men).enumerate() {
                self.start(part, base + i as u64, &c)?;
            }
        }
        let mut level = 0;
        while level < self.queues.len() && level as u32 <= self.limit {
            let items = std::mem::take(&mut self.queues[level]);
            for item in items {
                self.settle(level as u32, item);
            }
            level += 1;
        }
        Ok(())
    }

    /// Step 1 for one position: judges its moves out of the layer, counts its king moves.
    fn start(&mut self, part: usize, i: u64, c: &Canonical) -> Result<(), String> {
        let pos = c.position(self.variant);
        let moves = pos.legal_moves();
        let idx = i as usize;
        if moves.is_empty() {
            self.count[idx] = 0;
            self.escape[idx] = 0;
            self.push(0, i as u32 | LOSS_TAG);
            return Ok(());
        }
        let mut kings = 0u8;
        let mut win: Option<u32> = None;
        let mut escapes = false;
        let mut slowest = 0u32;
        for mv in &moves {
            if !mv.is_capture() && !pos.moves_man(mv) {
                kings += 1;
                continue;
            }
            let after = pos.apply(mv);
            let entry = self.entry(&after)?;
            match move_result(&pos, mv, &after, entry) {
                MoveResult::Win(d) => win = Some(win.map_or(d, |w| w.min(d))),
                MoveResult::Loss(d) => slowest = slowest.max(d),
                MoveResult::Draw => escapes = true,
                MoveResult::Unknown => {
                    self.unknown[part] += 1;
                    escapes = true;
                }
            }
        }
        self.count[idx] = kings;
        self.escape[idx] = if escapes || win.is_some() {
            ESCAPES
        } else {
            slowest as u8
        };
        if let Some(d) = win {
            self.push(d, i as u32);
        } else if kings == 0 && !escapes {
            self.push(slowest, i as u32 | LOSS_TAG);
        }
        Ok(())
    }

    /// Step 2 for one queued position: settles it, if nothing settled it before, and tells
    /// the positions a king move before it.
    fn settle(&mut self, level: u32, item: u32) {
        let idx = (item & !LOSS_TAG) as usize;
        if self.count[idx] == SETTLED {
            return;
        }
        self.count[idx] = SETTLED;
        let lost = item & LOSS_TAG != 0;
        self.values[idx] = if lost {
            Stored::Loss(level as u8)
        } else {
            Stored::Win(level as u8)
        }
        .encode();
        let next = level + 1;
        for pred in self.king_moves_before(idx as u64) {
            let p = pred as usize;
            if self.count[p] == SETTLED {
                continue;
            }
            if lost {
                if next <= self.limit {
                    self.push(next, pred as u32);
                }
            } else {
                self.count[p] -= 1;
                if self.count[p] == 0 && self.escape[p] != ESCAPES {
                    let at = next.max(self.escape[p] as u32);
                    if at <= self.limit {
                        self.push(at, pred as u32 | LOSS_TAG);
                    }
                }
            }
        }
    }

    /// The positions (indices in the pair) from which a king move of the side that just
    /// moved leads to entry `i`.
    fn king_moves_before(&self, i: u64) -> Vec<u64> {
        let part = if self.parts.len() > 1 && i >= self.offsets[1] {
            1
        } else {
            0
        };
        let m = self.parts[part];
        let Some(c) = Canonical::at(m, i - self.offsets[part]) else {
            return Vec::new();
        };
        let before_part = self.part_of(m.mirror()).unwrap_or(part);
        let mut out = Vec::new();
        if c.other_kings == 0 {
            return out;
        }
        // The side that moved is the other side; with every piece its own, its moves are
        // plain moves, and a king's are where it can have come from.
        let first = self.variant.first_player();
        let mover = !first;
        let mut blockers = Position::empty(self.variant, mover);
        let own = |role| Some(Piece { color: mover, role });
        for sq in squares(c.mover_men | c.other_men) {
            blockers.set_piece(sq, own(Role::Man));
        }
        for sq in squares(c.mover_kings | c.other_kings) {
            blockers.set_piece(sq, own(Role::King));
        }
        for mv in blockers.legal_moves().iter() {
            let from = 1u32 << mv.from().index();
            if c.other_kings & from == 0 || mv.is_capture() {
                continue;
            }
            let came_from = 1u32 << mv.to().index();
            // Before the move, seen from its player (turned half a turn).
            let before = Canonical {
                mover_men: c.other_men.reverse_bits(),
                mover_kings: ((c.other_kings & !from) | came_from).reverse_bits(),
                other_men: c.mover_men.reverse_bits(),
                other_kings: c.mover_kings.reverse_bits(),
            };
            if before.position(self.variant).has_capture() {
                continue;
            }
            if let Some(index) = before.index() {
                out.push(self.offsets[before_part] + index);
            }
        }
        out
    }
}

fn squares(set: u32) -> impl Iterator<Item = Square> {
    crate::engine::Bitboard(set).squares()
}

/// The positions of one slice (the men given), in index order: every placement of the
/// mover's kings, then of the other side's, on the squares the men leave.
pub(crate) fn slice_positions(
    m: Material,
    mover_men: u32,
    other_men: u32,
) -> impl Iterator<Item = Canonical> {
    let free = !(mover_men | other_men);
    let n_free = free.count_ones();
    sets(m.mover_kings, n_free).flat_map(move |rel_kings| {
        let mover_kings = spread(rel_kings, free);
        let free_after = free & !mover_kings;
        sets(m.other_kings, n_free - m.mover_kings).map(move |rel_others| Canonical {
            mover_men,
            mover_kings,
            other_men,
            other_kings: spread(rel_others, free_after),
        })
    })
}

/// Every position of `m`'s table with its index.
pub(crate) fn each_position(m: Material) -> impl Iterator<Item = (u64, Canonical)> {
    m.each_slice()
        .flat_map(move |(slice, mover_men, other_men)| {
            let base = slice * m.slice_positions();
            slice_positions(m, mover_men, other_men)
                .enumerate()
                .map(move |(i, c)| (base + i as u64, c))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_grows_by_one_with_each_mans_move() {
        // Square 5 (row 1) to 9 (row 2) for the mover; 28 (row 6) to 24 (row 5) for the other.
        let before = progress(1 << 4, 1 << 27);
        assert_eq!(progress(1 << 8, 1 << 27), before + 1);
        assert_eq!(progress(1 << 4, 1 << 23), before + 1);
    }

    #[test]
    fn exits_are_the_materials_captures_and_crownings_lead_to() {
        let e = exits(&[Material::new(1, 0, 0, 1), Material::new(0, 1, 1, 0)]);
        // M v K: the man crowns (K v K after it), or takes the king (nothing left).
        assert!(e.contains(&Material::new(0, 1, 0, 1)));
        assert!(e.iter().all(|m| m.pieces() <= 2));
    }
}
