//! The tables built in the background while the process runs ([`super::background`]): small
//! sets (two and three pieces, seconds at most) into empty folders, seen appearing and probed.

use super::background::{build_missing, SetReady, TableSet};
use super::*;
use crate::engine::{Game, Position, Variant};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

/// A safety net for a builder that never reports, not a measure of its speed.
const GIVE_UP: Duration = Duration::from_secs(600);

fn game(variant: Variant, fen: &str) -> Game {
    match Position::from_fen(variant, fen) {
        Ok(p) => Game::from_position(p),
        Err(e) => panic!("{fen}: {e}"),
    }
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"))
}

/// Starts a builder of `sets` over `tables` and returns what it reports, in order, once it
/// has finished.
fn build_and_wait(tables: &EndgameTables, sets: Vec<TableSet>) -> Vec<SetReady> {
    let expected = sets.len();
    let (tx, rx) = mpsc::channel();
    let builder = build_missing(tables, sets, move |r| {
        let _ = tx.send(r.clone());
    })
    .unwrap_or_else(|e| panic!("the builder starts: {e}"));
    let reports: Vec<SetReady> = (0..expected)
        .map(|_| {
            rx.recv_timeout(GIVE_UP)
                .unwrap_or_else(|e| panic!("a set is reported ready: {e}"))
        })
        .collect();
    if let Some(builder) = builder {
        builder
            .join()
            .unwrap_or_else(|_| panic!("the builder thread ends"));
    }
    reports
}

/// The names of the files in `dir/<variant>`, sorted.
fn files(dir: &std::path::Path, variant: Variant) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join(variant.id()))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn verify_ok(variant: Variant, pieces: u32, dir: &std::path::Path) {
    let opts = VerifyOptions {
        variant,
        pieces,
        dir: dir.to_path_buf(),
        sample: 50,
        depth: 4,
        seed: 3,
        threads: 1,
    };
    let report = verify(&opts, |_| {}).unwrap_or_else(|e| panic!("{variant}: {e}"));
    assert!(report.ok(), "{variant}: the tables built check out");
    assert_eq!(
        report.tables.len(),
        Material::all_up_to(pieces).len(),
        "{variant}: every table is there"
    );
}

#[test]
fn missing_tables_are_built_in_the_background_and_probed_as_they_appear() {
    let dir = temp_dir();
    let tables = EndgameTables::open(dir.path());
    // A man and a king against a king: no table has it yet, and it is not one of the kings
    // against one built in memory.
    let spanish = game(Variant::Spanish, "W:W10,K14:BK30");
    let english = game(Variant::English, "B:BK1:W32");
    assert_eq!(tables.probe_game(&spanish), None);
    assert_eq!(tables.probe_game(&english), None);
    let sets = vec![
        TableSet {
            variant: Variant::Spanish,
            pieces: 3,
        },
        TableSet {
            variant: Variant::English,
            pieces: 2,
        },
    ];
    let reports = build_and_wait(&tables, sets.clone());
    // A report a set, in order, each counting the tables it built.
    for (report, set) in reports.iter().zip(&sets) {
        assert_eq!(report.set, *set);
        let all = Material::all_up_to(set.pieces).len();
        assert_eq!((report.tables, report.built), (all, all), "{set}");
        assert!(set.is_complete(&tables), "{set}");
    }
    // The same tables object, opened on the empty folder, now probes them: no reopening.
    assert_eq!(tables.max_pieces(Variant::Spanish), 3);
    assert_eq!(tables.max_pieces(Variant::English), 2);
    assert!(tables.probe_game(&spanish).is_some());
    assert!(tables.probe_game(&english).is_some());
    // Only whole tables are left: no temporary file.
    for variant in [Variant::Spanish, Variant::English] {
        let names = files(dir.path(), variant);
        assert!(!names.is_empty());
        assert!(
            names.iter().all(|n| n.ends_with(".egdb")),
            "{variant}: {names:?}"
        );
    }
    verify_ok(Variant::Spanish, 3, dir.path());
    verify_ok(Variant::English, 2, dir.path());
}

#[test]
fn a_set_already_there_is_reported_at_once_and_nothing_is_built() {
    let dir = temp_dir();
    let set = TableSet {
        variant: Variant::English,
        pieces: 2,
    };
    let first = EndgameTables::open(dir.path());
    build_and_wait(&first, vec![set]);
    let again = EndgameTables::open(dir.path());
    let (tx, rx) = mpsc::channel();
    let builder = build_missing(&again, vec![set], move |r| {
        let _ = tx.send(r.clone());
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(builder.is_none(), "nothing to build, no thread");
    let report = rx
        .try_recv()
        .unwrap_or_else(|e| panic!("reported at once: {e}"));
    assert_eq!(report.built, 0);
    assert_eq!(report.tables, Material::all_up_to(2).len());
    // Tables without a folder build nothing either.
    assert!(build_missing(&EndgameTables::none(), vec![set], |_| {})
        .unwrap_or_else(|e| panic!("{e}"))
        .is_none());
}

#[test]
fn two_builders_on_one_folder_keep_the_tables_there_and_leave_every_table_whole() {
    let dir = temp_dir();
    // Two pieces built ahead (`damas egdb generate`): kept as they are, not built again.
    let ahead = GenerateOptions {
        variant: Variant::Spanish,
        pieces: 2,
        dir: dir.path().to_path_buf(),
        threads: 1,
        force: false,
        only: None,
    };
    generate(&ahead, |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let modified = |name: &str| -> SystemTime {
        std::fs::metadata(dir.path().join("spanish").join(name))
            .and_then(|m| m.modified())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let kept: Vec<(String, SystemTime)> = files(dir.path(), Variant::Spanish)
        .into_iter()
        .map(|n| {
            let t = modified(&n);
            (n, t)
        })
        .collect();
    assert_eq!(kept.len(), Material::all_up_to(2).len());
    // Two processes starting at once on the folder: each its own tables and builder.
    let set = TableSet {
        variant: Variant::Spanish,
        pieces: 3,
    };
    let (a, b) = (
        EndgameTables::open(dir.path()),
        EndgameTables::open(dir.path()),
    );
    let (reports_a, reports_b) = std::thread::scope(|s| {
        let one = s.spawn(|| build_and_wait(&a, vec![set]));
        let two = s.spawn(|| build_and_wait(&b, vec![set]));
        (
            one.join().unwrap_or_else(|_| panic!("first builder")),
            two.join().unwrap_or_else(|_| panic!("second builder")),
        )
    });
    for reports in [&reports_a, &reports_b] {
        assert_eq!(reports.len(), 1);
        // The tables built ahead were read, not built again.
        assert!(reports[0].built <= reports[0].tables - kept.len());
    }
    for (name, at) in &kept {
        assert_eq!(modified(name), *at, "{name} was kept");
    }
    let names = files(dir.path(), Variant::Spanish);
    assert!(names.iter().all(|n| n.ends_with(".egdb")), "{names:?}");
    assert_eq!(names.len(), Material::all_up_to(3).len());
    verify_ok(Variant::Spanish, 3, dir.path());
    let p = game(Variant::Spanish, "W:W10,K14:BK30");
    assert!(a.probe_game(&p).is_some() && a.probe_game(&p) == b.probe_game(&p));
}
