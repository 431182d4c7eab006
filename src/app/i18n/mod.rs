//! User-facing text in Spanish and English, from Fluent files (`es.ftl`, `en.ftl`).
//!
//! The engine returns data; everything a person reads is worded here.

use crate::ai::{read_eval, EndgameVerdict, EvalReading};
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
        // `WORDS($n)`: small counts spelled out in running text ("two captures").
        let _ = b.add_function("WORDS", move |positional, _| match positional {
            [FluentValue::Number(number)] => FluentValue::from(count_words(lang, number.value)),
            [other] => other.clone(),
            _ => FluentValue::Error,
        });
        let _ = b.add_resource(res);
        b
    })
}

/// A count as running text writes it: one to five in words ("dos", "five"), larger ones in
/// digits. (One has its own wording in each message, by gender in Spanish: "una pieza".)
pub fn count_words(lang: Lang, value: f64) -> String {
    const ES_WORDS: [&str; 6] = ["cero", "uno", "dos", "tres", "cuatro", "cinco"];
    const EN_WORDS: [&str; 6] = ["zero", "one", "two", "three", "four", "five"];
    let words = match lang {
        Lang::Es => ES_WORDS,
        Lang::En => EN_WORDS,
    };
    match value {
        v if v.fract() == 0.0 && (0.0..=5.0).contains(&v) => words[v as usize].to_string(),
        v => format_number(v),
    }
}

fn format_number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        v.to_string()
    }
}

/// A list read as alternatives: "26x19 o 27x18", "a, b or c". In Spanish "o" becomes "u"
/// before a word said with an o: 8 (ocho), 11 (once), "otra".
pub fn or_list(lang: Lang, items: &[String]) -> String {
    joined_list(lang, items, Joiner::Or)
}

/// A list read as one set: "14 y 6", "a, b and c". In Spanish "y" becomes "e" before a word
/// said with an i ("Ana e Inés").
pub fn and_list(lang: Lang, items: &[String]) -> String {
    joined_list(lang, items, Joiner::And)
}

#[derive(Clone, Copy)]
enum Joiner {
    And,
    Or,
}

fn joined_list(lang: Lang, items: &[String], joiner: Joiner) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [rest @ .., last] => {
            let word = match (lang, joiner) {
                (Lang::En, Joiner::And) => "and",
                (Lang::En, Joiner::Or) => "or",
                (Lang::Es, Joiner::And) if spanish_i_sound(last) => "e",
                (Lang::Es, Joiner::And) => "y",
                (Lang::Es, Joiner::Or) if spanish_o_sound(last) => "u",
                (Lang::Es, Joiner::Or) => "o",
            };
            format!("{} {word} {last}", rest.join(", "))
        }
    }
}

/// Whether a Spanish word (or number) starts with the sound of o: "otra", "8x15", "11-15".
pub fn spanish_o_sound(word: &str) -> bool {
    let w = word.trim_start().to_lowercase();
    let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        return digits.starts_with('8') || digits == "11";
    }
    w.starts_with(['o', 'ó']) || w.starts_with("ho")
}

/// Whether a Spanish word starts with the sound of i ("Inés", "hijo"; not "hielo").
fn spanish_i_sound(word: &str) -> bool {
    let w = word.trim_start().to_lowercase();
    (w.starts_with(['i', 'í']) || w.starts_with("hi") || w.starts_with("hí"))
        && !w.starts_with("hie")
        && !w.starts_with("hia")
}

