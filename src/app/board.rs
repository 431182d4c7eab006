//! The board message: picture, caption, whose turn, buttons and the move menu.

use super::i18n::{self, n, s, t, tr, Lang, Msg, Tense};
use super::ids::{Action, ComponentId};
use super::reply::{
    plain, BoardRef, Button, ButtonStyle, Menu, MenuGroups, MenuOption, Picture, Reply,
    PICTURE_DESCRIPTION_LIMIT,
};
use super::{bot_level, seat_arg, vs_bot};
use crate::engine::{legal_notations, Color, Explanation, Game, Move, Position, Square};
use crate::fl;
use crate::render::{self, BoardView, Caption};
use crate::store::{GameRecord, Seat};

/// A position with every capture drawn as an arrow (`/explain`), and the tense its words
/// speak in: the present for the position on the board, the past for a move already played.
#[derive(Clone, Copy, Debug)]
pub struct Explained<'a> {
    pub position: &'a Position,
    pub explanation: &'a Explanation,
    pub tense: Tense,
}

/// Which side the picture is drawn from: against the bot, the person's; between people, the
/// side to move (so each player sees the board from their own seat when it is their turn).
pub fn perspective(rec: &GameRecord, game: &Game) -> Color {
    if vs_bot(rec) {
        if bot_level(rec, Color::White).is_some() {
            Color::Black
        } else {
            Color::White
        }
    } else {
        game.side_to_move()
    }
}

/// "alice (White) vs bob (Black)"
pub fn players_line(lang: Lang, rec: &GameRecord) -> String {
    tr(
        lang,
        fl!("players-line"),
        &[
            ("white", seat_arg(lang, rec.seat(Color::White))),
            ("black", seat_arg(lang, rec.seat(Color::Black))),
        ],
    )
}

/// Whose turn and the move number, the no-progress count when 15 moves or fewer are left,
/// or the result.
pub fn status_line(lang: Lang, rec: &GameRecord, game: &Game) -> String {
    if let Some(o) = game.outcome() {
        return i18n::result_text(lang, Some(o));
    }
    let mut parts = vec![turn_text(lang, rec, game)];
    parts.extend(draw_counts(lang, game));
    parts.extend(draw_offer_text(lang, rec));
    parts.join(" · ")
}

/// "Move 12 · White to play (ana)".
fn turn_text(lang: Lang, rec: &GameRecord, game: &Game) -> String {
    let side = game.side_to_move();
    tr(
        lang,
        fl!("status-turn"),
        &[
            ("name", seat_arg(lang, rec.seat(side))),
            ("color", s(i18n::color_name(lang, side))),
            ("number", n(game.move_number() as f64)),
        ],
    )
}

/// The no-progress count shows once this many moves or fewer are left (docs/GAME-APP.md).
pub const NO_PROGRESS_SHOWN_FROM: u16 = 15;

/// Moves left before the no-progress draw, when few enough to show.
fn no_progress_shown(game: &Game) -> Option<u16> {
    let left = game.no_progress_moves_left();
    (left <= NO_PROGRESS_SHOWN_FROM).then_some(left)
}

/// The draw rules' counts worth showing (docs/GAME-APP.md): moves left before the no-progress draw
/// once 15 or fewer remain, and the Spanish three-kings count while it runs.
fn draw_counts(lang: Lang, game: &Game) -> Vec<String> {
    let mut counts = Vec::new();
    if let Some(left) = no_progress_shown(game) {
        counts.push(tr(lang, fl!("status-no-progress"), &[("left", n(left))]));
    }
    if let Some((_, left)) = game.three_kings_moves_left() {
        counts.push(tr(lang, fl!("status-three-kings"), &[("left", n(left))]));
    }
    counts
}

fn draw_offer_text(lang: Lang, rec: &GameRecord) -> Option<String> {
    rec.draw_offer.map(|c| {
        tr(
            lang,
            fl!("status-draw-offered"),
            &[("name", seat_arg(lang, rec.seat(c)))],
        )
    })
}

/// "Last move 11-15 (ana)": the move that led to the current position and who played it.
pub fn last_move_text(lang: Lang, rec: &GameRecord, game: &Game) -> Option<String> {
    let (before, mv) = game.last_move()?;
    Some(tr(
        lang,
        fl!("caption-last-move"),
        &[
            ("move", s(before.move_notation(mv))),
            ("name", seat_arg(lang, rec.seat(before.side_to_move()))),
        ],
    ))
}

