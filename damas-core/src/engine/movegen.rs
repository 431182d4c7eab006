//! The move generator: plain steps, capture chains, and the capture laws.
//!
//! One generator for every variant: what differs (flying or short kings, which captures may be
//! chosen) is read from [`Variant`] values.

use super::bitboard::Bitboard;
use super::moves::{Move, MoveList, MAX_LANDINGS};
use super::position::Position;
use super::square::{Geometry, Square, NONE};
use super::variant::{CaptureChoice, Color, Variant};

/// Directions a man of `color` moves and captures in (forward only, in every variant).
#[inline(always)]
fn forward_dirs(variant: Variant, color: Color) -> [usize; 2] {
    if color == variant.first_player() {
        [0, 1]
    } else {
        [2, 3]
    }
}

const ALL_DIRS: [usize; 4] = [0, 1, 2, 3];

/// Every legal move of the side to move.
pub(crate) fn legal_moves(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    legal_moves_into(pos, &mut out);
    out
}

/// [`legal_moves`] into a list the caller owns (saves a copy in the hot paths).
fn legal_moves_into(pos: &Position, out: &mut MoveList) {
    out.clear();
    // Most positions have no capture; the whole-board test is far cheaper than chain search.
    let capturers = capturers(pos);
    if capturers == 0 {
        quiet_moves_into(pos, out);
        return;
    }
    captures_into(pos, capturers, out);
    apply_capture_laws(pos.variant, out);
}

/// Every capture sequence of the side to move, duplicates merged, before the laws of quantity
/// and quality. (In English these are exactly the legal captures.)
pub(crate) fn all_captures(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    captures_into(pos, capturers(pos), &mut out);
    out
}

/// Like [`all_captures`], but keeping every route: two routes to the same result are one
/// move, yet a player may write either (`8x19x29` or `8x22x29`), so reading notation needs
/// them all.
pub(crate) fn capture_routes(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    collect_captures(pos, capturers(pos), &mut out, false);
    out
}

/// The captures the side to move's men could make if men captured backwards too (as in
/// Russian draughts), each route that jumps backwards at least once: the moves a player
/// brought up on those rules may try, which the refusal names ("a man captures forward
/// only"). Never legal in any of our variants.
pub(crate) fn backward_man_routes(pos: &Position) -> MoveList {
    let men = pos.bits(pos.side) & !pos.kings;
    let mut all = MoveList::new();
    if men == 0 {
        return all;
    }
    let forward = capture_routes(pos);
    let enemy = pos.bits(pos.side.opposite());
    let occupied = pos.white | pos.black;
    let g = pos.variant.geometry();
    for from in Bitboard(men).squares() {
        let mut ctx = Ctx {
            g,
            enemy,
            enemy_kings: enemy & pos.kings,
            empty: !occupied | (1u32 << from.index()),
            crown: pos.crowning_row(pos.side).0,
            from,
            path: [0; MAX_LANDINGS],
            merge_routes: false,
            out: &mut all,
        };
        ctx.short_chain(from.index(), 0, 0, &ALL_DIRS, true);
    }
    all.retain(|r| {
        !forward
            .iter()
            .any(|f| f.from() == r.from() && f.path() == r.path())
    });
    all
}

/// The pieces of the side to move that can start a capture: men found with whole-board steps,
/// every king (a king's capture is cheap to rule out one by one).
fn capturers(pos: &Position) -> u32 {
    let side = pos.side;
    let mine = pos.bits(side);
    let enemy = pos.bits(side.opposite());
    let empty = !(pos.white | pos.black);
    let g = pos.variant.geometry();
    let men = mine & !pos.kings;
    let mut found = 0;
    for d in forward_dirs(pos.variant, side) {
        let back = 3 - d; // the opposite direction
        found |= men & g.step(g.step(empty, back) & enemy, back);
    }
    let kings = mine & pos.kings;
    if kings != 0 && has_king_capture(pos, kings, enemy, empty, g) {
        found |= kings;
    }
    found
}

fn captures_into(pos: &Position, capturers: u32, out: &mut MoveList) {
    collect_captures(pos, capturers, out, true);
}

