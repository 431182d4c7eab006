//! Small tables built in the tests themselves (two and three pieces: well under a second),
//! checked against their successors and a plain search, and played out.

use super::*;
use crate::ai::{best_move, Level, SearchLimits, SearchOptions, MATE, MATE_BOUND, TABLE_BOUND};
use crate::engine::{Color, Game, Outcome, Position, Variant};
use tempfile::TempDir;

fn build(variant: Variant, pieces: u32, only: Option<Vec<Material>>) -> (TempDir, EndgameTables) {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("temp dir: {e}"),
    };
    let opts = GenerateOptions {
        variant,
        pieces,
        dir: dir.path().to_path_buf(),
        threads: 2,
        force: false,
        only,
    };
    if let Err(e) = generate(&opts, |_| {}) {
        panic!("{variant}: {e}");
    }
    let tables = EndgameTables::open(dir.path());
    (dir, tables)
}

fn game(variant: Variant, fen: &str) -> Game {
    match Position::from_fen(variant, fen) {
        Ok(p) => Game::from_position(p),
        Err(e) => panic!("{fen}: {e}"),
    }
}

fn verify_opts(variant: Variant, pieces: u32, dir: &TempDir) -> VerifyOptions {
    VerifyOptions {
        variant,
        pieces,
        dir: dir.path().to_path_buf(),
        sample: 150,
        depth: 5,
        seed: 7,
        threads: 2,
    }
}

#[test]
fn tables_agree_with_their_successors_and_with_a_plain_search() {
    for variant in Variant::ALL {
        let (dir, _) = build(variant, 3, None);
        let report = match verify(&verify_opts(variant, 3, &dir), |_| {}) {
            Ok(r) => r,
            Err(e) => panic!("{variant}: {e}"),
        };
        assert_eq!(report.tables.len(), 16, "{variant}");
        for t in &report.tables {
            assert_eq!(t.wrong, 0, "{variant} {}: {:?}", t.material, t.examples);
            assert!(t.stats.positions > 0);
        }
        assert!(
            report.sample.contradictions.is_empty(),
            "{variant}: {:?}",
            report.sample.contradictions
        );
        assert_eq!(report.sample.checked, 150, "{variant}");
        // The search sees many of these short endings through to the end.
        assert!(
            report.sample.confirmed >= 15,
            "{variant}: {:?}",
            report.sample
        );
        assert!(report.ok());
    }
}

#[test]
fn verify_finds_a_wrong_entry() {
    let variant = Variant::English;
    let (dir, _) = build(variant, 3, None);
    let m = Material::new(0, 2, 0, 1);
    let path = dir.path().join("english").join("kkvk.egdb");
    let values = match file::TableFile::open(&path, variant, m).and_then(|f| f.read_all()) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    };
    // Each kind of damage: a win made longer, a win made a draw, a draw made a win.
    let first = |want: fn(Stored) -> bool| {
        generate::each_position(m)
            .map(|(i, _)| i as usize)
            .find(|&i| want(Stored::decode(values[i])))
    };
    let long_win = first(|s| matches!(s, Stored::Win(d) if d > 3));
    let draw = first(|s| s == Stored::Draw);
    type Damage = fn(Stored) -> Stored;
    let damages: [(Option<usize>, Damage); 3] = [
        (long_win, |s: Stored| match s {
            Stored::Win(d) => Stored::Win(d + 2),
            other => other,
        }),
        (long_win, |_| Stored::Draw),
        (draw, |_| Stored::Win(5)),
    ];
    for (at, damage) in damages {
        let Some(at) = at else {
            panic!("no entry to damage");
        };
        let mut broken = values.clone();
        broken[at] = damage(Stored::decode(values[at])).encode();
        if let Err(e) = file::write(&path, variant, m, &broken) {
            panic!("{e}");
        }
        let report = match verify(&verify_opts(variant, 3, &dir), |_| {}) {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        };
        let wrong: u64 = report.tables.iter().map(|t| t.wrong).sum();
        assert!(wrong >= 1, "damage at {at} went unseen");
        assert!(!report.ok());
    }
}

