//! What some tests need from outside the repository: the data shared beside it (`../shared`:
//! real PDN archives, the ACF's list of ballots), or PostgreSQL's server programs
//! ([`super::postgres::optional_server`]). Found, the test runs; missing, the test prints one
//! line saying what it skipped and how to enable it, and passes — except when `CI` is `true`:
//! CI has both, so a missing piece there fails the test instead of being skipped in silence.
//!
//! Declared from `store/mod.rs` so that the binaries which include only the store's fixtures
//! (`tests/store_crash.rs`, `benches/store.rs`) have it too.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The shared data's folder, beside the repository.
const SHARED: &str = "../shared";

/// `../shared/<relative>` (relative to the repository), when it is there; otherwise the
/// running test is skipped ([`skip`]) and `None` is returned.
pub fn shared_data(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(SHARED)
        .join(relative);
    if path.exists() {
        return Some(path);
    }
    skip(&format!(
        "{SHARED}/{relative} not found beside the repository (clone the shared data there to \
         run it)"
    ));
    None
}

/// Whether missing data or programs must fail the tests rather than skip them.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Says that the running test is skipped, and why, in one line on standard error; under
/// `CI=true` it panics instead, failing the test.
///
/// The line is written to the process's standard error directly rather than by `eprintln!`,
/// which the test harness captures and shows only for failing tests: a skip must be seen on
/// a passing run. The test is named after its thread, which the harness names after it.
pub fn skip(reason: &str) {
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    if in_ci() {
        panic!("{test} needs what is missing, and CI=true skips nothing: {reason}");
    }
    let _ = writeln!(std::io::stderr().lock(), "skipped: {test}: {reason}");
}
