//! User-facing text in Spanish and English, from Fluent files (`es.ftl`, `en.ftl`).
//!
//! The engine returns data; everything a person reads is worded here.

use crate::ai::{format_men, read_eval, EndgameVerdict, EvalReading};
use crate::engine::{
    CaptureOption, Color, DrawReason, Explanation, GameError, IllegalMove, Law, Move, MoveError,
    NotationError, Outcome, PdnError, PdnRefusal, PdnResult, Variant, Verdict, WinReason,
};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/fluent_ids.rs"));

/// Whether the Fluent files define a message `id` (both files do, or the build stops).
/// A `const fn`, so that ids can be checked while compiling: see [`fl!`].
pub const fn has(id: &str) -> bool {
    has_joined(&[id])
}

/// Whether the Fluent files define the message whose id is `parts` joined (`["choice-",
/// "level", "-", "easy"]`), for ids built from names and checked while compiling.
pub const fn has_joined(parts: &[&str]) -> bool {
    let mut i = 0;
    while i < MESSAGE_IDS.len() {
        if joined_equals(parts, MESSAGE_IDS[i].as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

const fn joined_equals(parts: &[&str], id: &[u8]) -> bool {
    let mut at = 0;
    let mut p = 0;
    while p < parts.len() {
        let part = parts[p].as_bytes();
        let mut k = 0;
        while k < part.len() {
            if at >= id.len() || id[at] != part[k] {
                return false;
            }
            at += 1;
            k += 1;
        }
        p += 1;
    }
    at == id.len()
}

/// A message of the Fluent files, as [`t`] and [`tr`] take it: made by [`fl!`] from an id
/// written in the code, checked while compiling, or from a `String` built of a name at run
/// time (`format!("level-{}", level.id())`), ids the tests enumerate (tests/app/i18n.rs). A
/// string literal is not a message: a typo cannot reach a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg<'a>(&'a str);

impl<'a> Msg<'a> {
    /// An id written in the code; use [`fl!`], which checks it while compiling.
    #[doc(hidden)]
    pub const fn checked(id: &'static str) -> Msg<'static> {
        assert!(has(id), "no such message in src/app/i18n/*.ftl");
        Msg(id)
    }

    pub fn id(self) -> &'a str {
        self.0
    }
}

/// An id built at run time from a name.
impl<'a> From<&'a String> for Msg<'a> {
    fn from(id: &'a String) -> Msg<'a> {
        Msg(id)
    }
}

/// A message of the Fluent files by its id, checked while compiling: `t(lang,
/// fl!("help-footer"))`. A typo, or a message missing from the files, stops the build at the
/// line that asks for it.
#[macro_export]
macro_rules! fl {
    ($id:expr) => {{
        const MSG: $crate::app::i18n::Msg<'static> = $crate::app::i18n::Msg::checked($id);
        MSG
    }};
}
pub use crate::fl;

pub use crate::lang::Lang;

const ES: &str = include_str!("es.ftl");
const EN: &str = include_str!("en.ftl");

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static ES_B: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    static EN_B: OnceLock<FluentBundle<FluentResource>> = OnceLock::new();
    let (cell, src, id) = match lang {
        Lang::Es => (&ES_B, ES, unic_langid::langid!("es")),
        Lang::En => (&EN_B, EN, unic_langid::langid!("en")),
    };
    cell.get_or_init(|| {
        // tests/app/i18n.rs parses both files; should a broken line slip through, a release build
        // drops it and goes on, while debug builds and tests stop at once.
        let res = FluentResource::try_new(src.to_string()).unwrap_or_else(|(r, errors)| {
            debug_assert!(
                errors.is_empty(),
                "{}.ftl does not parse: {errors:?}",
                lang.code()
            );
            tracing::error!("{}.ftl: {} lines do not parse", lang.code(), errors.len());
            r
        });
        let mut b = FluentBundle::new_concurrent(vec![id]);
        b.set_use_isolating(false);
        let _ = b.add_resource(res);
        b
    })
}

/// A message with arguments. A missing id or argument is a bug: debug builds and tests panic
/// on it; a release build logs it and shows the id, so the bot keeps answering.
pub fn tr<'a>(lang: Lang, msg: impl Into<Msg<'a>>, args: &[(&str, FluentValue<'_>)]) -> String {
    let id = msg.into().id();
    let b = bundle(lang);
    let Some(msg) = b.get_message(id).and_then(|m| m.value()) else {
        debug_assert!(false, "no message {id:?} in {}.ftl", lang.code());
        tracing::error!("no message {id:?} in {}.ftl", lang.code());
        return id.to_string();
    };
    let mut fa = FluentArgs::new();
    for (k, v) in args {
        fa.set(*k, v.clone());
    }
    let mut errors = vec![];
    let text = b.format_pattern(msg, Some(&fa), &mut errors).into_owned();
    if !errors.is_empty() {
        debug_assert!(false, "message {id:?} ({}): {errors:?}", lang.code());
        tracing::error!("message {id:?} ({}): {errors:?}", lang.code());
    }
    text
}

/// A message without arguments.
pub fn t<'a>(lang: Lang, msg: impl Into<Msg<'a>>) -> String {
    tr(lang, msg, &[])
}

/// The text with its first letter in upper case, for a name that starts a title or a
/// sentence ("damas españolas" → "Damas españolas").
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

pub fn n(v: impl Into<f64>) -> FluentValue<'static> {
    FluentValue::from(v.into())
}

pub fn s(v: impl ToString) -> FluentValue<'static> {
    FluentValue::from(v.to_string())
}

