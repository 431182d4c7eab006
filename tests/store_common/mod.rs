//! Helpers shared by the store's integration tests.
#![allow(dead_code)]

use damas::engine::{Color, Game, Move, Variant};
use damas::store::{GameRecord, Seat, StoredMove};
use rand::rngs::SmallRng;
use rand::Rng;

pub const DAY_MS: u64 = 24 * 60 * 60 * 1000;

pub fn human(user_id: u64) -> Seat {
    Seat::Human {
        user_id,
        name: format!("player {user_id}"),
    }
}

pub fn bot(level: &str) -> Seat {
    Seat::Bot {
        level: level.to_string(),
    }
}

pub fn new_game(
    id: u64,
    guild: Option<u64>,
    channel: u64,
    variant: Variant,
    players: [Seat; 2],
) -> GameRecord {
    GameRecord::new(id, guild, channel, variant, players, 1_000)
}

/// Plays `mv` on the record the way the application does: replay, play, store the move and
/// whatever the rules decided.
pub fn push_move(rec: &mut GameRecord, mv: Move, now_ms: u64) -> Game {
    let mut game = rec.to_game().expect("record replays");
    game.play(mv).expect("legal move");
    rec.moves.push(StoredMove::from_move(&mv));
    rec.outcome = game.outcome();
    rec.last_move_at_ms = now_ms;
    rec.draw_offer = None;
    game
}

/// A random legal move of the record's position, or `None` when the game is over.
pub fn random_move(rec: &GameRecord, rng: &mut SmallRng) -> Option<Move> {
    let game = rec.to_game().expect("record replays");
    if game.is_over() {
        return None;
    }
    let legal = game.position().legal_moves();
    Some(legal[rng.gen_range(0..legal.len())])
}

pub fn side_to_move(rec: &GameRecord) -> Color {
    rec.to_game().expect("record replays").side_to_move()
}
