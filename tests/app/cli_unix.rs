//! The command line as a Unix tool (issue 42): what people wrote printed plainly, a closed
//! pipe ending a command quietly, PDN files read as the variant their GameType tag names and
//! refused when they are no PDN at all, database URLs of other kinds refused, exit codes as
//! the README says, and logs without colours away from a terminal.

use crate::support::bot::{http_get, BotProcess};
use crate::support::cli::{damas, ok, user_error};
use crate::support::stand_in::{FaultAction, FaultRoute, StandIn};
use damas::app::i18n::Lang;
use damas::engine::Variant;
use std::io::Read;
use std::path::Path;
use std::process::Stdio;

/// The app's invisible marks around what a person wrote (src/app/reply.rs): never printed.
const MARKS: [char; 2] = ['\u{FDD0}', '\u{FDD1}'];

/// A variant's name as the command line prints it (its words live in the app's Fluent files).
fn name(v: Variant) -> String {
    damas::app::i18n::variant_name(Lang::En, v)
}

fn assert_plain(what: &str, text: &str) {
    assert!(
        !text.contains(MARKS),
        "{what} prints the app's marks: {text:?}"
    );
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file written");
    path.to_string_lossy().into_owned()
}

/// The standard output and error of a run, and its exit code.
fn run(args: &[&str]) -> (String, String, Option<i32>) {
    let out = damas(args);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// An English game: read as Spanish (whose men stand the other way round), its third move
/// 8-11 is no move, so it is refused.
const ENGLISH_GAME: &str = "1. 11-15 23-19 2. 8-11 22-17 *\n";

#[test]
fn what_people_typed_is_printed_as_typed_without_marks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, stderr, code) = run(&["replay", "--variant", "english", "--moves", "11-15 zz"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("“zz”"), "{stderr}");
    assert_plain("replay", &stderr);

    let (stdout, _, _) = run(&["explain", "--move", "zz"]);
    assert!(stdout.contains("zz"), "{stdout}");
    assert_plain("explain", &stdout);
    let (stdout, _, _) = run(&["explain", "--move", "zz", "--json"]);
    assert_plain("explain --json", &stdout);

    let bad = write(dir.path(), "bad.pdn", "[Event \"x\"]\n1. 11-15 zz *\n");
    let (stdout, _, code) = run(&["pdn", "check", &bad]);
    assert_eq!(code, Some(2));
    assert!(stdout.contains("zz"), "{stdout}");
    assert_plain("pdn check", &stdout);
    let (stdout, _, _) = run(&["pdn", "check", &bad, "--json"]);
    assert_plain("pdn check --json", &stdout);
    let stderr = user_error(&["review", "--pdn", &bad]);
    assert!(stderr.contains("zz"), "{stderr}");
    assert_plain("review", &stderr);
}

