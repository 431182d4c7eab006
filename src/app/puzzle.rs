//! `/puzzle`: a shot to solve, privately. The server's puzzle of the day (the same for
//! everyone in the server that day) or a random one; the solver moves with `/move` or the
//! menu, the bot plays the defence from the solution. Another move that wins as well (the
//! endgame tables, or the search that checks puzzles, say so) solves the puzzle too, and the
//! main line is shown; any other move is refused at once — the puzzle stays where it was, to
//! be tried again, but the attempt counts as failed. Each person's puzzle, rating and streak
//! live in the store's puzzle trees, apart from the channel's game.

use super::board::{describe_board, last_move_sentences, off_the_async_workers};
use super::i18n::{self, n, s, t, tr, u, Lang};
use super::ids::{Action, ComponentId};
use super::play::Recall;
use super::reply::{Menu, MenuOption, Picture, Reply};
use super::scoring::record_puzzle_attempt;
use super::{seat_of, storage_failed, Actor, Answer, App, Place};
use crate::ai::puzzles::{parse_set, wins_too, Puzzle, JUDGE_DEPTH};
use crate::engine::{legal_notations, Move, Position, Variant};
use crate::fl;
use crate::render::{self, BoardView, Caption};
use crate::store::{PuzzlePlayer, PuzzleSession};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming a folder whose puzzle files (`puzzles-spanish.txt`,
/// `puzzles-portuguese.txt`, `puzzles-english.txt`) replace the sets built into the binary.
/// Unset: the built-in sets.
pub const PUZZLES_ENV: &str = "DAMAS_PUZZLES";

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// Whether `/puzzle` gives the puzzle of the day or another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzlePick {
    Today,
    Random,
}

impl PuzzlePick {
    pub const ALL: [PuzzlePick; 2] = [PuzzlePick::Today, PuzzlePick::Random];

    pub const fn id(self) -> &'static str {
        match self {
            PuzzlePick::Today => "today",
            PuzzlePick::Random => "random",
        }
    }
}

/// The file of a variant's set. Portuguese has its own although it plays on Spanish's board
/// with Spanish's capture laws: its draw rules (and so its endgame tables) and its weights
/// differ, and under them some of Spanish's shots win nothing or have a second winning move.
pub fn set_file(variant: Variant) -> &'static str {
    match variant {
        Variant::Spanish => "puzzles-spanish.txt",
        Variant::Portuguese => "puzzles-portuguese.txt",
        Variant::English => "puzzles-english.txt",
    }
}

/// The text of the set built into the binary for `variant` (the repository's
/// `data/puzzles-*.txt` when it was built).
pub fn built_in_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Spanish => include_str!("../../data/puzzles-spanish.txt"),
        Variant::Portuguese => include_str!("../../data/puzzles-portuguese.txt"),
        Variant::English => include_str!("../../data/puzzles-english.txt"),
    }
}

/// Where a variant's puzzles came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleSource {
    /// The set built into the binary.
    BuiltIn,
    /// A file of the folder [`PUZZLES_ENV`] names.
    File(PathBuf),
}

/// A variant's puzzle set, loaded.
#[derive(Clone, Debug)]
pub struct LoadedSet {
    pub puzzles: Vec<Puzzle>,
    pub source: PuzzleSource,
    /// Why an override was not used (the built-in set was, instead): a file that cannot be
    /// read or holds a bad line, named, or a folder that is not there.
    pub problem: Option<String>,
}

