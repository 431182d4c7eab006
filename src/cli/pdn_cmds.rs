//! `damas pdn check`: every game of a PDN file read and followed to its end, with a line per
//! game refused; and the game of a file that `review`, `gif` and `replay` are given.

use super::fail;
use crate::app::i18n::{self, Lang};
use crate::engine::{decode_pdn, read_pdn, PdnRecord, PdnRefusal, Variant};
use clap::{Args, Subcommand};
use serde_json::json;
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
    /// (its number, its first bad move and the rule), then `read N, replayed M, refused K`.
    /// Exits with 2 if any game is refused.
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The PDN file (UTF-8 or Latin-1).
    pub file: PathBuf,
    /// The variant of the games; a game whose GameType tag names another is refused.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// One JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: PdnArgs) -> ExitCode {
    match a.command {
        PdnCommand::Check(a) => check(a),
    }
}

/// A file's bytes as text, or a message saying why it cannot be read.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(decode_pdn(&bytes).into_owned())
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

pub fn check(a: CheckArgs) -> ExitCode {
    let variant = a.variant;
    let text = match read_text(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let (mut read, mut replayed) = (0usize, 0usize);
    let mut refused = Vec::new();
    let mut unclaimed = Vec::new();
    for game in read_pdn(&text, variant) {
        read += 1;
        match game {
            Ok(record) => {
                replayed += 1;
                if let Some((ply, reason)) = record.game.unclaimed_draw() {
                    unclaimed.push((record.number, ply, reason, record.game.ply() > ply));
                }
            }
            Err(r) => refused.push(r),
        }
    }
    if a.json {
        let refused: Vec<_> = refused
            .iter()
            .map(|r| {
                json!({
                    "game": r.number,
                    "players": who(&r.tags),
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
        println!(
            "{}",
            json!({
                "variant": variant.id(),
                "read": read,
                "replayed": replayed,
                "refused": refused,
                "unclaimed_draws": unclaimed,
            })
        );
    } else {
        for r in &refused {
            println!("{}", refusal_line(r));
        }
        println!(
            "read {read}, replayed {replayed}, refused {}",
            refused.len()
        );
    }
    if refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// Game `number` (from 1) of a PDN file, followed to its end; or what is wrong.
pub fn record_from_file(variant: Variant, path: &Path, number: usize) -> Result<PdnRecord, String> {
    if number == 0 {
        return Err("--game counts from 1".into());
    }
    let text = read_text(path)?;
    let mut games = read_pdn(&text, variant);
    match games.nth(number - 1) {
        Some(Ok(record)) => Ok(record),
        Some(Err(r)) => Err(format!("{}: {}", path.display(), refusal_line(&r))),
        None => {
            let count = read_pdn(&text, variant).count();
            Err(format!(
                "{} holds {count} game{}: there is no game {number}",
                path.display(),
                if count == 1 { "" } else { "s" }
            ))
        }
    }
}
