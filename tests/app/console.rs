//! `damas console` driven through standard input, as a person or a script would.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// Every one of `texts` is in the console's output.
fn assert_says(out: &str, texts: &[&str]) {
    for text in texts {
        assert!(out.contains(text), "{text:?} is missing from:\n{out}");
    }
}

fn run_console(script: &str, extra: &[&str]) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run_console_on(dir.path(), script, extra);
    (out, dir)
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
alice: /move 10:14
bob: /move 23-19
alice: /move 9-13
alice: /move 14 x 23
carol: /move 28x19
bob: /resign
";
    let (out, dir) = run_console(script, &[]);
    assert!(out.contains("alice played 10-14"), "{out}");
    assert!(out.contains("bob played 23-19"), "{out}");
    // Capture is mandatory: 9-13 is refused with the reason, privately.
    assert_says(
        &out,
        &[
            "(only alice sees this)",
            "Capturing is mandatory",
            "alice played 14x23",
            "You are not playing in this game",
            "White wins by resignation",
        ],
    );
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
/tablero texto:sí
/tablas respuesta:aceptar
";
    let (out, _dir) = run_console(script, &["--lang", "es", "--text-boards"]);
    assert!(out.contains("¡Empieza la partida!"), "{out}");
    assert!(out.contains("jugador jugó 11-15"), "{out}");
    // The bot answered (its move line names it).
    assert!(out.contains("Bot · fácil jugó"), "{out}");
    assert!(out.contains("no es legal"), "{out}");
    // The console's own lines speak Spanish too.
    assert!(out.contains("[tablero: "), "{out}");
    assert!(!out.contains("[board: "), "{out}");
    assert!(out.contains("(solo lo ve jugador)"), "{out}");
    // --text-boards: under each saved picture, what it shows in words.
    let lines: Vec<&str> = out.lines().collect();
    let described = lines
        .windows(2)
        .filter(|w| w[0].starts_with("[tablero: "))
        .filter(|w| w[1].starts_with("Damas inglesas. ") && w[1].contains("Blancas: peones"))
        .count();
    assert!(described >= 3, "{out}");
    // /tablero texto:sí: the board in words, privately, with the legal moves.
    let text_board = out
        .split("(solo lo ve jugador) Damas inglesas. ")
        .nth(1)
        .unwrap_or_else(|| panic!("no board in words: {out}"));
    assert!(text_board.contains("Negras: peones"), "{out}");
    assert!(text_board.contains("Jugadas válidas: "), "{out}");
}

#[test]
fn spanish_names_and_option_value_pairs_are_understood() {
    let script = "\
/jugar nivel:difícil variante:inglesas color:negras
/tablas respuesta:rechazar
/abandonar
/play level:easy
/resign
/jugar nivel:imposible
/mover
";
    let (out, _dir) = run_console(script, &["--lang", "es"]);
    // `nivel:difícil` chose the level (it used to be ignored: medium).
    assert!(out.contains("⚪ Bot · difícil contra ⚫ jugador"), "{out}");
    assert!(out.contains("== Damas inglesas =="), "{out}");
    assert!(
        out.contains("No hay ninguna oferta de tablas que responder"),
        "{out}"
    );
    assert!(out.contains("jugador abandonó"), "{out}");
    // English names and `option:value` work under --lang es as well.
    assert!(out.contains("Bot · fácil"), "{out}");
    assert!(!out.contains("Bot · medio"), "{out}");
    // A value that is not a choice is refused with the choices, not replaced by a default.
    assert!(
        out.contains("«imposible» no es un valor de nivel: usa fácil, medio, difícil o experto."),
        "{out}"
    );
    assert!(out.contains("Uso: /mover jugada"), "{out}");
}

