//! `damas pdn check`: every game of a PDN file read and followed to its end, with a line per
//! game refused; and the game of a file that `review`, `gif` and `replay` are given.
//!
//! Each game is read as the variant `--variant` names, or else as its `GameType` tag says
//! (21 English, 24 Spanish, 28 Portuguese), Spanish when it has none — as `/review file:`
//! reads an attached file. The output always says which variant the games were read as, and
//! when every game is refused, a hint says which other variant reads them.

use super::fail;
use crate::app::i18n::{self, Lang};
use crate::engine::{
    pdn_text, read_pdn, read_pdn_by_game_type, variant_of_game_type, Color, PdnReader, PdnRecord,
    PdnRefusal, PdnResult, Variant,
};
use clap::{Args, Subcommand};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct PdnArgs {
    #[command(subcommand)]
    pub command: PdnCommand,
}

#[derive(Subcommand, Debug)]
pub enum PdnCommand {
    /// Read every game of a file and follow it to its last move: one line per game refused
    /// (its number, its first bad move and the rule), then `read N as VARIANT, replayed M,
    /// refused K`. Exits with 2 if any game is refused.
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The PDN file (UTF-8, UTF-16 with its mark, or Latin-1).
    pub file: PathBuf,
    /// Read every game as this variant (a game whose GameType tag names another is refused);
    /// without it, each game as its GameType tag says, Spanish when it has none.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// One JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: PdnArgs) -> ExitCode {
    match a.command {
        PdnCommand::Check(a) => check(a),
    }
}

/// A PDN file's text, or a message saying why it cannot be read or is no PDN file.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    pdn_text(&bytes)
        .map(|text| text.into_owned())
        .map_err(|why| format!("{} is not a PDN file: {why}", path.display()))
}

/// The games of `text`, each read as `variant` if given, else as its GameType tag says
/// (Spanish without one).
fn games(text: &str, variant: Option<Variant>) -> PdnReader<'_> {
    match variant {
        Some(v) => read_pdn(text, v),
        None => read_pdn_by_game_type(text, Variant::default()),
    }
}

/// The variant a game with these tags is read as; `None` when its GameType tag names a game
/// damas does not play (and `--variant` was not given).
fn read_as(tags: &[(String, String)], variant: Option<Variant>) -> Option<Variant> {
    if variant.is_some() {
        return variant;
    }
    match tags.iter().find(|(k, _)| k == "GameType") {
        Some((_, value)) => variant_of_game_type(value),
        None => Some(Variant::default()),
    }
}

fn variant_name(v: Variant) -> String {
    i18n::variant_name(Lang::En, v)
}

/// Where the variant a game is read as comes from, in words.
fn variant_source(tags: &[(String, String)], variant: Option<Variant>) -> &'static str {
    match variant {
        Some(_) => "as --variant says",
        None if tags.iter().any(|(k, _)| k == "GameType") => "as its GameType tag says",
        None => "it has no GameType tag: --variant reads it as another",
    }
}

/// The players and event of a game, for a line about it: "Tinsley v Fuller, Ohio 1946".
fn who(tags: &[(String, String)]) -> String {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty() && *v != "?")
    };
    let mut out = match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} v {b}"),
        (Some(one), None) | (None, Some(one)) => one.to_string(),
        (None, None) => String::new(),
    };
    if let Some(event) = tag("Event") {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(event);
    }
    out
}

fn refusal_line(r: &PdnRefusal) -> String {
    let reason = i18n::pdn_refusal_text(Lang::En, r);
    match who(&r.tags) {
        w if w.is_empty() => reason,
        w => format!("{reason} ({w})"),
    }
}

/// How many games were read as each variant, and how many were of a game damas does not
/// play: "as Spanish draughts", "(3 as Spanish draughts, 1 as English draughts)".
#[derive(Default)]
struct ReadAs {
    by_variant: BTreeMap<&'static str, (Variant, usize)>,
    other_games: usize,
}

impl ReadAs {
    fn add(&mut self, variant: Option<Variant>) {
        match variant {
            Some(v) => self.by_variant.entry(v.id()).or_insert((v, 0)).1 += 1,
            None => self.other_games += 1,
        }
    }

