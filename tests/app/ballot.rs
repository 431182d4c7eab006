//! The three-move ballot of English draughts: the committed deck against the published ACF
//! list and against what the generator makes now, and ballot games in the application layer.

use crate::support::app::*;
use damas::app::ballot::{self, Deck, Opening, OpeningChoice};
use damas::app::challenge::Terms;
use damas::app::commands::{self, ArgValue, Invocation};
use damas::app::{Action, Place};
use damas::engine::{Color, Game, Position, Variant};
use damas::store::Store;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::HashSet;

/// The committed deck, which must read.
fn deck() -> &'static Deck {
    ballot::deck().unwrap_or_else(|e| panic!("the committed deck reads: {e}"))
}

/// The openings the ACF plays (crossboard and mailplay; not the barred ones): number and
/// moves, read from its tab-separated list.
fn acf_played(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            let (number, moves, deck) = (fields.first()?, fields.get(1)?, fields.get(2)?);
            (!deck.split_whitespace().any(|w| w == "barred"))
                .then(|| (number.to_string(), moves.to_string()))
        })
        .collect()
}

/// The deck's own invariants: it reads (every line three legal plies, no two alike, every
/// verdict following from its score), and its verdicts cover exactly the distinct openings
/// the generator enumerates, in its order.
#[test]
fn the_deck_judges_every_distinct_opening_once() {
    let deck = deck();
    let all = ballot::all_openings();
    let judged: Vec<&Opening> = deck.verdicts.iter().map(|v| &v.opening).collect();
    assert_eq!(judged, all.iter().collect::<Vec<_>>());
    for v in &deck.verdicts {
        assert_eq!(v.opening.moves().len(), ballot::PLIES);
        assert_eq!(v.kept, v.score.abs() < deck.threshold, "{}", v.opening);
    }
    let kept = deck.kept().count();
    assert!(
        kept > all.len() / 2 && kept < all.len(),
        "a sensible deck drops some openings and keeps most: {kept} of {}",
        all.len()
    );
}

