//! damas: draughts (Spanish, Portuguese, English) for Discord.
//!
//! Layers, each using only the layers before it:
//! `engine` (rules) → `ai`, `render`, `store` → `app` (use cases) → `discord` (the bot),
//! `console` (the terminal front end) and `cli` (the engine, the AI and the pictures on the
//! command line, with JSON for tools). `main.rs` parses the arguments and turns each front
//! end's result into an exit code. `level` and `lang` are values of their own below `ai` and
//! `store` (the computer's levels and the bot's languages, which stored records hold), and
//! `data_dir` says where the database and the endgame tables live. See CONTRIBUTING.md.
//!
//! `engine`, `ai`, `render`, `level` and `data_dir` live in the crate `damas-core` (the folder
//! of that name), built once and optimized even in tests; they are re-exported here under
//! their own names, so `crate::engine` and `damas::engine` mean what they always did.

pub mod app;
pub mod cli;
pub mod config;
pub mod console;
pub mod discord;
pub mod lang;
pub mod metrics;
pub mod store;

pub use damas_core::{ai, data_dir, engine, level, render};
pub mod web;
