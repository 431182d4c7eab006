//! `damas review` and `damas gif`, run as a program: a line per ply with the class and the
//! better move, JSON for tools, and bad input as a message with exit code 2.

use crate::support::cli::{damas, ok, user_error};
use damas::app::i18n::Lang;
use damas::engine::Variant;
use serde_json::Value;
use std::path::Path;

/// White's 4-7 walks into Black's two-for-one shot 19-14, 10x19, 22x8.
const SHOT_GAME: &str = "[GameType \"24\"]\n[SetUp \"1\"]\n[FEN \"W:W1-5,9-12:B18,19,22,25,26,29-32\"]\n\n1. 4-7 19-14 2. 10x19 22x8 *\n";

/// The deeper pass's budget in these reviews: enough to confirm a three-ply shot, at little
/// CPU.
const SMALL_DEEP_NODES: &str = "400000";

/// A variant's name as the command line prints it.
fn name(v: Variant) -> String {
    damas::app::i18n::variant_name(Lang::En, v)
}

/// `damas review` of the Spanish game in `pdn` with a small deep budget, then `more`
/// arguments: its output.
fn review_spanish(pdn: &str, more: &[&str]) -> String {
    let args = [
        &[
            "review",
            "--deep-nodes",
            SMALL_DEEP_NODES,
            "--variant",
            "spanish",
            "--pdn",
            pdn,
        ],
        more,
    ]
    .concat();
    ok(&args)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp file written");
    path.to_string_lossy().into_owned()
}

#[test]
fn review_prints_a_line_per_ply_with_the_class_and_the_better_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "shot.pdn", SHOT_GAME);
    let out = review_spanish(&pdn, &[]);
    // Which game, read as which variant; four plies, then a line per player.
    let (heading, plies) = out.split_once('\n').expect("a heading");
    assert_eq!(
        heading,
        format!(
            "game 1 of shot.pdn, {} (as --variant says)",
            name(Variant::Spanish)
        )
    );
    let lines: Vec<&str> = plies.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    let first: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(&first[..3], ["1", "W", "4-7"], "{out}");
    assert_eq!(first[3], "blunder", "{out}");
    // The evaluation in words, from even to Black's advantage, then the better move.
    let (evals, better) = lines[0].split_once("; better ").expect("a better move");
    assert!(
        evals.contains(" → Black is better") || evals.contains(" → Black is winning"),
        "{out}"
    );
    assert_ne!(better.split_whitespace().next(), Some("4-7"), "{out}");
    assert!(lines[0].contains("(allows shot: 19-14 10x19 22x8"), "{out}");
    assert!(
        lines[2].contains("10x19") && lines[2].contains("only-move"),
        "{out}"
    );
    assert!(lines[4].starts_with("W: accuracy "), "{out}");
    assert!(lines[4].contains("blunders 1,"), "{out}");
}

#[test]
fn review_json_names_the_refutation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "shot.pdn", SHOT_GAME);
    let out = review_spanish(&pdn, &["--json"]);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let first = &v["plies"][0];
    assert_eq!(first["move"], "4-7");
    assert_eq!(first["class"], "blunder");
    assert_eq!(first["allowed_shot"], true);
    assert_eq!(first["refutation"][0], "19-14");
    assert_eq!(v["plies"][2]["class"], "only-move");
    assert_eq!(v["white"]["blunders"], 1);
    assert_eq!(v["evals"].as_array().map(Vec::len), Some(5));
    // Numbers from White's side, stated once; the words say who is better.
    let convention = v["score_convention"].as_str().unwrap_or_default();
    assert!(convention.contains("from White's side"), "{convention}");
    assert!(first["eval_after"].as_i64().unwrap_or(0) < 0, "{first}");
    assert!(
        first["eval_after_text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Black")),
        "{first}"
    );
}

#[test]
fn gif_writes_an_animation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "shot.pdn", SHOT_GAME);
    let out = dir.path().join("game.gif");
    let out_text = out.to_string_lossy().into_owned();
    ok(&[
        "gif",
        "--variant",
        "spanish",
        "--pdn",
        &pdn,
        "--out",
        &out_text,
    ]);
    let bytes = std::fs::read(&out).expect("the GIF was written");
    assert!(bytes.starts_with(b"GIF89a"));
}