/// Against the ACF's list, kept outside the repository (`../shared`): run where it is there.
#[test]
fn the_deck_holds_at_least_140_of_the_acf_openings() {
    let deck = deck();
    let Some(path) = crate::support::shared_data("three_move_ballots.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let played = acf_played(&text);
    assert_eq!(played.len(), 156, "the ACF plays 156 openings");
    let kept: HashSet<Position> = deck.kept().map(|o| o.position()).collect();
    let mut missing = Vec::new();
    for (number, moves) in &played {
        // The ACF's moves are legal openings; a transposition of ours counts as the same.
        let acf = Opening::parse(moves)
            .unwrap_or_else(|e| panic!("ACF opening {number} “{moves}” reads: {e}"));
        if !kept.contains(&acf.position()) {
            let score = deck
                .verdicts
                .iter()
                .find(|v| v.opening.position() == acf.position())
                .map(|v| v.score);
            missing.push(format!("{number} {moves} (score {score:?})"));
        }
    }
    let overlap = played.len() - missing.len();
    println!(
        "the deck holds {overlap} of the ACF's {} openings (deck: {} kept of {}); not held: {}",
        played.len(),
        kept.len(),
        deck.verdicts.len(),
        missing.join(", ")
    );
    assert!(overlap >= 140, "only {overlap} of 156: {missing:?}");
}

/// Re-judges a fixed sample at the recorded depth: the committed scores are what the
/// generator gives now, so a change to the search cannot leave stale data behind unnoticed.
#[test]
fn the_committed_verdicts_are_what_the_generator_gives() {
    let deck = deck();
    let n = deck.verdicts.len();
    let dropped = deck
        .verdicts
        .iter()
        .position(|v| !v.kept)
        .expect("the deck drops some opening");
    for i in [0, n / 2, n - 1, dropped] {
        let v = &deck.verdicts[i];
        assert_eq!(
            ballot::judge(&v.opening, deck.depth),
            v.score,
            "{} at depth {}: regenerate {} (see its header)",
            v.opening,
            deck.depth,
            ballot::DECK_PATH
        );
    }
}

// --- ballot games ---------------------------------------------------------------------

const SEED: u64 = 5;

fn world() -> World {
    World::new(seeded(SEED))
}

/// `/challenge opponent:<bob> [variant:…] opening:<opening>` as the front ends send it.
fn challenge_command(bob: &damas::app::Actor, variant: Option<&str>, opening: &str) -> Invocation {
    let mut inv = Invocation::new(commands::find("challenge").expect("the command"));
    inv.args.push(("opponent", ArgValue::User(user(bob))));
    if let Some(v) = variant {
        inv.args.push(("variant", ArgValue::Text(v.into())));
    }
    inv.args.push(("opening", ArgValue::Text(opening.into())));
    inv
}

#[tokio::test]
async fn a_ballot_game_starts_from_the_drawn_openings_three_plies() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let expected = deck()
        .draw(&mut SmallRng::seed_from_u64(SEED))
        .expect("a kept opening")
        .clone();

    let a = w
        .app
        .run_command(
            &alice,
            PLACE,
            &challenge_command(&bob, Some("english"), "ballot"),
        )
        .await;
    let challenge = only(&a);
    assert!(!challenge.is_private(), "{}", challenge.text);
    assert!(
        challenge.text.contains(&expected.to_string()),
        "the challenge names the opening: {}",
        challenge.text
    );
    let accept = button_id(challenge, Action::Accept);
    let a = w.app.component(&bob, PLACE, &accept, &[]).await;
    let board = only(&a);
    assert!(
        board
            .text
            .contains(&format!("Three-move ballot: {expected}")),
        "{}",
        board.text
    );

    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.variant, Variant::English);
    assert_eq!(rec.opening.as_deref(), Some(expected.to_string().as_str()));
    assert_eq!(rec.moves, expected.stored_moves());
    let game = rec.to_game().unwrap();
    let played = Game::replay(
        Position::start(Variant::English),
        &expected
            .notations()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(game.position(), played.position());
    assert_eq!(
        game.side_to_move(),
        Color::White,
        "White answers the ballot"
    );
    assert_eq!(
        ballot::opening_of(&rec),
        Some(expected.clone()),
        "a rematch finds it"
    );

    // The players go on from there: White's move is the fourth ply.
    let white = if matches!(
        rec.seat(Color::White),
        damas::store::Seat::Human { user_id: 1, .. }
    ) {
        &alice
    } else {
        &bob
    };
    let mv = game.position().legal_moves()[0];
    let text = game.position().move_notation(&mv);
    let a = w.app.play_move(white, PLACE, &text).await;
    assert!(!a.replies.is_empty() && !a.replies[0].is_private(), "{a:?}");
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.ply(), 4);

    // The PDN names the opening and records its moves from move 1.
    let a = w.app.pdn(&alice, PLACE).await;
    let pdn = String::from_utf8(only(&a).files[0].bytes.clone()).unwrap();
    assert_pdn_opens_with(&pdn, &expected, &format!(" {text}"));
    assert!(!pdn.contains("[FEN"), "{pdn}");
}

#[tokio::test]
async fn the_same_seed_draws_the_same_opening_and_a_free_start_has_none() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    // `opening: ballot` alone means English.
    let a = w
        .app
        .run_command(&alice, PLACE, &challenge_command(&bob, None, "ballot"))
        .await;
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&bob, PLACE, &accept, &[]).await;
    let rec = w.active_game(PLACE.channel_id).unwrap();
    assert_eq!(rec.variant, Variant::English);
    let expected = deck()
        .draw(&mut SmallRng::seed_from_u64(SEED))
        .expect("a kept opening")
        .to_string();
    assert_eq!(rec.opening.as_deref(), Some(expected.as_str()));

    // A free English game elsewhere starts from the start, with no opening recorded.
    let other = Place {
        guild_id: Some(10),
        channel_id: 21,
    };
    let a = w
        .app
        .run_command(
            &alice,
            other,
            &challenge_command(&bob, Some("english"), "free"),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&bob, other, &accept, &[]).await;
    let rec = w.active_game(other.channel_id).unwrap();
    assert_eq!((rec.opening.as_deref(), rec.ply()), (None, 0));
    let a = w.app.pdn(&alice, other).await;
    let pdn = String::from_utf8(only(&a).files[0].bytes.clone()).unwrap();
    assert!(!pdn.contains("[Opening"), "{pdn}");
}

