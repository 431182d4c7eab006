//! `damas console` driven through standard input, as a person or a script would.

use std::io::Write;
use std::process::{Command, Stdio};

fn run_console(script: &str, extra: &[&str]) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let boards = dir.path().join("boards");
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .arg("console")
        .arg("--boards")
        .arg(&boards)
        .arg("--db")
        .arg(dir.path().join("db"))
        .args(["--seed", "3"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas console starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let out = child.wait_with_output().expect("console ends");
    assert!(
        out.status.success(),
        "console failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), dir)
}

fn pngs(dir: &tempfile::TempDir) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir.path().join("boards"))
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "png"));
    v.sort();
    v
}

#[test]
fn two_people_play_at_one_keyboard() {
    let script = "\
alice: /challenge bob spanish white
bob: /accept
alice: /move 10-14
bob: /move 23-19
alice: /move 9-13
alice: /move 14x23
carol: /move 28x19
bob: /resign
";
    let (out, dir) = run_console(script, &[]);
    assert!(out.contains("alice played 10-14"), "{out}");
    assert!(out.contains("bob played 23-19"), "{out}");
    // Capture is mandatory: 9-13 is refused with the reason, privately.
    assert!(out.contains("(only alice sees this)"), "{out}");
    assert!(out.contains("Capturing is mandatory"), "{out}");
    assert!(out.contains("alice played 14x23"), "{out}");
    assert!(out.contains("You are not playing in this game"), "{out}");
    assert!(out.contains("White wins by resignation"), "{out}");
    let boards = pngs(&dir);
    assert!(boards.len() >= 5, "a picture after every turn: {boards:?}");
    for b in &boards {
        let img = image::open(b).expect("a real PNG");
        assert!(img.width() >= 300);
    }
}

#[test]
fn one_person_plays_the_bot_in_spanish() {
    let script = "\
/play easy english black
/move 11-15
/board
/explain 9-5
";
    let (out, _dir) = run_console(script, &["--lang", "es"]);
    assert!(out.contains("¡Empieza la partida!"), "{out}");
    assert!(out.contains("player jugó 11-15"), "{out}");
    // The bot answered (its move line names it).
    assert!(out.contains("Bot (fácil) jugó"), "{out}");
    assert!(out.contains("No es legal"), "{out}");
}

#[test]
fn unknown_commands_and_bad_moves_do_not_stop_the_console() {
    let script = "\
/frobnicate
/move 11-15
/play medium
/move 99-100
/move hello
/help
";
    let (out, _dir) = run_console(script, &[]);
    assert!(out.contains("Unknown command"), "{out}");
    assert!(out.contains("There is no game in this channel"), "{out}");
    assert!(out.contains("There is no square 99"), "{out}");
    assert!(out.contains("is not a move"), "{out}");
    assert!(out.contains("/challenge"), "{out}");
}