#[test]
fn bad_files_are_refused_and_probes_go_on_without_them() {
    let variant = Variant::English;
    let (dir, tables) = build(variant, 2, None);
    let g = game(variant, "W:WK18:BK1");
    assert_eq!(tables.probe_game(&g), Some(EndgameVerdict::Draw));
    let path = dir.path().join("english").join("kvk.egdb");
    let m = Material::new(0, 1, 0, 1);
    let bytes = std::fs::read(&path).unwrap_or_default();
    // Cut short, another material's header, another variant's, not a table at all.
    let mut other_material = bytes.clone();
    other_material[13] = 2;
    let mut other_variant = bytes.clone();
    other_variant[9] = 0;
    for broken in [
        bytes[..bytes.len() - 3].to_vec(),
        other_material,
        other_variant,
        b"not a table".to_vec(),
    ] {
        if let Err(e) = std::fs::write(&path, &broken) {
            panic!("{e}");
        }
        assert!(file::TableFile::open(&path, variant, m).is_err());
        let reopened = EndgameTables::open(dir.path());
        assert_eq!(reopened.probe_game(&g), None);
    }
    // No folder at all: no tables, no error.
    let none = EndgameTables::open(dir.path().join("missing"));
    assert_eq!(none.max_pieces(variant), 0);
    assert_eq!(none.probe_game(&g), None);
}

#[test]
fn kings_against_one_are_built_in_memory_where_there_are_no_files() {
    let empty = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("temp dir: {e}"),
    };
    let built_in = EndgameTables::open(empty.path());
    for variant in [Variant::Spanish, Variant::Portuguese] {
        assert!(built_in.builds_in_memory(variant));
        let (_dir, files) = build(variant, 4, Some(vec![BUILT_IN]));
        assert!(!files.builds_in_memory(variant));
        // Every position of three, two and one kings against one, either side to move.
        let mut compared = 0;
        for m in generate::with_dependencies(&[BUILT_IN]) {
            for (_, c) in generate::each_position(m) {
                let p = c.position(variant);
                let from_file = files.stored(&p);
                assert!(from_file.is_some(), "{variant} {}", p.fen());
                assert_eq!(built_in.stored(&p), from_file, "{variant} {}", p.fen());
                compared += 1;
            }
        }
        assert!(compared > 300_000, "{compared}");
        // Nothing else: two kings against two, or a man.
        for fen in ["W:WK1,K10:BK26,K30", "W:W10,K14,K18:BK30"] {
            assert_eq!(built_in.stored(game(variant, fen).position()), None);
        }
    }
    // Built ahead on another thread, as the bot does at start: the same entries once ready
    // (until then a probe answers "not here" rather than wait).
    let ahead = EndgameTables::open(empty.path());
    ahead.build_in_memory_in_background();
    let p = *game(Variant::Spanish, "W:WK1,K10,K20:BK26").position();
    let mut waited = 0;
    while ahead.stored(&p).is_none() && waited < 1200 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    assert!(ahead.stored(&p).is_some());
    assert_eq!(ahead.stored(&p), built_in.stored(&p));
    // `damas engine` builds only the variant of the game it starts.
    let one = EndgameTables::open(empty.path());
    one.build_in_memory_in_background_of(&[Variant::Portuguese]);
    let q = *game(Variant::Portuguese, "W:WK1,K10,K20:BK26").position();
    let mut waited = 0;
    while one.stored(&q).is_none() && waited < 1200 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    assert!(one.built_in_ready(Variant::Portuguese));
    assert!(!one.built_in_ready(Variant::Spanish));
    // English kings need no such help, and no tables means none.
    assert!(!built_in.builds_in_memory(Variant::English));
    let english = game(Variant::English, "W:WK1,K10,K20:BK26");
    assert_eq!(built_in.probe_game(&english), None);
    let none = EndgameTables::none();
    assert!(!none.builds_in_memory(Variant::Spanish));
    assert_eq!(
        none.probe_game(&game(Variant::Spanish, "W:WK1,K10,K20:BK26")),
        None
    );
}

