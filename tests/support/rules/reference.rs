//! A second move generator, deliberately naive, written straight from RULES.md: squares
//! placed on (file, rank) coordinates from the numbering rule, pieces read one by one from
//! the position, capture chains by plain recursion over every route. It shares nothing with
//! the engine's tables, bitboards or capture laws, so when both agree on many random
//! positions, the engine's fast paths are right.

use damas::engine::{Color, Position, Role, Square, Variant};

/// One capture route or plain move: start, every landing square, the pieces taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub from: u8,
    pub path: Vec<u8>,
    /// Captured squares, sorted.
    pub captured: Vec<u8>,
    pub kings: usize,
}

impl Route {
    pub fn to(&self) -> u8 {
        self.path[self.path.len() - 1]
    }

    /// What makes two routes the same move: start, end and captured set.
    pub fn key(&self) -> (u8, u8, Vec<u8>) {
        (self.from, self.to(), self.captured.clone())
    }
}

/// (file, rank) of square `n` in the first player's frame: rows numbered from the first
/// player's side, right to left; Spanish boards have a playing square in the first player's
/// lower-right corner (file 7), English boards in the lower-left (file 0).
pub fn coords(variant: Variant, n: u8) -> (i8, i8) {
    let i = (n - 1) as i8;
    let (rank, k) = (i / 4, i % 4);
    let row_starts_at_right_corner = match variant {
        Variant::English => rank % 2 == 1,
        _ => rank % 2 == 0,
    };
    let file = if row_starts_at_right_corner {
        7 - 2 * k
    } else {
        6 - 2 * k
    };
    (file, rank)
}

fn square_at(variant: Variant, file: i8, rank: i8) -> Option<u8> {
    (1..=32u8).find(|&n| coords(variant, n) == (file, rank))
}

const DIRECTIONS: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

fn step(variant: Variant, n: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let (f, r) = coords(variant, n);
    square_at(variant, f + df, r + dr)
}

struct Board {
    variant: Variant,
    side: Color,
    /// Men capture backwards too, as in Russian draughts (never in ours): to recognise the
    /// moves of records played under those rules.
    men_capture_backwards: bool,
    /// Piece on each square 1..=32 (index 0 unused).
    cells: [Option<(Color, Role)>; 33],
}

impl Board {
    fn new(p: &Position) -> Board {
        let mut cells = [None; 33];
        for sq in Square::all() {
            cells[sq.number() as usize] = p.piece_at(sq).map(|pc| (pc.color, pc.role));
        }
        Board {
            variant: p.variant(),
            side: p.side_to_move(),
            men_capture_backwards: false,
            cells,
        }
    }

    fn forward(&self) -> [(i8, i8); 2] {
        if self.side == self.variant.first_player() {
            [DIRECTIONS[0], DIRECTIONS[1]]
        } else {
            [DIRECTIONS[2], DIRECTIONS[3]]
        }
    }

    fn crowning_rank(&self) -> i8 {
        if self.side == self.variant.first_player() {
            7
        } else {
            0
        }
    }

    /// Empty during a capture by the piece that started on `from` (it has left its square;
    /// captured pieces stay until the end).
    fn empty(&self, n: u8, from: u8) -> bool {
        n == from || self.cells[n as usize].is_none()
    }

    fn is_enemy(&self, n: u8) -> bool {
        matches!(self.cells[n as usize], Some((c, _)) if c != self.side)
    }

    fn routes_from(&self, from: u8, role: Role, out: &mut Vec<Route>) {
        let mut path = Vec::new();
        let mut taken = Vec::new();
        self.extend(from, from, role, &mut path, &mut taken, out);
    }

