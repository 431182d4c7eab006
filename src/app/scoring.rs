//! Scores against the computer (docs/GAME-APP.md), titles, Glicko-2 ratings between people
//! and against puzzles, and how a finished game or a puzzle attempt changes the players'
//! records: the game's policy. The store applies
//! it inside its finish-game transaction through [`Settle`], which [`Scoring`] implements; the
//! store itself keeps only the bytes and the transaction.

use crate::engine::{ByColour, Color, Game, Outcome, Variant};
use crate::level::Level;
pub use crate::store::records::Title;
use crate::store::records::{GameRecord, GameResult, PlayerRecord, Rating, Seat, SeatSummary};
use crate::store::{PuzzlePlayer, Settle};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Points per own piece left after a win (docs/GAME-APP.md).
pub const POINTS_PER_PIECE: u32 = 100;
/// Points per move under [`MOVES_PAR`] (docs/GAME-APP.md).
pub const POINTS_PER_MOVE_SAVED: u32 = 10;
/// Moves a win may take before it stops earning speed points.
pub const MOVES_PAR: u32 = 60;

/// The level whose best score earns titles (docs/GAME-APP.md: "at Medium").
pub const TITLE_LEVEL: Level = Level::Medium;
/// Best score at [`TITLE_LEVEL`] that earns [`Title::Expert`] (docs/GAME-APP.md).
pub const EXPERT_SCORE: u32 = 500;
/// Best score at [`TITLE_LEVEL`] that earns [`Title::Pro`] (docs/GAME-APP.md).
pub const PRO_SCORE: u32 = 1000;

/// The title a best score at [`TITLE_LEVEL`] earns, if any.
pub fn title_for_best_score(best: u32) -> Option<Title> {
    if best >= PRO_SCORE {
        Some(Title::Pro)
    } else if best >= EXPERT_SCORE {
        Some(Title::Expert)
    } else {
        None
    }
}

/// A player's title in `variant`, derived from their stored best ranked score against the
/// computer at [`TITLE_LEVEL`]: the one place titles come from, so that `/stats`, the
/// leaderboards and the end of a game never disagree.
pub fn title(p: &PlayerRecord, variant: Variant) -> Option<Title> {
    p.bot(variant, TITLE_LEVEL)
        .best_score
        .and_then(title_for_best_score)
}

/// The game app's score of a finished game for the human against the computer: 100 per own
/// piece left plus 10 per own move under 60 for a win; 0 for anything else (a draw, a loss,
/// a game between people, a game still going, or a record that does not replay).
pub fn score(rec: &GameRecord) -> u32 {
    let Some(human) = rec.human_against_bot() else {
        return 0;
    };
    match rec.to_game() {
        Ok(game) => score_in(&game, human),
        Err(_) => 0,
    }
}

/// The score of `game` for `human` (0 unless `human` won).
pub fn score_in(game: &Game, human: Color) -> u32 {
    if game.outcome().and_then(|o| o.winner()) != Some(human) {
        return 0;
    }
    win_points(
        game.position().pieces(human).count(),
        own_moves(game, human) as u32,
    )
}

/// The score of a win with `pieces` left after `own_moves` moves.
pub fn win_points(pieces: u32, own_moves: u32) -> u32 {
    pieces * POINTS_PER_PIECE + MOVES_PAR.saturating_sub(own_moves) * POINTS_PER_MOVE_SAVED
}

/// Plies `color` has played in `game`.
pub fn own_moves(game: &Game, color: Color) -> usize {
    game.positions()[..game.ply()]
        .iter()
        .filter(|p| p.side_to_move() == color)
        .count()
}

fn result_for(outcome: Outcome, color: Color) -> GameResult {
    match outcome.winner() {
        Some(w) if w == color => GameResult::Win,
        Some(_) => GameResult::Loss,
        None => GameResult::Draw,
    }
}

