//! The application layer's tests, one binary: its use cases driven as the front ends drive them
//! (`World` in `support::app`), the words of the bot in both languages, and the `damas`
//! command line and console run as programs. One module a concern: `cargo test --test app
//! forget::` runs one.

#[path = "../support/mod.rs"]
mod support;

mod ballot;
mod cli;
mod cli_book;
mod cli_help;
mod cli_review;
mod cli_unix;
mod console;
mod forget;
mod game_creation;
mod i18n;
mod layers;
mod my_data;
mod pg_cost;
mod puzzle_sets;
mod puzzles;
mod remembered;
mod repo_hygiene;
mod review;
mod server_settings;
mod settings_doc;
mod sweep;
mod tournament;
mod tournament_rules;
mod use_cases;