#[test]
fn the_engine_does_not_notice_the_board_turned() {
    // The tables see every position from the side to move; turning the board and swapping
    // the colours must not change a single legal move.
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
    for variant in Variant::ALL {
        for _ in 0..3000 {
            let mut p = Position::empty(
                variant,
                if rng.gen() {
                    Color::White
                } else {
                    Color::Black
                },
            );
            for sq in crate::engine::Square::all() {
                if rng.gen_ratio(1, 4) {
                    let color = if rng.gen() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let crown = Position::empty(variant, color).crowning_row(color);
                    let role = if crown.contains(sq) || rng.gen_ratio(1, 3) {
                        crate::engine::Role::King
                    } else {
                        crate::engine::Role::Man
                    };
                    p.set_piece(sq, Some(crate::engine::Piece { color, role }));
                }
            }
            let turned = index::Canonical::of(&p).position(variant);
            let flip = |n: u8| 33 - n;
            let mut a: Vec<_> = p
                .legal_moves()
                .iter()
                .map(|m| {
                    let mut caps: Vec<u8> =
                        m.captured().squares().map(|s| flip(s.number())).collect();
                    caps.sort_unstable();
                    (flip(m.from().number()), flip(m.to().number()), caps)
                })
                .collect();
            let mut b: Vec<_> = turned
                .legal_moves()
                .iter()
                .map(|m| {
                    let caps: Vec<u8> = m.captured().squares().map(|s| s.number()).collect();
                    (m.from().number(), m.to().number(), caps)
                })
                .collect();
            if p.side_to_move() == variant.first_player() {
                // Not turned: the same position.
                assert_eq!(turned, p);
                continue;
            }
            a.sort();
            b.sort();
            assert_eq!(a, b, "{variant} {}", p.fen());
        }
    }
}

/// Plays `game` out: the side that the tables say wins moves with Expert's search (tables
/// on), the other side with the tables' best defence. Returns the outcome.
fn play_out(mut game: Game, tables: &EndgameTables, strong: Color) -> Option<Outcome> {
    let opts = SearchOptions {
        limits: Some(SearchLimits {
            nodes: Some(2_000),
            ..SearchLimits::default()
        }),
        endgame_tables: Some(tables.clone()),
        ..SearchOptions::default()
    };
    for _ in 0..200 {
        if game.is_over() {
            break;
        }
        let mv = if game.side_to_move() == strong {
            best_move(&game, Level::Expert, &opts).map(|r| r.mv)
        } else {
            tables.best_move(&game, |_| 0).map(|(mv, _, _)| mv)
        };
        let Some(mv) = mv else { break };
        if let Err(e) = game.play(mv) {
            panic!("{e}");
        }
    }
    game.outcome()
}

#[test]
fn expert_wins_every_won_two_kings_against_one_ending() {
    for variant in Variant::ALL {
        let kkvk = Material::new(0, 2, 0, 1);
        let (_dir, tables) = build(variant, 3, Some(vec![kkvk]));
        let mut won = 0;
        for m in [kkvk, kkvk.mirror()] {
            for (_, c) in generate::each_position(m) {
                let g = Game::from_position(c.position(variant));
                if g.is_over() {
                    // Blocked in: lost already, nothing to play.
                    continue;
                }
                let Some(verdict) = tables.probe_game(&g) else {
                    panic!("{variant}: {} not in the tables", g.position().fen());
                };
                let mover = g.side_to_move();
                let strong = match verdict {
                    EndgameVerdict::Win { .. } if m == kkvk => mover,
                    EndgameVerdict::Loss { .. } if m != kkvk => !mover,
                    _ => continue,
                };
                won += 1;
                let outcome = play_out(g.clone(), &tables, strong);
                assert!(
                    matches!(outcome, Some(o) if o.winner() == Some(strong)),
                    "{variant} {}: {outcome:?}",
                    g.position().fen()
                );
            }
        }
        // English two kings beat one nearly everywhere; with flying kings far less often.
        match variant {
            Variant::English => assert!(won > 25_000, "{won}"),
            _ => assert!(won > 1_000, "{variant}: {won}"),
        }
    }
}

