//! Searches the same on every machine: options limited by nodes, and a long game for the
//! review and replay tests and benchmarks (two Medium searches playing each other from seeded
//! openings, the first seed whose game lasts the plies asked for; depth-limited).
// The review bench takes only the long game.
#![allow(dead_code)]

use damas::ai::{best_move, Level, SearchLimits, SearchOptions};
use damas::engine::{Game, Variant};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// A game of exactly `plies` plies (cut there, still going), or a panic naming the variant if
/// none of the first seeds lasts that long.
pub fn long_game(variant: Variant, plies: usize) -> Game {
    for seed in 0..200u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(variant);
        while game.ply() < plies && !game.is_over() {
            // Four random opening plies, then Medium for both sides.
            let mv = if game.ply() < 4 {
                game.position().legal_moves().choose(&mut rng).copied()
            } else {
                let opts = SearchOptions {
                    seed: seed * 1000 + game.ply() as u64,
                    ..SearchOptions::default()
                };
                best_move(&game, Level::Medium, &opts).map(|r| r.mv)
            };
            match mv {
                Some(mv) if game.play(mv).is_ok() => {}
                _ => break,
            }
        }
        if game.ply() == plies {
            return game;
        }
    }
    panic!("no {variant} game of {plies} plies among the seeds tried");
}

/// The default search options, limited to `n` nodes.
pub fn nodes(n: u64) -> SearchOptions {
    SearchOptions {
        limits: Some(SearchLimits {
            time: None,
            nodes: Some(n),
            depth: None,
        }),
        ..SearchOptions::default()
    }
}