/// Text a person wrote (a name, a typed move), marked as theirs so that every front end shows
/// it as typed, never as markup (see [`super::reply::UserText`]).
pub fn u(v: impl AsRef<str>) -> FluentValue<'static> {
    FluentValue::from(super::reply::UserText(v.as_ref()).to_string())
}

/// A sentence continued after a colon or a dash: "El peón…" → "el peón…" (acronyms such as
/// "PDN" stay as they are).
pub fn decapitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if !chars.clone().next().is_some_and(char::is_uppercase) => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => text.to_string(),
    }
}

/// A variant's name as written inside a sentence ("damas españolas", "Spanish draughts").
pub fn variant_name(lang: Lang, v: Variant) -> String {
    t(lang, &format!("variant-{}", v.id()))
}

/// A variant's name at the start of a title ("Damas españolas").
pub fn variant_title(lang: Lang, v: Variant) -> String {
    capitalized(&variant_name(lang, v))
}

/// A colour as written inside a sentence ("las blancas", "White").
pub fn color_name(lang: Lang, c: Color) -> String {
    t(
        lang,
        match c {
            Color::White => fl!("color-white"),
            Color::Black => fl!("color-black"),
        },
    )
}

fn move_list(moves: &[Move]) -> String {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| crate::engine::format_move(m, moves))
        .collect();
    v.sort();
    v.dedup();
    v.join(", ")
}

/// Why a move was refused, in words.
pub fn move_error_text(lang: Lang, e: &MoveError) -> String {
    match e {
        MoveError::Notation(NotationError::Empty) => t(lang, fl!("err-empty")),
        MoveError::Notation(NotationError::NotAMove { text }) => {
            tr(lang, fl!("err-not-a-move"), &[("text", u(text))])
        }
        MoveError::Notation(NotationError::SquareOutOfRange { number }) => {
            tr(lang, fl!("err-square-range"), &[("n", s(number))])
        }
        MoveError::Notation(NotationError::OneSquare { square }) => {
            tr(lang, fl!("err-one-square"), &[("sq", s(square))])
        }
        MoveError::NoPiece { square } => tr(lang, fl!("err-no-piece"), &[("sq", s(square))]),
        MoveError::OpponentPiece { square } => {
            tr(lang, fl!("err-opponent-piece"), &[("sq", s(square))])
        }
        MoveError::Ambiguous { candidates } => tr(
            lang,
            fl!("err-ambiguous"),
            &[(
                "moves",
                s(candidates
                    .iter()
                    .map(|m| m.full_notation())
                    .collect::<Vec<_>>()
                    .join(", ")),
            )],
        ),
        MoveError::Illegal(i) => illegal_text(lang, i),
    }
}