#[test]
fn the_search_probes_the_tables_at_the_root_and_in_the_tree() {
    let variant = Variant::English;
    let (_dir, tables) = build(variant, 3, None);
    let with = |depth: u32| SearchOptions {
        limits: Some(SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }),
        endgame_tables: Some(tables.clone()),
        ..SearchOptions::default()
    };
    let without = SearchOptions {
        endgame_tables: Some(EndgameTables::none()),
        ..with(4)
    };
    // At the root: the tables' move, without a search.
    let g = game(variant, "W:WK18,K22:BK1");
    let Some(r) = best_move(&g, Level::Expert, &with(4)) else {
        panic!("no move");
    };
    assert_eq!(r.nodes, 0);
    assert!(
        r.score > TABLE_BOUND && r.score <= MATE_BOUND,
        "{}",
        r.score
    );
    let Some(EndgameVerdict::Win { plies }) = tables.probe_game(&g) else {
        panic!("not a win");
    };
    assert_eq!(r.score, MATE_BOUND - plies as i32);
    // In the tree: three kings against one (no table for four pieces), where a king offered
    // forces the lone king to take it, leaving two kings against one won too far off for the
    // search alone to see. Not every move of the root leads into the tables, so the root is
    // searched.
    let far_win = |g: &Game| matches!(tables.probe_game(g), Some(EndgameVerdict::Win { plies }) if plies > 10);
    let found = generate::each_position(Material::new(0, 3, 0, 1)).find_map(|(_, c)| {
        let g = Game::from_position(c.position(variant));
        if g.is_over() || tables.rate_moves(&g).is_some() {
            return None;
        }
        let forcing = g.position().legal_moves().iter().any(|mv| {
            let mut next = g.clone();
            let replies = next.position().legal_moves();
            next.play(*mv).is_ok()
                && !next.is_over()
                && next.position().legal_moves().iter().all(|reply| {
                    let mut after = next.clone();
                    after.play(*reply).is_ok()
                        && after.position().occupied().count() == 3
                        && far_win(&after)
                })
                && !replies.is_empty()
        });
        // ...and nothing the search sees through to the end without the tables.
        let plain = best_move(&g, Level::Expert, &without).map_or(MATE, |r| r.score);
        (forcing && plain < TABLE_BOUND).then_some(g)
    });
    let Some(g) = found else {
        panic!("no position found");
    };
    assert_eq!(tables.probe_game(&g), None);
    let Some(r) = best_move(&g, Level::Expert, &with(3)) else {
        panic!("no move");
    };
    let Some(plain) = best_move(&g, Level::Expert, &without) else {
        panic!("no move");
    };
    assert!(r.nodes > 0);
    assert!(
        r.score > TABLE_BOUND && r.score <= MATE_BOUND,
        "{}: {}",
        g.position().fen(),
        r.score
    );
    assert!(plain.score < TABLE_BOUND, "{}", plain.score);
}

#[test]
fn the_root_takes_a_draw_by_repetition_rather_than_lose() {
    // English kings shuffling: White K18 K22 against Black K1 wins, but Black can repeat.
    let variant = Variant::English;
    let (_dir, tables) = build(variant, 3, None);
    let start = match Position::from_fen(variant, "W:WK18,K22:BK1") {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let moves = ["22-26", "1-5", "26-22", "5-1", "22-26", "1-5", "26-22"];
    let game = match Game::replay(start, &moves) {
        Ok(g) => g,
        Err((i, e)) => panic!("move {i}: {e}"),
    };
    let opts = SearchOptions {
        endgame_tables: Some(tables.clone()),
        ..SearchOptions::default()
    };
    let Some(r) = best_move(&game, Level::Expert, &opts) else {
        panic!("no move");
    };
    let mut after = game.clone();
    if let Err(e) = after.play(r.mv) {
        panic!("{e}");
    }
    assert!(
        matches!(after.outcome(), Some(Outcome::Draw { .. })),
        "{:?}",
        r.mv
    );
    assert_eq!(r.score, 0);
}

#[test]
fn a_puzzle_the_tables_hold_has_their_only_winning_move() {
    let variant = Variant::English;
    let (_dir, tables) = build(variant, 3, None);
    let mut found = 0;
    for m in [Material::new(1, 1, 0, 1), Material::new(0, 1, 1, 1)] {
        for (_, c) in generate::each_position(m).step_by(7) {
            let pos = c.position(variant);
            let Some(line) = crate::ai::puzzles::solve_with(&pos, 5, &tables) else {
                continue;
            };
            found += 1;
            let rated = tables
                .rate_moves(&Game::from_position(pos))
                .unwrap_or_default();
            let winners: Vec<_> = rated
                .iter()
                .filter(|(_, v)| matches!(v, EndgameVerdict::Win { .. }))
                .map(|(mv, _)| *mv)
                .collect();
            assert_eq!(winners, vec![line[0]], "{}", pos.fen());
        }
    }
    assert!(found > 0);
}
