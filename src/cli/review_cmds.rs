//! `damas review | gif`: a game from a PDN file, judged move by move or drawn as an animation.
use super::fail;
use super::pdn_cmds::{record_from_file, record_heading, records_from_file};
use crate::ai::{
    self, line_notation, Review, ReviewOptions, SearchPool, MATE, MATE_BOUND, TABLE_BOUND,
};
use crate::app::i18n::{eval_text, exact_text, s as arg, t, tr, Lang};
use crate::engine::{Color, Game, PdnResult, Variant};
use crate::fl;
use crate::render;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// Read the game as this variant (refused if its GameType tag names another); without
    /// it, as its GameType tag says, Spanish when it has none.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The PDN file the game is in.
    #[arg(long)]
    pub pdn: PathBuf,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, conflicts_with = "all")]
    pub game: usize,
    /// Every game of the file: a line each (the loser's mistakes and blunders, or each
    /// side's in a draw, and the seconds taken), then the totals; with --json, one document
    /// a line, each game's whole review.
    #[arg(long)]
    pub all: bool,
    /// One JSON document instead of lines.
    #[arg(long)]
    pub json: bool,
    /// The language of the words: es or en (the JSON's evaluations in words too).
    #[arg(long, default_value = "en", value_parser = language)]
    pub lang: Lang,
    /// Search threads: 1 reviews on this thread; more run each review's searches on a
    /// search pool of that many threads, as the bot does.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Nodes of the deeper search of a position (the review's default unless given).
    #[arg(long)]
    pub deep_nodes: Option<u64>,
    /// Positions searched deeply at most (0: the quick pass only).
    #[arg(long)]
    pub deep_positions: Option<usize>,
    /// Nodes of each search of the verifying pass, which searches after every move of the
    /// loser's positions of a decided game (the review's default unless given).
    #[arg(long)]
    pub verify_nodes: Option<u64>,
    /// Searches of the verifying pass at most, two a position (default 0: no verifying pass).
    #[arg(long)]
    pub verify_searches: Option<usize>,
}

/// `--lang`'s value.
fn language(code: &str) -> Result<Lang, String> {
    Lang::from_code(code).ok_or_else(|| format!("unknown language {code:?}: use es or en"))
}