/// Whether the words of `e` already list the moves allowed (a refused capture lists the
/// captures the laws leave), so that a reply need not list the legal moves again.
pub fn lists_moves(e: &MoveError) -> bool {
    matches!(
        e,
        MoveError::Ambiguous { .. }
            | MoveError::Illegal(
                IllegalMove::CaptureMandatory { .. }
                    | IllegalMove::LawOfQuantity { .. }
                    | IllegalMove::LawOfQuality { .. }
                    | IllegalMove::CaptureIncomplete { .. }
            )
    )
}

pub fn illegal_text(lang: Lang, i: &IllegalMove) -> String {
    match i {
        IllegalMove::ManMovesForwardOnly { .. } => t(lang, fl!("err-man-forward")),
        IllegalMove::ManCapturesForwardOnly { .. } => t(lang, fl!("err-man-captures-forward")),
        IllegalMove::TargetOccupied { to } => tr(lang, fl!("err-occupied"), &[("sq", s(to))]),
        IllegalMove::NotReachable { from, to } => tr(
            lang,
            fl!("err-unreachable"),
            &[("from", s(from)), ("to", s(to))],
        ),
        IllegalMove::ShortKingOneSquare { .. } => t(lang, fl!("err-short-king")),
        IllegalMove::CaptureMandatory { captures } => tr(
            lang,
            fl!("err-capture-mandatory"),
            &[("moves", s(move_list(captures)))],
        ),
        IllegalMove::LawOfQuantity { best, yours, keeps } => tr(
            lang,
            fl!("err-quantity"),
            &[
                ("best", n(*best)),
                ("yours", n(*yours)),
                ("moves", s(move_list(keeps))),
            ],
        ),
        IllegalMove::LawOfQuality {
            best_kings,
            yours_kings,
            keeps,
        } => tr(
            lang,
            fl!("err-quality"),
            &[
                ("best", n(*best_kings)),
                ("yours", n(*yours_kings)),
                ("moves", s(move_list(keeps))),
            ],
        ),
        IllegalMove::CaptureIncomplete { continuations } => tr(
            lang,
            fl!("err-capture-incomplete"),
            &[("moves", s(move_list(continuations)))],
        ),
        IllegalMove::NoSuchCapture { from, to } => tr(
            lang,
            fl!("err-no-such-capture"),
            &[("from", s(from)), ("to", s(to))],
        ),
    }
}

/// How the game ended, or that it goes on.
pub fn result_text(lang: Lang, outcome: Option<Outcome>) -> String {
    match outcome {
        None => t(lang, fl!("result-ongoing")),
        Some(Outcome::Win { winner, reason }) => {
            let id = match reason {
                WinReason::NoPieces => fl!("result-win-no-pieces"),
                WinReason::NoMoves => fl!("result-win-no-moves"),
                WinReason::Resignation => fl!("result-win-resignation"),
                WinReason::Abandoned => fl!("result-win-abandoned"),
                WinReason::Time => fl!("result-win-time"),
            };
            tr(lang, id, &[("winner", s(color_name(lang, winner)))])
        }
        Some(Outcome::Draw { reason }) => t(
            lang,
            match reason {
                DrawReason::Agreement => fl!("result-draw-agreement"),
                DrawReason::Repetition => fl!("result-draw-repetition"),
                DrawReason::NoProgress => fl!("result-draw-no-progress"),
                DrawReason::ThreeKings => fl!("result-draw-three-kings"),
            },
        ),
    }
}

