//! The `damas` binary run as a program, as a person or a script would.

use std::process::{Command, Output};

/// Runs `damas` with `args` and waits for it.
pub fn damas(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(args)
        .output()
        .expect("the damas binary runs")
}

/// Runs a command that must succeed and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = damas(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs a command that must fail as a user error (exit code 2, no panic) and returns its
/// standard error.
pub fn user_error(args: &[&str]) -> String {
    let out = damas(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    stderr
}