/// Numbers listed with their runs as ranges: "1 a 12, 14, 15" ("1 to 12" in English); a run
/// of three or more becomes a range.
pub fn number_ranges(lang: Lang, numbers: &[u8]) -> String {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        if j - i >= 2 {
            parts.push(tr(
                lang,
                fl!("alt-range"),
                &[("first", n(sorted[i])), ("last", n(sorted[j]))],
            ));
        } else {
            parts.extend(sorted[i..=j].iter().map(u8::to_string));
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// A decimal number as each language writes it, with its sign: "+0.35", "−6.89" in English,
/// "+0,35", "−6,89" in Spanish (a decimal comma, and the minus sign, not a hyphen).
pub fn signed_decimal(lang: Lang, value: f64, places: usize) -> String {
    let text = format!("{:.*}", places, value.abs());
    let text = match lang {
        Lang::Es => text.replace('.', ","),
        Lang::En => text,
    };
    // Zero (also once rounded) has no side: "+0.00".
    let negative = value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0');
    format!("{}{text}", if negative { '\u{2212}' } else { '+' })
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

/// The moves a refusal offers instead, in notation, and how many they are (for the words'
/// number: "the only allowed capture is…", "allowed captures: …").
fn move_list(moves: &[Move]) -> [(&'static str, FluentValue<'static>); 2] {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| crate::engine::format_move(m, moves))
        .collect();
    v.sort();
    v.dedup();
    [("count", n(v.len() as f64)), ("moves", s(v.join(", ")))]
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
        IllegalMove::CaptureMandatory { captures } => {
            tr(lang, fl!("err-capture-mandatory"), &move_list(captures))
        }
        IllegalMove::LawOfQuantity { best, yours, keeps } => {
            let [count, moves] = move_list(keeps);
            tr(
                lang,
                fl!("err-quantity"),
                &[("best", n(*best)), ("yours", n(*yours)), count, moves],
            )
        }
        IllegalMove::LawOfQuality {
            best_kings,
            yours_kings,
            keeps,
        } => {
            let [count, moves] = move_list(keeps);
            tr(
                lang,
                fl!("err-quality"),
                &[
                    ("best", n(*best_kings)),
                    ("yours", n(*yours_kings)),
                    count,
                    moves,
                ],
            )
        }
        IllegalMove::CaptureIncomplete { continuations } => {
            let [_, moves] = move_list(continuations);
            tr(lang, fl!("err-capture-incomplete"), &[moves])
        }
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

/// A score from White's side in words: "Black wins in 9 moves", "White is winning", "White
/// is better", "even". The number is not beside the words (a minus sign beside "Black"
/// puzzles readers): [`eval_number`] gives it, from White's side, where a legend explains it.
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
        EvalReading::Even { .. } => t(lang, fl!("eval-even")),
        EvalReading::Better { side, men } if men >= WINNING_FROM_MEN => tr(
            lang,
            fl!("eval-winning"),
            &[("side", s(color_name(lang, side)))],
        ),
        EvalReading::Better { side, .. } => tr(
            lang,
            fl!("eval-better"),
            &[("side", s(color_name(lang, side)))],
        ),
    }
}

/// An advantage of this many men or more reads as winning, not as better: two men up
/// decides a game of draughts between players who can convert it.
pub const WINNING_FROM_MEN: f64 = 2.0;

/// A score from White's side as a number of men, as the language writes it ("+0.35",
/// "−6,89"), or `None` for a forced win or a proven one, whose words say it all.
pub fn eval_number(lang: Lang, score: i32) -> Option<String> {
    match read_eval(score) {
        EvalReading::Even { .. } | EvalReading::Better { .. } => {
            Some(signed_decimal(lang, f64::from(score) / 100.0, 2))
        }
        EvalReading::Win { .. } | EvalReading::ProvenWin { .. } => None,
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
    out.extend(verdict_text(lang, exp));
    out.join("\n")
}

/// The verdict on the move asked about, naming it: "14x24 is not legal. There is no capture
/// from 14 to 24." A plain move refused because a capture is mandatory says only that it
/// takes nothing: the law and the captures are said just above it.
pub fn verdict_text(lang: Lang, exp: &Explanation) -> Option<String> {
    let verdict = exp.verdict.as_ref()?;
    let asked = exp.asked.clone().unwrap_or_default();
    Some(match verdict {
        Verdict::Legal { notation, .. } => tr(lang, fl!("verdict-legal"), &[("move", s(notation))]),
        Verdict::Illegal {
            error: MoveError::Illegal(IllegalMove::CaptureMandatory { .. }),
        } => tr(lang, fl!("verdict-not-a-capture"), &[("move", u(&asked))]),
        // Text that is no move at all: the reason quotes it already.
        Verdict::Illegal {
            error: error @ MoveError::Notation(_),
        } => move_error_text(lang, error),
        // The reason is a sentence of its own: "11-16 is not legal. The piece on…"
        Verdict::Illegal { error } => tr(
            lang,
            fl!("verdict-illegal"),
            &[
                ("move", u(&asked)),
                ("reason", s(move_error_text(lang, error))),
            ],
        ),
    })
}
