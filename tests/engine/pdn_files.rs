//! The PDN reader on files of the repository's own (`tests/fixtures/pdn`, see its README):
//! games of `damas tune selfplay` as exported, the same games annotated by hand, without move
//! numbers or results, in Latin-1, set up from a position, and broken among good ones. The
//! real archives of `../shared/pdn` are read too where they are (`rules_game::archives`).

use damas::engine::{
    decode_pdn, export_pdn, read_pdn, read_pdn_by_game_type, GameError, MoveError, NotationError,
    PdnError, PdnRecord, PdnRefusal, Position, Variant,
};

const SPANISH: &str = include_str!("../fixtures/pdn/spanish.pdn");
const ENGLISH: &str = include_str!("../fixtures/pdn/english.pdn");
const PORTUGUESE: &str = include_str!("../fixtures/pdn/portuguese.pdn");
const SPANISH_ANNOTATED: &str = include_str!("../fixtures/pdn/spanish-annotated.pdn");
const ENGLISH_BARE: &str = include_str!("../fixtures/pdn/english-bare.pdn");
const SPANISH_LATIN_1: &[u8] = include_bytes!("../fixtures/pdn/spanish-latin1.pdn");
const SET_UP: &str = include_str!("../fixtures/pdn/setup.pdn");
const FAULTS: &str = include_str!("../fixtures/pdn/faults.pdn");

/// Every game of `text`, each of which must read.
fn all_read(text: &str, variant: Variant) -> Vec<PdnRecord> {
    read_pdn(text, variant)
        .map(|g| g.unwrap_or_else(|refusal| panic!("{variant}: {refusal}")))
        .collect()
}

/// The two records are the same game: the same start, moves and result.
fn assert_same_game(a: &PdnRecord, b: &PdnRecord) {
    assert_eq!(a.game.variant(), b.game.variant(), "game {}", a.number);
    assert_eq!(
        a.game.start_position(),
        b.game.start_position(),
        "game {}",
        a.number
    );
    assert_eq!(a.game.moves(), b.game.moves(), "game {}", a.number);
    assert_eq!(a.result, b.result, "game {}", a.number);
}

#[test]
fn exported_games_read_to_their_end_and_round_trip() {
    for (text, variant, games) in [
        (SPANISH, Variant::Spanish, 3),
        (ENGLISH, Variant::English, 3),
        (PORTUGUESE, Variant::Portuguese, 2),
    ] {
        let read = all_read(text, variant);
        assert_eq!(read.len(), games, "{variant}");
        for r in &read {
            assert!(r.game.ply() > 20, "{variant} game {}", r.number);
            // A game that ended on the board ends as its record says.
            if let Some(winner) = r.game.outcome().and_then(|o| o.winner()) {
                assert_eq!(
                    r.result,
                    Some(damas::engine::PdnResult::Win(winner)),
                    "{variant} game {}",
                    r.number
                );
            }
        }
        // Written again, all in one file: the same games, and the same text once more.
        let exported: String = read
            .iter()
            .map(|r| export_pdn(&r.game, &r.pdn_tags()) + "\n")
            .collect();
        let back = all_read(&exported, variant);
        assert_eq!(back.len(), read.len());
        for (a, b) in read.iter().zip(&back) {
            assert_same_game(a, b);
            assert_eq!(
                export_pdn(&b.game, &b.pdn_tags()),
                export_pdn(&a.game, &a.pdn_tags())
            );
        }
    }
}

/// Comments (also inside variations, with brackets in them), nested variations, NAGs and
/// glyphs, `;` and `%` lines, move numbers glued to their moves or left out: all read past,
/// to the very games of the plain export.
#[test]
fn annotations_are_read_past_to_the_same_games() {
    let plain = all_read(SPANISH, Variant::Spanish);
    let annotated = all_read(SPANISH_ANNOTATED, Variant::Spanish);
    assert_eq!(annotated.len(), plain.len());
    for (a, p) in annotated.iter().zip(&plain) {
        assert_same_game(a, p);
        for (name, value) in &p.tags {
            assert_eq!(a.tag(name), Some(value.as_str()), "game {}", p.number);
        }
    }
    assert_eq!(annotated[0].tag("Annotator"), Some("the reader's tests"));
}

/// Games without move numbers or result tokens, as some archives list them: each ends at the
/// next tag section and takes its result from its Result tag.
#[test]
fn games_without_move_numbers_or_results_read_as_the_numbered_ones() {
    let numbered = all_read(ENGLISH, Variant::English);
    let bare = all_read(ENGLISH_BARE, Variant::English);
    assert_eq!(bare.len(), numbered.len());
    for (b, n) in bare.iter().zip(&numbered) {
        assert_same_game(b, n);
    }
}

#[test]
fn a_latin_1_file_reads_with_its_accented_names() {
    // "ñ" as Latin-1 writes it: one byte, 0xF1, which UTF-8 never has alone.
    assert!(SPANISH_LATIN_1.contains(&0xF1), "the file is Latin-1");
    let text = decode_pdn(SPANISH_LATIN_1);
    let read = all_read(&text, Variant::Spanish);
    assert_eq!(read.len(), 1);
    let r = &read[0];
    assert_eq!(r.tag("Event"), Some("Campeonato de España"));
    assert_eq!(r.tag("Site"), Some("Málaga"));
    assert_eq!(r.tag("White"), Some("Muñoz"));
    assert_eq!(r.tag("Black"), Some("Peña"));
    assert_same_game(r, &all_read(SPANISH, Variant::Spanish)[0]);
    // Written out, the names stay as they are (damas writes UTF-8).
    let written = export_pdn(&r.game, &r.pdn_tags());
    assert!(
        written.contains("[Event \"Campeonato de España\"]"),
        "{written}"
    );
}

