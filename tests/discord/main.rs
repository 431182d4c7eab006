//! The Discord front end's tests, one binary: the real serenity client and our router against
//! the Discord stand-in (`support::stand_in`), in this process or as a `damas bot` / `damas
//! serve` child process. One module a concern: `cargo test --test discord faults::` runs one.

#[path = "../support/mod.rs"]
mod support;

mod activity;
mod anywhere;
mod ballot;
mod board_listen;
mod e2e;
mod faults;
mod my_data;
mod restart;
mod scale;
mod settings;
mod smoke;
mod tables_at_start;
mod threads;
mod tournament;
mod web;