#[test]
fn bad_games_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("none.pdn").to_string_lossy().into_owned();
    assert!(user_error(&["review", "--pdn", &missing]).contains("cannot read"));
    let illegal = write(dir.path(), "bad.pdn", "1. 11-15 22-18 2. 11-14 *");
    let err = user_error(&["review", "--pdn", &illegal]);
    assert!(
        err.contains("Game 1: move 2. 11-14: There is no piece on square 11."),
        "{err}"
    );
    let wrong_type = write(dir.path(), "english.pdn", "[GameType \"21\"]\n1. 11-15 *");
    let err = user_error(&["review", "--variant", "spanish", "--pdn", &wrong_type]);
    assert!(err.contains("GameType"), "{err}");
    let empty = write(dir.path(), "empty.pdn", "[Event \"x\"]\n*");
    assert!(user_error(&["review", "--pdn", &empty]).contains("no moves"));
    let out = dir.path().join("x.gif").to_string_lossy().into_owned();
    user_error(&[
        "gif",
        "--variant",
        "klingon",
        "--pdn",
        &illegal,
        "--out",
        &out,
    ]);
}

/// Two games in one file, as real PDN files hold them: the second is a different game.
const TWO_GAMES: &str =
    "[Event \"first\"]\n[GameType \"24\"]\n1. 11-15 24-20 2. 15x24 22-18 1-1\n\n\
    [Event \"second\"]\n[GameType \"24\"]\n[SetUp \"1\"]\n\
    [FEN \"W:W1-5,9-12:B18,19,22,25,26,29-32\"]\n1. 4-7 19-14 2. 10x19 22x8 0-2\n";

#[test]
fn review_gif_and_replay_take_any_game_of_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "two.pdn", TWO_GAMES);
    let first = ok(&["review", "--deep-nodes", SMALL_DEEP_NODES, "--pdn", &pdn]);
    assert!(
        first.lines().nth(1).unwrap_or("").contains("11-15"),
        "{first}"
    );
    let second = ok(&[
        "review",
        "--deep-nodes",
        SMALL_DEEP_NODES,
        "--pdn",
        &pdn,
        "--game",
        "2",
    ]);
    let lines: Vec<&str> = second.lines().skip(1).collect();
    assert_eq!(lines.len(), 6, "{second}");
    assert!(
        lines[0].contains("4-7") && lines[0].contains("blunder"),
        "{second}"
    );
    let replayed = ok(&["replay", "--pdn", &pdn, "--game", "2"]);
    assert_eq!(
        replayed.lines().collect::<Vec<_>>(),
        [
            format!(
                "game 2 of two.pdn, {} (as its GameType tag says)",
                name(Variant::Spanish)
            )
            .as_str(),
            "W:W1-3,5,7,9,11:B8,18,25,26,29-32",
            "Black won, as the record says."
        ],
        "{replayed}"
    );
    let gif = dir.path().join("second.gif").to_string_lossy().into_owned();
    ok(&["gif", "--pdn", &pdn, "--game", "2", "--out", &gif]);
    assert!(std::fs::read(&gif).expect("written").starts_with(b"GIF89a"));
    let err = user_error(&["review", "--pdn", &pdn, "--game", "3"]);
    assert!(err.contains("holds 2 games: there is no game 3"), "{err}");
}

