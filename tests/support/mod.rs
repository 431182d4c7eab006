//! The fixtures every test binary shares, included once per binary as `mod support;` (the
//! benches that drive the bot include it too, by `#[path]`). Each binary uses its own part.
//!
//! - [`app`]: a [`app::World`] (an app on a temporary store), people, reading answers.
//! - [`rules`]: positions from FEN, the colour mirror, a naive reference move generator.
//! - [`search`]: searches limited by nodes, a long game for the review and replay tests.
//! - [`store`]: a database of each backend, records, a throwaway PostgreSQL server.
//! - [`stand_in`]: a stand-in for Discord on 127.0.0.1 that speaks its real protocol.
//! - [`cli`]: the `damas` binary run as a program.
//! - [`bot`]: the bot started against the stand-in, in this process or as a child process.
//! - [`board`]: the board page served by a child process, a game on it, its sign-in.
//! - [`browser`]: headless Chromium through chromedriver, for the board page.
//! - [`shared_data`] and [`postgres`]: what a test needs from outside the repository, or the
//!   test skipped with one line saying so (a failure under `CI=true`): see
//!   [`store::optional`].
#![allow(dead_code)]

pub mod app;
pub mod board;
pub mod bot;
pub mod browser;
pub mod cli;
pub mod rules;
pub mod search;
pub mod stand_in;
pub mod store;
pub mod webdriver;

// Each binary uses its own part (the crate-level allow does not reach imports).
#[allow(unused_imports)]
pub use store::optional::shared_data;
#[allow(unused_imports)]
pub use store::postgres::optional_server as postgres;