/// A reader that stops reading (`| head`) ends the command: no panic, no stack trace, exit
/// code 0. The outputs here are larger than a pipe holds, so the command is still writing
/// when the reader goes.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    // 3,000 refused games: a line each, and a JSON document of some 300 kB.
    let many = write(dir.path(), "many.pdn", "1. 11-15 zz *\n".repeat(3000));
    let short = write(
        dir.path(),
        "short.pdn",
        "[GameType \"24\"]\n1. 11-15 24-20 2. 15x24 *\n",
    );
    for args in [
        &["pdn", "check", &many][..],
        &["pdn", "check", &many, "--json"],
        &["review", "--pdn", &short, "--json"],
        &["perft", "--depth", "3"],
        &["moves"],
    ] {
        // Kept until the child ends: it owns the child's data folder.
        let mut command = crate::support::cli::command();
        let mut child = command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("damas starts");
        let mut stdout = child.stdout.take().expect("stdout");
        let mut first = [0u8; 4];
        // A few bytes, as `head -c 4` reads, then the reader goes.
        let _ = stdout.read(&mut first);
        drop(stdout);
        let out = child.wait_with_output().expect("damas ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: {stderr}"
        );
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn a_pdn_file_is_read_as_the_variant_its_game_type_names_and_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (english, spanish) = (name(Variant::English), name(Variant::Spanish));
    let tagged = write(
        dir.path(),
        "english.pdn",
        format!("[GameType \"21\"]\n{ENGLISH_GAME}"),
    );
    // No --variant: GameType 21 is English.
    assert_eq!(
        ok(&["pdn", "check", &tagged]).trim(),
        format!("read 1 as {english}, replayed 1, refused 0")
    );
    let heading = format!("game 1 of english.pdn, {english} (as its GameType tag says)");
    let review = ok(&["review", "--pdn", &tagged]);
    assert_eq!(review.lines().next(), Some(heading.as_str()), "{review}");
    let replayed = ok(&["replay", "--pdn", &tagged]);
    assert_eq!(
        replayed.lines().next(),
        Some(heading.as_str()),
        "{replayed}"
    );
    let gif = dir.path().join("g.gif").to_string_lossy().into_owned();
    let said = ok(&["gif", "--pdn", &tagged, "--out", &gif]);
    assert!(said.starts_with(&heading), "{said}");
    // --variant still decides: a game whose tag names another is refused, saying so.
    let (stdout, _, code) = run(&["pdn", "check", "--variant", "spanish", &tagged]);
    assert_eq!(code, Some(2));
    assert!(stdout.contains("GameType is 21"), "{stdout}");
    assert!(
        stdout.contains(&format!("read 1 as {spanish}, replayed 0, refused 1")),
        "{stdout}"
    );

    // Games of several variants in one file: each as its own, all counted.
    let mixed = write(
        dir.path(),
        "mixed.pdn",
        format!("[GameType \"21\"]\n{ENGLISH_GAME}\n[GameType \"24\"]\n1. 11-15 24-20 *\n"),
    );
    assert_eq!(
        ok(&["pdn", "check", &mixed]).trim(),
        format!("read 2 (1 as {english}, 1 as {spanish}), replayed 2, refused 0")
    );
}

#[test]
fn when_every_game_is_refused_a_hint_names_the_variant_that_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    // English games without a GameType tag, as the Tinsley archive has them.
    let (english, spanish) = (name(Variant::English), name(Variant::Spanish));
    let untagged = write(dir.path(), "tinsley.pdn", ENGLISH_GAME.repeat(3));
    let (stdout, stderr, code) = run(&["pdn", "check", &untagged]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("read 3 as {spanish}, replayed 0, refused 3")),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!("all 3 games were refused as {spanish}"))
            && stderr.contains("try --variant english"),
        "{stderr}"
    );
    assert_eq!(
        ok(&["pdn", "check", "--variant", "english", &untagged]).trim(),
        format!("read 3 as {english}, replayed 3, refused 0")
    );
    // One game asked for: the same hint with the refusal.
    let err = user_error(&["review", "--pdn", &untagged, "--game", "2"]);
    assert!(err.contains("try --variant english"), "{err}");
    // Some games read: no hint.
    let some = write(
        dir.path(),
        "some.pdn",
        format!("1. 11-15 24-20 *\n{ENGLISH_GAME}"),
    );
    let (_, stderr, _) = run(&["pdn", "check", &some]);
    assert!(!stderr.contains("hint"), "{stderr}");
}

#[test]
fn a_file_that_is_no_pdn_is_refused_as_such() {
    let dir = tempfile::tempdir().expect("temp dir");
    let png = dir.path().join("board.png").to_string_lossy().into_owned();
    ok(&["render", "--out", &png]);
    let prose = write(
        dir.path(),
        "letter.txt",
        "Dear Ana,\nthank you for the game yesterday.\n",
    );
    let empty = write(dir.path(), "empty.pdn", "");
    for file in [&png, &prose, &empty] {
        for args in [
            &["pdn", "check", file.as_str()][..],
            &["review", "--pdn", file],
            &["replay", "--pdn", file],
        ] {
            let err = user_error(args);
            assert!(err.contains("is not a PDN file"), "{args:?}: {err}");
        }
    }
    // Latin-1 text is text: a name with an accent in a tag, as old Windows programs wrote.
    let mut latin1 = b"[White \"Mu\xf1oz\"]\n".to_vec();
    latin1.extend_from_slice(b"1. 11-15 24-20 *\n");
    let latin1 = write(dir.path(), "latin1.pdn", latin1);
    assert_eq!(
        ok(&["pdn", "check", &latin1]).trim(),
        format!(
            "read 1 as {}, replayed 1, refused 0",
            name(Variant::Spanish)
        )
    );
}

