//! damas: draughts (Spanish, Portuguese, English) for Discord.
//!
//! Layers, each using only the layers before it:
//! `engine` (rules) → `ai`, `render`, `store` → `app` (use cases) → `discord` (the bot),
//! `console` (the terminal front end) and `cli` (the engine, the AI and the pictures on the
//! command line, with JSON for tools). `main.rs` parses the arguments and turns each front
//! end's result into an exit code. `level` and `lang` are values of their own below `ai` and
//! `store` (the computer's levels and the bot's languages, which stored records hold), and
//! `data_dir` says where the database and the endgame tables live. See CONTRIBUTING.md.

pub mod ai;
pub mod app;
pub mod cli;
pub mod config;
pub mod console;
pub mod data_dir;
pub mod discord;
pub mod engine;
pub mod lang;
pub mod level;
pub mod metrics;
pub mod render;
pub mod store;
pub mod web;
