//! `damas egdb generate | verify | probe`: the endgame tables, built, checked and read on the
//! command line.

use super::engine_cmds::position_from;
use super::fail;
use crate::ai::egdb::{
    self, default_pieces, EndgameTables, GenerateOptions, Material, TableBuilt, VerifyOptions,
};
use crate::engine::{Game, Variant};
use clap::{Args, Subcommand};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build the tables by retrograde analysis; a line per table on stdout.
    Generate(GenerateArgs),
    /// Check every entry against its successors and a sample against a plain search.
    Verify(VerifyArgs),
    /// The tables' verdict on a position, and each move's.
    Probe(ProbeArgs),
}

/// Which tables a command builds or checks: the variants, and up to how many pieces.
#[derive(Args, Debug)]
pub struct TableSet {
    /// spanish, portuguese, english, or all.
    #[arg(long, default_value = "all", value_parser = parse_variants)]
    pub variant: Variants,
    /// Tables up to this many pieces (default: 5 in English, 4 in Spanish and Portuguese).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=egdb::MAX_PIECES as i64))]
    pub pieces: Option<u32>,
}

/// One variant, or every one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variants {
    All,
    One(Variant),
}

fn parse_variants(name: &str) -> Result<Variants, String> {
    if name.trim().eq_ignore_ascii_case("all") {
        Ok(Variants::All)
    } else {
        name.parse()
            .map(Variants::One)
            .map_err(|e: crate::engine::UnknownVariant| format!("{e}, or all"))
    }
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub tables: TableSet,
    /// The tables' folder (default: $DAMAS_EGDB, else egdb in the data folder, $DAMAS_DATA).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Tables built at once.
    #[arg(long, default_value_t = 1, value_parser = super::threads())]
    pub threads: usize,
    /// Build again the tables already there.
    #[arg(long)]
    pub force: bool,
    /// Only these tables and the ones their moves lead to, by file name: the side to move's
    /// kings and men, `v`, the other side's (`kkkvk,kmvkm`).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub tables: TableSet,
    /// The tables' folder (default: $DAMAS_EGDB, else egdb in the data folder, $DAMAS_DATA).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Positions checked against the plain search.
    #[arg(long, default_value_t = 200)]
    pub sample: usize,
    /// The plain search's depth in plies.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Seeds the choice of the positions checked.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tables checked at once.
    #[arg(long, default_value_t = 1, value_parser = super::threads())]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The position to look up, as a PDN FEN.
    #[arg(long)]
    pub fen: String,
    /// The tables' folder; without it, the default folder (see `damas egdb verify --help`).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// One JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
}

pub fn egdb(args: EgdbArgs) -> ExitCode {
    match args.command {
        EgdbCommand::Generate(a) => generate_cmd(a),
        EgdbCommand::Verify(a) => verify_cmd(a),
        EgdbCommand::Probe(a) => probe_cmd(a),
    }
}

/// The variants chosen with the pieces asked for each.
fn variants(set: &TableSet, pieces: Option<u32>) -> Vec<(Variant, u32)> {
    let chosen = match set.variant {
        Variants::All => Variant::ALL.to_vec(),
        Variants::One(v) => vec![v],
    };
    chosen
        .into_iter()
        .map(|v| (v, pieces.unwrap_or_else(|| default_pieces(v))))
        .collect()
}

/// `english kkmvk  1,234,567 positions  W 1,000 D 2,000 L 3,000  longest 37  812 KB  4.2 s`
fn table_line(variant: Variant, t: &TableBuilt) -> String {
    let s = &t.stats;
    let mut time = t.time.map_or_else(
        || "on disk".to_string(),
        |d| format!("{:.1} s", d.as_secs_f64()),
    );
    if s.unknown_moves > 0 {
        time.push_str(&format!(
            "  ({} moves into three kings against one taken as draws)",
            s.unknown_moves
        ));
    }
    format!(
        "{variant} {:<8} {:>12} positions  wins {} draws {} losses {}  longest {}  {} bytes  {time}",
        t.material.stem(),
        s.positions,
        s.wins,
        s.draws,
        s.losses,
        s.longest,
        t.bytes,
    )
}