#[test]
fn database_urls_of_other_kinds_are_refused_before_anything_is_created() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = crate::support::cli::command()
        .arg("bot")
        .env("DISCORD_TOKEN", "not-a-real-token")
        .env("DAMAS_DB", "mysql://u:hunter2@h/db")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("damas runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("DAMAS_DB"), "{stderr}");
    assert!(stderr.contains("mysql://u:***@h/db"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
    let created: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(created.is_empty(), "{created:?}");

    // `store copy` to a URL of no kind damas opens: refused, nothing written.
    let from = dir.path().join("from");
    std::fs::create_dir(&from).unwrap();
    let out = crate::support::cli::command()
        .args(["store", "copy", "--from"])
        .arg(&from)
        .args(["--to", "nonsense://x"])
        .current_dir(dir.path())
        .output()
        .expect("damas runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--to") && stderr.contains("nonsense://x"),
        "{stderr}"
    );
    assert!(!dir.path().join("nonsense:").exists());
}

#[test]
fn exit_codes_and_words_are_as_the_readme_says() {
    // An illegal or unreadable move is bad input (2), explained all the same.
    for mv in ["zz", "11-16", "22-18"] {
        let (stdout, _, code) = run(&["explain", "--move", mv]);
        assert_eq!(code, Some(2), "{mv}: {stdout}");
        assert!(!stdout.trim().is_empty(), "{mv}");
        let (stdout, _, code) = run(&["explain", "--move", mv, "--json"]);
        assert_eq!(code, Some(2), "{mv}: {stdout}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        assert_eq!(json["verdict"]["legal"], false, "{mv}");
    }
    assert_eq!(run(&["explain", "--move", "11-15"]).2, Some(0));
    assert_eq!(run(&["explain"]).2, Some(0));

    // Depth 0 counts the one position, as perft does everywhere.
    let out = ok(&["perft", "--depth", "0"]);
    let fields: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(&fields[..2], ["0", "1"], "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(ok(&["perft", "--depth", "2"]).lines().count(), 2);
}

#[test]
fn a_match_says_how_each_game_ended_in_words() {
    let out = ok(&[
        "match",
        "--variant",
        "english",
        "--a",
        "easy",
        "--b",
        "easy",
        "--games",
        "2",
        "--nodes",
        "200",
        "--hash-mb",
        "4",
    ]);
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{out}");
    let words = [
        "no pieces left",
        "no move left",
        "repetition",
        "no-progress rule",
        "ply cap",
    ];
    for line in games {
        let (_, how) = line.split_once('(').expect("how it ended");
        assert!(words.iter().any(|w| how.starts_with(w)), "{line}");
    }
}

/// Logs go to a file or journald as plain lines; and when Discord refuses the commands,
/// `/readyz` says the process is not ready, naming the commands.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_commands_show_in_readyz_and_logs_carry_no_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let standin = StandIn::start().await;
    let refused = standin.inject(FaultRoute::Commands, FaultAction::Forbidden, 1);
    let bot = BotProcess::serve(&standin, &dir.path().join("db")).await;
    assert!(
        standin.fault_hits(refused) >= 1,
        "the registration was refused"
    );
    let addr = bot
        .url
        .strip_prefix("http://")
        .and_then(|u| u.strip_suffix("/interactions"))
        .expect("the endpoint's address")
        .to_owned();
    assert_eq!(
        http_get(&addr, "/readyz").await,
        (503, "not ready: commands\n".into())
    );
    let log = bot.printed("");
    assert!(
        log.iter()
            .any(|l| l.contains("could not register the commands")),
        "{log:?}"
    );
    // Standard error is a pipe here, as a file or journald is: no escape codes.
    assert!(log.iter().all(|l| !l.contains('\u{1b}')), "{log:?}");
}
