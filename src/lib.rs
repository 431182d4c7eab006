//! damas: draughts (Spanish, Portuguese, English) for Discord.
//!
//! Layers, each depending only on those above it:
//! `engine` (rules) → `ai`, `render`, `store` → `app` (use cases) → `discord`, `console`.

pub mod ai;
pub mod app;
pub mod cli;
pub mod console;
pub mod discord;
pub mod engine;
pub mod render;
pub mod store;