/// Loads `variant`'s set: the file [`set_file`] in `dir` when `dir` is given and holds it,
/// else the built-in set. A file that cannot be read or parsed is not used: the built-in set
/// is, and [`LoadedSet::problem`] says why.
pub fn load_set(variant: Variant, dir: Option<&Path>) -> LoadedSet {
    let built_in = |problem: Option<String>| LoadedSet {
        // The built-in sets are checked by the tests: a failure here is a broken build.
        puzzles: parse_set(variant, built_in_text(variant)).unwrap_or_else(|e| {
            tracing::error!("the built-in {} puzzles: {e}", variant.id());
            Vec::new()
        }),
        source: PuzzleSource::BuiltIn,
        problem,
    };
    let Some(dir) = dir else {
        return built_in(None);
    };
    if !dir.is_dir() {
        return built_in(Some(format!(
            "{PUZZLES_ENV} names {}, which is not a folder",
            dir.display()
        )));
    }
    let path = dir.join(set_file(variant));
    if !path.exists() {
        return built_in(None);
    }
    let read = std::fs::read_to_string(&path).map_err(|e| e.to_string());
    match read.and_then(|text| parse_set(variant, &text).map_err(|e| e.to_string())) {
        Ok(puzzles) if puzzles.is_empty() => {
            built_in(Some(format!("{}: no puzzles in the file", path.display())))
        }
        Ok(puzzles) => LoadedSet {
            puzzles,
            source: PuzzleSource::File(path),
            problem: None,
        },
        Err(e) => built_in(Some(format!("{}: {e}", path.display()))),
    }
}

/// The puzzle set of a variant: the built-in one, or the file of `$DAMAS_PUZZLES` that
/// overrides it; loaded once. An override that cannot be used is logged as an error naming
/// the file, and the built-in set is used: `/puzzle` always has puzzles.
pub fn puzzle_set(variant: Variant) -> &'static [Puzzle] {
    static SETS: OnceLock<[Vec<Puzzle>; 3]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let dir = std::env::var_os(PUZZLES_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        Variant::ALL.map(|v| {
            let loaded = load_set(v, dir.as_deref());
            if let Some(problem) = &loaded.problem {
                tracing::error!(
                    "{} puzzles: {problem}; the built-in set is used instead",
                    v.id()
                );
            }
            if let PuzzleSource::File(path) = &loaded.source {
                tracing::info!(
                    "{} puzzles: {} from {}",
                    v.id(),
                    loaded.puzzles.len(),
                    path.display()
                );
            }
            loaded.puzzles
        })
    });
    let i = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0);
    &sets[i]
}

fn find_puzzle(variant: Variant, id: u32) -> Option<&'static Puzzle> {
    puzzle_set(variant).iter().find(|p| p.id == id)
}

/// A fixed scramble of 64 bits (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The index of the puzzle of day `day` (days since 1970, UTC) in a server, among `len`.
fn daily_index(guild_id: u64, day: u64, len: usize) -> usize {
    (mix(mix(day) ^ guild_id) % len.max(1) as u64) as usize
}

/// The puzzle of the day in a server (0 for direct messages) at time `now_ms`: the same for
/// everyone there all day (UTC), another the next day and in another server.
pub fn daily_puzzle(variant: Variant, guild_id: u64, now_ms: u64) -> Option<&'static Puzzle> {
    let set = puzzle_set(variant);
    (!set.is_empty()).then(|| &set[daily_index(guild_id, now_ms / DAY_MS, set.len())])
}

/// The position of a puzzle after `ply` moves of its line.
fn position_at(puzzle: &Puzzle, ply: usize) -> Position {
    puzzle.line[..ply.min(puzzle.line.len())]
        .iter()
        .fold(puzzle.position, |p, mv| p.apply(mv))
}

/// What became of a move tried in a puzzle.
#[derive(Clone, Debug, PartialEq)]
enum Attempt {
    /// The solution's move; the defence answered with the move given, if the line goes on.
    Right { defence: Option<Move> },
    /// The last move of the solution: solved (`counted` when no wrong move came first).
    Solved { counted: bool },
    /// Not the line's move but one that wins as well: solved too (`counted` as for
    /// [`Attempt::Solved`]), and the main line is shown.
    SolvedOther { counted: bool },
    /// Not the solution: refused; the puzzle stays as it was.
    Wrong,
}