#[test]
fn a_draw_offer_can_be_declined_and_a_challenge_withdrawn() {
    let script = "\
alice: /challenge bob
alice: /decline
alice: /challenge bob variant:portuguese
bob: /accept
alice: /draw
bob: /draw answer:decline
bob: /draw answer:accept
alice: /draw answer:accept
bob: /draw
alice: /draw answer:accept
";
    let (out, _dir) = run_console(script, &[]);
    assert!(out.contains("alice withdrew the challenge."), "{out}");
    assert!(!out.contains("declined the challenge"), "{out}");
    assert!(out.contains("== Portuguese draughts =="), "{out}");
    assert!(out.contains("bob declined the draw."), "{out}");
    // With no offer pending, there is nothing to accept.
    assert_says(
        &out,
        &[
            "There is no draw offer to answer.",
            "alice accepted the draw.",
            "Draw by agreement.",
        ],
    );
}

#[test]
fn unknown_commands_and_bad_moves_do_not_stop_the_console() {
    let script = "\
/frobnicate
/move 11-15
/play medium
/move 99-100
/move hello
/play strength:max
/board please
/help
";
    let (out, _dir) = run_console(script, &[]);
    assert_says(
        &out,
        &[
            "Unknown command",
            "There is no game in this channel",
            "There is no square 99",
            "is not a move",
            "/challenge",
        ],
    );
    // An option the command does not have, or a word too many, is named with the usage.
    assert!(
        out.contains("/play has no option “strength”. Usage: /play [level] [variant] [colour]"),
        "{out}"
    );
    assert!(
        out.contains("Too many words: “please”. Usage: /board"),
        "{out}"
    );
}

/// The console starts the app as the bot does, with the operator's `DAMAS_*` settings: one
/// that cannot be used stops it before it reads a line, naming the variable (exit code 2).
#[test]
fn the_console_reads_the_bots_settings_and_names_a_bad_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = crate::support::cli::command()
        .arg("console")
        .arg("--boards")
        .arg(dir.path().join("boards"))
        .arg("--db")
        .arg(dir.path().join("db"))
        .env("DAMAS_MOVE_TIME", "soon")
        .stdin(Stdio::null())
        .output()
        .expect("damas console runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("DAMAS_MOVE_TIME"), "{stderr}");
    assert!(
        !dir.path().join("db").exists(),
        "nothing opened before the check"
    );
}

#[test]
fn the_consoles_own_commands_come_from_the_command_table_in_both_languages() {
    // `/moves` (Discord's autocomplete at the keyboard), `/m` (the short `/move`), the help's
    // console-only lines, and `/quit`: nothing after it runs.
    let script = "\
alice: /challenge bob spanish white
bob: /accept
alice: /moves 11
alice: /m 11-15
/help
/quit
bob: /resign
";
    let (out, _dir) = run_console(script, &[]);
    assert!(out.contains("11-14, 11-15"), "{out}");
    assert!(out.contains("alice played 11-15"), "{out}");
    assert!(out.contains("/moves [from] — the legal moves"), "{out}");
    assert!(!out.contains("bob resigned"), "{out}");

    let script = "\
ana: /desafiar beto españolas blancas
beto: /rechazar
ana: /jugadas
/salir
ana: /ayuda
";
    let (out, _dir) = run_console(script, &["--lang", "es"]);
    assert!(out.contains("beto rechazó el desafío."), "{out}");
    assert!(
        out.contains("Aquí no hay ninguna jugada legal que empiece así."),
        "{out}"
    );
    assert!(!out.contains("/jugadas [desde]"), "{out}");
}

/// What people wrote reaches the terminal as they wrote it: the app's marks around it
/// (src/app/reply.rs) are never printed — in replies, and in what a file shows (`/pdn`'s
/// replay GIF, described with the players' names under --text-boards).
#[test]
fn what_people_wrote_is_printed_without_the_apps_marks() {
    let script = "\
alice: /challenge bob english
bob: /accept
alice: /move 11-15
bob: /move zz
/pdn
";
    let (out, _dir) = run_console(script, &["--text-boards"]);
    assert!(out.contains("zz"), "{out}");
    assert!(out.contains(".gif"), "the replay GIF is saved: {out}");
    let described = out
        .lines()
        .skip_while(|l| !l.contains(".gif"))
        .nth(1)
        .unwrap_or_default();
    assert!(
        described.contains("alice") || described.contains("bob"),
        "{out}"
    );
    assert!(!out.contains(['\u{FDD0}', '\u{FDD1}']), "{out:?}");
}