/// The text drawn above the board. Its status is short, since the picture cuts what does not
/// fit its width (the message's text says it all in full): the last move first, then the
/// result, or the draw count that runs out first before whose turn it is (the players line
/// names who has which colour). An explanation's picture shows the position it explains, so
/// its caption names the law instead.
pub fn caption(
    lang: Lang,
    rec: &GameRecord,
    game: &Game,
    explained: Option<&Explained>,
) -> Caption {
    let status = match explained {
        Some(e) => i18n::law_text(lang, e.explanation, e.tense),
        None => {
            let mut parts: Vec<String> = last_move_text(lang, rec, game).into_iter().collect();
            match game.outcome() {
                Some(o) => parts.push(i18n::result_text(lang, Some(o))),
                None => {
                    parts.extend(caption_draw_count(lang, game));
                    parts.push(tr(
                        lang,
                        fl!("caption-turn"),
                        &[("color", s(i18n::color_name(lang, game.side_to_move())))],
                    ));
                    parts.extend(draw_offer_text(lang, rec));
                }
            }
            parts.join(" · ")
        }
    };
    caption_of(
        i18n::variant_title(lang, rec.variant),
        players_line(lang, rec),
        status,
    )
}

/// A picture's caption from a message's words: names drawn as typed (a picture has no
/// markup), without the marks that set them apart in messages.
pub(crate) fn caption_of(title: String, players: String, status: String) -> Caption {
    Caption {
        title: plain(&title).into_owned(),
        players: plain(&players).into_owned(),
        status: plain(&status).into_owned(),
    }
}

/// The draw count that will end the game first, in short, if one shows: the no-progress
/// count (once 15 moves or fewer are left) or the Spanish three-kings count.
fn caption_draw_count(lang: Lang, game: &Game) -> Option<String> {
    let no_progress = no_progress_shown(game);
    let three_kings = game
        .three_kings_moves_left()
        .map(|(_, left)| u16::from(left));
    match (no_progress, three_kings) {
        (Some(np), Some(tk)) if np < tk => Some((fl!("caption-no-progress"), np)),
        (_, Some(tk)) => Some((fl!("caption-three-kings"), tk)),
        (Some(np), None) => Some((fl!("caption-no-progress"), np)),
        (None, None) => None,
    }
    .map(|(id, left)| tr(lang, id, &[("left", n(left))]))
}

/// Renders the board of a game, with its description; `explained` draws arrows for every
/// capture of the position it explains, `reachable_from` marks where that piece can go.
pub fn picture(
    lang: Lang,
    rec: &GameRecord,
    game: &Game,
    explained: Option<Explained>,
    reachable_from: Option<Square>,
) -> Option<Picture> {
    let caption = caption(lang, rec, game, explained.as_ref());
    let (position, last_move) = match &explained {
        Some(e) => (e.position, None),
        None => (game.position(), game.moves().last().copied()),
    };
    let description = match &explained {
        Some(e) => explained_description(lang, rec, e),
        None => game_description(lang, rec, game, reachable_from),
    };
    let view = BoardView {
        position,
        perspective: perspective(rec, game),
        last_move,
        highlight_captures: explained.is_none() && !game.is_over(),
        reachable_from,
        explanation: explained.map(|e| e.explanation),
        caption,
    };
    match off_the_async_workers(|| render::render_png(&view)) {
        Ok(png) => Some(Picture { png, description }),
        Err(e) => {
            // A missing picture is worse than a missing move: keep going with text alone.
            tracing::error!("render failed: {e}");
            None
        }
    }
}

/// A game's board in words: the variant, the last move and who played it, whose turn (or the
/// result), every piece by square, the compulsory captures, and the squares a chosen piece
/// can reach when the picture marks them.
pub fn game_description(
    lang: Lang,
    rec: &GameRecord,
    game: &Game,
    reachable_from: Option<Square>,
) -> String {
    let notes: Vec<String> = reachable_from
        .and_then(|from| reach_sentence(lang, game.position(), from))
        .into_iter()
        .collect();
    describe_board(
        lang,
        &i18n::variant_title(lang, rec.variant),
        &game_lines(lang, rec, game),
        game.position(),
        !game.is_over(),
        &notes,
    )
}

/// A game's replay (an animation) in words: what it is, then its final position.
pub fn replay_description(lang: Lang, rec: &GameRecord, game: &Game) -> String {
    let mut lines = vec![t(lang, fl!("alt-replay"))];
    lines.extend(game_lines(lang, rec, game));
    describe_board(
        lang,
        &i18n::variant_title(lang, rec.variant),
        &lines,
        game.position(),
        false,
        &[],
    )
}

/// The last move and who played it, then whose turn it is or the result.
fn game_lines(lang: Lang, rec: &GameRecord, game: &Game) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some((before, mv)) = game.last_move() {
        let mover = before.side_to_move();
        lines.extend(last_move_sentences(
            lang,
            before,
            mv,
            seat_arg(lang, rec.seat(mover)),
        ));
    }
    match game.outcome() {
        Some(o) => lines.push(i18n::result_text(lang, Some(o))),
        None => lines.push(turn_sentence(lang, rec, game.position(), fl!("alt-turn"))),
    }
    lines
}

