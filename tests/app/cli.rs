//! The engine's command line (`damas moves | perft | explain | replay`), run as a program:
//! its output, and that every bad input ends with a message on stderr and exit code 2.

use crate::support::cli::{self, ok};
use serde_json::Value;

/// Runs a command that must fail as a user error, with a message, and returns its standard
/// error.
fn user_error(args: &[&str]) -> String {
    let stderr = cli::user_error(args);
    assert!(!stderr.trim().is_empty(), "{args:?} said nothing");
    stderr
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn moves_lists_the_canonical_notation_of_every_legal_move() {
    assert_eq!(
        lines(&ok(&["moves", "--variant", "spanish"])),
        ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"]
    );
    assert_eq!(
        lines(&ok(&["moves", "--variant", "english"])),
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    // Spanish is the default; the law of quantity applies.
    assert_eq!(
        lines(&ok(&["moves", "--fen", "W:W9,12:B13,15,23"])),
        ["12x28"]
    );
    // Portuguese and English from the same squares: no quantity law in English.
    assert_eq!(
        lines(&ok(&[
            "moves",
            "--variant",
            "english",
            "--fen",
            "B:W14,16,24:B9,12"
        ])),
        ["9x18", "12x28"]
    );
}

#[test]
fn moves_as_json_give_notation_squares_path_and_captures() {
    let out = ok(&[
        "moves",
        "--variant",
        "english",
        "--fen",
        "W:W22:B10,18",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let moves = v.as_array().expect("an array");
    assert_eq!(moves.len(), 1);
    let m = &moves[0];
    assert_eq!(m["notation"], "22x6");
    assert_eq!(m["from"], 22);
    assert_eq!(m["to"], 6);
    assert_eq!(m["path"], serde_json::json!([15, 6]));
    assert_eq!(m["captures"], serde_json::json!([10, 18]));

    // Ambiguous squares: the notation carries the path.
    let out = ok(&["moves", "--fen", "W:W10:B13,14,21,22", "--json"]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let notations: Vec<&str> = v
        .as_array()
        .expect("an array")
        .iter()
        .map(|m| m["notation"].as_str().expect("a string"))
        .collect();
    assert_eq!(notations, ["10x17x26", "10x19x26"]);
}

#[test]
fn perft_prints_depth_nodes_and_milliseconds() {
    let expected = [7u64, 49, 302, 1_469, 7_361];
    for variant in ["spanish", "portuguese", "english"] {
        let out = ok(&["perft", "--variant", variant, "--depth", "5"]);
        let rows = lines(&out);
        assert_eq!(rows.len(), 5, "{variant}: {out}");
        for (i, row) in rows.iter().enumerate() {
            let fields: Vec<u64> = row
                .split_whitespace()
                .map(|f| f.parse().expect("numbers"))
                .collect();
            assert_eq!(fields.len(), 3, "{row:?}");
            assert_eq!(fields[0], i as u64 + 1);
            assert_eq!(fields[1], expected[i], "{variant} depth {}", i + 1);
        }
    }
    // From a position: the king on 1 has four captures, each then answered by nothing.
    let out = ok(&["perft", "--fen", "W:WK1:B14", "--depth", "2"]);
    let nodes: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().nth(1).expect("nodes"))
        .collect();
    assert_eq!(nodes, ["4", "0"]);
}

/// `explain` of a move that cannot be played: its explanation, printed with exit code 2.
fn explained_refusal(args: &[&str]) -> String {
    let out = cli::damas(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn explain_judges_a_move_in_either_language_and_as_json() {
    let fen = "W:W9,12:B13,15,23";
    let en = explained_refusal(&["explain", "--fen", fen, "--move", "9x18", "--lang", "en"]);
    let es = explained_refusal(&["explain", "--fen", fen, "--move", "9x18", "--lang", "es"]);
    for text in [&en, &es] {
        assert!(text.contains("12x28") && text.contains("9x18"), "{text}");
    }
    assert!(en.contains("quantity"), "{en}");
    assert!(es.contains("cantidad"), "{es}");
    assert_ne!(en, es);

    let json: Value = serde_json::from_str(&explained_refusal(&[
        "explain", "--fen", fen, "--move", "9x18", "--json",
    ]))
    .expect("JSON");
    assert_eq!(json["law"], "quantity");
    assert_eq!(json["max_pieces"], 2);
    assert_eq!(json["allowed"], serde_json::json!(["12x28"]));
    assert_eq!(json["verdict"]["legal"], false);
    assert_eq!(json["verdict"]["reason"], "law-of-quantity");
    let captures = json["captures"].as_array().expect("captures");
    assert_eq!(captures.len(), 2);
    assert_eq!(captures[1]["notation"], "9x18");
    assert_eq!(captures[1]["excluded_by"], "quantity");

    // Without a move: the capture situation alone; a legal move is echoed canonically.
    let json: Value = serde_json::from_str(&ok(&[
        "explain", "--fen", fen, "--move", "12 19 28", "--json",
    ]))
    .expect("JSON");
    assert_eq!(json["verdict"]["legal"], true);
    assert_eq!(json["verdict"]["move"], "12x28");
    let json: Value = serde_json::from_str(&ok(&["explain", "--json"])).expect("JSON of the start");
    assert_eq!(json["law"], "none");
    assert_eq!(json["verdict"], Value::Null);
}

#[test]
fn replay_prints_the_final_position_and_the_result() {
    let out = ok(&["replay", "--moves", "11-15 24-20 15x24"]);
    assert_eq!(
        lines(&out),
        ["B:W1-10,12,24:B21-23,25-32", "The game goes on."]
    );
    // Move numbers may be mixed in, and the game may end.
    let out = ok(&["replay", "--fen", "W:W9:B13", "--moves", "1. 9x18"]);
    assert_eq!(
        lines(&out),
        ["B:W18:B", "White wins: the opponent has no pieces left."]
    );
    let out = ok(&[
        "replay",
        "--variant",
        "english",
        "--moves",
        "11-15 23-19 8-11 22-17",
    ]);
    assert_eq!(lines(&out)[1], "The game goes on.");
}

#[test]
fn replay_stops_at_the_first_illegal_move_with_its_reason() {
    let err = user_error(&["replay", "--moves", "11-15 24-20 10-14"]);
    assert!(err.contains("move 3 (10-14)"), "{err}");
    assert!(
        err.to_lowercase().contains("capturing is mandatory"),
        "{err}"
    );
    // Black to move: White's man on 12 is not theirs.
    let err = user_error(&["replay", "--moves", "11-15 12-16"]);
    assert!(err.contains("move 2 (12-16)"), "{err}");
    assert!(err.contains("opponent"), "{err}");
    // PDN move numbers are not moves: the third move is still "move 3".
    let err = user_error(&["replay", "--moves", "1. 11-15 24-20 2. 10-14"]);
    assert!(err.contains("move 3 (10-14)"), "{err}");
}

#[test]
fn bad_input_is_a_message_and_exit_code_2_never_a_panic() {
    let err = user_error(&["moves", "--variant", "italian"]);
    assert!(err.contains("unknown variant"), "{err}");
    let err = user_error(&["moves", "--fen", "W:W99:B1"]);
    assert!(err.contains("bad FEN"), "{err}");
    let err = user_error(&["explain", "--lang", "fr"]);
    assert!(err.contains("fr"), "{err}");
    user_error(&["perft", "--depth", "21"]);
    // The console's settings are checked before it reads a line.
    let err = user_error(&["console", "--lang", "fr"]);
    assert!(err.contains("unknown language \"fr\""), "{err}");
    let file = tempfile::NamedTempFile::new().expect("temp file");
    let boards_in_a_file = file.path().join("boards");
    let err = user_error(&["console", "--boards", boards_in_a_file.to_str().unwrap()]);
    assert!(err.contains("cannot create"), "{err}");
    for args in [
        &["moves", "--fen", ""][..],
        &["moves", "--fen", "💥"],
        &["moves", "--fen", "W:W1-13:B30"],
        &["moves", "--variant", "english", "--fen", "B:W1:B5"],
        &["perft", "--variant", "", "--depth", "1"],
        &["perft", "--fen", "W:W5,5", "--depth", "1"],
        &["perft", "--depth", "-1"],
        &["explain", "--variant", "x"],
        &["explain", "--fen", "B"],
        &["replay", "--moves", "99-1"],
        &["replay", "--moves", "hello"],
        &["replay", "--fen", "W:W9:B13", "--moves", "9x18 13-9"],
        &["replay", "--variant", "klingon", "--moves", "11-15"],
        &["nonsense"],
    ] {
        user_error(args);
    }
    // Options are typed: a bad value is refused before anything starts, naming the option.
    for (args, option) in [
        (
            &["egdb", "generate", "--variant", "klingon"][..],
            "--variant",
        ),
        (&["egdb", "verify", "--pieces", "9"], "--pieces"),
        (&["egdb", "generate", "--threads", "0"], "--threads"),
        (
            &["puzzles", "verify", "--set", "x", "--threads", "65"],
            "--threads",
        ),
        (
            &["puzzles", "verify", "--set", "x", "--deeper-depth", "9"],
            "--deeper-depth",
        ),
        (&["bestmove", "--level", "godlike"], "--level"),
        (
            &["review", "--variant", "x", "--pdn", "none.pdn"],
            "--variant",
        ),
    ] {
        let err = user_error(args);
        assert!(err.contains(option), "{args:?}: {err}");
    }
    // A move that is not legal is explained, and exits with 2 as any bad move does.
    let out = cli::damas(&["explain", "--move", "hello", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["verdict"]["reason"], "not-a-move");
}

/// `damas engine` and `damas match` against it: the protocol as a controller speaks it.
mod engine_and_match {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Child, ChildStdin, Stdio};
    use std::sync::mpsc::{self, Receiver};
    use std::time::Duration;

    struct Engine {
        /// Its command, which holds its data folder.
        _damas: cli::Damas,
        child: Child,
        stdin: ChildStdin,
        lines: Receiver<String>,
    }

    impl Engine {
        fn start() -> Engine {
            let mut damas = cli::command();
            let mut child = damas
                .args(["engine", "--hash-mb", "4"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("damas engine starts");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = child.stdout.take().expect("stdout");
            let (tx, lines) = mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            Engine {
                _damas: damas,
                child,
                stdin,
                lines,
            }
        }

        fn send(&mut self, line: &str) {
            writeln!(self.stdin, "{line}").expect("write");
            self.stdin.flush().expect("flush");
        }

        fn answer(&self) -> String {
            self.lines
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer within a minute")
        }

        fn ask(&mut self, line: &str) -> String {
            self.send(line);
            self.answer()
        }
    }

    #[test]
    fn engine_speaks_the_protocol_and_stops_when_told() {
        let mut e = Engine::start();
        assert!(e.ask("id").starts_with("id damas "));
        assert_eq!(e.ask("new english"), "ok");
        assert_eq!(e.ask("position start moves 11-15 23-19 8-11"), "ok");
        e.send("go nodes 20000 seed 1");
        let info = e.answer();
        assert!(info.starts_with("info depth "), "{info}");
        let best = e.answer();
        let mv = best.strip_prefix("bestmove ").expect("a bestmove line");
        // The move is legal after the three plies: replay them with it.
        ok(&[
            "replay",
            "--variant",
            "english",
            "--moves",
            &format!("11-15 23-19 8-11 {mv}"),
        ]);
        // A bad command is an error line, and the engine carries on.
        assert!(e
            .ask("position start moves 11-15 11-16")
            .starts_with("error move 2"));
        assert!(e.ask("go time 0").starts_with("error"));
        assert_eq!(e.ask("isready"), "readyok");
        // A ten-minute search ends as soon as `stop` arrives, with its best move so far.
        e.send("go time 600000");
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        let info = e.lines.recv_timeout(Duration::from_secs(20));
        assert!(
            matches!(&info, Ok(l) if l.starts_with("info")),
            "stopped: {info:?}"
        );
        assert!(e.answer().starts_with("bestmove "));
        e.send("quit");
        let status = e.child.wait().expect("the engine exits");
        assert!(status.success());
    }

    #[test]
    fn match_against_an_engine_command_reports_elo_and_writes_pdn() {
        let dir = tempfile::tempdir().expect("temp dir");
        let pdn = dir.path().join("games.pdn");
        let engine = format!("{} engine --hash-mb 4", env!("CARGO_BIN_EXE_damas"));
        let out = ok(&[
            "match",
            "--variant",
            "english",
            "--a",
            "expert",
            "--engine-b",
            &engine,
            "--games",
            "4",
            "--concurrency",
            "2",
            "--nodes",
            "3000",
            "--hash-mb",
            "4",
            "--sprt",
            "0,10",
            "--pdn",
            pdn.to_str().expect("a UTF-8 path"),
        ]);
        let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 4, "{out}");
        // Each opening is played twice, colours reversed.
        let colours = |n: usize| {
            games
                .iter()
                .find(|l| l.starts_with(&format!("game {n:>3}:")))
                .map(|l| l.contains("A Black"))
        };
        assert_eq!(colours(1), Some(true), "{out}");
        assert_eq!(colours(2), Some(false), "{out}");
        let summary = out
            .lines()
            .find(|l| l.starts_with("A expert against B"))
            .expect("a summary");
        assert!(summary.contains("/4"), "{summary}");
        assert!(out.lines().any(|l| l.starts_with("Elo ")), "{out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("SPRT elo0 0 elo1 10: LLR")),
            "{out}"
        );
        let text = std::fs::read_to_string(&pdn).expect("the PDN file");
        assert_eq!(text.matches("[Event \"damas match\"]").count(), 4);
        assert_eq!(text.matches("[GameType \"21\"]").count(), 4);
        // Bad settings are refused before any game.
        for args in [
            &["match", "--a", "expert"][..],
            &["match", "--a", "expert", "--engine-b", " "],
            &["match", "--a", "expert", "--b", "hard", "--sprt", "10,0"],
            &["match", "--a", "expert", "--b", "hard", "--sprt", "x"],
            &[
                "match",
                "--a",
                "expert",
                "--b",
                "hard",
                "--concurrency",
                "0",
            ],
        ] {
            user_error(args);
        }
    }
}