/// `[SetUp "1"]` and `[FEN …]`: a game from the middle of another, read by its GameType, starts
/// where that one stood and ends where it ended; a set-up without a position, or with one
/// that cannot be, is refused and says which.
#[test]
fn set_up_games_start_from_their_position() {
    let games: Vec<Result<PdnRecord, PdnRefusal>> =
        read_pdn_by_game_type(SET_UP, Variant::Spanish).collect();
    assert_eq!(games.len(), 4);
    for (i, (whole, variant, from_ply)) in [
        (SPANISH, Variant::Spanish, 40),
        (ENGLISH, Variant::English, 50),
    ]
    .into_iter()
    .enumerate()
    {
        let whole = &all_read(whole, variant)[0];
        let part = games[i]
            .as_ref()
            .unwrap_or_else(|refusal| panic!("{refusal}"));
        assert_eq!(part.game.variant(), variant);
        assert_eq!(
            part.game.start_position(),
            &whole.game.positions()[from_ply],
            "{variant}"
        );
        assert_ne!(part.game.start_position(), &Position::start(variant));
        assert_eq!(
            part.game.moves(),
            &whole.game.moves()[from_ply..],
            "{variant}"
        );
        assert_eq!(part.game.position(), whole.game.position(), "{variant}");
        assert_eq!(part.result, whole.result, "{variant}");
    }
    let error = |i: usize| match &games[i] {
        Ok(r) => panic!("game {} read: {:?}", r.number, r.game.moves()),
        Err(refusal) => refusal.error.clone(),
    };
    assert_eq!(error(2), PdnError::SetUpWithoutFen);
    assert!(matches!(error(3), PdnError::Fen(_)), "{:?}", error(3));
}

/// Broken games among good ones, as real archives have them: each refused with its number,
/// its first bad move and the reason; the games after each still read.
#[test]
fn broken_games_are_refused_with_their_reason_and_the_rest_still_read() {
    let games: Vec<Result<PdnRecord, PdnRefusal>> = read_pdn(FAULTS, Variant::Spanish).collect();
    assert_eq!(games.len(), 6);
    let spanish = all_read(SPANISH, Variant::Spanish);
    let read = |i: usize| {
        games[i]
            .as_ref()
            .unwrap_or_else(|refusal| panic!("{refusal}"))
    };
    let refused = |i: usize| match &games[i] {
        Ok(r) => panic!("game {} read", r.number),
        Err(refusal) => refusal,
    };
    assert_same_game(read(0), &spanish[2]);
    assert_same_game(read(5), &spanish[0]);
    // A king moved from the square it left two moves before.
    let r = refused(1);
    assert_eq!(r.number, 2);
    match &r.error {
        PdnError::Move {
            ply,
            label,
            text,
            error: GameError::Move(MoveError::NoPiece { square }),
        } => {
            assert_eq!(
                (*ply, label.as_str(), text.as_str()),
                (48, "24...", "32-15")
            );
            assert_eq!(square.number(), 32);
        }
        other => panic!("{other:?}"),
    }
    // A note glued to the last move, without braces.
    let r = refused(2);
    match &r.error {
        PdnError::Move {
            label,
            text,
            error: GameError::Move(MoveError::Notation(NotationError::NotAMove { .. })),
            ..
        } => assert_eq!(
            (label.as_str(), text.as_str()),
            ("26.", "16x23Whiteresignedhere")
        ),
        other => panic!("{other:?}"),
    }
    // A comment never closed: the reader goes on at the next tag section.
    assert_eq!(refused(3).error, PdnError::Unclosed("comment"));
    // An English game in a Spanish file.
    assert!(
        matches!(&refused(4).error, PdnError::GameType { found, .. } if found == "21"),
        "{:?}",
        refused(4).error
    );
}

/// Games of the three variants in one file: read by their GameType tags, each as its own;
/// read as Spanish, the others are refused for their GameType.
#[test]
fn each_game_of_a_mixed_file_reads_as_its_game_type_says() {
    let mixed = [SPANISH, ENGLISH, PORTUGUESE].join("\n");
    let by_type: Vec<PdnRecord> = read_pdn_by_game_type(&mixed, Variant::Spanish)
        .map(|g| g.unwrap_or_else(|refusal| panic!("{refusal}")))
        .collect();
    let variants: Vec<Variant> = by_type.iter().map(|r| r.game.variant()).collect();
    let expected: Vec<Variant> = [Variant::Spanish; 3]
        .into_iter()
        .chain([Variant::English; 3])
        .chain([Variant::Portuguese; 2])
        .collect();
    assert_eq!(variants, expected);
    let as_spanish: Vec<bool> = read_pdn(&mixed, Variant::Spanish)
        .map(|g| g.is_ok())
        .collect();
    assert_eq!(
        as_spanish,
        expected
            .iter()
            .map(|&v| v == Variant::Spanish)
            .collect::<Vec<_>>()
    );
}