/// New ratings of White and Black after a game between them.
pub fn rate(white: Rating, black: Rating, outcome: Outcome) -> (Rating, Rating) {
    let from_white = match result_for(outcome, Color::White) {
        GameResult::Win => Outcomes::WIN,
        GameResult::Loss => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
    };
    let (w, b) = glicko2(
        &white.into(),
        &black.into(),
        &from_white,
        &Glicko2Config::new(),
    );
    (w.into(), b.into())
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Self {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Self {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// How sure a puzzle's rating is: puzzles are rated once, from their difficulty, so they
/// count as an opponent of moderate certainty.
const PUZZLE_DEVIATION: f64 = 100.0;

/// The solver's rating after an attempt at a puzzle rated `puzzle_rating`.
pub fn rate_against_puzzle(player: Rating, puzzle_rating: f64, solved: bool) -> Rating {
    let puzzle = Glicko2Rating {
        rating: puzzle_rating,
        deviation: PUZZLE_DEVIATION,
        volatility: Glicko2Rating::new().volatility,
    };
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (r, _) = glicko2(&player.into(), &puzzle, &outcome, &Glicko2Config::new());
    r.into()
}

/// Counts a finished attempt at a puzzle rated `puzzle_rating` in the solver's record:
/// Glicko-2 against the puzzle (a win when solved), and the streak.
pub fn record_puzzle_attempt(p: &mut PuzzlePlayer, puzzle_rating: f64, solved: bool) {
    p.rating = rate_against_puzzle(p.rating, puzzle_rating, solved);
    if solved {
        p.solved += 1;
        p.streak += 1;
        p.best_streak = p.best_streak.max(p.streak);
    } else {
        p.failed += 1;
        p.streak = 0;
    }
}

/// The game app's policy, as the store's finish-game transaction asks for it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scoring;

impl Settle for Scoring {
    fn settle(
        &self,
        rec: &GameRecord,
        game: &Game,
        outcome: Outcome,
        players: &mut ByColour<Option<PlayerRecord>>,
    ) -> ByColour<Option<SeatSummary>> {
        settle(rec, game, outcome, players)
    }
}

/// Applies a finished game to the players' records, indexed by colour. A `None` record is a
/// seat the store could not read (or the computer): it is left alone, and its opponent is
/// rated against a fresh rating.
pub(crate) fn settle(
    rec: &GameRecord,
    game: &Game,
    outcome: Outcome,
    players: &mut ByColour<Option<PlayerRecord>>,
) -> ByColour<Option<SeatSummary>> {
    let mut seats: ByColour<Option<SeatSummary>> = ByColour::default();
    for (color, seat) in rec.players.sides() {
        if let (Seat::Human { name, .. }, Some(p)) = (seat, players[color].as_mut()) {
            p.name.clone_from(name);
        }
    }
    match (&rec.players.white, &rec.players.black) {
        (Seat::Human { user_id: a, .. }, Seat::Human { user_id: b, .. }) if a != b => {
            let before = players.as_ref().map(|p| {
                p.as_ref()
                    .map_or_else(Rating::default, |p| p.variant(rec.variant).rating)
            });
            let (white, black) = rate(before.white, before.black, outcome);
            let after = ByColour::new(white, black);
            for color in [Color::White, Color::Black] {
                let Some(p) = players[color].as_mut() else {
                    continue;
                };
                let result = result_for(outcome, color);
                let v = p.variant_mut(rec.variant);
                count(&mut v.people, result);
                v.rating = after[color];
                seats[color] = Some(SeatSummary {
                    user_id: p.user_id,
                    result,
                    score: None,
                    ranked: false,
                    new_best: false,
                    rating: Some((before[color], after[color])),
                    title_earned: None,
                });
            }
        }
        _ => {
            let Some(human) = rec.human_against_bot() else {
                // Two computers, or someone playing themselves: nothing to count.
                return seats;
            };
            let Seat::Bot { level } = *rec.seat(human.opposite()) else {
                return seats;
            };
            let Some(p) = players[human].as_mut() else {
                return seats;
            };
            let title_before = title(p, rec.variant);
            let result = result_for(outcome, human);
            let points = score_in(game, human);
            // A game with an undo no longer counts (`/undo` says so): it stays out of the
            // wins, losses and draws `/stats` shows, and a win of it is only noted apart.
            let ranked = !rec.undo_used;
            let bot = &mut p.variant_mut(rec.variant).bots[level.index()];
            let mut new_best = false;
            if ranked {
                count(&mut bot.tally, result);
                if result == GameResult::Win {
                    new_best = bot.best_score.map_or(true, |b| points > b);
                    if new_best {
                        bot.best_score = Some(points);
                    }
                }
            } else if result == GameResult::Win {
                bot.unranked_wins += 1;
            }
            let title_after = title(p, rec.variant);
            seats[human] = Some(SeatSummary {
                user_id: p.user_id,
                result,
                score: Some(points),
                ranked: ranked && result == GameResult::Win,
                new_best,
                rating: None,
                title_earned: title_after.filter(|_| title_after > title_before),
            });
        }
    }
    seats
}

fn count(t: &mut crate::store::Tally, result: GameResult) {
    match result {
        GameResult::Win => t.wins += 1,
        GameResult::Loss => t.losses += 1,
        GameResult::Draw => t.draws += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Position, WinReason};
    use crate::store::records::StoredMove;
    use crate::store::PlayerRecord;

    fn human(id: u64) -> Seat {
        Seat::Human {
            user_id: id,
            name: format!("user{id}"),
        }
    }

    fn bot(level: Level) -> Seat {
        Seat::Bot { level }
    }

    /// A short English game Black (first to move) wins by capturing White's only man.
    fn quick_win(players: [Seat; 2]) -> GameRecord {
        let mut rec = GameRecord::new(1, Some(5), 9, Variant::English, players.into(), 0);
        // Black men on 14 and 18; the one on 18 takes White's last man on 22.
        rec.start_fen = Some("B:W22:B14,18".to_string());
        let start = Position::from_fen(Variant::English, "B:W22:B14,18").unwrap();
        let mut game = Game::from_position(start);
        let mv = game.play_text("18x25").unwrap();
        rec.moves.push(StoredMove::from_move(&mv));
        rec.outcome = game.outcome();
        rec
    }

    #[test]
    fn win_against_the_computer_scores_pieces_and_speed() {
        let rec = quick_win([bot(Level::Easy), human(7)]);
        assert_eq!(
            rec.outcome,
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::NoPieces
            })
        );
        // Two pieces left, one own move: 2 * 100 + (60 - 1) * 10.
        assert_eq!(score(&rec), 200 + 590);
        // The same game seen from the loser's side scores nothing.
        let lost = quick_win([human(7), bot(Level::Easy)]);
        assert_eq!(score(&lost), 0);
        // Between people there is no score.
        assert_eq!(score(&quick_win([human(1), human(2)])), 0);
    }

    #[test]
    fn speed_points_stop_at_sixty_moves() {
        assert_eq!(win_points(3, 59), 310);
        assert_eq!(win_points(3, 60), 300);
        assert_eq!(win_points(3, 75), 300);
        assert_eq!(win_points(12, 0), 1800);
    }

    #[test]
    fn glicko2_moves_ratings_towards_the_result() {
        let even = Rating::default();
        let white_wins = Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation,
        };
        let (w, b) = rate(even, even, white_wins);
        assert!(w.rating > even.rating && b.rating < even.rating);
        assert!(
            w.deviation < even.deviation,
            "a game makes the rating surer"
        );
        // Beating a stronger player gains more than beating an equal one.
        let strong = Rating {
            rating: 1900.0,
            ..even
        };
        let (upset, _) = rate(even, strong, white_wins);
        assert!(upset.rating - even.rating > w.rating - even.rating);
        // A draw between equals moves nobody's rating much.
        let (dw, db) = rate(
            even,
            even,
            Outcome::Draw {
                reason: crate::engine::DrawReason::Agreement,
            },
        );
        assert!((dw.rating - even.rating).abs() < 1.0 && (db.rating - even.rating).abs() < 1.0);
    }

    #[test]
    fn settle_counts_bot_wins_and_keeps_undo_wins_unranked() {
        let rec = quick_win([bot(Level::Hard), human(7)]);
        let game = rec.to_game().unwrap();
        let outcome = rec.outcome.unwrap();
        let mut players = ByColour::new(None, Some(PlayerRecord::new(7, "old name".into())));
        let seats = settle(&rec, &game, outcome, &mut players);
        let p = players.black.as_ref().unwrap();
        assert_eq!(p.name, "user7");
        let hard = p.bot(Variant::English, Level::Hard);
        assert_eq!((hard.tally.wins, hard.best_score), (1, Some(790)));
        let s = seats.black.as_ref().unwrap();
        assert!(s.ranked && s.new_best);
        assert!(seats.white.is_none());

        let mut undone = rec.clone();
        undone.undo_used = true;
        let seats = settle(&undone, &game, outcome, &mut players);
        let hard = players
            .black
            .as_ref()
            .unwrap()
            .bot(Variant::English, Level::Hard);
        // `/undo` said the game no longer counts: `/stats`' wins stay as they were.
        assert_eq!(hard.tally.wins, 1);
        assert_eq!(hard.unranked_wins, 1);
        assert_eq!(hard.best_score, Some(790));
        assert!(!seats.black.as_ref().unwrap().ranked);
    }

    #[test]
    fn a_game_lost_or_drawn_after_an_undo_is_not_counted() {
        // The human (White) loses to the bot after taking a move back.
        let mut lost = quick_win([human(7), bot(Level::Easy)]);
        lost.undo_used = true;
        let game = lost.to_game().unwrap();
        let mut players = ByColour::new(Some(PlayerRecord::new(7, "user7".into())), None);
        let seats = settle(&lost, &game, lost.outcome.unwrap(), &mut players);
        let easy = players
            .white
            .as_ref()
            .unwrap()
            .bot(Variant::English, Level::Easy);
        assert_eq!(easy.tally.games(), 0, "{easy:?}");
        let s = seats.white.as_ref().unwrap();
        assert_eq!(s.result, GameResult::Loss);
        assert!(!s.ranked);

        // The same game without an undo counts as a loss.
        lost.undo_used = false;
        settle(&lost, &game, lost.outcome.unwrap(), &mut players);
        let easy = players
            .white
            .as_ref()
            .unwrap()
            .bot(Variant::English, Level::Easy);
        assert_eq!((easy.tally.losses, easy.tally.games()), (1, 1));
    }

    /// `quick_win` with eight more Black men far away: ten pieces left, a score of 1,590.
    fn big_win(players: [Seat; 2]) -> GameRecord {
        let fen = "B:W22:B1,2,3,4,5,6,7,8,14,18";
        let mut rec = GameRecord::new(2, Some(5), 9, Variant::English, players.into(), 0);
        rec.start_fen = Some(fen.to_string());
        let mut game = Game::from_position(Position::from_fen(Variant::English, fen).unwrap());
        let mv = game.play_text("18x25").unwrap();
        rec.moves.push(StoredMove::from_move(&mv));
        rec.outcome = game.outcome();
        rec
    }

    /// Settles `rec` for the records in `players`; the human's summary.
    fn settled(rec: &GameRecord, players: &mut ByColour<Option<PlayerRecord>>) -> SeatSummary {
        let game = rec.to_game().unwrap();
        let seats = settle(rec, &game, rec.outcome.unwrap(), players);
        let human = rec.human_against_bot().unwrap();
        seats[human].clone().unwrap()
    }

    #[test]
    fn titles_start_at_500_and_1000() {
        assert_eq!(title_for_best_score(0), None);
        assert_eq!(title_for_best_score(win_points(4, 51)), None, "490");
        assert_eq!(title_for_best_score(499), None);
        assert_eq!(title_for_best_score(win_points(5, 60)), Some(Title::Expert));
        assert_eq!(title_for_best_score(999), Some(Title::Expert));
        assert_eq!(title_for_best_score(win_points(10, 60)), Some(Title::Pro));
        assert_eq!(title_for_best_score(1800), Some(Title::Pro));

        // Only the best score at Medium, in the variant asked about, counts.
        let mut p = PlayerRecord::new(7, "ana".into());
        p.variant_mut(Variant::English).bots[Level::Hard.index()].best_score = Some(1500);
        assert_eq!(title(&p, Variant::English), None);
        p.variant_mut(Variant::English).bots[Level::Medium.index()].best_score = Some(499);
        assert_eq!(title(&p, Variant::English), None);
        p.variant_mut(Variant::English).bots[Level::Medium.index()].best_score = Some(500);
        assert_eq!(title(&p, Variant::English), Some(Title::Expert));
        assert_eq!(title(&p, Variant::Spanish), None);
        p.variant_mut(Variant::English).bots[Level::Medium.index()].best_score = Some(1000);
        assert_eq!(title(&p, Variant::English), Some(Title::Pro));
    }

    #[test]
    fn a_title_is_announced_only_by_the_game_that_earns_it() {
        let mut players = ByColour::new(None, Some(PlayerRecord::new(7, "user7".into())));
        let at = |level: Level| [bot(level), human(7)];

        // 790 at Medium: Expert, once.
        let s = settled(&quick_win(at(Level::Medium)), &mut players);
        assert_eq!((s.score, s.title_earned), (Some(790), Some(Title::Expert)));
        let s = settled(&quick_win(at(Level::Medium)), &mut players);
        assert_eq!(s.title_earned, None, "already Expert");

        // A high score at another level, or a win with undo, earns nothing.
        assert_eq!(
            settled(&big_win(at(Level::Hard)), &mut players).title_earned,
            None
        );
        let mut undone = big_win(at(Level::Medium));
        undone.undo_used = true;
        assert_eq!(settled(&undone, &mut players).title_earned, None);
        let p = players.black.as_ref().unwrap();
        assert_eq!(title(p, Variant::English), Some(Title::Expert));

        // 1,590 at Medium: Pro, once; a lower score later takes nothing away.
        let s = settled(&big_win(at(Level::Medium)), &mut players);
        assert_eq!((s.score, s.title_earned), (Some(1590), Some(Title::Pro)));
        assert_eq!(
            settled(&big_win(at(Level::Medium)), &mut players).title_earned,
            None
        );
        assert_eq!(
            settled(&quick_win(at(Level::Medium)), &mut players).title_earned,
            None
        );
        let p = players.black.as_ref().unwrap();
        assert_eq!(title(p, Variant::English), Some(Title::Pro));

        // Straight to Pro from nothing announces Pro alone.
        let mut fresh = ByColour::new(None, Some(PlayerRecord::new(7, "user7".into())));
        assert_eq!(
            settled(&big_win(at(Level::Medium)), &mut fresh).title_earned,
            Some(Title::Pro)
        );
    }
}