/// A draw rule's id, in JSON and in message ids: `repetition`, `no-progress`,
/// `three-kings` (`agreement` is no rule).
pub fn draw_rule_id(reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::Agreement => "agreement",
        DrawReason::Repetition => "repetition",
        DrawReason::NoProgress => "no-progress",
        DrawReason::ThreeKings => "three-kings",
    }
}

/// Why a game of a PDN file was refused: "Game 3: move 12. 11-15: …".
pub fn pdn_refusal_text(lang: Lang, r: &PdnRefusal) -> String {
    tr(
        lang,
        fl!("pdn-refused"),
        &[
            ("number", n(r.number as f64)),
            ("reason", s(pdn_error_text(lang, &r.error))),
        ],
    )
}

/// Why one game of a PDN file cannot be read, in words.
pub fn pdn_error_text(lang: Lang, e: &PdnError) -> String {
    match e {
        PdnError::GameType {
            found,
            expected,
            variant,
        } => tr(
            lang,
            fl!("pdn-err-game-type"),
            &[
                ("found", s(found)),
                ("expected", n(*expected)),
                ("variant", s(variant_name(lang, *variant))),
            ],
        ),
        PdnError::UnknownGameType { found } => tr(
            lang,
            fl!("pdn-err-unknown-game-type"),
            &[("found", s(found))],
        ),
        PdnError::Fen(why) => tr(lang, fl!("pdn-err-fen"), &[("why", s(why))]),
        PdnError::SetUpWithoutFen => t(lang, fl!("pdn-err-set-up")),
        PdnError::Move {
            label, text, error, ..
        } => {
            let reason = match error {
                GameError::Move(m) => move_error_text(lang, m),
                GameError::Over | GameError::NothingToUndo => t(lang, fl!("pdn-err-over")),
            };
            tr(
                lang,
                fl!("pdn-err-move"),
                &[
                    ("number", s(label)),
                    ("move", s(text)),
                    ("reason", s(reason)),
                ],
            )
        }
        PdnError::Unclosed("comment") => t(lang, fl!("pdn-err-unclosed-comment")),
        PdnError::Unclosed(_) => t(lang, fl!("pdn-err-unclosed-variation")),
    }
}

/// A record's stated result, in words.
pub fn record_result_text(lang: Lang, result: Option<PdnResult>) -> String {
    match result {
        Some(PdnResult::Win(winner)) => tr(
            lang,
            fl!("record-result-win"),
            &[("winner", s(color_name(lang, winner)))],
        ),
        Some(PdnResult::Draw) => t(lang, fl!("record-result-draw")),
        Some(PdnResult::Unfinished) | None => t(lang, fl!("record-result-unfinished")),
    }
}

/// Where live play would have drawn a record that went on: "after 23. 11-15".
pub fn unclaimed_draw_text(lang: Lang, reason: DrawReason, number: &str, mv: &str) -> String {
    tr(
        lang,
        fl!("record-unclaimed-draw"),
        &[
            ("number", s(number)),
            ("move", s(mv)),
            (
                "rule",
                s(t(lang, &format!("draw-rule-{}", draw_rule_id(reason)))),
            ),
        ],
    )
}

/// An exact result of the endgame tables, from White's side: "White wins (endgame tables)",
/// "drawn (endgame tables)".
pub fn exact_text(lang: Lang, v: EndgameVerdict) -> String {
    let winner = match v {
        EndgameVerdict::Loss { .. } => Color::Black,
        _ => Color::White,
    };
    tr(
        lang,
        fl!("review-verdict"),
        &[
            ("verdict", s(v.id())),
            ("side", s(color_name(lang, winner))),
        ],
    )
}

/// When an explanation speaks: of the position on the board now (`/explain 11-15`, the
/// present tense) or of a move already played (the last move, the bot's capture: the past).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tense {
    Present,
    Past,
}

impl Tense {
    /// The value of the messages' `$tense` selector.
    fn id(self) -> &'static str {
        match self {
            Tense::Present => "present",
            Tense::Past => "past",
        }
    }
}