/// The console opens the database DAMAS_DB names, as the bot does; `--db` wins over it.
#[test]
fn the_console_opens_the_database_damas_db_names_unless_told_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let console = |db_flag: Option<&Path>, damas_db: &str| {
        let mut command = crate::support::cli::command();
        command
            .arg("console")
            .arg("--boards")
            .arg(dir.path().join("boards"))
            .env("DAMAS_DB", damas_db)
            .stdin(Stdio::null());
        if let Some(db) = db_flag {
            command.arg("--db").arg(db);
        }
        command.output().expect("damas console runs")
    };
    let from_env = dir.path().join("from-env");
    let out = console(None, from_env.to_str().expect("UTF-8"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Opened, and kept: it is not the console's temporary database.
    assert!(from_env.is_dir(), "DAMAS_DB's database was opened and kept");
    let flag = dir.path().join("from-flag");
    let elsewhere = dir.path().join("not-this");
    let out = console(Some(&flag), elsewhere.to_str().expect("UTF-8"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(flag.is_dir() && !elsewhere.exists(), "--db wins");
    // A URL of a database damas does not open is a bad setting, named.
    let out = console(None, "mysql://u:hunter2@h/db");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("DAMAS_DB") && !stderr.contains("hunter2"),
        "{stderr}"
    );
}

/// Runs the console on the database in `dir` (kept between runs).
fn run_console_on(dir: &std::path::Path, script: &str, extra: &[&str]) -> String {
    let mut command = crate::support::cli::command();
    let mut child = command
        .arg("console")
        .arg("--boards")
        .arg(dir.join("boards"))
        .arg("--db")
        .arg(dir.join("db"))
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
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn help_ends_with_its_footer_after_the_consoles_own_commands() {
    for (lang, help, moves) in [
        (damas::app::i18n::Lang::En, "/help\n", "/moves"),
        (damas::app::i18n::Lang::Es, "/ayuda\n", "/jugadas"),
    ] {
        let (out, _dir) = run_console(help, &["--lang", lang.code()]);
        let footer = damas::app::i18n::t(lang, &"help-footer".to_string());
        let lines: Vec<&str> = out.lines().collect();
        let at = |text: &str| lines.iter().position(|l| l.contains(text));
        let footer_at = at(&footer).unwrap_or_else(|| panic!("no footer in:\n{out}"));
        let moves_at = at(&format!("{moves} ")).unwrap_or_else(|| panic!("no {moves}:\n{out}"));
        assert!(moves_at < footer_at, "{out}");
        assert_eq!(footer_at, lines.len() - 1, "the footer is last:\n{out}");
    }
}

#[test]
fn names_with_spaces_are_typed_in_quotes_or_as_the_last_words_of_a_text_option() {
    let script = "\
/tournament create Copa de Otoño rounds:3
/tournament cancel
/tournament create \"Copa de Otoño\" rounds:3
/tournament cancel
/tournament create name:Liga de invierno format:swiss rounds:4
/tournament cancel
/tournament create \"Copa: edición 2\" spanish
/tournament cancel
/tournament create \"Copa sin cerrar rounds:3
";
    let (out, _dir) = run_console(script, &[]);
    assert_eq!(
        out.matches("Copa de Otoño").count(),
        4,
        "created and cancelled twice:\n{out}"
    );
    assert!(out.contains("Liga de invierno"), "{out}");
    assert!(out.contains("Copa: edición 2"), "{out}");
    assert!(!out.contains("whole number"), "{out}");
    assert!(out.contains("quotation mark is left open"), "{out}");
    assert!(!out.contains("Copa sin cerrar"), "{out}");
}

#[test]
fn a_console_user_keeps_their_id_across_runs_on_one_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run_console_on(
        dir.path(),
        "alice: /play easy english\nalice: /resign\n",
        &[],
    );
    assert!(out.contains("alice"), "{out}");
    // Another run, another order of first appearance: each name finds its own record.
    let out = run_console_on(dir.path(), "bob: /stats\nalice: /stats\n", &[]);
    assert!(out.contains("bob has not played yet"), "{out}");
    assert!(out.contains("alice's record"), "{out}");
    assert!(out.contains("(easy)"), "{out}");
}