/// Capture chains of `capturers`; `merge_routes` lists a result reached by several routes
/// once (with the first route found).
fn collect_captures(pos: &Position, capturers: u32, out: &mut MoveList, merge_routes: bool) {
    let side = pos.side;
    let mine = capturers;
    if mine == 0 {
        return;
    }
    let enemy = pos.bits(side.opposite());
    let occupied = pos.white | pos.black;
    let g = pos.variant.geometry();
    let crown = pos.crowning_row(side).0;
    let fwd = forward_dirs(pos.variant, side);
    for from in Bitboard(mine).squares() {
        let bit = 1u32 << from.index();
        let mut ctx = Ctx {
            g,
            enemy,
            enemy_kings: enemy & pos.kings,
            // The moving piece leaves its square: a king may pass over it or land on it.
            empty: !occupied | bit,
            crown,
            from,
            path: [0; MAX_LANDINGS],
            merge_routes,
            out: &mut *out,
        };
        if pos.kings & bit == 0 {
            ctx.short_chain(from.index(), 0, 0, &fwd, true);
        } else if pos.variant.flying_kings() {
            ctx.flying_chain(from.index(), 0, 0);
        } else {
            ctx.short_chain(from.index(), 0, 0, &ALL_DIRS, false);
        }
    }
}

/// Keeps only the captures the variant allows one to choose.
fn apply_capture_laws(variant: Variant, caps: &mut MoveList) {
    if variant.capture_choice() == CaptureChoice::Free || caps.len() < 2 {
        return;
    }
    let most = caps.iter().map(|m| m.capture_count()).max().unwrap_or(0);
    caps.retain(|m| m.capture_count() == most);
    let most_kings = caps
        .iter()
        .map(|m| m.king_capture_count())
        .max()
        .unwrap_or(0);
    caps.retain(|m| m.king_capture_count() == most_kings);
}

struct Ctx<'a> {
    g: &'static Geometry,
    enemy: u32,
    enemy_kings: u32,
    /// Squares empty when the move starts, plus the moving piece's own square. Captured pieces
    /// stay on the board until the move ends, so they are never in here.
    empty: u32,
    crown: u32,
    from: Square,
    path: [u8; MAX_LANDINGS],
    merge_routes: bool,
    out: &'a mut MoveList,
}

impl Ctx<'_> {
    /// A man (forward directions, stops when crowned) or a short king (all directions).
    fn short_chain(&mut self, at: usize, depth: usize, captured: u32, dirs: &[usize], man: bool) {
        let mut extended = false;
        if depth < MAX_LANDINGS {
            for &d in dirs {
                let over = self.g.neighbor[at][d];
                if over == NONE {
                    continue;
                }
                let over_bit = 1u32 << over;
                if self.enemy & over_bit == 0 || captured & over_bit != 0 {
                    continue;
                }
                let land = self.g.neighbor[over as usize][d];
                if land == NONE || self.empty & (1u32 << land) == 0 {
                    continue;
                }
                extended = true;
                self.path[depth] = land + 1;
                let now = captured | over_bit;
                if man && self.crown & (1u32 << land) != 0 {
                    // Crowning ends the move, even if the new king could capture on.
                    self.record(depth + 1, now);
                } else {
                    self.short_chain(land as usize, depth + 1, now, dirs, man);
                }
            }
        }
        if !extended && depth > 0 {
            self.record(depth, captured);
        }
    }

    /// A flying king: any distance to the captured piece, any empty landing square behind it.
    fn flying_chain(&mut self, at: usize, depth: usize, captured: u32) {
        let mut extended = false;
        if depth < MAX_LANDINGS {
            for d in 0..4 {
                let mut sq = self.g.neighbor[at][d];
                while sq != NONE && self.empty & (1u32 << sq) != 0 {
                    sq = self.g.neighbor[sq as usize][d];
                }
                if sq == NONE {
                    continue;
                }
                let over_bit = 1u32 << sq;
                // An own piece, or a piece already taken in this move, blocks the line.
                if self.enemy & over_bit == 0 || captured & over_bit != 0 {
                    continue;
                }
                let now = captured | over_bit;
                let mut land = self.g.neighbor[sq as usize][d];
                while land != NONE && self.empty & (1u32 << land) != 0 {
                    extended = true;
                    self.path[depth] = land + 1;
                    self.flying_chain(land as usize, depth + 1, now);
                    land = self.g.neighbor[land as usize][d];
                }
            }
        }
        if !extended && depth > 0 {
            self.record(depth, captured);
        }
    }

    fn record(&mut self, len: usize, captured: u32) {
        let to = self.path[len - 1];
        let from = self.from;
        // Same start, end and captured set: the same move by another route.
        if self.merge_routes
            && self
                .out
                .iter()
                .any(|m| m.from() == from && m.to().number() == to && m.captured().0 == captured)
        {
            return;
        }
        self.out.push(Move::capture(
            from,
            &self.path[..len],
            Bitboard(captured),
            Bitboard(captured & self.enemy_kings),
        ));
    }
}

