//! Static evaluation: how good a quiet position is for the side to move, in hundredths of a
//! man.
//!
//! [`basic`] is the evaluation seed 002 describes to players (Easy, Medium, Hard);
//! [`rich`] is Expert's, which adds mobility, runaway men, king values per variant and
//! knowledge of the king endings that decide whether an advantage wins.

use super::board::{Tables, DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT};
use crate::engine::{Color, Position, Variant};

/// The pieces of both sides as plain words, White first.
struct Sides {
    men: [u32; 2],
    kings: [u32; 2],
}

impl Sides {
    fn of(pos: &Position) -> Sides {
        Sides {
            men: [pos.men(Color::White).0, pos.men(Color::Black).0],
            kings: [pos.kings(Color::White).0, pos.kings(Color::Black).0],
        }
    }

    fn pieces(&self, side: usize) -> u32 {
        self.men[side] | self.kings[side]
    }

    fn count(&self) -> u32 {
        (self.pieces(0) | self.pieces(1)).count_ones()
    }
}

/// From White's view to the side to move's.
#[inline(always)]
fn for_side_to_move(pos: &Position, white_score: i32) -> i32 {
    match pos.side_to_move() {
        Color::White => white_score,
        Color::Black => -white_score,
    }
}

/// Rows a man has advanced: White's men go up from row 0, Black's down from row 7.
fn advancement(t: &Tables, men: u32, side: usize) -> i32 {
    let mut sum = 0;
    for r in 1..8 {
        let on_row = (men & t.row[r]).count_ones() as i32;
        let rows = if side == 0 { r } else { 7 - r } as i32;
        sum += rows * on_row;
    }
    // Row 0 is skipped: White's men there have not advanced, and Black's men cannot stand
    // on their crowning row.
    sum
}

/// The sum over `kings` of the distance to the nearest piece of `targets`.
fn distance_to_nearest(t: &Tables, kings: u32, targets: u32) -> i32 {
    if targets == 0 {
        return 0;
    }
    let mut total = 0;
    let mut k = kings;
    while k != 0 {
        let i = k.trailing_zeros() as usize;
        k &= k - 1;
        let mut best = u8::MAX;
        let mut e = targets;
        while e != 0 {
            let j = e.trailing_zeros() as usize;
            e &= e - 1;
            best = best.min(t.distance[i][j]);
        }
        total += best as i32;
    }
    total
}

/// Seed 002: man 100, king 160, +3 per row a man has advanced, +8 per man on its own back row,
/// +6 per king on one of the eight central squares; when ahead, trades are welcome and the
/// kings head for the opponent's pieces.
pub fn basic(pos: &Position) -> i32 {
    const MAN: i32 = 100;
    const KING: i32 = 160;
    let t = Tables::get(pos.variant());
    let s = Sides::of(pos);
    let mut score = [0i32; 2];
    let mut material = [0i32; 2];
    for side in 0..2 {
        let men = s.men[side];
        let kings = s.kings[side];
        material[side] = MAN * men.count_ones() as i32 + KING * kings.count_ones() as i32;
        let back_row = if side == 0 { t.row[0] } else { t.row[7] };
        score[side] = material[side]
            + 3 * advancement(t, men, side)
            + 8 * (men & back_row).count_ones() as i32
            + 6 * (kings & t.center).count_ones() as i32;
    }
    let mut white = score[0] - score[1];
    white += ahead_terms(t, &s, material, 3);
    for_side_to_move(pos, white)
}

/// What the side ahead in material wants: trades (its lead weighs more as the board empties)
/// and kings close to the opponent's pieces. From White's view.
fn ahead_terms(t: &Tables, s: &Sides, material: [i32; 2], approach: i32) -> i32 {
    let lead = material[0] - material[1];
    if lead == 0 {
        return 0;
    }
    let (strong, weak, sign) = if lead > 0 { (0, 1, 1) } else { (1, 0, -1) };
    let total = (material[0] + material[1]).max(1);
    let trade = lead.abs() * 300 / total;
    let chase = approach * distance_to_nearest(t, s.kings[strong], s.pieces(weak));
    sign * (trade - chase)
}

