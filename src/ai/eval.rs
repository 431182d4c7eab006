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
/// about two and a half men; a short English king keeps seed 002's value.
pub fn king_value(variant: Variant) -> i32 {
    if variant.flying_kings() {
        250
    } else {
        160
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

/// Men nobody can stop: nothing of the enemy stands in the triangle ahead (and, with flying
/// kings, the enemy has no king that could come back from afar). Worth most of the
/// difference between a king and a man, more the closer they are.
fn runaways(t: &Tables, s: &Sides, side: usize, king_gain: i32, flying: bool) -> i32 {
    let enemy = 1 - side;
    if flying && s.kings[enemy] != 0 {
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
            bonus += (king_gain - 6 * to_go).max(0);
        }
    }
    bonus
}

/// Squares where a piece of the other side would be taken at once: an `attacker` piece next
/// to it that may capture in that direction, and an empty square behind it.
fn attacked_by(t: &Tables, s: &Sides, attacker: usize, empty: u32) -> u32 {
    let forward = if attacker == 0 {
        [UP_LEFT, UP_RIGHT]
    } else {
        [DOWN_LEFT, DOWN_RIGHT]
    };
    let mut attacked = 0;
    for d in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
        let mut pieces = s.kings[attacker];
        if forward.contains(&d) {
            pieces |= s.men[attacker];
        }
        // Directions are numbered so that 3 - d is the opposite one.
        attacked |= t.step(pieces, d) & t.step(empty, 3 - d);
    }
    attacked
}

/// Short kings (English) with nowhere safe to go: every step walks into a capture. Such a
/// king is usually lost a few moves later, beyond the search's sight.
fn trapped_kings(t: &Tables, s: &Sides, side: usize, empty: u32) -> i32 {
    let mut trapped = 0;
    let mut kings = s.kings[side];
    while kings != 0 {
        let king = kings & kings.wrapping_neg();
        kings &= kings - 1;
        let mut steps = 0;
        for d in [UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT] {
            steps |= t.step(king, d) & empty;
        }
        // The king's own square empties when it moves.
        let attacked = attacked_by(t, s, 1 - side, empty | king);
        if steps & !attacked == 0 {
            trapped += 1;
        }
    }
    trapped
}

/// Expert's evaluation: material with a flying king valued as the piece it is, positional
/// terms per family of rules, and what the search cannot see in time — men nobody can stop,
/// English kings with nowhere safe to go, mobility, and the king endings.
pub fn rich(pos: &Position) -> i32 {
    let variant = pos.variant();
    let t = Tables::get(variant);
    let s = Sides::of(pos);
    let flying = variant.flying_kings();
    let king = king_value(variant);
    let empty = !(s.pieces(0) | s.pieces(1));
    // 24 pieces: the opening; few pieces: the ending. Some weights slide between the two.
    let opening = (s.pieces(0) | s.pieces(1)).count_ones().min(24) as i32;
    let ending = 24 - opening;
    let mut material = [0i32; 2];
    let mut score = [0i32; 2];
    for side in 0..2 {
        let men = s.men[side];
        let kings = s.kings[side];
        material[side] = 100 * men.count_ones() as i32 + king * kings.count_ones() as i32;
        let back_row = if side == 0 { t.row[0] } else { t.row[7] };
        let back_men = (men & back_row).count_ones() as i32;
        let mut v = material[side];
        if flying {
            // Advancing matters more as the board empties; early on it loosens the
            // formation. The back row matters mostly while many men remain.
            v += advancement(t, men, side) * (1 + 5 * ending / 24);
            v += back_men * (2 + 10 * opening / 24);
            v += 4 * (men & t.center).count_ones() as i32;
            v += 8 * (kings & t.center).count_ones() as i32;
            // Whoever holds the long diagonal with a king controls the king endings.
            v += 12 * (kings & t.long_diagonal).count_ones() as i32;
            v += 2 * mobility(t, &s, side, empty, flying);
        } else {
            // English: seed 002's weights held up best in matches; mobility counts less
            // where a tempo in hand can matter more than a free square.
            v += 3 * advancement(t, men, side) + 8 * back_men;
            v += 6 * (kings & t.center).count_ones() as i32;
            v += mobility(t, &s, side, empty, flying);
            v -= 50 * trapped_kings(t, &s, side, empty);
        }
        v += runaways(t, &s, side, king - 100, flying);
        score[side] = v;
    }
    let mut white = score[0] - score[1];
    white += ahead_terms(t, &s, material, if flying { 4 } else { 3 });
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

    #[test]
    fn a_man_with_a_free_road_counts_as_almost_a_king() {
        let t = Tables::get(Variant::English);
        // White men on 10 (row 5) and Black's men far away on the other wing, or in its road.
        let free = pos(Variant::English, "B:W10,31:B12,16");
        let blocked = pos(Variant::English, "B:W10,31:B6,16");
        let s_free = Sides::of(&free);
        let s_blocked = Sides::of(&blocked);
        assert!(runaways(t, &s_free, 0, 35, false) > 0);
        assert_eq!(runaways(t, &s_blocked, 0, 35, false), 0);
        // Flying kings come back from anywhere: no runaway while the enemy has one.
        let es = Tables::get(Variant::Spanish);
        let with_king = pos(Variant::Spanish, "W:W23:BK1");
        assert_eq!(runaways(es, &Sides::of(&with_king), 0, 150, true), 0);
        let without = pos(Variant::Spanish, "W:W23:B5");
        assert!(runaways(es, &Sides::of(&without), 0, 150, true) > 100);
    }

    #[test]
    fn a_cornered_english_king_is_trapped() {
        let t = Tables::get(Variant::English);
        // Black's king on 3 can go to 7 or 8, and White's king on 11 takes it on either.
        let cornered = pos(Variant::English, "B:WK1,K11,K21:B10,K3,K18");
        let s = Sides::of(&cornered);
        let empty = !(s.pieces(0) | s.pieces(1));
        assert_eq!(trapped_kings(t, &s, 1, empty), 1);
        // Without White's king on 11 it is free.
        let free = pos(Variant::English, "B:WK1,K21:B10,K3,K18");
        let s = Sides::of(&free);
        let empty = !(s.pieces(0) | s.pieces(1));
        assert_eq!(trapped_kings(t, &s, 1, empty), 0);
    }
}