#[tokio::test]
async fn a_ballot_in_spanish_or_portuguese_is_refused_and_changes_nothing() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    for variant in ["spanish", "portuguese"] {
        let a = w
            .app
            .run_command(
                &alice,
                PLACE,
                &challenge_command(&bob, Some(variant), "ballot"),
            )
            .await;
        let r = only(&a);
        assert!(r.is_private(), "{}", r.text);
        assert!(
            r.text.contains("only in English draughts")
                && r.text.contains("Portuguese") == (variant == "portuguese"),
            "{}",
            r.text
        );
        assert!(w.app.store().challenge(PLACE.channel_id).unwrap().is_none());
    }
    // In Spanish, for a Spanish speaker, through the typed API as well.
    let mut ana = actor(3, "ana");
    ana.locale = "es-ES".into();
    let terms = Terms {
        variant: Some(Variant::Spanish),
        opening: Some(OpeningChoice::Ballot),
        ..Terms::default()
    };
    let a = w.app.challenge_on(&ana, PLACE, &user(&bob), terms).await;
    let r = only(&a);
    assert!(r.is_private());
    assert!(
        r.text.contains("solo se juega en damas inglesas"),
        "{}",
        r.text
    );
    assert!(w.app.store().challenge(PLACE.channel_id).unwrap().is_none());
}

#[test]
fn openings_read_strictly_and_name_the_bad_move() {
    let o = Opening::parse("9x13  22:18 11-15").unwrap();
    assert_eq!(
        o.to_string(),
        "9-13 22-18 11-15",
        "canonical whatever the separators"
    );
    assert_eq!(o.position().side_to_move(), Color::White);
    assert_eq!(
        Opening::parse("9-13 22-18"),
        Err(ballot::OpeningError::Length(2))
    );
    match Opening::parse("9-13 22-18 13-9") {
        Err(ballot::OpeningError::Illegal { ply, text, .. }) => {
            assert_eq!((ply, text.as_str()), (3, "13-9"))
        }
        other => panic!("{other:?}"),
    }
    // Every three-ply sequence from the start reaches exactly one listed opening.
    let all = ballot::all_openings();
    let positions: HashSet<Position> = all.iter().map(Opening::position).collect();
    assert_eq!(positions.len(), all.len(), "no two openings alike");
    let mut sequences = 0;
    let start = Game::new(Variant::English);
    for a in start.position().legal_moves() {
        let p1 = start.position().apply(&a);
        for b in p1.legal_moves() {
            let p2 = p1.apply(&b);
            for c in p2.legal_moves() {
                sequences += 1;
                assert!(positions.contains(&p2.apply(&c)));
            }
        }
    }
    assert_eq!(sequences, 302, "perft 3 of English draughts");
}

#[test]
fn a_deck_file_with_a_fault_is_refused_with_its_line() {
    let good = "# c\ndepth 4\nthreshold 100\n9-13 22-18 11-15\t+20\tkept\n";
    let deck = Deck::parse(good).unwrap();
    assert_eq!(
        (deck.depth, deck.threshold, deck.kept().count()),
        (4, 100, 1)
    );
    let cases: [(&str, &str); 7] = [
        ("depth 4\nthreshold 100\n9-13 22-18\t+20\tkept\n", "line 3"),
        (
            "depth 4\nthreshold 100\n9-13 22-18 11-15\t+120\tkept\n",
            "means dropped",
        ),
        (
            "depth 4\nthreshold 100\n9-13 22-18 11-15\tx\tkept\n",
            "score “x”",
        ),
        (
            "depth 4\nthreshold 100\n9-13 22-18 11-15 +20 kept\n",
            "tab-separated",
        ),
        ("threshold 100\n9-13 22-18 11-15\t+20\tkept\n", "“depth N”"),
        (
            "depth 4\nthreshold 100\n9-13 22-18 11-15\t+20\tkept\n9-13 22-18 11-15\t+20\tkept\n",
            "same position as line 3",
        ),
        (
            "depth 4\nthreshold 100\n9-13 22-18 11-15\t+200\tdropped\n",
            "keeps no opening",
        ),
    ];
    for (text, wanted) in cases {
        let e = Deck::parse(text).expect_err(text).to_string();
        assert!(e.contains(wanted), "{e} (wanted {wanted})");
        assert!(e.contains(ballot::DECK_PATH), "{e}");
    }
}

// --- the records that carry the opening (format version 3) ------------------------------

/// A challenge as format version 2 laid it out, field for field.
#[derive(serde::Serialize)]
struct ChallengeV2 {
    challenger: damas::store::UserRef,
    challenged: damas::store::UserRef,
    variant: Variant,
    challenger_color: Option<Color>,
    created_at_ms: u64,
    expires_at_ms: u64,
    message_id: Option<u64>,
    lang: String,
    move_time_ms: Option<u64>,
}

/// A game record as format version 2 laid it out, field for field.
#[derive(serde::Serialize)]
struct GameRecordV2 {
    id: u64,
    guild_id: Option<u64>,
    channel_id: u64,
    variant: Variant,
    start_fen: Option<String>,
    players: [damas::store::Seat; 2],
    moves: Vec<damas::store::StoredMove>,
    draw_offer: Option<Color>,
    undo_used: bool,
    created_at_ms: u64,
    last_move_at_ms: u64,
    move_time_ms: u64,
    reminded_ply: Option<usize>,
    lang: String,
    outcome: Option<damas::engine::Outcome>,
    revision: u64,
}