#[test]
fn pdn_check_names_each_refused_game_and_sums_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!(
        "{TWO_GAMES}\n[White \"Ana\"]\n[Black \"Luis\"]\n1. 11-15 22-18 2. 11-14 *\n\
         [GameType \"21\"]\n1. 11-15 *\n"
    );
    let pdn = write(dir.path(), "four.pdn", &text);
    let out = damas(&["pdn", "check", &pdn]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "Game 3: move 2. 11-14: There is no piece on square 11. (Ana v Luis)",
            format!(
                "read 4 (1 as {}, 3 as {}), replayed 3, refused 1",
                name(Variant::English),
                name(Variant::Spanish)
            )
            .as_str(),
        ],
        "{stdout}"
    );
    // Read as Spanish whatever the tags say, the English game is refused for its tag.
    let out = damas(&["pdn", "check", "--variant", "spanish", &pdn]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "Game 3: move 2. 11-14: There is no piece on square 11. (Ana v Luis)",
            "Game 4: its GameType is 21, not 24 (Spanish draughts).",
            format!(
                "read 4 as {}, replayed 2, refused 2",
                name(Variant::Spanish)
            )
            .as_str(),
        ],
        "{stdout}"
    );
    let good = write(dir.path(), "two.pdn", TWO_GAMES);
    let json: Value = serde_json::from_str(&ok(&["pdn", "check", &good, "--json"])).expect("JSON");
    assert_eq!(
        (json["read"].as_u64(), json["replayed"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(json["refused"], serde_json::json!([]));
    assert_eq!(json["variant"], "spanish");
    assert_eq!(json["variants"], serde_json::json!({"spanish": 2}));
    let english = ok(&[
        "pdn",
        "check",
        "--variant",
        "english",
        &write(dir.path(), "e.pdn", "[GameType \"21\"]\n1. 11-15 *"),
    ]);
    assert_eq!(
        english.trim(),
        format!(
            "read 1 as {}, replayed 1, refused 0",
            name(Variant::English)
        )
    );
}

/// `--lang es` says the same review in Spanish: sides B/N, the classes, the better move and
/// the evaluations in words; a language it does not know is bad usage.
#[test]
fn review_speaks_spanish_with_lang_es() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "shot.pdn", SHOT_GAME);
    let english = review_spanish(&pdn, &["--lang", "en"]);
    assert_eq!(english, review_spanish(&pdn, &[]), "English is the default");
    let out = review_spanish(&pdn, &["--lang", "es"]);
    // After the heading that names the file's game and how its variant was chosen.
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(lines.len(), 6, "{out}");
    let first: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(&first[..5], ["1", "B", "4-7", "error", "grave"], "{out}");
    assert!(lines[0].contains("; mejor "), "{out}");
    assert!(lines[0].contains("negras"), "{out}");
    assert!(
        lines[0].contains("(permite un golpe: 19-14 10x19 22x8"),
        "{out}"
    );
    assert!(lines[1].split_whitespace().nth(1) == Some("N"), "{out}");
    assert!(lines[4].starts_with("B: precisión "), "{out}");
    assert!(lines[5].starts_with("N: precisión "), "{out}");
    for english_word in ["better", "blunder", "accuracy", "White", "Black"] {
        assert!(!out.contains(english_word), "{english_word}: {out}");
    }
    let json = review_spanish(&pdn, &["--json", "--lang", "es"]);
    let v: Value = serde_json::from_str(&json).expect("JSON");
    let said = v["plies"][0]["eval_after_text"].as_str().unwrap_or("");
    assert!(said.contains("negras"), "{said}");
    assert_eq!(v["plies"][0]["class"], "blunder", "identifiers stay");

    let err = user_error(&["review", "--pdn", &pdn, "--lang", "fr"]);
    assert!(err.contains("use es or en"), "{err}");
}

/// Black gives its man away (14-18, 23x14) and loses the last one; the result is written
/// White's score first ("1-0" for White), as some programs write English results, the
/// opposite of the checkers archives' convention that the reader follows.
const WHITE_FIRST_RESULT: &str = "[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"B:W23:B5,14\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. 14-18 23x14 2. 5-9 14x5 1-0\n";

#[test]
fn review_all_takes_the_loser_from_the_board_where_the_game_ended_on_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pdn = write(dir.path(), "white-first.pdn", WHITE_FIRST_RESULT);
    let out = ok(&[
        "review",
        "--deep-nodes",
        SMALL_DEEP_NODES,
        "--pdn",
        &pdn,
        "--all",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("game 1: Black (B) lost: 1 mistakes+blunders;"),
        "{out}"
    );
    assert!(
        lines.contains(&"decided games: 1, the loser's mistake or blunder named in 1 (100%)"),
        "{out}"
    );
    // `pdn check` says where a record's result and its board disagree.
    let checked = ok(&["pdn", "check", &pdn]);
    assert!(
        checked.contains("game 1: the record says Black won, the board White won"),
        "{checked}"
    );
    let json: Value = serde_json::from_str(&ok(&["pdn", "check", &pdn, "--json"])).expect("JSON");
    assert_eq!(
        json["contradicted_results"],
        serde_json::json!([{"game": 1, "stated": "Black won", "board": "White won"}])
    );
    // A record without a result contradicts nothing.
    let open = write(
        dir.path(),
        "open.pdn",
        &WHITE_FIRST_RESULT.replace("1-0", "*"),
    );
    let checked = ok(&["pdn", "check", &open]);
    assert!(!checked.contains("the record says"), "{checked}");
}