/// A score from White's side in words: "Black wins in 9 moves", "White is better (+1.25)",
/// "even (+0.10)" (the number keeps White's sign, as on the review's chart).
pub fn eval_text(lang: Lang, score: i32) -> String {
    match read_eval(score) {
        EvalReading::Win { winner, moves: 0 } => tr(
            lang,
            fl!("eval-won"),
            &[("side", s(color_name(lang, winner)))],
        ),
        EvalReading::Win { winner, moves } => tr(
            lang,
            fl!("eval-win"),
            &[("side", s(color_name(lang, winner))), ("moves", n(moves))],
        ),
        EvalReading::ProvenWin { winner } => tr(
            lang,
            fl!("eval-proven-win"),
            &[("side", s(color_name(lang, winner)))],
        ),
        EvalReading::Even { .. } => tr(lang, fl!("eval-even"), &[("score", s(format_men(score)))]),
        EvalReading::Better { side, .. } => tr(
            lang,
            fl!("eval-better"),
            &[
                ("side", s(color_name(lang, side))),
                ("score", s(format_men(score))),
            ],
        ),
    }
}

/// The law that decided, in one sentence.
pub fn law_text(lang: Lang, exp: &Explanation, tense: Tense) -> String {
    let tense_arg = ("tense", s(tense.id()));
    match exp.law {
        Law::NoCapture => tr(lang, fl!("law-no-capture"), &[tense_arg]),
        Law::Mandatory => tr(lang, fl!("law-mandatory"), &[tense_arg]),
        Law::Quantity => tr(
            lang,
            fl!("law-quantity"),
            &[("best", n(exp.max_pieces)), tense_arg],
        ),
        Law::Quality => tr(
            lang,
            fl!("law-quality"),
            &[
                ("best", n(exp.max_pieces)),
                ("kings", n(exp.max_kings)),
                tense_arg,
            ],
        ),
        // With a single capture there was no choice to be free about.
        Law::FreeChoice if exp.captures.len() <= 1 => tr(lang, fl!("law-mandatory"), &[tense_arg]),
        Law::FreeChoice => tr(lang, fl!("law-free-choice"), &[tense_arg]),
    }
}

/// What the law made of one capture: allowed, or excluded by which law.
pub fn capture_status(lang: Lang, c: &CaptureOption) -> String {
    match (c.allowed, c.excluded_by) {
        (true, _) => t(lang, fl!("explain-allowed")),
        (false, Some(Law::Quality)) => t(lang, fl!("explain-excluded-quality")),
        _ => t(lang, fl!("explain-excluded-quantity")),
    }
}

/// A whole explanation: the captures there are (or were), the law, the verdict.
pub fn explanation_text(lang: Lang, exp: &Explanation, tense: Tense) -> String {
    let mut out = Vec::new();
    if !exp.captures.is_empty() {
        out.push(tr(
            lang,
            fl!("explain-captures-header"),
            &[
                ("count", n(exp.captures.len() as f64)),
                ("tense", s(tense.id())),
            ],
        ));
        for c in &exp.captures {
            out.push(tr(
                lang,
                fl!("explain-capture-line"),
                &[
                    ("move", s(&c.notation)),
                    ("pieces", n(c.pieces)),
                    ("kings", n(c.kings)),
                    ("status", s(capture_status(lang, c))),
                ],
            ));
        }
    }
    out.push(law_text(lang, exp, tense));
    match &exp.verdict {
        Some(Verdict::Legal { notation, .. }) => {
            out.push(tr(lang, fl!("verdict-legal"), &[("move", s(notation))]))
        }
        // The reason is a sentence of its own: "Not legal. A man moves only forward."
        Some(Verdict::Illegal { error }) => out.push(tr(
            lang,
            fl!("verdict-illegal"),
            &[("reason", s(move_error_text(lang, error)))],
        )),
        None => {}
    }
    out.join("\n")
}