/// The last move in words, as the picture shows it: who played it, the pieces it took (the
/// picture leaves their squares empty) and a crowning. `name` is the mover's.
pub fn last_move_sentences(
    lang: Lang,
    before: &Position,
    mv: &Move,
    name: fluent_bundle::FluentValue<'static>,
) -> Vec<String> {
    let mover = before.side_to_move();
    let mut lines = vec![tr(
        lang,
        fl!("alt-last-move"),
        &[
            ("move", s(before.move_notation(mv))),
            ("color", s(i18n::color_name(lang, mover))),
            ("name", name),
        ],
    )];
    let crowned = before.crowns(mv);
    if mv.is_capture() {
        // In the order they were taken along the move's path.
        let taken: Vec<String> = captured_in_order(before, mv)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        lines.push(tr(
            lang,
            fl!("alt-last-move-takes"),
            &[
                ("count", n(taken.len() as f64)),
                ("squares", s(i18n::and_list(lang, &taken))),
                ("crowned", s(if crowned { "yes" } else { "no" })),
            ],
        ));
    } else if crowned {
        lines.push(t(lang, fl!("alt-last-move-crowns")));
    }
    lines
}

/// The squares a capture takes, in the order its path jumps them.
fn captured_in_order(before: &Position, mv: &Move) -> Vec<Square> {
    let captured = mv.captured();
    let mut out: Vec<Square> = Vec::new();
    let mut at = mv.from();
    for landing in mv.path() {
        // The captured square lies on the diagonal between two landings.
        let mut between: Vec<Square> = captured
            .squares()
            .filter(|&sq| !out.contains(&sq) && lies_between(before, at, landing, sq))
            .collect();
        between.sort_by_key(|sq| sq.number().abs_diff(at.number()));
        out.extend(between);
        at = landing;
    }
    // Whatever the walk missed (it should miss nothing), in square order.
    let mut rest: Vec<Square> = captured.squares().filter(|sq| !out.contains(sq)).collect();
    rest.sort_unstable_by_key(|sq| sq.number());
    out.extend(rest);
    out
}

/// Whether `sq` is on the diagonal strictly between `a` and `b`: on the drawn board, its
/// centre on the segment between theirs.
fn lies_between(position: &Position, a: Square, b: Square, sq: Square) -> bool {
    let centre = |s: Square| render::Layout::square_center(position.variant(), Color::White, s);
    let ((ax, ay), (bx, by), (x, y)) = (centre(a), centre(b), centre(sq));
    let cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    let along = (x - ax) * (bx - ax) + (y - ay) * (by - ay);
    let length = (bx - ax).powi(2) + (by - ay).powi(2);
    cross.abs() < 1.0 && along > 0.0 && along < length
}

/// An explanation's picture in words: the move explained, the law, the position explained,
/// and what each arrow (each capture) is, with the badge of the pieces it takes.
fn explained_description(lang: Lang, rec: &GameRecord, e: &Explained) -> String {
    // A move already played is explained on the board from before it: say so, since the
    // pieces listed are not where they stand now.
    let turn_id = match e.tense {
        Tense::Present => fl!("alt-turn"),
        Tense::Past => fl!("alt-turn-before"),
    };
    let mut lines: Vec<String> = e
        .explanation
        .asked
        .iter()
        .map(|asked| tr(lang, fl!("alt-explained-move"), &[("move", i18n::u(asked))]))
        .collect();
    lines.push(i18n::law_text(lang, e.explanation, e.tense));
    lines.push(turn_sentence(lang, rec, e.position, turn_id));
    let arrows: Vec<String> = e
        .explanation
        .captures
        .iter()
        .map(|c| {
            tr(
                lang,
                fl!("alt-arrow"),
                &[
                    ("move", s(&c.notation)),
                    ("pieces", n(c.pieces)),
                    ("kings", n(c.kings)),
                    ("status", s(i18n::capture_status(lang, c))),
                ],
            )
        })
        .collect();
    let notes: Vec<String> = (!arrows.is_empty())
        .then(|| {
            tr(
                lang,
                fl!("alt-arrows"),
                &[("captures", s(arrows.join(", ")))],
            )
        })
        .into_iter()
        .collect();
    describe_board(
        lang,
        &i18n::variant_title(lang, rec.variant),
        &lines,
        e.position,
        false,
        &notes,
    )
}

/// "White to play (ana)." (`alt-turn`), or the same of the position before a move.
fn turn_sentence(lang: Lang, rec: &GameRecord, position: &Position, id: Msg<'_>) -> String {
    let side = position.side_to_move();
    tr(
        lang,
        id,
        &[
            ("color", s(i18n::color_name(lang, side))),
            ("name", seat_arg(lang, rec.seat(side))),
        ],
    )
}

/// "The piece on square 11 can go to 15, 16."
fn reach_sentence(lang: Lang, position: &Position, from: Square) -> Option<String> {
    let mut targets: Vec<u8> = position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to().number())
        .collect();
    targets.sort_unstable();
    targets.dedup();
    (!targets.is_empty()).then(|| {
        let targets: Vec<String> = targets.iter().map(u8::to_string).collect();
        tr(
            lang,
            fl!("alt-reach"),
            &[
                ("from", s(from)),
                ("squares", s(i18n::or_list(lang, &targets))),
            ],
        )
    })
}