/// The materials of `--only`; `None` when it is empty.
fn only(stems: &[String]) -> Result<Option<Vec<Material>>, String> {
    if stems.is_empty() {
        return Ok(None);
    }
    stems
        .iter()
        .map(|stem| {
            Material::from_stem(stem.trim()).ok_or_else(|| {
                format!(
                    "--only: {stem:?} is not a table name (the side to move's kings then men, \
                     v, the other side's: kkmvk)"
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn generate_cmd(a: GenerateArgs) -> ExitCode {
    let only = match only(&a.only) {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    // With --only and no --pieces, as many pieces as the largest table named.
    let pieces = a.tables.pieces.or_else(|| {
        only.as_ref()
            .and_then(|o| o.iter().map(|m| m.pieces()).max())
    });
    let plan = variants(&a.tables, pieces);
    let threads = a.threads;
    if let (Some(o), Some(p)) = (&only, pieces) {
        if let Some(m) = o.iter().find(|m| m.pieces() > p) {
            return fail(format!(
                "--only {} has more pieces than --pieces {p}",
                m.stem()
            ));
        }
    }
    let dir = a.out.unwrap_or_else(egdb::default_dir);
    for (variant, pieces) in plan {
        let started = Instant::now();
        let opts = GenerateOptions {
            variant,
            pieces,
            dir: dir.clone(),
            threads,
            force: a.force,
            only: only.clone(),
        };
        let built = egdb::generate(&opts, |t| outln!("{}", table_line(variant, t)));
        match built {
            Ok(tables) => {
                let positions: u64 = tables.iter().map(|t| t.stats.positions).sum();
                let bytes: u64 = tables.iter().map(|t| t.bytes).sum();
                outln!(
                    "{variant} up to {pieces} pieces: {} tables, {positions} positions, {bytes} bytes, {:.1} s",
                    tables.len(),
                    started.elapsed().as_secs_f64()
                );
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn verify_cmd(a: VerifyArgs) -> ExitCode {
    let plan = variants(&a.tables, a.tables.pieces);
    let threads = a.threads;
    if !(1..=20).contains(&a.depth) {
        return fail("--depth must be from 1 to 20");
    }
    let dir = a.dir.unwrap_or_else(egdb::default_dir);
    let mut all_ok = true;
    for (variant, pieces) in plan {
        let opts = VerifyOptions {
            variant,
            pieces,
            dir: dir.clone(),
            sample: a.sample,
            depth: a.depth,
            seed: a.seed,
            threads,
        };
        let report = egdb::verify(&opts, |t| {
            let verdict = if t.wrong == 0 {
                "consistent".to_string()
            } else {
                format!("{} WRONG", t.wrong)
            };
            outln!(
                "{variant} {:<8} {:>12} positions  {verdict}  {:.1} s",
                t.material.stem(),
                t.stats.positions,
                t.time.as_secs_f64()
            );
            for e in &t.examples {
                outln!("  {e}");
            }
        });
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        let s = &report.sample;
        outln!(
            "{variant} plain search to depth {}: {} positions, {} wins and losses seen to the end and confirmed, {} contradictions, {:.1} s",
            a.depth,
            s.checked,
            s.confirmed,
            s.contradictions.len(),
            s.time.as_secs_f64()
        );
        for c in &s.contradictions {
            outln!("  {c}");
        }
        outln!(
            "{variant} probe: {:.2} µs cold (files opened, blocks read), {:.3} µs with its block cached, over {} positions",
            report.probe_cold.as_secs_f64() * 1e6,
            report.probe_warm.as_secs_f64() * 1e6,
            report.probes
        );
        all_ok &= report.ok();
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: the tables have wrong entries");
        ExitCode::FAILURE
    }
}

fn probe_cmd(a: ProbeArgs) -> ExitCode {
    let pos = match position_from(a.variant, Some(&a.fen)) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let tables = EndgameTables::open(a.dir.unwrap_or_else(egdb::default_dir));
    let game = Game::from_position(pos);
    let Some(verdict) = tables.probe_game(&game) else {
        return fail(format!(
            "no table holds {} (tables: {})",
            pos.fen(),
            tables.summary()
        ));
    };
    let moves = tables.rate_moves(&game).unwrap_or_default();
    let describe = |v: egdb::EndgameVerdict| match v {
        egdb::EndgameVerdict::Win { plies } => format!("won, converting in {plies} plies"),
        egdb::EndgameVerdict::Draw => "drawn".to_string(),
        egdb::EndgameVerdict::Loss { plies } => format!("lost, converted in {plies} plies"),
    };
    if a.json {
        let out = json!({
            "fen": pos.fen(),
            "verdict": verdict.id(),
            "plies": plies_of(verdict),
            "moves": moves.iter().map(|(mv, v)| json!({
                "move": pos.move_notation(mv),
                "verdict": v.id(),
                "plies": plies_of(*v),
            })).collect::<Vec<_>>(),
        });
        outln!("{out}");
    } else {
        outln!("{}", describe(verdict));
        for (mv, v) in &moves {
            outln!("{} {}", pos.move_notation(mv), describe(*v));
        }
    }
    ExitCode::SUCCESS
}

fn plies_of(v: egdb::EndgameVerdict) -> Option<u32> {
    match v {
        egdb::EndgameVerdict::Win { plies } | egdb::EndgameVerdict::Loss { plies } => Some(plies),
        egdb::EndgameVerdict::Draw => None,
    }
}