#[tokio::test]
async fn version_2_records_still_read_as_free_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let person = |id: u64, name: &str| damas::store::UserRef {
        user_id: id,
        name: name.into(),
        is_bot: false,
    };
    let challenge = ChallengeV2 {
        challenger: person(1, "ana"),
        challenged: person(2, "beto"),
        variant: Variant::English,
        challenger_color: Some(Color::White),
        created_at_ms: 5,
        expires_at_ms: 900_005,
        message_id: Some(31),
        lang: "es".into(),
        move_time_ms: Some(86_400_000),
    };
    let mut game = Game::new(Variant::English);
    let mv = game.play_text("11-15").unwrap();
    let seat = |id: u64, name: &str| damas::store::Seat::Human {
        user_id: id,
        name: name.into(),
    };
    let rec = GameRecordV2 {
        id: 9,
        guild_id: Some(3),
        channel_id: 13,
        variant: Variant::English,
        start_fen: None,
        players: [seat(1, "ana"), seat(2, "beto")],
        moves: vec![damas::store::StoredMove::from_move(&mv)],
        draw_offer: None,
        undo_used: false,
        created_at_ms: 1_000,
        last_move_at_ms: 2_000,
        move_time_ms: 7_000,
        reminded_ply: Some(1),
        lang: "es".into(),
        outcome: None,
        revision: 2,
    };
    let v2 = |bytes: Vec<u8>| [vec![2u8], bytes].concat();
    {
        // No flusher thread (flushed by hand below): sled's holds the folder's lock for a
        // moment after the last handle is dropped, and the store opens it right after.
        let db = sled::Config::new()
            .path(&path)
            .flush_every_ms(None)
            .open()
            .unwrap();
        db.open_tree(damas::store::TREE_CHALLENGES)
            .unwrap()
            .insert(
                12u64.to_be_bytes(),
                v2(postcard::to_allocvec(&challenge).unwrap()),
            )
            .unwrap();
        db.open_tree(damas::store::TREE_GAMES)
            .unwrap()
            .insert(
                13u64.to_be_bytes(),
                v2(postcard::to_allocvec(&rec).unwrap()),
            )
            .unwrap();
        db.flush().unwrap();
    }
    // sled's I/O threads can hold the folder's lock a moment after the last handle is dropped
    // (CI saw it with and without the flusher): open again until they let go, 5 s at most.
    let mut tries = 0;
    let store = loop {
        match Store::open(&path) {
            Ok(store) => break store,
            Err(e) if tries < 50 && format!("{e:?}").contains("could not acquire lock") => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the store opens: {e:?}"),
        }
    };
    let c = store
        .challenge(12)
        .unwrap()
        .expect("a version 2 challenge decodes");
    assert_eq!(
        (c.challenger.name.as_str(), c.challenged.user_id),
        ("ana", 2)
    );
    assert_eq!((c.lang.code(), c.move_time_ms), ("es", Some(86_400_000)));
    assert_eq!(c.opening, None);
    let g = store
        .active_game(13)
        .unwrap()
        .expect("a version 2 game decodes");
    assert_eq!(
        (g.id, g.move_time_ms, g.reminded_ply, g.revision),
        (9, 7_000, Some(1), 2)
    );
    assert_eq!(g.lang.code(), "es");
    assert_eq!(g.opening, None);
    assert_eq!(ballot::opening_of(&g), None);
    assert_eq!(g.to_game().unwrap().position(), game.position());
}

/// The generator's command: refuses a bad depth clearly, and writes a deck that reads back
/// with the command that made it in its header.
#[test]
fn the_generate_command_writes_a_deck_that_reads_back() {
    let bad = crate::support::cli::command()
        .args(["openings", "generate", "--depth", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--depth must be"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deck.txt");
    let ok = crate::support::cli::command()
        .args(["openings", "generate", "--depth", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    // The header records the default threshold the command used.
    let made_by = format!(
        "openings generate --depth 2 --threshold {} --out",
        ballot::DEFAULT_THRESHOLD
    );
    assert!(text.contains(&made_by), "{text}");
    let deck = Deck::parse(&text).unwrap();
    assert_eq!(deck.depth, 2);
    assert_eq!(deck.verdicts.len(), ballot::all_openings().len());
}