/// "White: men 9, 10, 11; kings 14." for each side, White first.
pub fn pieces_text(lang: Lang, position: &Position) -> String {
    [Color::White, Color::Black]
        .into_iter()
        .map(|c| {
            let numbers = |b: crate::engine::Bitboard| -> Vec<u8> {
                let mut v: Vec<u8> = b.squares().map(Square::number).collect();
                v.sort_unstable();
                v
            };
            let men = numbers(position.men(c));
            let kings = numbers(position.kings(c));
            tr(
                lang,
                fl!("alt-side"),
                &[
                    ("color", s(i18n::capitalized(&i18n::color_name(lang, c)))),
                    ("men", n(men.len() as f64)),
                    ("men_squares", s(i18n::number_ranges(lang, &men))),
                    ("kings", n(kings.len() as f64)),
                    ("king_squares", s(i18n::number_ranges(lang, &kings))),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A board picture in words, within [`PICTURE_DESCRIPTION_LIMIT`]: `title`, the `lines`
/// about the game (each a sentence), every piece, the captures the side to move must choose
/// from when `captures` (as many as fit, then how many more), and the `notes` on what is drawn
/// over the board.
pub fn describe_board(
    lang: Lang,
    title: &str,
    lines: &[String],
    position: &Position,
    captures: bool,
    notes: &[String],
) -> String {
    let mut head = vec![sentence(title)];
    head.extend(lines.iter().map(|l| sentence(l)));
    head.push(pieces_text(lang, position));
    let head = head.join(" ");
    let notes: Vec<String> = notes.iter().map(|l| sentence(l)).collect();
    let notes = notes.join(" ");
    let compulsory: Vec<String> = if captures && position.has_capture() {
        legal_notations(position)
            .into_iter()
            .map(|(_, text)| text)
            .collect()
    } else {
        Vec::new()
    };
    let assemble = |shown: usize| {
        let mut parts = vec![head.clone()];
        if !compulsory.is_empty() {
            // "26x19 o 27x18"; cut short, "26x19, 27x18 u otras 3".
            let moves = if shown < compulsory.len() {
                tr(
                    lang,
                    fl!("alt-more"),
                    &[
                        ("moves", s(compulsory[..shown].join(", "))),
                        ("count", n((compulsory.len() - shown) as f64)),
                    ],
                )
            } else {
                i18n::or_list(lang, &compulsory[..shown])
            };
            parts.push(tr(lang, fl!("alt-captures"), &[("moves", s(moves))]));
        }
        if !notes.is_empty() {
            parts.push(notes.clone());
        }
        parts.join(" ")
    };
    // Every capture if they fit; else as many as do, and how many more there are.
    let text = (1..=compulsory.len())
        .rev()
        .map(assemble)
        .find(|t| t.chars().count() <= PICTURE_DESCRIPTION_LIMIT)
        .unwrap_or_else(|| assemble(0));
    clipped(&text, PICTURE_DESCRIPTION_LIMIT)
}

/// A line as a sentence: with its final full stop.
fn sentence(line: &str) -> String {
    let line = line.trim_end();
    if line.ends_with(['.', '!', '?', '…']) {
        line.to_string()
    } else {
        format!("{line}.")
    }
}

/// At most `max` characters, the last an ellipsis when cut; cut between words (a word cut
/// in two reads as another word), unless a single word is longer than the room.
pub fn clipped(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    let next = text.chars().nth(kept.chars().count());
    let mut out = match kept.rfind(char::is_whitespace) {
        Some(space) if next.is_some_and(|c| !c.is_whitespace()) => kept[..space].to_string(),
        _ => kept,
    };
    let trimmed = out.trim_end().trim_end_matches([',', ';', ':']).len();
    out.truncate(trimmed);
    out.push('…');
    out
}

/// Runs CPU work (a picture takes a few milliseconds) so that it does not hold an async
/// worker: on a multi-thread runtime the worker hands its other tasks over first
/// (`block_in_place`); elsewhere (the console, tests on one thread) it just runs.
pub(crate) fn off_the_async_workers<T>(work: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

/// The full board message of a game: picture, text, and (while it goes on) its controls.
pub fn board_reply(lang: Lang, rec: &GameRecord, game: &Game, headline: Option<String>) -> Reply {
    let mut text = String::new();
    if let Some(h) = headline {
        text.push_str(&h);
        text.push('\n');
    }
    text.push_str(&players_line(lang, rec));
    text.push('\n');
    text.push_str(&status_line(lang, rec, game));
    let mut reply = Reply::public(text).with_title(i18n::variant_title(lang, rec.variant));
    reply.image = picture(lang, rec, game, None, None);
    reply.board_of = Some(BoardRef {
        channel_id: rec.channel_id,
        game_id: rec.id,
        ply: game.ply(),
        over: game.is_over(),
    });
    if !game.is_over() {
        reply.buttons = buttons(lang, rec, game);
        let side = game.side_to_move();
        if matches!(rec.seat(side), Seat::Human { .. }) {
            reply.menu = Some(move_menu(lang, rec.channel_id, game));
        }
    } else if let Some(rematch) = super::rematch::rematch_button(lang, rec) {
        reply.buttons = vec![rematch];
    }
    reply
}

/// A board shown after a move (or at the start) notifies the person to move, if a person
/// ([`super::Answer::for_actor`] drops it when that is who just acted).
pub fn notify_side_to_move(reply: &mut Reply, rec: &GameRecord, game: &Game) {
    if game.is_over() {
        return;
    }
    if let Seat::Human { user_id, .. } = rec.seat(game.side_to_move()) {
        reply.mention = vec![*user_id];
    }
}

fn id(action: Action, rec: &GameRecord, game: &Game) -> String {
    ComponentId::new(action, rec.channel_id, game.ply() as u64).encode()
}

fn buttons(lang: Lang, rec: &GameRecord, game: &Game) -> Vec<Button> {
    let mut b = Vec::new();
    if rec.draw_offer.is_some() && !vs_bot(rec) {
        b.push(Button {
            id: id(Action::DrawAccept, rec, game),
            label: t(lang, fl!("button-draw-accept")),
            style: ButtonStyle::Success,
        });
        b.push(Button {
            id: id(Action::DrawDecline, rec, game),
            label: t(lang, fl!("button-draw-decline")),
            style: ButtonStyle::Secondary,
        });
    } else {
        b.push(Button {
            id: id(Action::DrawOffer, rec, game),
            label: t(lang, fl!("button-draw")),
            style: ButtonStyle::Secondary,
        });
    }
    b.push(Button {
        id: id(Action::Explain, rec, game),
        label: t(lang, fl!("button-explain")),
        style: ButtonStyle::Primary,
    });
    if vs_bot(rec) && person_has_moved(rec, game) {
        b.push(Button {
            id: id(Action::Undo, rec, game),
            label: t(lang, fl!("button-undo")),
            style: ButtonStyle::Secondary,
        });
    }
    b.push(Button {
        id: id(Action::Resign, rec, game),
        label: t(lang, fl!("button-resign")),
        style: ButtonStyle::Danger,
    });
    b
}

/// Whether the person playing the bot has a move of their own to take back.
fn person_has_moved(rec: &GameRecord, game: &Game) -> bool {
    let first = game.start_position().side_to_move();
    let bot_moves_first = bot_level(rec, first).is_some();
    game.ply() > usize::from(bot_moves_first)
}

/// The legal moves as a menu, grouped by the piece that makes them: a front end that cannot
/// show them all offers the pieces first, and [`piece_menu`] answers that pick.
pub fn move_menu(lang: Lang, channel_id: u64, game: &Game) -> Menu {
    let moves = legal_notations(game.position());
    let ply = game.ply() as u64;
    let mut pieces: Vec<Square> = moves.iter().map(|(m, _)| m.from()).collect();
    pieces.sort_unstable();
    pieces.dedup();
    Menu {
        id: ComponentId::new(Action::Move, channel_id, ply).encode(),
        placeholder: t(lang, fl!("menu-move")),
        options: move_options(lang, &moves),
        groups: Some(MenuGroups {
            id: ComponentId::new(Action::Piece, channel_id, ply).encode(),
            placeholder: t(lang, fl!("menu-piece")),
            groups: pieces
                .iter()
                .map(|sq| {
                    let count = moves.iter().filter(|(m, _)| m.from() == *sq).count();
                    MenuOption {
                        label: sq.to_string(),
                        value: sq.to_string(),
                        description: Some(tr(
                            lang,
                            fl!("menu-piece-moves"),
                            &[("count", n(count as f64))],
                        )),
                    }
                })
                .collect(),
        }),
    }
}

/// The second step: the moves of the piece on `from`.
pub fn piece_menu(lang: Lang, channel_id: u64, game: &Game, from: Square) -> Option<Menu> {
    let moves: Vec<(Move, String)> = legal_notations(game.position())
        .into_iter()
        .filter(|(m, _)| m.from() == from)
        .collect();
    if moves.is_empty() {
        return None;
    }
    Some(Menu {
        id: ComponentId::new(Action::Move, channel_id, game.ply() as u64).encode(),
        placeholder: t(lang, fl!("menu-move")),
        options: move_options(lang, &moves),
        groups: None,
    })
}

fn move_options(lang: Lang, moves: &[(Move, String)]) -> Vec<MenuOption> {
    moves
        .iter()
        .map(|(m, text)| MenuOption {
            label: text.clone(),
            value: text.clone(),
            description: capture_description(lang, m),
        })
        .collect()
}

fn capture_description(lang: Lang, m: &Move) -> Option<String> {
    m.is_capture().then(|| {
        tr(
            lang,
            fl!("menu-captures"),
            &[
                ("pieces", n(m.capture_count())),
                ("kings", n(m.king_capture_count())),
            ],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Position, Variant};

    fn between_people(variant: Variant) -> GameRecord {
        let person = |user_id: u64, name: &str| Seat::Human {
            user_id,
            name: name.into(),
        };
        GameRecord::new(
            1,
            Some(2),
            3,
            variant,
            [person(1, "ana"), person(2, "bob")].into(),
            0,
        )
    }

    /// Plays `plies` moves that leave every draw count but repetition running: no capture, no
    /// man move, no position seen before, none that hands the opponent a capture.
    fn quiet_walk(game: &mut Game, plies: usize) -> bool {
        if plies == 0 {
            return true;
        }
        let moves: Vec<Move> = game.position().legal_moves().into_iter().collect();
        for mv in moves {
            let next = game.position().apply(&mv);
            if mv.is_capture()
                || game.position().moves_man(&mv)
                || next.has_capture()
                || game.positions().contains(&next)
            {
                continue;
            }
            game.play(mv).unwrap();
            if game.outcome().is_none() && quiet_walk(game, plies - 1) {
                return true;
            }
            game.undo().unwrap();
        }
        false
    }

    /// "Last move 11-15 (ana)", in `lang`.
    fn expected_last_move(lang: Lang, game: &Game) -> String {
        let (before, _) = game.last_move().expect("a move was played");
        let mover = match before.side_to_move() {
            Color::White => "ana",
            Color::Black => "bob",
        };
        let played = game.notations().pop().unwrap();
        match lang {
            Lang::En => format!("Last move {played} ({mover})"),
            Lang::Es => format!("Última jugada {played} ({mover})"),
        }
    }

    const KINGS_ONLY: &str = "W:WK1,K2,K3,K4:BK29,K30,K31,K32";

    /// The caption names the last move first, and the no-progress count appears exactly when
    /// 15 moves or fewer are left, in both languages; the message's status line says it in full.
    fn caption_counts_down_to_the_no_progress_draw(variant: Variant) {
        let rec = between_people(variant);
        let start = Position::from_fen(variant, KINGS_ONLY).unwrap();
        let mut game = Game::from_position(start);
        let first = caption(Lang::En, &rec, &game, None).status;
        assert_eq!(first, "White to play", "{variant}: no move yet");

        // 15 moves (30 plies) left; an even number of plies played, so White is to play.
        let plies = usize::from(variant.no_progress_limit()) - 30;
        assert!(quiet_walk(&mut game, plies), "{variant}: no quiet walk");
        assert_eq!(game.no_progress_moves_left(), 15);
        assert_eq!(
            caption(Lang::En, &rec, &game, None).status,
            format!(
                "{} · draw in 15 moves · White to play",
                expected_last_move(Lang::En, &game)
            ),
            "{variant}"
        );
        assert_eq!(
            caption(Lang::Es, &rec, &game, None).status,
            format!(
                "{} · tablas en 15 jugadas · juegan las blancas",
                expected_last_move(Lang::Es, &game)
            ),
            "{variant}"
        );
        let full = status_line(Lang::En, &rec, &game);
        assert!(
            full.contains(" · 15 moves left before the no-progress draw"),
            "{variant}: {full}"
        );
        let full = status_line(Lang::Es, &rec, &game);
        assert!(
            full.contains(" · quedan 15 jugadas para las tablas por falta de progreso"),
            "{variant}: {full}"
        );

        // Two plies earlier, 16 moves were left: no count yet.
        game.undo().unwrap();
        game.undo().unwrap();
        assert_eq!(game.no_progress_moves_left(), 16);
        assert_eq!(
            caption(Lang::En, &rec, &game, None).status,
            format!("{} · White to play", expected_last_move(Lang::En, &game)),
            "{variant}"
        );
        assert!(!status_line(Lang::En, &rec, &game).contains("no-progress"));
    }

    #[test]
    fn spanish_caption_names_the_last_move_and_the_no_progress_count() {
        caption_counts_down_to_the_no_progress_draw(Variant::Spanish);
    }

    #[test]
    fn portuguese_caption_names_the_last_move_and_the_no_progress_count() {
        caption_counts_down_to_the_no_progress_draw(Variant::Portuguese);
    }

    #[test]
    fn english_caption_names_the_last_move_and_the_no_progress_count() {
        caption_counts_down_to_the_no_progress_draw(Variant::English);
    }

    #[test]
    fn spanish_caption_counts_the_three_kings_limit() {
        let rec = between_people(Variant::Spanish);
        // Three kings, one on the long diagonal, against one: the count starts at once.
        let start = Position::from_fen(Variant::Spanish, "W:WK1,K2,K3:BK32").unwrap();
        let mut game = Game::from_position(start);
        assert!(quiet_walk(&mut game, 1));
        assert_eq!(game.three_kings_moves_left(), Some((Color::White, 12)));
        assert_eq!(
            caption(Lang::En, &rec, &game, None).status,
            format!(
                "{} · 3 kings: 12 moves to win · Black to play",
                expected_last_move(Lang::En, &game)
            )
        );
        assert_eq!(
            caption(Lang::Es, &rec, &game, None).status,
            format!(
                "{} · 3 damas: 12 jugadas para ganar · juegan las negras",
                expected_last_move(Lang::Es, &game)
            )
        );
        let full = status_line(Lang::Es, &rec, &game);
        assert!(
            full.contains(" · tres damas contra una: quedan 12 jugadas para ganar"),
            "{full}"
        );

        // English has no such limit: the same material shows no count.
        let english = between_people(Variant::English);
        let mut game =
            Game::from_position(Position::from_fen(Variant::English, "W:WK1,K2,K3:BK32").unwrap());
        assert!(quiet_walk(&mut game, 1));
        let en = caption(Lang::En, &english, &game, None).status;
        assert_eq!(
            en,
            format!("{} · Black to play", expected_last_move(Lang::En, &game))
        );
    }

    #[test]
    fn a_finished_game_caption_names_the_last_move_and_the_result() {
        let rec = between_people(Variant::English);
        let start = Position::from_fen(Variant::English, "B:W22:B14,18").unwrap();
        let mut game = Game::from_position(start);
        game.play_text("18x25").unwrap();
        let en = caption(Lang::En, &rec, &game, None).status;
        assert_eq!(
            en,
            format!(
                "{} · {}",
                expected_last_move(Lang::En, &game),
                i18n::result_text(Lang::En, game.outcome())
            )
        );
        assert!(en.starts_with("Last move 18x25 (bob)"), "{en}");
    }

    /// The side lists of a description read back: (men, kings) of "White: men 1 to 4, 9,
    /// 10; king 14.", its ranges spelled out.
    fn listed(text: &str, label: &str) -> (Vec<u8>, Vec<u8>) {
        let side = text
            .split(&format!("{label}: "))
            .nth(1)
            .and_then(|t| t.split('.').next())
            .unwrap_or_else(|| panic!("no {label} in {text}"));
        let (mut men, mut kings) = (vec![], vec![]);
        for part in side.split(';') {
            let mut numbers: Vec<u8> = Vec::new();
            for item in part.split(',') {
                let ends: Vec<u8> = item
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .collect();
                match ends[..] {
                    [first, last] if item.contains(" to ") => numbers.extend(first..=last),
                    _ => numbers.extend(ends),
                }
            }
            match part.split_whitespace().next() {
                Some("man" | "men") => men = numbers,
                Some("king" | "kings") => kings = numbers,
                _ => assert!(numbers.is_empty(), "{part}"),
            }
        }
        (men, kings)
    }

    fn squares(b: crate::engine::Bitboard) -> Vec<u8> {
        let mut v: Vec<u8> = b.squares().map(Square::number).collect();
        v.sort_unstable();
        v
    }

    /// Random games in every variant: the description names every piece where it stands,
    /// whose turn it is or the result, and the compulsory captures, within the limit.
    #[test]
    fn a_board_description_names_every_piece_within_the_limit() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(22);
        for variant in Variant::ALL {
            let rec = between_people(variant);
            for _ in 0..40 {
                let mut game = Game::from_position(Position::start(variant));
                let plies = rng.gen_range(0..120);
                for _ in 0..plies {
                    let moves = game.position().legal_moves();
                    if moves.is_empty() || game.is_over() {
                        break;
                    }
                    game.play(moves[rng.gen_range(0..moves.len())]).unwrap();
                }
                let text = game_description(Lang::En, &rec, &game, None);
                assert!(text.chars().count() <= PICTURE_DESCRIPTION_LIMIT, "{text}");
                let pos = game.position();
                for (label, c) in [("White", Color::White), ("Black", Color::Black)] {
                    assert_eq!(
                        listed(&text, label),
                        (squares(pos.men(c)), squares(pos.kings(c))),
                        "{text}"
                    );
                }
                match game.outcome() {
                    Some(o) => assert!(text.contains(&i18n::result_text(Lang::En, Some(o)))),
                    None => {
                        let side = i18n::color_name(Lang::En, game.side_to_move());
                        assert!(text.contains(&format!("{side} to play (")), "{text}");
                    }
                }
                let compulsory = !game.is_over() && pos.has_capture();
                assert_eq!(
                    text.contains("Capturing is mandatory: "),
                    compulsory,
                    "{text}"
                );
                if compulsory {
                    for (_, m) in legal_notations(pos) {
                        assert!(text.contains(&m), "{m} in {text}");
                    }
                }
                let es = game_description(Lang::Es, &rec, &game, None);
                assert!(es.starts_with(&format!("{}.", i18n::variant_title(Lang::Es, variant))));
                assert!(es.contains("Blancas: ") && es.contains("Negras: "), "{es}");
            }
        }
    }

    /// An explanation of a move already played shows the board from before it, and its words
    /// say so; one about the board now speaks of it in the present.
    #[test]
    fn an_explained_picture_says_which_position_it_shows() {
        use crate::engine::explain;
        let rec = between_people(Variant::Spanish);
        let mut game = Game::from_position(Position::start(Variant::Spanish));
        for m in ["11-15", "23-19"] {
            let mv = game.position().parse_move(m).unwrap();
            game.play(mv).unwrap();
        }
        let position = *game.position();
        let exp = explain(&position, None);
        let words = |tense| {
            let e = Explained {
                position: &position,
                explanation: &exp,
                tense,
            };
            explained_description(Lang::En, &rec, &e)
        };
        let past = words(Tense::Past);
        assert!(
            past.contains("The position before the move, with White to play"),
            "{past}"
        );
        let present = words(Tense::Present);
        assert!(present.contains(" White to play ("), "{present}");
        assert!(!present.contains("before the move"), "{present}");
        assert_eq!(
            present.contains("Arrows for the captures: "),
            !exp.captures.is_empty(),
            "{present}"
        );
    }

    /// The last move in words says what the picture shows of it: the pieces it took, in the
    /// order taken, and the crowning.
    #[test]
    fn the_last_move_says_what_it_took_and_a_crowning() {
        let rec = between_people(Variant::Spanish);
        // Black's man on 18 takes 14 and 6 and lands on the crowning row.
        let start = Position::from_fen(Variant::Spanish, "B:W6,14,20:B18").unwrap();
        let mut game = Game::from_position(start);
        game.play_text("18x2").unwrap();
        let es = plain(&game_description(Lang::Es, &rec, &game, None)).into_owned();
        assert!(
            es.contains("Última jugada: 18x2, de las negras (bob). Come las piezas de las casillas 14 y 6 y el peón corona."),
            "{es}"
        );
        let en = game_description(Lang::En, &rec, &game, None);
        assert!(
            en.contains("It takes the pieces on squares 14 and 6, and the man is crowned."),
            "{en}"
        );
        // A plain move that crowns, and one that does neither.
        let mut game =
            Game::from_position(Position::from_fen(Variant::Spanish, "B:W21:B5,28").unwrap());
        game.play_text("5-1").unwrap();
        let en = game_description(Lang::En, &rec, &game, None);
        assert!(en.contains("The man is crowned."), "{en}");
        game.play_text("21-25").unwrap();
        let en = game_description(Lang::En, &rec, &game, None);
        assert!(!en.contains("crowned") && !en.contains("takes"), "{en}");
    }

    /// An explanation's picture names the move explained and each arrow's badge (the pieces
    /// it takes); the captures the side to move must choose from read as alternatives.
    #[test]
    fn an_explained_picture_names_the_move_and_each_badge() {
        use crate::engine::{explain, Attempt};
        let rec = between_people(Variant::Spanish);
        let position = Position::from_fen(Variant::Spanish, "W:W14:B18,19,27").unwrap();
        let exp = explain(&position, Some(Attempt::Text("14x23")));
        let e = Explained {
            position: &position,
            explanation: &exp,
            tense: Tense::Present,
        };
        let es = plain(&explained_description(Lang::Es, &rec, &e)).into_owned();
        assert!(es.contains("La jugada explicada: 14x23."), "{es}");
        assert!(
            es.contains("(una pieza; descartada por la ley de la cantidad)"),
            "{es}"
        );
        assert!(es.contains("(dos piezas; válida)"), "{es}");
        // The side to move must capture: "hay que comer", the moves with "o".
        let pos = Position::from_fen(Variant::Spanish, "W:W14,15:B18,19").unwrap();
        let text = describe_board(Lang::Es, "Damas españolas", &[], &pos, true, &[]);
        let moves: Vec<String> = legal_notations(&pos).into_iter().map(|(_, m)| m).collect();
        assert!(moves.len() >= 2, "{moves:?}");
        assert!(
            text.contains(&format!(
                "Hay que comer: {}.",
                i18n::or_list(Lang::Es, &moves)
            )),
            "{text}"
        );
    }

    /// A description cut to its limit is cut between words.
    #[test]
    fn a_clipped_text_ends_on_a_whole_word() {
        let text = "Ganan las blancas por abandono del rival.";
        for max in 5..text.chars().count() {
            let cut = clipped(text, max);
            assert!(cut.chars().count() <= max, "{cut}");
            let kept = cut.trim_end_matches('…');
            assert!(
                text[kept.len()..].starts_with(' ') || kept.is_empty() || max < 7,
                "{max}: {cut}"
            );
        }
        assert_eq!(clipped(text, 100), text);
    }

    /// When the words do not fit, the list of captures is cut and says how many are left out;
    /// the pieces are always all there.
    #[test]
    fn a_long_description_cuts_the_captures_and_counts_the_rest() {
        // A flying king with many landing squares, each a capture of its own.
        let pos = Position::from_fen(Variant::Spanish, "W:WK1:B10").unwrap();
        let captures = legal_notations(&pos).len();
        assert!(captures >= 4, "{captures}");
        // A line long enough to leave room for some of the captures, not all.
        let base = describe_board(Lang::En, "Spanish draughts", &[], &pos, false, &[]);
        let long = "x".repeat(PICTURE_DESCRIPTION_LIMIT - base.chars().count() - 45);
        let text = describe_board(Lang::En, "Spanish draughts", &[long], &pos, true, &[]);
        assert!(text.chars().count() <= PICTURE_DESCRIPTION_LIMIT, "{text}");
        assert!(text.contains(" others."), "{text}");
        assert_eq!(listed(&text, "White").1, vec![1], "{text}");
        assert!(
            !text.ends_with('…'),
            "cut by the captures, not clipped: {text}"
        );
    }
}