/// King values of Expert's evaluation: a flying king sweeps whole diagonals and is worth
/// about two and a half men; a short English king about one and a third.
pub fn king_value(variant: Variant) -> i32 {
    if variant.flying_kings() {
        250
    } else {
        135
    }
}

/// Squares a side's pieces can step to (a cheap stand-in for the legal move count, which
/// would have to look for captures first).
fn mobility(t: &Tables, s: &Sides, side: usize, empty: u32, flying: bool) -> i32 {
    let men = s.men[side];
    let fwd = if side == 0 {
        [UP_LEFT, UP_RIGHT]
    } else {
        [DOWN_LEFT, DOWN_RIGHT]
    };
    let mut n = 0;
    for d in fwd {
        n += (t.step(men, d) & empty).count_ones() as i32;
    }
    let kings = s.kings[side];
    if kings != 0 {
        for d in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            if flying {
                let mut front = t.step(kings, d) & empty;
                while front != 0 {
                    n += front.count_ones() as i32;
                    front = t.step(front, d) & empty;
                }
            } else {
                n += (t.step(kings, d) & empty).count_ones() as i32;
            }
        }
    }
    n
}

/// Men nobody can stop: nothing of the enemy stands in the triangle ahead, and the enemy has
/// no king that could come back for them. Worth most of a king, more the closer they are.
fn runaways(t: &Tables, s: &Sides, side: usize, king_bonus: i32) -> i32 {
    let enemy = 1 - side;
    if s.kings[enemy] != 0 {
        return 0;
    }
    let enemy_pieces = s.pieces(enemy);
    let mut bonus = 0;
    let mut men = s.men[side];
    while men != 0 {
        let i = men.trailing_zeros() as usize;
        men &= men - 1;
        if t.cone[side][i] & enemy_pieces == 0 {
            let row = t.coords[i].1 as i32;
            let to_go = if side == 0 { 7 - row } else { row };
            bonus += king_bonus - 8 * to_go;
        }
    }
    bonus
}

/// Expert's evaluation.
pub fn rich(pos: &Position) -> i32 {
    let variant = pos.variant();
    let t = Tables::get(variant);
    let s = Sides::of(pos);
    let flying = variant.flying_kings();
    let king = king_value(variant);
    let pieces = s.count() as i32;
    // 24 pieces: the opening; few pieces: the ending. Weights slide between the two.
    let opening = pieces.clamp(0, 24);
    let ending = 24 - opening;
    let empty = !(s.pieces(0) | s.pieces(1));
    let mut material = [0i32; 2];
    let mut score = [0i32; 2];
    for side in 0..2 {
        let men = s.men[side];
        let kings = s.kings[side];
        material[side] = 100 * men.count_ones() as i32 + king * kings.count_ones() as i32;
        let back_row = if side == 0 { t.row[0] } else { t.row[7] };
        let mut v = material[side];
        // Advancing matters more as the board empties; early on it loosens the formation.
        v += advancement(t, men, side) * (1 + 5 * ending / 24);
        // The back row keeps the opponent from crowning, mostly while many men remain.
        v += (men & back_row).count_ones() as i32 * (2 + 10 * opening / 24);
        v += 4 * (men & t.center).count_ones() as i32;
        v += 8 * (kings & t.center).count_ones() as i32;
        if flying {
            // Whoever holds the long diagonal with a king controls the king endings.
            v += 12 * (kings & t.long_diagonal).count_ones() as i32;
        }
        v += 2 * mobility(t, &s, side, empty, flying);
        v += runaways(t, &s, side, (king - 100) * 3 / 4);
        score[side] = v;
    }
    let mut white = score[0] - score[1];
    white += ahead_terms(t, &s, material, 4);
    white += endings(t, &s, flying);
    let white = scale_drawish(t, &s, flying, white);
    for_side_to_move(pos, white)
}

