//! The board message: picture, caption, whose turn, buttons and the move menu.

use super::i18n::{self, n, s, t, tr, Lang};
use super::ids::{Action, ComponentId};
use super::reply::{BoardRef, Button, ButtonStyle, Menu, MenuOption, Reply};
use super::{bot_level, seat_name, vs_bot};
use crate::engine::{legal_notations, Color, Explanation, Game, Move, Square};
use crate::render::{self, BoardView, Caption};
use crate::store::{GameRecord, Seat};

/// Discord's limit of options in one select menu.
pub const MENU_LIMIT: usize = 25;

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
        "players-line",
        &[
            ("white", s(seat_name(lang, rec.seat(Color::White)))),
            ("black", s(seat_name(lang, rec.seat(Color::Black)))),
        ],
    )
}

/// Whose turn and the move number, the no-progress count when 15 moves or fewer are left,
/// or the result.
pub fn status_line(lang: Lang, rec: &GameRecord, game: &Game) -> String {
    if let Some(o) = game.outcome() {
        return i18n::result_text(lang, Some(o));
    }
    let side = game.side_to_move();
    let mut line = tr(
        lang,
        "status-turn",
        &[
            ("name", s(seat_name(lang, rec.seat(side)))),
            ("color", s(i18n::color_name(lang, side))),
            ("number", n(game.move_number() as f64)),
        ],
    );
    let left = game.no_progress_moves_left();
    if left <= 15 {
        line.push_str(" · ");
        line.push_str(&tr(lang, "status-no-progress", &[("left", n(left))]));
    }
    if let Some((_, left)) = game.three_kings_moves_left() {
        line.push_str(" · ");
        line.push_str(&tr(lang, "status-three-kings", &[("left", n(left))]));
    }
    if let Some(c) = rec.draw_offer {
        line.push_str(" · ");
        line.push_str(&tr(
            lang,
            "status-draw-offered",
            &[("name", s(seat_name(lang, rec.seat(c))))],
        ));
    }
    line
}

/// Renders the board of a game; `explanation` draws arrows for every capture.
pub fn picture(
    lang: Lang,
    rec: &GameRecord,
    game: &Game,
    explanation: Option<(&crate::engine::Position, &Explanation)>,
    reachable_from: Option<Square>,
) -> Option<Vec<u8>> {
    // An explanation's picture shows an earlier position: its caption names the law, not
    // whose turn it is now.
    let status = match explanation {
        Some((_, exp)) => i18n::law_text(lang, exp),
        None => status_line(lang, rec, game),
    };
    let caption = Caption {
        title: i18n::variant_title(lang, rec.variant),
        players: players_line(lang, rec),
        status,
    };
    let (position, last_move) = match explanation {
        Some((p, _)) => (p, None),
        None => (game.position(), game.moves().last().copied()),
    };
    let view = BoardView {
        position,
        perspective: perspective(rec, game),
        last_move,
        highlight_captures: explanation.is_none() && !game.is_over(),
        reachable_from,
        explanation: explanation.map(|(_, e)| e),
        caption,
    };
    match off_the_async_workers(|| render::render_png(&view)) {
        Ok(png) => Some(png),
        Err(e) => {
            // A missing picture is worse than a missing move: keep going with text alone.
            tracing::error!("render failed: {e}");
            None
        }
    }
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
        reply.mention = Some(*user_id);
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
            label: t(lang, "button-draw-accept"),
            style: ButtonStyle::Success,
        });
        b.push(Button {
            id: id(Action::DrawDecline, rec, game),
            label: t(lang, "button-draw-decline"),
            style: ButtonStyle::Secondary,
        });
    } else {
        b.push(Button {
            id: id(Action::DrawOffer, rec, game),
            label: t(lang, "button-draw"),
            style: ButtonStyle::Secondary,
        });
    }
    b.push(Button {
        id: id(Action::Explain, rec, game),
        label: t(lang, "button-explain"),
        style: ButtonStyle::Primary,
    });
    if vs_bot(rec) && person_has_moved(rec, game) {
        b.push(Button {
            id: id(Action::Undo, rec, game),
            label: t(lang, "button-undo"),
            style: ButtonStyle::Secondary,
        });
    }
    b.push(Button {
        id: id(Action::Resign, rec, game),
        label: t(lang, "button-resign"),
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

/// The legal moves as a menu; with more than 25, a menu of the pieces that can move (the
/// second step, that piece's moves, comes from [`piece_menu`]).
pub fn move_menu(lang: Lang, channel_id: u64, game: &Game) -> Menu {
    let moves = legal_notations(game.position());
    let ply = game.ply() as u64;
    if moves.len() <= MENU_LIMIT {
        return Menu {
            id: ComponentId::new(Action::Move, channel_id, ply).encode(),
            placeholder: t(lang, "menu-move"),
            options: moves
                .iter()
                .map(|(m, text)| MenuOption {
                    label: text.clone(),
                    value: text.clone(),
                    description: capture_description(lang, m),
                })
                .collect(),
        };
    }
    let mut pieces: Vec<Square> = moves.iter().map(|(m, _)| m.from()).collect();
    pieces.dedup();
    Menu {
        id: ComponentId::new(Action::Piece, channel_id, ply).encode(),
        placeholder: t(lang, "menu-piece"),
        options: pieces
            .iter()
            .take(MENU_LIMIT)
            .map(|sq| {
                let count = moves.iter().filter(|(m, _)| m.from() == *sq).count();
                MenuOption {
                    label: sq.to_string(),
                    value: sq.to_string(),
                    description: Some(tr(lang, "menu-piece-moves", &[("count", n(count as f64))])),
                }
            })
            .collect(),
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
        placeholder: t(lang, "menu-move"),
        options: moves
            .iter()
            .take(MENU_LIMIT)
            .map(|(m, text)| MenuOption {
                label: text.clone(),
                value: text.clone(),
                description: capture_description(lang, m),
            })
            .collect(),
    })
}

fn capture_description(lang: Lang, m: &Move) -> Option<String> {
    m.is_capture().then(|| {
        tr(
            lang,
            "menu-captures",
            &[
                ("pieces", n(m.capture_count())),
                ("kings", n(m.king_capture_count())),
            ],
        )
    })
}