    /// The one variant every game was read as, if there is one.
    fn only(&self) -> Option<Variant> {
        match (self.by_variant.len(), self.other_games) {
            (1, 0) => self.by_variant.values().next().map(|(v, _)| *v),
            _ => None,
        }
    }

    /// After "read N": " as Spanish draughts" or " (3 as Spanish draughts, 1 as …)".
    fn words(&self) -> String {
        if let Some(v) = self.only() {
            return format!(" as {}", variant_name(v));
        }
        let mut parts: Vec<String> = self
            .by_variant
            .values()
            .map(|(v, n)| format!("{n} as {}", variant_name(*v)))
            .collect();
        if self.other_games > 0 {
            parts.push(format!(
                "{} of a game damas does not play",
                self.other_games
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        }
    }
}

/// Another variant that reads the games `wanted` (all of them, or one) that were refused as
/// they were read: the one that replays most, with how many.
fn other_variant(
    text: &str,
    tried: &ReadAs,
    wanted: impl Fn(usize) -> bool,
) -> Option<(Variant, usize)> {
    Variant::ALL
        .into_iter()
        .filter(|v| !tried.by_variant.contains_key(v.id()))
        .map(|v| {
            let replayed = read_pdn(text, v)
                .enumerate()
                .filter(|(i, g)| wanted(i + 1) && g.is_ok())
                .count();
            (v, replayed)
        })
        .filter(|(_, n)| *n > 0)
        .max_by_key(|(_, n)| *n)
}

pub fn check(a: CheckArgs) -> ExitCode {
    let text = match read_text(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let (mut read, mut replayed) = (0usize, 0usize);
    let mut refused = Vec::new();
    let mut unclaimed = Vec::new();
    // Games whose stated result the board contradicts: (number, stated, the board's).
    let mut contradicted = Vec::new();
    let mut english_contradicted = false;
    let mut read_as_tally = ReadAs::default();
    for game in games(&text, a.variant) {
        read += 1;
        match game {
            Ok(record) => {
                replayed += 1;
                read_as_tally.add(Some(record.game.variant()));
                if let Some((ply, reason)) = record.game.unclaimed_draw() {
                    unclaimed.push((record.number, ply, reason, record.game.ply() > ply));
                }
                // A record without a result ("*") contradicts nothing.
                let stated = record.result.filter(|r| *r != PdnResult::Unfinished);
                if let (Some(stated), Some(board)) = (stated, record.decided_result()) {
                    if stated != board {
                        contradicted.push((record.number, stated, board));
                        english_contradicted |= record.game.variant() == Variant::English;
                    }
                }
            }
            Err(r) => {
                read_as_tally.add(read_as(&r.tags, a.variant));
                refused.push(r);
            }
        }
    }
    if a.json {
        let refused: Vec<_> = refused
            .iter()
            .map(|r| {
                json!({
                    "game": r.number,
                    "players": who(&r.tags),
                    "variant": read_as(&r.tags, a.variant).map(Variant::id),
                    "reason": i18n::pdn_refusal_text(Lang::En, r),
                })
            })
            .collect();
        let unclaimed: Vec<_> = unclaimed
            .iter()
            .map(|(game, ply, reason, went_on)| {
                json!({
                    "game": game,
                    "ply": ply,
                    "rule": i18n::draw_rule_id(*reason),
                    "went_on": went_on,
                })
            })
            .collect();
        let variants: serde_json::Map<String, serde_json::Value> = read_as_tally
            .by_variant
            .iter()
            .map(|(id, (_, n))| (id.to_string(), json!(n)))
            .collect();
        outln!(
            "{}",
            json!({
                "variant": read_as_tally.only().map(Variant::id),
                "variants": variants,
                "read": read,
                "replayed": replayed,
                "refused": refused,
                "unclaimed_draws": unclaimed,
                "contradicted_results": contradicted
                    .iter()
                    .map(|(game, stated, board)| json!({
                        "game": game,
                        "stated": result_words(*stated),
                        "board": result_words(*board),
                    }))
                    .collect::<Vec<_>>(),
            })
        );
    } else {
        for r in &refused {
            outln!("{}", refusal_line(r));
        }
        for (game, stated, board) in &contradicted {
            outln!(
                "game {game}: the record says {}, the board {}",
                result_words(*stated),
                result_words(*board)
            );
        }
        if english_contradicted {
            outln!("{}", CONTRADICTED_HINT);
        }
        outln!(
            "read {read}{}, replayed {replayed}, refused {}",
            read_as_tally.words(),
            refused.len()
        );
    }
    if read > 0 && replayed == 0 {
        eprintln!("{}", all_refused_hint(&text, read, &read_as_tally));
    }
    if refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// Why an English record's result and its board disagree, most often: its "1-0" read as the
/// checkers archives write it, in a file whose program wrote White's score first.
const CONTRADICTED_HINT: &str =
    "note: in English draughts \"1-0\" is read as the checkers archives \
     write it, Black (the first player) winning; some programs write White's score first. Where \
     the board decides a game, review, replay and book build follow the board";

/// "White won", "Black won", "a draw", "no result".
fn result_words(r: PdnResult) -> &'static str {
    match r {
        PdnResult::Win(Color::White) => "White won",
        PdnResult::Win(Color::Black) => "Black won",
        PdnResult::Draw => "a draw",
        PdnResult::Unfinished => "no result",
    }
}

/// What to try when every game of a file was refused: most often, the file is of another
/// variant than it was read as.
fn all_refused_hint(text: &str, read: usize, tried: &ReadAs) -> String {
    let all = if read == 1 {
        "the one game was refused".to_string()
    } else {
        format!("all {read} games were refused")
    };
    match other_variant(text, tried, |_| true) {
        Some((v, n)) => format!(
            "hint: {all}{}; read as {}, {n} of {read} replay: try --variant {}",
            tried.words(),
            variant_name(v),
            v.id()
        ),
        None => format!(
            "hint: {all}{}, and no other variant reads them either",
            tried.words()
        ),
    }
}

/// Game `number` (from 1) of a PDN file, followed to its end, read as `variant` if given,
/// else as its GameType tag says; or what is wrong (with a hint when another variant reads
/// the game).
pub fn record_from_file(
    variant: Option<Variant>,
    path: &Path,
    number: usize,
) -> Result<PdnRecord, String> {
    if number == 0 {
        return Err("--game counts from 1".into());
    }
    let text = read_text(path)?;
    match games(&text, variant).nth(number - 1) {
        Some(Ok(record)) => Ok(record),
        Some(Err(r)) => {
            let mut tried = ReadAs::default();
            tried.add(read_as(&r.tags, variant));
            let mut message = format!("{}: {}", path.display(), refusal_line(&r));
            if let Some((v, _)) = other_variant(&text, &tried, |n| n == number) {
                message.push_str(&format!(
                    "\nhint: it was read{}; read as {}, it replays: try --variant {}",
                    tried.words(),
                    variant_name(v),
                    v.id()
                ));
            }
            Err(message)
        }
        None => {
            let count = games(&text, variant).count();
            Err(format!(
                "{} holds {count} game{}: there is no game {number}",
                path.display(),
                if count == 1 { "" } else { "s" }
            ))
        }
    }
}

/// Every game of a PDN file, each followed to its end as in [`record_from_file`], or why it
/// cannot be read (one message each); the error is about the file itself.
pub fn records_from_file(
    variant: Option<Variant>,
    path: &Path,
) -> Result<Vec<Result<PdnRecord, String>>, String> {
    let text = read_text(path)?;
    Ok(games(&text, variant)
        .map(|g| g.map_err(|r| refusal_line(&r)))
        .collect())
}

/// Which game of which file, and the variant it was read as, with why: "game 2 of
/// two.pdn, Spanish draughts (as its GameType tag says)". What `review`, `replay --pdn`
/// and `gif` print first.
pub fn record_heading(path: &Path, record: &PdnRecord, variant: Option<Variant>) -> String {
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    format!(
        "game {} of {file}, {} ({})",
        record.number,
        variant_name(record.game.variant()),
        variant_source(&record.tags, variant)
    )
}