/// Non-capturing moves (legal only when no capture exists).
fn quiet_moves_into(pos: &Position, out: &mut MoveList) {
    let side = pos.side;
    let mine = pos.bits(side);
    let empty = !(pos.white | pos.black);
    let g = pos.variant.geometry();
    let fwd = forward_dirs(pos.variant, side);
    for from in Bitboard(mine).squares() {
        let s = from.index();
        let is_king = pos.kings & (1 << s) != 0;
        let dirs: &[usize] = if is_king { &ALL_DIRS } else { &fwd };
        for &d in dirs {
            let mut t = g.neighbor[s][d];
            while t != NONE && empty & (1u32 << t) != 0 {
                out.push(Move::step(from, Square::from_index(t as usize)));
                if !(is_king && pos.variant.flying_kings()) {
                    break;
                }
                t = g.neighbor[t as usize][d];
            }
        }
    }
}

/// Whether the side to move can capture.
pub(crate) fn has_capture(pos: &Position) -> bool {
    capturers(pos) != 0
}

/// Whether any of `kings` can capture.
fn has_king_capture(pos: &Position, kings: u32, enemy: u32, empty: u32, g: &Geometry) -> bool {
    if !pos.variant.flying_kings() {
        return ALL_DIRS
            .iter()
            .any(|&d| g.step(g.step(kings, d) & enemy, d) & empty != 0);
    }
    for k in Bitboard(kings).squares() {
        for d in 0..4 {
            let mut sq = g.neighbor[k.index()][d];
            while sq != NONE && empty & (1u32 << sq) != 0 {
                sq = g.neighbor[sq as usize][d];
            }
            if sq != NONE && enemy & (1u32 << sq) != 0 {
                let land = g.neighbor[sq as usize][d];
                if land != NONE && empty & (1u32 << land) != 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// The number of legal moves; counts plain moves with whole-board steps.
pub(crate) fn count_legal_moves(pos: &Position) -> usize {
    let capturers = capturers(pos);
    if capturers != 0 {
        let mut out = MoveList::new();
        captures_into(pos, capturers, &mut out);
        apply_capture_laws(pos.variant, &mut out);
        return out.len();
    }
    count_plain_moves(pos)
}

/// The number of moves that are not captures, as if nothing could capture.
pub(crate) fn count_plain_moves(pos: &Position) -> usize {
    let side = pos.side;
    let mine = pos.bits(side);
    let empty = !(pos.white | pos.black);
    let g = pos.variant.geometry();
    let men = mine & !pos.kings;
    let mut n = 0;
    for d in forward_dirs(pos.variant, side) {
        n += (g.step(men, d) & empty).count_ones() as usize;
    }
    let kings = mine & pos.kings;
    if kings != 0 {
        if pos.variant.flying_kings() {
            for k in Bitboard(kings).squares() {
                for d in 0..4 {
                    let mut t = g.neighbor[k.index()][d];
                    while t != NONE && empty & (1u32 << t) != 0 {
                        n += 1;
                        t = g.neighbor[t as usize][d];
                    }
                }
            }
        } else {
            for d in ALL_DIRS {
                n += (g.step(kings, d) & empty).count_ones() as usize;
            }
        }
    }
    n
}

/// Leaf count of the move tree to `depth` plies (the last ply counted in bulk).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos) as u64,
        _ => {
            let mut list = MoveList::new();
            legal_moves_into(pos, &mut list);
            list.iter().map(|m| perft(&pos.apply(m), depth - 1)).sum()
        }
    }
}