    fn extend(
        &self,
        from: u8,
        at: u8,
        role: Role,
        path: &mut Vec<u8>,
        taken: &mut Vec<u8>,
        out: &mut Vec<Route>,
    ) {
        let flying = role == Role::King && self.variant.flying_kings();
        let dirs: Vec<(i8, i8)> = if role == Role::King || self.men_capture_backwards {
            DIRECTIONS.to_vec()
        } else {
            self.forward().to_vec()
        };
        let mut went_on = false;
        for d in dirs {
            // Walk to the first piece on the line (one step only for men and short kings).
            let mut over = step(self.variant, at, d);
            if flying {
                while let Some(s) = over {
                    if !self.empty(s, from) {
                        break;
                    }
                    over = step(self.variant, s, d);
                }
            }
            let Some(victim) = over else { continue };
            if !self.is_enemy(victim) || taken.contains(&victim) {
                continue;
            }
            let mut landing = step(self.variant, victim, d);
            while let Some(l) = landing {
                if !self.empty(l, from) {
                    break;
                }
                went_on = true;
                path.push(l);
                taken.push(victim);
                let crowned =
                    role == Role::Man && coords(self.variant, l).1 == self.crowning_rank();
                if crowned {
                    self.record(from, path, taken, out);
                } else {
                    self.extend(from, l, role, path, taken, out);
                }
                path.pop();
                taken.pop();
                if !flying {
                    break;
                }
                landing = step(self.variant, l, d);
            }
        }
        if !went_on && !path.is_empty() {
            self.record(from, path, taken, out);
        }
    }

    fn record(&self, from: u8, path: &[u8], taken: &[u8], out: &mut Vec<Route>) {
        let mut captured = taken.to_vec();
        captured.sort();
        let kings = captured
            .iter()
            .filter(|&&s| matches!(self.cells[s as usize], Some((_, Role::King))))
            .count();
        out.push(Route {
            from,
            path: path.to_vec(),
            captured,
            kings,
        });
    }
}

/// Every capture route of the side to move, routes to the same result included, before the
/// laws of quantity and quality.
pub fn capture_routes(p: &Position) -> Vec<Route> {
    Board::new(p).routes_of_side_to_move()
}

/// Every capture route there would be if men captured backwards as well as forwards (as in
/// Russian draughts; crowning still ends a man's capture).
pub fn capture_routes_men_both_ways(p: &Position) -> Vec<Route> {
    let mut b = Board::new(p);
    b.men_capture_backwards = true;
    b.routes_of_side_to_move()
}

impl Board {
    /// Every capture route of every piece of the side to move.
    fn routes_of_side_to_move(&self) -> Vec<Route> {
        let mut out = Vec::new();
        for n in 1..=32u8 {
            if let Some((c, role)) = self.cells[n as usize] {
                if c == self.side {
                    self.routes_from(n, role, &mut out);
                }
            }
        }
        out
    }
}

/// The legal moves as (from, to, captured) keys, sorted, each once.
pub fn legal_keys(p: &Position) -> Vec<(u8, u8, Vec<u8>)> {
    let mut routes = capture_routes(p);
    if routes.is_empty() {
        let b = Board::new(p);
        let mut keys = Vec::new();
        for n in 1..=32u8 {
            let Some((c, role)) = b.cells[n as usize] else {
                continue;
            };
            if c != b.side {
                continue;
            }
            let dirs: Vec<(i8, i8)> = if role == Role::King {
                DIRECTIONS.to_vec()
            } else {
                b.forward().to_vec()
            };
            for d in dirs {
                let mut t = step(b.variant, n, d);
                while let Some(s) = t {
                    if b.cells[s as usize].is_some() {
                        break;
                    }
                    keys.push((n, s, Vec::new()));
                    if !(role == Role::King && b.variant.flying_kings()) {
                        break;
                    }
                    t = step(b.variant, s, d);
                }
            }
        }
        keys.sort();
        return keys;
    }
    if p.variant() != Variant::English {
        let most = routes.iter().map(|r| r.captured.len()).max().unwrap_or(0);
        routes.retain(|r| r.captured.len() == most);
        let most_kings = routes.iter().map(|r| r.kings).max().unwrap_or(0);
        routes.retain(|r| r.kings == most_kings);
    }
    let mut keys: Vec<_> = routes.iter().map(Route::key).collect();
    keys.sort();
    keys.dedup();
    keys
}
