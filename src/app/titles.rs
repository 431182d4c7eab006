//! Titles against the bot (docs/GAME-APP.md) in words: their names, the line `/stats` shows and the
//! announcement at the end of the game that earns one. Which title a player holds is decided
//! by [`crate::app::scoring::title`] alone.

use super::i18n::{self, n, s, t, tr, u, Lang};
use super::reply::UserText;
use super::seat_arg;
use crate::app::scoring::{Title, TITLE_LEVEL};
use crate::engine::{Color, Variant};
use crate::fl;
use crate::store::{FinishSummary, GameRecord};

/// "Expert", "Pro".
pub fn title_name(lang: Lang, title: Title) -> String {
    t(lang, &format!("player-title-{}", title.id()))
}

/// The level titles are earned at, in words.
fn title_level_name(lang: Lang) -> String {
    t(lang, &format!("level-{TITLE_LEVEL}"))
}

/// `/stats`: "English draughts: Pro (best score 1,590 against the bot at medium)".
pub fn stats_line(lang: Lang, variant: Variant, title: Title, best: u32) -> String {
    tr(
        lang,
        fl!("stats-player-title"),
        &[
            ("variant", s(i18n::variant_title(lang, variant))),
            ("title", s(title_name(lang, title))),
            ("best", n(best)),
            ("level", s(title_level_name(lang))),
        ],
    )
}

/// A leaderboard name with the title its player holds in the board's variant.
pub fn titled_name(lang: Lang, name: &str, title: Option<Title>) -> String {
    match title {
        Some(title) => tr(
            lang,
            fl!("name-with-player-title"),
            &[("name", u(name)), ("title", s(title_name(lang, title)))],
        ),
        None => UserText(name).to_string(),
    }
}

/// The announcement of the titles a finished game earned (only the game whose score first
/// crosses a threshold earns one), one line per player; `None` when it earned none.
pub fn earned_lines(lang: Lang, rec: &GameRecord, finished: &FinishSummary) -> Option<String> {
    let lines: Vec<String> = [Color::White, Color::Black]
        .into_iter()
        .zip(&finished.seats)
        .filter_map(|(color, seat)| {
            let seat_summary = seat.as_ref()?;
            let title = seat_summary.title_earned?;
            Some(tr(
                lang,
                fl!("player-title-earned"),
                &[
                    ("name", seat_arg(lang, rec.seat(color))),
                    ("title", s(title_name(lang, title))),
                    ("variant", s(i18n::variant_title(lang, rec.variant))),
                    ("score", n(seat_summary.score.unwrap_or(0))),
                    ("level", s(title_level_name(lang))),
                ],
            ))
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}