/// King endings: the defender's hide-outs. From White's view.
fn endings(t: &Tables, s: &Sides, flying: bool) -> i32 {
    let mut white = 0;
    for side in 0..2 {
        let sign = if side == 0 { 1 } else { -1 };
        let enemy = 1 - side;
        let weaker = s.pieces(side).count_ones() < s.pieces(enemy).count_ones();
        if !weaker || s.men[side] != 0 || s.kings[side] == 0 {
            continue;
        }
        if flying {
            // A lone king on the long diagonal draws against three kings.
            white += sign * 40 * (s.kings[side] & t.long_diagonal).count_ones() as i32;
        } else {
            // English: the lone king runs to a double corner; the stronger side must drive it
            // out, so sitting there is worth something to the defender.
            white += sign * 25 * (s.kings[side] & t.double_corners).count_ones() as i32;
        }
    }
    white
}

/// Endings that no amount of material wins with flying kings: two kings (or fewer) against
/// one, and three against one when the lone king holds the long diagonal.
fn scale_drawish(t: &Tables, s: &Sides, flying: bool, white: i32) -> i32 {
    if !flying || s.men[0] != 0 || s.men[1] != 0 {
        return white;
    }
    let k = [s.kings[0].count_ones(), s.kings[1].count_ones()];
    let (strong, weak) = if k[0] >= k[1] { (0, 1) } else { (1, 0) };
    if k[weak] != 1 {
        return white;
    }
    if k[strong] <= 2 {
        return white / 32;
    }
    if k[strong] == 3
        && s.kings[weak] & t.long_diagonal != 0
        && s.kings[strong] & t.long_diagonal == 0
    {
        return white / 4;
    }
    white
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Variant;

    fn pos(variant: Variant, fen: &str) -> Position {
        match Position::from_fen(variant, fen) {
            Ok(p) => p,
            Err(e) => panic!("bad test FEN {fen}: {e}"),
        }
    }

    #[test]
    fn start_is_balanced_for_both_evaluations() {
        for v in Variant::ALL {
            let p = Position::start(v);
            assert_eq!(basic(&p), 0, "{v}");
            assert_eq!(rich(&p), 0, "{v}");
        }
    }

    #[test]
    fn basic_follows_seed_002() {
        // English: a White man on 24 (two rows up from White's back row 29-32) against a
        // Black king on 14, a central square. White to move.
        let p = pos(Variant::English, "W:W24:BK14");
        let white = 100 + 3 * 2;
        let black = 160 + 6;
        // Black leads by 60: the trade term is 60 * 300 / 260, and its king is asked to
        // close the distance to the man on 24.
        let t = Tables::get(Variant::English);
        let distance = t.distance[13][23] as i32;
        assert!(distance >= 2);
        let black_ahead = 60 * 300 / 260 - 3 * distance;
        assert_eq!(basic(&p), white - black - black_ahead);
        // The same position seen from Black is the opposite.
        let q = pos(Variant::English, "B:W24:BK14");
        assert_eq!(basic(&q), -basic(&p));
    }

    #[test]
    fn an_extra_man_is_good_for_its_owner() {
        for v in Variant::ALL {
            let start = Position::start(v);
            let mut p = start;
            // Remove one of the second player's men.
            let second = v.first_player().opposite();
            let sq = p.pieces(second).squares().next();
            if let Some(sq) = sq {
                p.set_piece(sq, None);
            }
            let first_to_move = p.with_side_to_move(v.first_player());
            assert!(basic(&first_to_move) > 80, "{v}");
            assert!(rich(&first_to_move) > 80, "{v}");
        }
    }

    #[test]
    fn two_kings_against_one_is_drawish_only_with_flying_kings() {
        let es = pos(Variant::Spanish, "W:WK1,K2:BK20");
        let en = pos(Variant::English, "W:WK1,K2:BK20");
        assert!(rich(&es) < 50, "{}", rich(&es));
        assert!(rich(&en) > 100, "{}", rich(&en));
    }
}