#[derive(Args, Debug)]
pub struct GifArgs {
    /// Read the game as this variant (refused if its GameType tag names another); without
    /// it, as its GameType tag says, Spanish when it has none.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The PDN file the game is in.
    #[arg(long)]
    pub pdn: PathBuf,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The GIF file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// The review's options as the arguments set them.
fn options_of(a: &ReviewArgs) -> ReviewOptions {
    let mut options = ReviewOptions::default();
    if let Some(nodes) = a.deep_nodes {
        options.deep.nodes = Some(nodes);
    }
    if let Some(positions) = a.deep_positions {
        options.deep_positions = positions;
    }
    if let Some(nodes) = a.verify_nodes {
        options.verify.nodes = Some(nodes);
    }
    if let Some(searches) = a.verify_searches {
        options.verify_searches = searches;
    }
    options
}

/// Reviews `game` on this thread or on `pool`.
fn review_on(
    pool: Option<&(SearchPool, tokio::runtime::Runtime)>,
    game: &Game,
    options: &ReviewOptions,
) -> Result<Review, ai::ReviewError> {
    match pool {
        None => ai::review(game, options, |_, _| {}),
        Some((pool, runtime)) => {
            runtime.block_on(ai::review_in_pool(pool, game, options, |_, _| {}))
        }
    }
}

pub fn review(a: ReviewArgs) -> ExitCode {
    let options = options_of(&a);
    let pool = if a.threads > 1 {
        let runtime = match tokio::runtime::Builder::new_current_thread().build() {
            Ok(r) => r,
            Err(e) => return fail(format!("cannot start the review's runtime: {e}")),
        };
        Some((SearchPool::new(usize::from(a.threads), 256), runtime))
    } else {
        None
    };
    if a.all {
        return review_all(&a, &options, pool.as_ref());
    }
    let record = match record_from_file(a.variant, &a.pdn, a.game) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let game = &record.game;
    let r = match review_on(pool.as_ref(), game, &options) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if a.json {
        outln!("{}", review_json_in(a.lang, game, &r));
    } else {
        outln!("{}", record_heading(&a.pdn, &record, a.variant));
        for line in review_lines_in(a.lang, game, &r) {
            outln!("{line}");
        }
    }
    ExitCode::SUCCESS
}

/// Mistakes and blunders of one side.
fn errors_of(r: &Review, c: Color) -> usize {
    let s = r.player(c);
    s.mistakes + s.blunders
}

/// `damas review --all`: each game of the file reviewed, with what calibrating the review
/// needs — in a decided game, whether the loser's errors are named; in a draw, how many
/// errors the review names anyway.
fn review_all(
    a: &ReviewArgs,
    options: &ReviewOptions,
    pool: Option<&(SearchPool, tokio::runtime::Runtime)>,
) -> ExitCode {
    let records = match records_from_file(a.variant, &a.pdn) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let (mut decided, mut named, mut draws, mut draw_errors) = (0usize, 0usize, 0usize, 0usize);
    let mut seconds = 0.0;
    for (i, record) in records.iter().enumerate() {
        let number = i + 1;
        let record = match record {
            Ok(r) => r,
            Err(why) => {
                outln!("game {number}: not reviewed: {why}");
                continue;
            }
        };
        let started = std::time::Instant::now();
        let r = match review_on(pool, &record.game, options) {
            Ok(r) => r,
            Err(e) => {
                outln!("game {number}: not reviewed: {e}");
                continue;
            }
        };
        let took = started.elapsed().as_secs_f64();
        seconds += took;
        let side = |c: Color| if c == Color::White { "White" } else { "Black" };
        let name = |c: Color| record.tag(side(c)).unwrap_or("?").to_string();
        // The loser is the board's where the game ended on it: not every program writes an
        // English result the way the checkers archives do.
        let result = match record.decided_result() {
            Some(PdnResult::Win(winner)) => {
                let loser = !winner;
                decided += 1;
                let errors = errors_of(&r, loser);
                if errors > 0 {
                    named += 1;
                }
                format!(
                    "{} ({}) lost: {errors} mistakes+blunders",
                    side(loser),
                    name(loser)
                )
            }
            Some(PdnResult::Draw) => {
                draws += 1;
                let (w, b) = (errors_of(&r, Color::White), errors_of(&r, Color::Black));
                draw_errors += w + b;
                format!("drawn: White {w}, Black {b} mistakes+blunders")
            }
            _ => "unfinished".to_string(),
        };
        if a.json {
            let mut doc = review_json_in(a.lang, &record.game, &r);
            doc["game"] = json!(number);
            doc["white_name"] = json!(name(Color::White));
            doc["black_name"] = json!(name(Color::Black));
            doc["result"] = json!(record.tag("Result"));
            doc["seconds"] = json!((took * 10.0).round() / 10.0);
            outln!("{doc}");
        } else {
            outln!(
                "game {number}: {result}; {} positions searched deeply, {} verified, {:.1} M nodes, {took:.1} s",
                r.deep_positions,
                r.verified_positions,
                r.nodes as f64 / 1e6
            );
        }
    }
    if !a.json {
        let share = |k: usize, of: usize| 100.0 * k as f64 / of.max(1) as f64;
        outln!(
            "decided games: {decided}, the loser's mistake or blunder named in {named} ({:.0}%)",
            share(named, decided)
        );
        outln!(
            "draws: {draws}, mistakes+blunders {draw_errors} ({:.2} per draw per side)",
            draw_errors as f64 / (2 * draws).max(1) as f64
        );
        outln!(
            "time: {seconds:.0} s in all, {:.1} s a game",
            seconds / records.len().max(1) as f64
        );
    }
    ExitCode::SUCCESS
}

/// How the JSON's scores read, stated once in it.
pub fn score_convention() -> String {
    format!(
        "hundredths of a man from White's side: positive when White is better, in every \
         variant; beyond ±{MATE_BOUND}, a forced win in {MATE} - |score| plies; from \
         ±{TABLE_BOUND} to ±{MATE_BOUND}, a win the endgame tables prove"
    )
}

/// A score in words, or the endgame tables' exact result where they hold the position.
fn shown(lang: Lang, exact: Option<ai::EndgameVerdict>, score: i32) -> String {
    exact.map_or_else(|| eval_text(lang, score), |v| exact_text(lang, v))
}

/// The side's letter in `lang`: W/B, B/N.
fn mover_letter(lang: Lang, c: Color) -> String {
    let colour = if c == Color::White { "white" } else { "black" };
    tr(lang, fl!("review-line-mover"), &[("colour", arg(colour))])
}

/// One line per ply: number, mover, move, class, the evaluation before and after in words
/// ("White is better (+0.40) → Black wins in 9 moves", the number from White's side; the
/// endgame tables' exact result where they hold the position), and for an error the better
/// move (and the shot missed or allowed); then a line per player.
pub fn review_lines(game: &Game, r: &Review) -> Vec<String> {
    review_lines_in(Lang::En, game, r)
}

/// [`review_lines`] in `lang`.
pub fn review_lines_in(lang: Lang, game: &Game, r: &Review) -> Vec<String> {
    let mut out = Vec::with_capacity(r.plies.len() + 2);
    for p in &r.plies {
        let class = tr(
            lang,
            fl!("review-line-class"),
            &[("class", arg(p.class.id()))],
        );
        let mut line = format!(
            "{:>3} {} {:<10} {:<11} {} → {}",
            p.ply + 1,
            mover_letter(lang, p.mover),
            p.played_text,
            class,
            shown(lang, p.exact_before, p.eval_before),
            shown(lang, p.exact_after, p.eval_after),
        );
        if p.book {
            line.push_str("; ");
            line.push_str(&t(lang, fl!("review-line-book")));
        }
        if p.class.is_error() {
            line.push_str("; ");
            line.push_str(&tr(
                lang,
                fl!("review-line-better"),
                &[("move", arg(&p.best_text))],
            ));
            if p.missed_shot {
                let shot = line_notation(&game.positions()[p.ply], &p.best_line);
                let note = tr(
                    lang,
                    fl!("review-line-missed-shot"),
                    &[("line", arg(shot.join(" ")))],
                );
                line.push_str(&format!(" ({note})"));
            }
            if p.allowed_shot {
                let after = game.positions()[p.ply + 1];
                let shot = line_notation(&after, &p.refutation);
                let note = tr(
                    lang,
                    fl!("review-line-allowed-shot"),
                    &[("line", arg(shot.join(" ")))],
                );
                line.push_str(&format!(" ({note})"));
            }
        }
        out.push(line);
    }
    for c in [Color::White, Color::Black] {
        let s = r.player(c);
        let mut line = tr(
            lang,
            fl!("review-line-player"),
            &[
                ("colour", arg(mover_letter(lang, c))),
                ("accuracy", arg(format!("{:.0}", s.accuracy))),
                ("inaccuracies", arg(s.inaccuracies)),
                ("mistakes", arg(s.mistakes)),
                ("blunders", arg(s.blunders)),
                ("missed", arg(s.missed_shots)),
            ],
        );
        if let Some(ply) = s.biggest_swing {
            line.push_str(", ");
            line.push_str(&tr(
                lang,
                fl!("review-line-swing"),
                &[("ply", arg(ply + 1))],
            ));
        }
        out.push(line);
    }
    out
}

/// The review as JSON: a object per ply and a summary per player.
pub fn review_json(game: &Game, r: &Review) -> serde_json::Value {
    review_json_in(Lang::En, game, r)
}

/// [`review_json`] with the evaluations in words in `lang` (the rest are identifiers).
pub fn review_json_in(lang: Lang, game: &Game, r: &Review) -> serde_json::Value {
    let plies: Vec<_> = r
        .plies
        .iter()
        .map(|p| {
            json!({
                "ply": p.ply + 1,
                "mover": if p.mover == Color::White { "white" } else { "black" },
                "move": p.played_text,
                "eval_before": p.eval_before,
                "eval_after": p.eval_after,
                "exact_before": p.exact_before.map(|v| v.id()),
                "exact_after": p.exact_after.map(|v| v.id()),
                "eval_before_text": shown(lang, p.exact_before, p.eval_before),
                "eval_after_text": shown(lang, p.exact_after, p.eval_after),
                "loss": (p.loss * 1000.0).round() / 1000.0,
                "class": p.class.id(),
                "best": p.best_text,
                "best_line": line_notation(&game.positions()[p.ply], &p.best_line),
                "refutation": line_notation(&game.positions()[p.ply + 1], &p.refutation),
                "missed_shot": p.missed_shot,
                "allowed_shot": p.allowed_shot,
                "book": p.book,
                "deep": p.deep,
                "verified": p.verified,
            })
        })
        .collect();
    let player = |c: Color| {
        let s = r.player(c);
        json!({
            "accuracy": (s.accuracy * 10.0).round() / 10.0,
            "moves": s.moves,
            "inaccuracies": s.inaccuracies,
            "mistakes": s.mistakes,
            "blunders": s.blunders,
            "missed_shots": s.missed_shots,
            "biggest_swing": s.biggest_swing.map(|p| p + 1),
        })
    };
    json!({
        "variant": game.variant().id(),
        "score_convention": score_convention(),
        "plies": plies,
        "evals": r.evals,
        "white": player(Color::White),
        "black": player(Color::Black),
        "nodes": r.nodes,
        "deep_positions": r.deep_positions,
        "verified_positions": r.verified_positions,
    })
}

pub fn gif(a: GifArgs) -> ExitCode {
    let record = match record_from_file(a.variant, &a.pdn, a.game) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let game = &record.game;
    let lang = crate::app::i18n::Lang::En;
    let title = crate::app::i18n::variant_name(lang, game.variant());
    let notations = game.notations();
    let caption = |ply: usize| render::Caption {
        title: title.clone(),
        players: a
            .pdn
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        status: match ply.checked_sub(1) {
            None => "start".to_string(),
            Some(i) => format!("ply {ply} of {} · {}", notations.len(), notations[i]),
        },
    };
    let perspective = game.variant().first_player();
    let bytes = match render::replay_gif(game, perspective, caption) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    if let Err(e) = std::fs::write(&a.out, &bytes) {
        return fail(format!("cannot write {}: {e}", a.out.display()));
    }
    outln!(
        "{}: wrote {} ({} plies)",
        record_heading(&a.pdn, &record, a.variant),
        a.out.display(),
        game.ply()
    );
    ExitCode::SUCCESS
}
