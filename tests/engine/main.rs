//! The engine's tests, one binary: the rules contract (RULES.md), notation and FEN, perft, the
//! computer opponent and its search pool, game review, and the board picture and replay GIF.
//! One module a concern: `cargo test --test engine rules_game::` runs one.

#[path = "../support/mod.rs"]
mod support;

mod ai;
mod book;
mod gif;
mod notation_fen_props;
mod pdn_files;
mod perft;
mod pool;
mod render;
mod review;
mod rules;
mod rules_game;
mod rules_notation;
