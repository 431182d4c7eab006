//! The shipped puzzle sets and `/puzzle`: every solution legal, a sample still unique at the
//! verifying depth, wrong moves refused privately, one puzzle of the day per server.

use crate::support::app::*;
use crate::support::store::puzzle_solved;
use damas::ai::puzzles::{parse_set, solve_with, verified_depth, Puzzle};
use damas::ai::EndgameTables;
use damas::app::commands::{find, ArgValue, Invocation};
use damas::app::puzzle::{daily_puzzle, puzzle_set, set_file};
use damas::app::{Actor, Answer, Reply};
use damas::engine::Variant;
use damas::store::PuzzleSession;

/// Every variant, each with the set the bot serves it (`set_file`): the sets are checked as
/// they are played.
const SETS: [Variant; 3] = Variant::ALL;

fn shipped_text(variant: Variant) -> String {
    let path = format!("{}/data/{}", env!("CARGO_MANIFEST_DIR"), set_file(variant));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn shipped(variant: Variant) -> Vec<Puzzle> {
    parse_set(variant, &shipped_text(variant)).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// The depth a set was checked at, from the generating command in its header.
fn verified_at(variant: Variant) -> u32 {
    verified_depth(&shipped_text(variant))
}

#[test]
fn every_shipped_solution_is_legal_and_the_sets_are_full() {
    // Parsing plays every move of every line and refuses any illegal one.
    for variant in SETS {
        let (name, set) = (variant.id(), shipped(variant));
        assert!(set.len() >= 300, "{name}: {} puzzles", set.len());
        let mut before = 0;
        for p in &set {
            // Ids skip the puzzles a recheck retired, but never repeat or go back: a solver's
            // stored session names its puzzle by id.
            assert!(p.id > before, "{name}: #{} after #{before}", p.id);
            before = p.id;
            assert!(
                p.line.len() % 2 == 1,
                "{name} #{}: ends with the solver",
                p.id
            );
            assert!(
                !p.position.has_capture(),
                "{name} #{}: a quiet first move",
                p.id
            );
        }
        assert_eq!(
            puzzle_set(variant).len(),
            set.len(),
            "the bot reads the file"
        );
        let lines: std::collections::HashSet<Vec<String>> =
            set.iter().map(|p| p.line_notation()).collect();
        assert_eq!(
            lines.len(),
            set.len(),
            "{name}: one puzzle per solution line"
        );
    }
}

/// Searched as the sets were verified without table files, and as the bot judges before it
/// has any: with only the kings against one that the flying-king variants build in memory
/// (Spanish's three-kings rule decides some shots). Never with the process's own files
/// (`DAMAS_EGDB`, the data folder's), which would make the result depend on the machine.
#[test]
fn a_fixed_sample_is_still_unique_at_the_verifying_depth() {
    let empty = tempfile::tempdir().expect("temp dir");
    let no_tables = EndgameTables::open(empty.path().join("no tables"));
    for variant in SETS {
        let (name, set) = (variant.id(), shipped(variant));
        let depth = verified_at(variant);
        let step = (set.len() / 20).max(1);
        for p in set.iter().step_by(step).take(20) {
            let line = solve_with(&p.position, depth, &no_tables);
            assert_eq!(
                line.as_ref().and_then(|l| l.first()),
                p.line.first(),
                "{name} #{} ({}): the first move is no longer the only winning one",
                p.id,
                p.position.fen()
            );
        }
    }
}

/// The moves `refused_winners` finds in `puzzle` without tables at the default deeper depth,
/// as (ply of the line, notation).
fn refused_in(puzzle: &Puzzle) -> Vec<(usize, String)> {
    use damas::ai::puzzles::{refused_winners, DEEPER_DEPTH};
    refused_winners(puzzle, DEEPER_DEPTH, &EndgameTables::none())
        .iter()
        .map(|(ply, m)| (*ply, puzzle.position_at(*ply).move_notation(m)))
        .collect()
}

/// Every winning move is accepted: a puzzle where a search deeper than `/move`'s judge finds a
/// second winning move, at the first turn or a later one, that the judge refuses (a solver who
/// found a win would be told it is wrong) is found by `refused_winners`, which the sets' check
/// uses to retire it. English #481, retired for it: without tables 14-10 wins too at depth 11,
/// where the judge at depth 9 sees only the line's 14-18; Spanish #572: at the solver's second
/// turn 22x15 wins too, where the judge sees only the line's 11x4. A fixed sample of each
/// shipped set has no such move.
#[test]
fn no_shipped_puzzle_refuses_a_move_a_deeper_search_calls_winning() {
    let first_turn = parse_set(
        Variant::English,
        "481\tB:W29,K11,K15:B8,K14,K22\t14-18 11x4 18x11 4-8 11x4\t3\n",
    )
    .expect("a puzzle");
    assert_eq!(refused_in(&first_turn[0]), [(0, "14-10".to_string())]);
    let later_turn = parse_set(
        Variant::Spanish,
        "572\tB:W1-3,5,7,10,13:B14,15,22,25,26,28,30,32\t15-11 10x19 11x4 19-23 28x19\t3\n",
    )
    .expect("a puzzle");
    assert_eq!(refused_in(&later_turn[0]), [(2, "22x15".to_string())]);
    for variant in SETS {
        let set = shipped(variant);
        let step = (set.len() / 8).max(1);
        for p in set.iter().step_by(step).take(8) {
            let refused = refused_in(p);
            assert!(
                refused.is_empty(),
                "{variant} #{} ({}): {refused:?} win too",
                p.id,
                p.position.fen(),
            );
        }
    }
}

/// Noon on a fixed day.
const NOON: u64 = 20_000 * 86_400_000 + 12 * 3_600_000;

fn world_at(now: u64) -> World {
    World::clocked(seeded(7), now)
}

async fn command(w: &World, who: &Actor, name: &str, args: &[(&'static str, &str)]) -> Answer {
    let mut inv = Invocation::new(find(name).expect("command"));
    for (k, v) in args {
        inv.args.push((k, ArgValue::Text(v.to_string())));
    }
    w.app.run_command(who, PLACE, &inv).await
}

fn menu_id(r: &Reply) -> String {
    r.menu.as_ref().expect("a move menu").id.clone()
}

#[tokio::test]
async fn a_wrong_move_is_refused_privately_and_the_puzzle_stays_solvable() {
    let w = world_at(NOON);
    let alice = actor(1, "alice");
    let puzzle = daily_puzzle(Variant::Spanish, 10, NOON).expect("a puzzle");
    let start = command(&w, &alice, "puzzle", &[]).await;
    let shown = only(&start);
    assert!(shown.is_private() && shown.image.is_some());
    assert!(shown
        .title
        .as_deref()
        .unwrap_or("")
        .contains(&format!("#{}", puzzle.id)));

    // A legal move that is not the solution.
    let notations = puzzle.line_notation();
    let wrong = damas::engine::legal_notations(&puzzle.position)
        .into_iter()
        .map(|(_, n)| n)
        .find(|n| *n != notations[0])
        .expect("puzzles have several moves");
    let refused = command(&w, &alice, "move", &[("move", &wrong)]).await;
    let r = only(&refused);
    assert!(r.is_private());
    assert!(r.text.contains("not the solution"), "{}", r.text);
    let record = w.app.store().puzzle_player(1).unwrap().expect("record");
    assert_eq!(
        record.session.as_ref().map(|s| s.ply),
        Some(0),
        "nothing played"
    );
    assert_eq!((record.failed, record.streak), (1, 0));
    // A second wrong try does not count twice.
    command(&w, &alice, "move", &[("move", &wrong)]).await;
    assert_eq!(w.app.store().puzzle_player(1).unwrap().unwrap().failed, 1);

    // The solution, through the menu: each right move is answered by the defence.
    let mut reply = r.clone();
    let mut ply = 0;
    while ply < notations.len() {
        let id = menu_id(&reply);
        let a = w
            .app
            .component(&alice, PLACE, &id, &[notations[ply].clone()])
            .await;
        reply = only(&a).clone();
        assert!(reply.is_private());
        ply += 2;
        if ply < notations.len() {
            assert!(reply.text.contains(&notations[ply - 1]), "{}", reply.text);
        }
    }
    assert!(reply.text.contains("solved"), "{}", reply.text);
    let record = w.app.store().puzzle_player(1).unwrap().unwrap();
    assert!(record.session.is_none());
    assert_eq!((record.solved, record.failed), (0, 1));
    // The missed try already lowered the rating: the message says so, with the rating as it
    // stands, rather than that nothing counted.
    assert!(record.rating.rating < 1500.0, "{:?}", record.rating);
    let counted = format!(
        "your rating already counted the missed try ({})",
        record.rating.rating.round()
    );
    assert!(reply.text.contains(&counted), "{}", reply.text);
    assert!(!reply.text.contains("does not count"), "{}", reply.text);
}

#[tokio::test]
async fn a_clean_solve_raises_the_rating_and_the_streak_and_leaves_the_channel_game_alone() {
    let w = world_at(NOON);
    let bob = actor(2, "bob");
    command(&w, &bob, "puzzle", &[("pick", "random")]).await;
    let session = w
        .app
        .store()
        .puzzle_player(2)
        .unwrap()
        .unwrap()
        .session
        .unwrap();
    let puzzle = puzzle_set(Variant::Spanish)
        .iter()
        .find(|p| p.id == session.puzzle_id)
        .expect("the puzzle");
    assert_ne!(
        Some(puzzle.id),
        daily_puzzle(Variant::Spanish, 10, NOON).map(|p| p.id),
        "random is another puzzle"
    );
    let notations = puzzle.line_notation();
    let mut last = None;
    for mv in notations.iter().step_by(2) {
        last = Some(command(&w, &bob, "move", &[("move", mv)]).await);
    }
    let last = last.expect("moves");
    assert!(only(&last).text.contains("solved!"), "{}", only(&last).text);
    // The solved board's words no longer set the task.
    let solved = only(&last).image.as_ref().expect("the solved board");
    assert!(
        solved.description.contains("Puzzle solved.")
            && !solved.description.contains("to play and win"),
        "{}",
        solved.description
    );
    let record = w.app.store().puzzle_player(2).unwrap().unwrap();
    assert!(record.rating.rating > 1500.0);
    assert_eq!((record.solved, record.streak), (1, 1));
    assert!(w.active_game(PLACE.channel_id).is_none());
    let board = command(&w, &bob, "leaderboard", &[("type", "puzzles")]).await;
    assert!(only(&board).text.contains("bob"), "{}", only(&board).text);
    // Without a puzzle going, /move is about the channel's game again.
    let a = command(&w, &bob, "move", &[("move", "11-15")]).await;
    assert!(!only(&a).text.contains("solution"), "{}", only(&a).text);
}

#[tokio::test]
async fn a_session_on_a_retired_puzzle_says_so_and_leaves_move_to_the_channel() {
    let w = world_at(NOON);
    let carol = actor(3, "carol");
    let set = puzzle_set(Variant::Spanish);
    // An id no puzzle of the set has: one a recheck retired, or the next to be given.
    let retired = (1..)
        .find(|id| set.iter().all(|p| p.id != *id))
        .expect("a free id");
    let stale = PuzzleSession {
        variant: Variant::Spanish,
        puzzle_id: retired,
        ply: 0,
        missed: false,
        guild_id: 10,
    };
    w.app
        .store()
        .update_puzzle_player(3, "carol", 10, |mut p| {
            p.session = Some(stale.clone());
            Ok::<_, ()>((p, ()))
        })
        .await
        .expect("store")
        .expect("stored");
    // The old puzzle's menu: told privately that the puzzle was withdrawn.
    let menu = w.app.puzzle_move(&carol, 0, "11-14").await;
    let r = only(&menu);
    assert!(r.is_private(), "{}", r.text);
    assert!(
        r.text.contains(&format!("#{retired}")) && r.text.contains("withdrawn"),
        "{}",
        r.text
    );
    // /move is about the channel's game, not the retired puzzle.
    let moved = command(&w, &carol, "move", &[("move", "11-14")]).await;
    assert!(
        !only(&moved).text.contains("withdrawn"),
        "{}",
        only(&moved).text
    );
    // A new /puzzle replaces the session with one of the set's puzzles.
    command(&w, &carol, "puzzle", &[]).await;
    let session = w
        .app
        .store()
        .puzzle_player(3)
        .unwrap()
        .unwrap()
        .session
        .expect("a session");
    assert!(set.iter().any(|p| p.id == session.puzzle_id));
}

#[tokio::test]
async fn the_days_puzzle_is_the_same_for_everyone_in_a_server_that_day() {
    let morning = world_at(NOON - 11 * 3_600_000);
    let evening = world_at(NOON + 11 * 3_600_000);
    let title = |a: &Answer| only(a).title.clone().unwrap_or_default();
    let first = command(&morning, &actor(1, "alice"), "puzzle", &[]).await;
    let second = command(&evening, &actor(2, "bob"), "puzzle", &[("pick", "today")]).await;
    assert_eq!(title(&first), title(&second));
    // Another day, another puzzle (over a week at least one changes).
    // And in another server, over a few servers at least one differs.
    let servers: std::collections::HashSet<u32> = (0..7)
        .filter_map(|g| daily_puzzle(Variant::Spanish, g, NOON))
        .map(|p| p.id)
        .collect();
    assert!(servers.len() > 1, "{servers:?}");
    let days: std::collections::HashSet<u32> = (0..7)
        .filter_map(|d| daily_puzzle(Variant::Spanish, 10, NOON + d * 86_400_000))
        .map(|p| p.id)
        .collect();
    assert!(days.len() > 1, "{days:?}");
}

#[test]
fn a_set_round_trips_through_its_text_and_a_bad_line_names_its_fault() {
    use damas::ai::puzzles::format_set;
    use damas::engine::{legal_notations, Position};
    let pos = Position::start(Variant::Spanish);
    let (mv, first) = legal_notations(&pos).remove(0);
    let (_, reply) = legal_notations(&pos.apply(&mv)).remove(0);
    let p = Puzzle {
        id: 7,
        position: pos,
        line: vec![mv],
        difficulty: 1,
    };
    let text = format_set("test", std::slice::from_ref(&p));
    assert_eq!(parse_set(Variant::Spanish, &text), Ok(vec![p]));
    let fen = pos.fen();
    let e = parse_set(Variant::Spanish, &format!("# c\n1\t{fen}\t1-32\t1\n")).expect_err("illegal");
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("1-32"), "{}", e.reason);
    let e = parse_set(Variant::Spanish, &format!("1\t{fen}\t{first}\n")).expect_err("3 fields");
    assert!(e.reason.contains("4 tab-separated"), "{}", e.reason);
    let two = format!("1\t{fen}\t{first} {reply}\t1\n");
    let e = parse_set(Variant::Spanish, &two).expect_err("even");
    assert!(e.reason.contains("solver's move"), "{}", e.reason);
    let e = parse_set(Variant::Spanish, &format!("1\t{fen}\t{first}\t9\n")).expect_err("9");
    assert!(e.reason.contains("difficulty"), "{}", e.reason);
    // Ids may skip retired ones but never repeat: a session finds its puzzle by id.
    let ok = format!("1\t{fen}\t{first}\t1\n3\t{fen}\t{first}\t1\n");
    assert_eq!(parse_set(Variant::Spanish, &ok).map(|s| s.len()), Ok(2));
    let again = format!("3\t{fen}\t{first}\t1\n3\t{fen}\t{first}\t1\n");
    let e = parse_set(Variant::Spanish, &again).expect_err("repeated id");
    assert_eq!(e.line, 2);
    assert!(e.reason.contains("ids must increase"), "{}", e.reason);
}

#[test]
fn solving_raises_the_puzzle_rating_and_the_streak_failing_resets_the_streak() {
    use damas::app::scoring::{rate_against_puzzle, record_puzzle_attempt};
    use damas::store::{PuzzlePlayer, Rating};
    let mut p = PuzzlePlayer::new("ana");
    let start = p.rating.rating;
    record_puzzle_attempt(&mut p, 1500.0, true);
    record_puzzle_attempt(&mut p, 1500.0, true);
    assert!(p.rating.rating > start);
    assert_eq!((p.streak, p.best_streak, p.solved), (2, 2, 2));
    let before = p.rating.rating;
    record_puzzle_attempt(&mut p, 1500.0, false);
    assert!(p.rating.rating < before);
    assert_eq!((p.streak, p.best_streak, p.failed), (0, 2, 1));
    // A harder puzzle solved is worth more.
    let r = Rating::default();
    let easy = rate_against_puzzle(r, 1000.0, true).rating;
    let hard = rate_against_puzzle(r, 2000.0, true).rating;
    assert!(hard > easy, "{hard} vs {easy}");
}

#[tokio::test]
async fn forgetting_a_solver_erases_their_puzzle_record_and_leaderboard_place() {
    let w = world_at(NOON);
    let store = w.app.store();
    puzzle_solved(store, 5, "eve", 10, 1500.0).await;
    assert_eq!(store.puzzle_leaderboard(10, 10).unwrap().len(), 1);
    store.forget_user(5).await.unwrap();
    assert!(store.puzzle_player(5).unwrap().is_none());
    assert!(store.puzzle_leaderboard(10, 10).unwrap().is_empty());
}

/// Where no table holds the position, another move is judged by the search that checked the
/// set: on shipped puzzles (checked without tables at first), the line's first move wins and
/// no other does.
#[test]
fn without_tables_the_verifying_search_judges_other_moves() {
    use damas::ai::puzzles::wins_too;
    use damas::ai::EndgameTables;
    let none = EndgameTables::none();
    for variant in SETS {
        let (name, depth) = (variant.id(), verified_at(variant));
        for p in shipped(variant).iter().take(2) {
            assert!(wins_too(p, 0, &p.line[0], depth, &none), "{name} #{}", p.id);
            for other in p.position.legal_moves().iter().filter(|m| **m != p.line[0]) {
                assert!(
                    !wins_too(p, 0, other, depth, &none),
                    "{name} #{}: {}",
                    p.id,
                    p.position.move_notation(other)
                );
            }
            // Not the solver's turn, or not a legal move there: never a win.
            assert!(
                !wins_too(p, 1, &p.line[0], depth, &none),
                "{name} #{}",
                p.id
            );
        }
    }
}