impl App {
    /// `/puzzle [pick] [variant]`: starts the puzzle of the day, or a random one, privately.
    pub async fn puzzle(
        &self,
        actor: &Actor,
        place: Place,
        pick: PuzzlePick,
        variant: Option<Variant>,
    ) -> Answer {
        let lang = actor.lang();
        let variant = variant.unwrap_or_default();
        let guild = place.guild_id.unwrap_or(0);
        let now = self.now_ms();
        let Some(daily) = daily_puzzle(variant, guild, now) else {
            return Reply::private(t(lang, fl!("puzzle-none"))).into();
        };
        let puzzle = match pick {
            PuzzlePick::Today => daily,
            PuzzlePick::Random => {
                let set = puzzle_set(variant);
                let seed = self.settings.bot_seed.unwrap_or(now) ^ actor.user_id;
                let mut i = (mix(seed) % set.len() as u64) as usize;
                if set[i].id == daily.id && set.len() > 1 {
                    i = (i + 1) % set.len();
                }
                &set[i]
            }
        };
        let session = PuzzleSession {
            variant,
            puzzle_id: puzzle.id,
            ply: 0,
            missed: false,
            guild_id: guild,
        };
        let stored = self
            .store
            .update_puzzle_player(actor.user_id, &actor.name, 0, |mut p| {
                p.session = Some(session.clone());
                Ok::<_, ()>((p, ()))
            })
            .await;
        let player = match stored {
            Ok(Ok((p, ()))) => p,
            Ok(Err(())) => return Reply::failure(t(lang, fl!("err-storage"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let headline = tr(
            lang,
            match pick {
                PuzzlePick::Today => fl!("puzzle-daily"),
                PuzzlePick::Random => fl!("puzzle-random"),
            },
            &[
                ("id", n(puzzle.id)),
                ("difficulty", n(puzzle.difficulty)),
                ("side", s(i18n::color_name(lang, puzzle.solver()))),
                ("goal", s(goal(puzzle))),
            ],
        );
        let text = format!(
            "{headline}\n{}\n{}",
            t(lang, fl!("puzzle-how")),
            standing(lang, &player)
        );
        Answer::one(puzzle_reply(lang, variant, puzzle, 0, None, text))
    }

    /// `/move` for someone solving a puzzle who does not play in the channel's game: the
    /// move goes to their puzzle. `None` when the move is not for a puzzle; `true` beside it
    /// when that was decided on this process's memory (`recall`) of their puzzle record,
    /// which may be outdated: the caller tries again from the store whatever it then refuses.
    /// A puzzle is only ever played on the record as stored.
    pub(super) async fn puzzle_move_for(
        &self,
        actor: &Actor,
        place: Place,
        text: &str,
        recall: Recall,
    ) -> (Option<Answer>, bool) {
        let session_of = |player: Option<PuzzlePlayer>| {
            player
                .and_then(|p| p.session)
                // A session on a puzzle since retired from its set leaves /move to the channel.
                .filter(|s| find_puzzle(s.variant, s.puzzle_id).is_some())
        };
        let stored = || session_of(self.store.puzzle_player(actor.user_id).ok().flatten());
        let (session, remembered) = match recall {
            Recall::Stored => (stored(), false),
            Recall::Remembered => match self.store.puzzle_player_remembered(actor.user_id) {
                // Remembered as solving one, perhaps no longer: the store decides.
                Ok((player, true)) if session_of(player.clone()).is_some() => (stored(), false),
                Ok((player, remembered)) => (session_of(player), remembered),
                Err(_) => (None, false),
            },
        };
        let Some(session) = session else {
            return (None, remembered);
        };
        let plays_here = matches!(
            self.store.active_game(place.channel_id),
            Ok(Some(rec)) if seat_of(&rec, actor.user_id).is_some()
        );
        if plays_here {
            return (None, false);
        }
        (
            Some(self.puzzle_move(actor, session.ply, text).await),
            false,
        )
    }

    /// A move in the solver's puzzle, made at the puzzle's ply `shown_ply` (a menu of an
    /// earlier step is stale).
    pub async fn puzzle_move(&self, actor: &Actor, shown_ply: u32, text: &str) -> Answer {
        let lang = actor.lang();
        let player = match self.store.puzzle_player(actor.user_id) {
            Ok(p) => p,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let Some(session) = player.and_then(|p| p.session) else {
            return Reply::refusal(t(lang, fl!("puzzle-no-session"))).into();
        };
        if session.ply != shown_ply {
            return Reply::refusal(t(lang, fl!("err-stale"))).into();
        }
        let Some(puzzle) = find_puzzle(session.variant, session.puzzle_id) else {
            // Retired from its set by a recheck (ids are never reused): nothing to judge
            // against; a new /puzzle replaces the session.
            let text = tr(lang, fl!("puzzle-retired"), &[("id", n(session.puzzle_id))]);
            return Reply::refusal(text).into();
        };
        let ply = session.ply as usize;
        let before = position_at(puzzle, ply);
        let mv = match before.parse_move(text) {
            Ok(mv) => mv,
            Err(e) => {
                let legal: Vec<String> = legal_notations(&before)
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect();
                let text = format!(
                    "{}\n{}",
                    i18n::move_error_text(lang, &e),
                    tr(lang, fl!("legal-moves"), &[("moves", s(legal.join(", ")))])
                );
                return Reply::refusal(text).into();
            }
        };
        let played = before.move_notation(&mv);
        let rating = puzzle.rating();
        // Judged before the store is touched: another move than the line's needs a search.
        let attempt = off_the_async_workers(|| {
            judge(puzzle, &session, &mv, crate::ai::EndgameTables::global())
        });
        let expected = session.clone();
        let stored = self
            .store
            .update_puzzle_player(actor.user_id, &actor.name, session.guild_id, |mut p| {
                // The session may have changed since it was read (another click): act only
                // on the one the move was made in.
                let Some(now) = p.session.clone().filter(|s| *s == expected) else {
                    return Err(());
                };
                match &attempt {
                    Attempt::Wrong => {
                        if !now.missed {
                            record_puzzle_attempt(&mut p, rating, false);
                        }
                        p.session = Some(PuzzleSession {
                            missed: true,
                            ..now
                        });
                    }
                    Attempt::Right { defence } => {
                        let step = 1 + u32::from(defence.is_some());
                        p.session = Some(PuzzleSession {
                            ply: now.ply + step,
                            ..now
                        });
                    }
                    Attempt::Solved { counted } | Attempt::SolvedOther { counted } => {
                        if *counted {
                            record_puzzle_attempt(&mut p, rating, true);
                        }
                        p.session = None;
                    }
                }
                Ok((p, attempt.clone()))
            })
            .await;
        let (player, attempt) = match stored {
            Ok(Ok(x)) => x,
            Ok(Err(())) => return Reply::refusal(t(lang, fl!("err-stale"))).into(),
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let variant = session.variant;
        match attempt {
            Attempt::Wrong => {
                let text = format!(
                    "{}\n{}",
                    tr(lang, fl!("puzzle-wrong"), &[("move", s(&played))]),
                    standing(lang, &player)
                );
                Answer::one(puzzle_reply(lang, variant, puzzle, ply, None, text))
            }
            Attempt::Right { defence } => {
                let after = before.apply(&mv);
                let text = match defence {
                    Some(d) => tr(
                        lang,
                        fl!("puzzle-right"),
                        &[("move", s(&played)), ("reply", s(after.move_notation(&d)))],
                    ),
                    None => tr(lang, fl!("puzzle-right-go-on"), &[("move", s(&played))]),
                };
                let next = ply + 1 + usize::from(defence.is_some());
                Answer::one(puzzle_reply(lang, variant, puzzle, next, defence, text))
            }
            Attempt::Solved { counted } | Attempt::SolvedOther { counted } => {
                let other = matches!(attempt, Attempt::SolvedOther { .. });
                let id = match (other, counted) {
                    (false, true) => fl!("puzzle-solved"),
                    (false, false) => fl!("puzzle-solved-late"),
                    (true, true) => fl!("puzzle-solved-other"),
                    (true, false) => fl!("puzzle-solved-other-late"),
                };
                // The main line from where the solver left it.
                let main_line = puzzle.line_notation()[ply..].join(" ");
                let text = format!(
                    "{}\n{}",
                    tr(
                        lang,
                        id,
                        &[
                            ("move", s(&played)),
                            ("line", s(main_line)),
                            ("rating", n(player.rating.rating.round())),
                        ]
                    ),
                    standing(lang, &player)
                );
                let mut reply = puzzle_reply(lang, variant, puzzle, puzzle.line.len(), None, text);
                reply.menu = None;
                Answer::one(reply)
            }
        }
    }

    /// `/leaderboard puzzles`: this server's puzzle solvers by rating.
    pub fn puzzle_leaderboard(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let Some(guild) = place.guild_id else {
            return Reply::refusal(t(lang, fl!("err-guild-only"))).into();
        };
        let lines = match self.store.puzzle_leaderboard(guild, 10) {
            Ok(l) => l,
            Err(e) => return storage_failed(lang, &e).into(),
        };
        let title = t(lang, fl!("puzzle-leaderboard-title"));
        if lines.is_empty() {
            return Reply::public(t(lang, fl!("puzzle-leaderboard-empty")))
                .with_title(title)
                .into();
        }
        let text: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, (_, p))| {
                tr(
                    lang,
                    fl!("puzzle-leaderboard-line"),
                    &[
                        ("rank", n((i + 1) as f64)),
                        ("name", u(&p.name)),
                        ("rating", n(p.rating.rating.round())),
                        ("solved", n(p.solved)),
                        ("streak", n(p.best_streak)),
                    ],
                )
            })
            .collect();
        Reply::public(text.join("\n")).with_title(title).into()
    }
}

/// What a move does to a puzzle in `session`'s state. A move other than the line's that wins
/// all the same (the endgame tables, or the search that checks puzzles, say so) solves the
/// puzzle; the main line is then shown rather than played on from a position it never saw.
fn judge(
    puzzle: &Puzzle,
    session: &PuzzleSession,
    mv: &Move,
    tables: &crate::ai::EndgameTables,
) -> Attempt {
    let ply = session.ply as usize;
    if puzzle.line.get(ply) != Some(mv) {
        if wins_too(puzzle, ply, mv, JUDGE_DEPTH, tables) {
            return Attempt::SolvedOther {
                counted: !session.missed,
            };
        }
        return Attempt::Wrong;
    }
    if ply + 1 >= puzzle.line.len() {
        return Attempt::Solved {
            counted: !session.missed,
        };
    }
    Attempt::Right {
        defence: puzzle.line.get(ply + 1).copied(),
    }
}

/// "Puzzle rating 1523 · streak 3 (best 5)".
fn standing(lang: Lang, p: &PuzzlePlayer) -> String {
    tr(
        lang,
        fl!("puzzle-standing"),
        &[
            ("rating", n(p.rating.rating.round())),
            ("streak", n(p.streak)),
            ("best", n(p.best_streak)),
        ],
    )
}

/// A private message showing the puzzle after `ply` moves of its line, with a menu of the
/// solver's moves while it is unsolved; `last` marks the defence's move just played.
fn puzzle_reply(
    lang: Lang,
    variant: Variant,
    puzzle: &Puzzle,
    ply: usize,
    last: Option<Move>,
    text: String,
) -> Reply {
    let position = position_at(puzzle, ply);
    let solver = puzzle.solver();
    let title = tr(
        lang,
        fl!("puzzle-title"),
        &[
            ("id", n(puzzle.id)),
            ("variant", s(i18n::variant_name(lang, variant))),
        ],
    );
    let mut reply = Reply::private(text).with_title(title.clone());
    let unsolved = ply < puzzle.line.len();
    // Once solved, the task no longer stands over the board: it says so instead.
    let caption = if unsolved {
        tr(
            lang,
            fl!("puzzle-caption"),
            &[
                ("side", s(i18n::color_name(lang, solver))),
                ("goal", s(goal(puzzle))),
            ],
        )
    } else {
        t(lang, fl!("alt-puzzle-solved"))
    };
    let mut lines = vec![caption.clone()];
    if let Some(mv) = last {
        let before = position_at(puzzle, ply.saturating_sub(1));
        // `last` is the defence's answer.
        let defence = s(t(lang, fl!("puzzle-defence")));
        lines.extend(last_move_sentences(lang, &before, &mv, defence));
    }
    let description = describe_board(lang, &title, &lines, &position, unsolved, &[]);
    let view = BoardView {
        last_move: last,
        highlight_captures: unsolved,
        caption: Caption {
            title,
            players: caption,
            status: String::new(),
        },
        ..BoardView::new(&position, solver)
    };
    reply.image = render::render_png(&view)
        .map(|png| Picture { png, description })
        .map_err(|e| tracing::error!("render failed: {e}"))
        .ok();
    if ply < puzzle.line.len() && position.side_to_move() == solver {
        reply.menu = Some(puzzle_menu(lang, &position, ply as u64));
    }
    reply
}

/// What solving a puzzle wins, for its words: the game, or material.
fn goal(puzzle: &Puzzle) -> &'static str {
    if puzzle.wins_the_game() {
        "game"
    } else {
        "material"
    }
}

/// The solver's moves as a menu (puzzles are chosen with few enough moves for one menu).
fn puzzle_menu(lang: Lang, position: &Position, ply: u64) -> Menu {
    Menu {
        // Puzzle menus belong to their solver, not to a channel: the channel part is unused.
        id: ComponentId::new(Action::PuzzleMove, 0, ply).encode(),
        placeholder: t(lang, fl!("menu-move")),
        options: legal_notations(position)
            .into_iter()
            .map(|(_, text)| MenuOption {
                label: text.clone(),
                value: text,
                description: None,
            })
            .collect(),
        groups: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::EndgameTables;

    fn session(missed: bool) -> PuzzleSession {
        PuzzleSession {
            variant: Variant::Spanish,
            puzzle_id: 1,
            ply: 0,
            missed,
            guild_id: 0,
        }
    }

    /// Three kings against one, where the tables (built in memory for this ending) find three
    /// winning moves — 2-5, 7-16 and 11-14 — and draws for the rest.
    #[test]
    fn a_puzzle_with_two_winning_first_moves_accepts_both() {
        let position = Position::from_fen(Variant::Spanish, "W:WK2,K7,K11:BK27").unwrap();
        let mv = |text: &str| position.parse_move(text).unwrap();
        let puzzle = Puzzle {
            id: 1,
            position,
            line: vec![mv("2-5")],
            difficulty: 1,
        };
        // No table files: the ending is built in memory, as the bot does.
        let tables = EndgameTables::open(std::env::temp_dir().join("damas-no-tables-here"));
        let judged =
            |text: &str, missed: bool| judge(&puzzle, &session(missed), &mv(text), &tables);
        assert_eq!(judged("2-5", false), Attempt::Solved { counted: true });
        assert_eq!(
            judged("7-16", false),
            Attempt::SolvedOther { counted: true }
        );
        assert_eq!(
            judged("11-14", true),
            Attempt::SolvedOther { counted: false }
        );
        // A move that only draws is not a solution.
        assert_eq!(judged("2-6", false), Attempt::Wrong);
        assert_eq!(judged("11-15", false), Attempt::Wrong);
    }
}
