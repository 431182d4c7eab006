//! The puzzle sets are built into the binary: `/puzzle` works from any folder, and a folder
//! named by `DAMAS_PUZZLES` only overrides them — a broken file there is named, and the
//! built-in set is used instead.

use damas::ai::puzzles::parse_set;
use damas::app::puzzle::{built_in_text, load_set, set_file, PuzzleSource, PUZZLES_ENV};
use damas::engine::Variant;
use std::io::Write;
use std::process::Stdio;

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

#[test]
fn without_an_override_every_variant_gets_its_built_in_set() {
    for variant in Variant::ALL {
        let loaded = load_set(variant, None);
        assert_eq!(loaded.source, PuzzleSource::BuiltIn, "{variant}");
        assert_eq!(loaded.problem, None, "{variant}");
        assert!(
            loaded.puzzles.len() >= 300,
            "{variant}: {}",
            loaded.puzzles.len()
        );
        let parsed = parse_set(variant, built_in_text(variant)).expect("the built-in set parses");
        assert_eq!(loaded.puzzles.len(), parsed.len(), "{variant}");
    }
}

#[test]
fn a_folder_overrides_the_sets_it_holds_and_a_broken_file_falls_back_to_the_built_in_one() {
    let dir = temp_dir();
    // English: three puzzles of the built-in set, in a file of the operator's.
    let three: Vec<&str> = built_in_text(Variant::English)
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(3)
        .collect();
    let english = dir.path().join(set_file(Variant::English));
    std::fs::write(&english, format!("# mine\n{}\n", three.join("\n"))).unwrap();
    let loaded = load_set(Variant::English, Some(dir.path()));
    assert_eq!(loaded.source, PuzzleSource::File(english));
    assert_eq!((loaded.puzzles.len(), loaded.problem), (3, None));
    // Spanish has no file there: the built-in set, and nothing to say.
    let loaded = load_set(Variant::Spanish, Some(dir.path()));
    assert_eq!(loaded.source, PuzzleSource::BuiltIn);
    assert_eq!(loaded.problem, None);
    assert!(loaded.puzzles.len() >= 300);
    // A broken Spanish file: named with its line, and the built-in set used. Portuguese has a
    // file of its own, so Spanish's is nothing to it.
    std::fs::write(
        dir.path().join(set_file(Variant::Spanish)),
        "1\tW:W10:B20\t10-14\t2\n2\tnot a position\t1-5\t1\n",
    )
    .unwrap();
    let loaded = load_set(Variant::Spanish, Some(dir.path()));
    assert_eq!(loaded.source, PuzzleSource::BuiltIn);
    let problem = loaded.problem.expect("the broken file is reported");
    assert!(problem.contains("puzzles-spanish.txt"), "{problem}");
    assert!(loaded.puzzles.len() >= 300);
    let loaded = load_set(Variant::Portuguese, Some(dir.path()));
    assert_eq!(
        (loaded.source, loaded.problem),
        (PuzzleSource::BuiltIn, None)
    );
    // A file with no puzzle at all would leave `/puzzle` empty: not used either.
    std::fs::write(dir.path().join(set_file(Variant::English)), "# nothing\n").unwrap();
    let loaded = load_set(Variant::English, Some(dir.path()));
    assert_eq!(loaded.source, PuzzleSource::BuiltIn);
    assert!(loaded
        .problem
        .is_some_and(|p| p.contains("puzzles-english.txt")));
    // A folder that is not there: said, naming the variable.
    let loaded = load_set(Variant::English, Some(&dir.path().join("missing")));
    assert_eq!(loaded.source, PuzzleSource::BuiltIn);
    assert!(loaded.problem.is_some_and(|p| p.contains(PUZZLES_ENV)));
}

#[test]
fn puzzles_are_served_with_the_working_folder_anywhere() {
    // A folder with no `data/` in it, and nothing in the environment pointing back here.
    let dir = temp_dir();
    let mut command = crate::support::cli::command();
    let mut child = command
        .arg("console")
        .current_dir(dir.path())
        .env("DAMAS_DATA", dir.path().join("data"))
        .env("RUST_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damas console starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"/puzzle\n/puzzle pick:random variant:english\n/quit\n")
        .expect("script written");
    let out = child.wait_with_output().expect("console ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stdout.contains("There are no puzzles"), "{stdout}");
    assert!(stdout.contains("Today's puzzle:"), "{stdout}");
    assert!(stdout.contains("A puzzle:"), "{stdout}");
    // Nothing was logged about puzzles: no file was looked for.
    assert!(!stderr.contains("puzzles"), "{stderr}");
}
