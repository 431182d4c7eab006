//! `damas tune`: fit Expert's evaluation to game results (see `ai::tune`).
//!
//! `damas tune selfplay` plays Expert against itself and writes the games as PDN (the
//! flying-king variants have no public game collections); `damas tune fit` reads games —
//! PDN files, or a ZIP archive of them read in place — and rewrites one variant's section of
//! `data/eval-weights.txt`; with `--label-nodes` it labels each position with a search's score
//! blended with the game's result, and `--label-cache` keeps those scores for the next fit.
//! `damas tune network` trains the small network that corrects the weights
//! (`data/eval-network.txt`, see `ai::network`) on the same kind of samples and labels.
//!
//! Labelling searches judge with the weights alone, never with a network: a network is not
//! trained on its own verdicts, and a label cache stays good while networks change.

use super::fail;
use crate::ai::network::{self, TrainOptions};
use crate::ai::tune::{self, BookOpening, FitOptions, Samples, SelfPlay};
use crate::ai::{EvalNetwork, EvalWeights};
use crate::engine::{export_pdn, Game, PdnTags, Position, Variant};
use clap::{Args, Subcommand};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub command: TuneCommand,
}

#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Expert plays itself from random openings; the games go to a PDN file.
    Selfplay(SelfplayArgs),
    /// Fit one variant's weights to the results of games in PDN (or ZIP) files.
    Fit(FitArgs),
    /// Train one variant's correcting network on games in PDN (or ZIP) files.
    Network(NetworkArgs),
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long)]
    pub variant: Variant,
    /// How many games to play.
    #[arg(long)]
    pub games: u64,
    /// Expert's node budget a move.
    #[arg(long, default_value_t = 5_000)]
    pub nodes: u64,
    /// Random plies from the start before Expert plays.
    #[arg(long = "random-plies", default_value_t = 6)]
    pub random_plies: usize,
    /// Plies after the random ones where Expert weighs every legal move with its own search
    /// of `--book-nodes` nodes and plays one within `--book-margin` of the best, at random:
    /// games to grow an opening book from (`damas book build`), deep where the book is and
    /// spread over the good moves. 0: every move is one search of `--nodes`.
    #[arg(long = "book-plies", default_value_t = 0)]
    pub book_plies: usize,
    /// The node budget of each of those searches (one per legal move).
    #[arg(long = "book-nodes", default_value_t = 100_000)]
    pub book_nodes: u64,
    /// In those plies a move is good when Expert scores it within this many hundredths of a
    /// man of the best.
    #[arg(long = "book-margin", default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=1000))]
    pub book_margin: i32,
    /// Seeds the random plies: the same seed and budgets give the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = super::threads())]
    pub concurrency: usize,
    /// The PDN file the games are written to.
    #[arg(long)]
    pub out: PathBuf,
}

/// The games and labels a fit or a training learns from.
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// The game whose evaluation is fitted: spanish, portuguese or english.
    #[arg(long)]
    pub variant: Variant,
    /// Game files: PDN, or ZIP archives of PDN read in place. Repeat for several.
    #[arg(long = "games", required = true)]
    pub files: Vec<PathBuf>,
    /// Plies of each game left out at its start (the openings say little about the result).
    #[arg(long = "skip-plies", default_value_t = 6)]
    pub skip_plies: usize,
    /// Label each position with Expert's search of this many nodes as well as with the game's
    /// result (`--lambda` says how the two blend).
    #[arg(long = "label-nodes")]
    pub label_nodes: Option<u64>,
    /// The weight of the game's result in a label, the searched score having the rest.
    #[arg(long, default_value_t = 0.5, requires = "label_nodes")]
    pub lambda: f64,
    /// Threads searching the positions to label.
    #[arg(long, default_value_t = 1, value_parser = super::threads())]
    pub concurrency: usize,
    /// Searched scores are read from this file when it was made for the same positions and
    /// nodes, else searched and written to it.
    #[arg(long = "label-cache", requires = "label_nodes")]
    pub label_cache: Option<PathBuf>,
    /// Report without writing.
    #[arg(long = "dry-run")]
    pub dry_run: bool,
}

#[derive(Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    pub samples: SampleArgs,
    /// Passes over the positions.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// The weights file to rewrite (only this variant's section changes).
    #[arg(long, default_value = crate::ai::EVAL_WEIGHTS_PATH)]
    pub weights: PathBuf,
    /// Start from the hand-made prior instead of the file's current weights.
    #[arg(long = "from-prior")]
    pub from_prior: bool,
}

#[derive(Args, Debug)]
pub struct NetworkArgs {
    #[command(flatten)]
    pub samples: SampleArgs,
    /// Passes over the samples; the pass that best predicts the held-out games is kept.
    #[arg(long, default_value_t = 40)]
    pub epochs: usize,
    /// Units of the hidden layer.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=network::MAX_HIDDEN as i64))]
    pub hidden: u16,
    /// Draws the starting weights and the order of the samples.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The network file to rewrite (only this variant's section changes).
    #[arg(long, default_value = crate::ai::EVAL_NETWORK_PATH)]
    pub network: PathBuf,
    /// The weights the network corrects, which also judge the labelling searches.
    #[arg(long, default_value = crate::ai::EVAL_WEIGHTS_PATH)]
    pub weights: PathBuf,
}

pub fn tune(args: TuneArgs) -> ExitCode {
    let result = match args.command {
        TuneCommand::Selfplay(a) => selfplay(a),
        TuneCommand::Fit(a) => fit(a),
        TuneCommand::Network(a) => train_network(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

fn selfplay(a: SelfplayArgs) -> Result<(), String> {
    let variant = a.variant;
    if a.games == 0 || a.nodes == 0 || a.book_nodes == 0 {
        return Err("--games, --nodes and --book-nodes must be at least 1".into());
    }
    let book = (a.book_plies > 0).then_some(BookOpening {
        plies: a.book_plies,
        nodes: a.book_nodes,
        margin: a.book_margin,
    });
    let book_event = match &book {
        Some(b) => format!(
            " --book-plies {} --book-nodes {} --book-margin {}",
            b.plies, b.nodes, b.margin
        ),
        None => String::new(),
    };
    let settings = SelfPlay {
        variant,
        random_plies: a.random_plies,
        nodes: a.nodes,
        max_plies: 400,
        endgame_tables: None,
    };
    let file = std::fs::File::create(&a.out)
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicU64::new(0);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..a.concurrency {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.games {
                    break;
                }
                let game = tune::self_play_game_from(&settings, book.as_ref(), a.seed, i);
                let tags = PdnTags {
                    event: Some(format!(
                        "damas tune selfplay --nodes {} --random-plies {}{book_event} --seed {}",
                        a.nodes, a.random_plies, a.seed
                    )),
                    site: Some(format!("game {}", i + 1)),
                    ..PdnTags::default()
                };
                let text = export_pdn(&game, &tags);
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = std::io::Write::write_all(&mut *out, format!("{text}\n").as_bytes())
                {
                    failure
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(format!("cannot write {}: {e}", a.out.display()));
                    break;
                }
                if (i + 1) % 100 == 0 {
                    eprintln!("{} games, {:.0} s", i + 1, started.elapsed().as_secs_f64());
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or(None) {
        return Err(e);
    }
    std::io::Write::flush(&mut *out.lock().unwrap_or_else(|e| e.into_inner()))
        .map_err(|e| format!("cannot write {}: {e}", a.out.display()))?;
    outln!(
        "{} games of {variant} in {:.0} s written to {}",
        a.games,
        started.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

/// The samples of `a`'s games, labelled as it asks, with the searches judging by
/// `weights_text` (a weights file's text) and no network.
fn read_samples(a: &SampleArgs, weights_text: &str) -> Result<Samples, String> {
    let variant = a.variant;
    if a.label_nodes == Some(0) {
        return Err("--label-nodes must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        return Err(format!(
            "--lambda must be between 0 and 1, not {}",
            a.lambda
        ));
    }
    let current = EvalWeights::parse_all(weights_text).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut samples = Samples::default();
    let mut unreadable = 0;
    for path in &a.files {
        let text = read_games_file(path)?;
        for record in split_games(&text) {
            match read_game(variant, record) {
                Some((game, white)) => samples.add_game(&game, white, a.skip_plies),
                None => unreadable += 1,
            }
        }
    }
    if samples.is_empty() {
        return Err("no position to fit: the files hold no readable finished game".into());
    }
    outln!(
        "{} games read ({unreadable} skipped: no result, or a move these rules refuse), {} quiet positions, {:.0} s",
        samples.games(),
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(nodes) = a.label_nodes {
        // The search judges with the weights file's weights, whatever a fit starts from, so
        // that a fit can label with the weights of the one before; and with no network.
        let judge = current
            .iter()
            .find(|(v, _)| *v == variant)
            .map_or_else(|| EvalWeights::prior(variant), |(_, w)| w.clone());
        EvalWeights::use_instead(weights_text).map_err(|e| e.to_string())?;
        EvalNetwork::use_instead("").map_err(|e| e.to_string())?;
        let scores = searched_scores(&samples, variant, nodes, &judge.to_text(variant), a)?;
        samples
            .label_with_scores(scores, a.lambda)
            .map_err(|e| e.to_string())?;
    }
    Ok(samples)
}

fn fit(a: FitArgs) -> Result<(), String> {
    let variant = a.samples.variant;
    let weights_text = std::fs::read_to_string(&a.weights)
        .map_err(|e| format!("cannot read {}: {e}", a.weights.display()))?;
    let current = EvalWeights::parse_all(&weights_text)
        .map_err(|e| format!("{}: {e}", a.weights.display()))?;
    let prior = match current.iter().find(|(v, _)| *v == variant) {
        Some((_, w)) if !a.from_prior => w.clone(),
        _ => EvalWeights::prior(variant),
    };
    let started = Instant::now();
    let samples = read_samples(&a.samples, &weights_text)?;
    let opts = FitOptions {
        epochs: a.epochs,
        ..FitOptions::default()
    };
    let (tuned, report) = tune::fit(&samples, &prior, opts);
    outln!(
        "steepness {:.5} (the game app's evaluation); mean log loss on {} fitted / {} held-out positions: {:.5} / {:.5} before, {:.5} / {:.5} after; {:.0} s",
        report.steepness,
        report.samples,
        report.held_out,
        report.before.0,
        report.before.1,
        report.after.0,
        report.after.1,
        started.elapsed().as_secs_f64()
    );
    if a.samples.label_nodes.is_some() {
        outln!(
            "against the games' results alone (λ = {}): {:.5} / {:.5} before, {:.5} / {:.5} after",
            a.samples.lambda,
            report.before_results.0,
            report.before_results.1,
            report.after_results.0,
            report.after_results.1,
        );
    }
    if a.samples.dry_run {
        return Ok(());
    }
    write_section(&a.weights, &weights_text, variant, &tuned.to_text(variant))?;
    outln!("{variant}'s weights written to {}", a.weights.display());
    Ok(())
}

/// Writes `text` (a file's current contents) to `path` with `variant`'s section replaced.
fn write_section(path: &Path, text: &str, variant: Variant, section: &str) -> Result<(), String> {
    std::fs::write(path, replace_section(text, variant, section))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn train_network(a: NetworkArgs) -> Result<(), String> {
    let variant = a.samples.variant;
    if a.epochs == 0 {
        return Err("--epochs must be at least 1".into());
    }
    let weights_text = std::fs::read_to_string(&a.weights)
        .map_err(|e| format!("cannot read {}: {e}", a.weights.display()))?;
    // Only the file's weights are corrected: the committed ones give way to them.
    EvalWeights::use_instead(&weights_text).map_err(|e| format!("{}: {e}", a.weights.display()))?;
    // A file that does not read is refused before the work, not after.
    let network_text = match std::fs::read_to_string(&a.network) {
        Ok(text) => {
            EvalNetwork::parse_all(&text).map_err(|e| format!("{}: {e}", a.network.display()))?;
            text
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", a.network.display())),
    };
    let started = Instant::now();
    let samples = read_samples(&a.samples, &weights_text)?;
    let opts = TrainOptions {
        hidden: a.hidden as usize,
        epochs: a.epochs,
        seed: a.seed,
    };
    let (trained, report) = network::train(&samples, variant, opts);
    outln!(
        "steepness {:.5}; mean log loss on {} fitted / {} held-out positions: {:.5} / {:.5} with the weights alone, {:.5} / {:.5} with the network (pass {} of {}); {:.0} s",
        report.steepness,
        report.samples,
        report.held_out,
        report.before.0,
        report.before.1,
        report.after.0,
        report.after.1,
        report.best_epoch,
        a.epochs,
        started.elapsed().as_secs_f64()
    );
    if report.best_epoch == 0 {
        return Err(
            "no pass predicted the held-out games better than the weights alone: nothing written"
                .into(),
        );
    }
    // Expert evaluates in integers: a network it cannot use is not written.
    trained
        .quantize()
        .map_err(|e| format!("the trained network: {e}: nothing written"))?;
    if a.samples.dry_run {
        return Ok(());
    }
    write_section(
        &a.network,
        &network_text,
        variant,
        &trained.to_text(variant),
    )?;
    outln!("{variant}'s network written to {}", a.network.display());
    Ok(())
}

/// White's searched score of every sample: from `--label-cache` when it holds these
/// positions at these nodes, else searched (and then written there).
fn searched_scores(
    samples: &Samples,
    variant: Variant,
    nodes: u64,
    judge: &str,
    a: &SampleArgs,
) -> Result<Vec<i32>, String> {
    let header = label_cache_header(variant, nodes, judge, samples.positions());
    if let Some(path) = &a.label_cache {
        if let Ok(text) = std::fs::read_to_string(path) {
            let scores = read_label_cache(&text, &header, samples.len())
                .map_err(|e| format!("{}: {e}", path.display()))?;
            outln!("{} scores read from {}", scores.len(), path.display());
            return Ok(scores);
        }
    }
    outln!("{}", crate::ai::EndgameTables::global().summary());
    let started = Instant::now();
    let total = samples.len();
    let step = (total / 20).max(1);
    let reported = AtomicU64::new(0);
    let scores = tune::search_scores(samples.positions(), nodes, None, a.concurrency, &|done| {
        let mark = (done / step) as u64;
        if reported.fetch_max(mark, Ordering::Relaxed) < mark {
            eprintln!(
                "{done} of {total} positions searched, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    });
    outln!(
        "{total} positions searched at {nodes} nodes in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &a.label_cache {
        let mut text = format!("{header}\n");
        for s in &scores {
            text.push_str(&format!("{s}\n"));
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(scores)
}

/// The first line of a label cache: what its scores were searched for. The positions and the
/// weights the search judged with (`judge`, their text) enter as checksums, so that a cache of
/// other games, other plies skipped or other weights is refused.
fn label_cache_header(variant: Variant, nodes: u64, judge: &str, positions: &[Position]) -> String {
    use std::hash::{Hash, Hasher};
    let checksum = |value: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        value(&mut hasher);
        hasher.finish()
    };
    format!(
        "# damas tune labels: {variant}, {nodes} nodes, {} positions, checksum {:016x}, weights {:016x}",
        positions.len(),
        checksum(&|h| positions.hash(h)),
        checksum(&|h| judge.hash(h)),
    )
}

/// The scores of a label cache made for `header`.
fn read_label_cache(text: &str, header: &str, samples: usize) -> Result<Vec<i32>, String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    if first != header {
        return Err(format!(
            "made for other positions, nodes or weights ({first:?}, these are {header:?}): delete it or name another file"
        ));
    }
    let scores = lines
        .enumerate()
        .map(|(n, l)| {
            l.trim()
                .parse::<i32>()
                .map_err(|_| format!("line {}: not a score: {l:?}", n + 2))
        })
        .collect::<Result<Vec<i32>, String>>()?;
    if scores.len() != samples {
        return Err(format!("{} scores for {samples} positions", scores.len()));
    }
    Ok(scores)
}

/// `text` with `variant`'s `[section]` replaced by `section` (appended if absent).
fn replace_section(text: &str, variant: Variant, section: &str) -> String {
    let header = format!("[{}]", variant.id());
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| l.trim() == header) else {
        return format!("{}\n{section}", text.trim_end());
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| start + 1 + i);
    let mut out = lines[..start].join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(section.trim_end());
    out.push('\n');
    // The blank lines that set the next section apart stay.
    let gap = lines[start + 1..end]
        .iter()
        .rev()
        .take_while(|l| l.trim().is_empty())
        .count();
    if end < lines.len() {
        out.push_str(&"\n".repeat(gap));
        out.push_str(&lines[end..].join("\n"));
        out.push('\n');
    }
    out
}

/// A file's text; a ZIP archive's members are read in place (stored or deflated).
pub(crate) fn read_games_file(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bytes = if bytes.starts_with(b"PK\x03\x04") {
        unzip(&bytes).map_err(|e| format!("{}: {e}", path.display()))?
    } else {
        bytes
    };
    // Old collections are Latin-1 here and there; names are all that is lost.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The concatenated members of a ZIP archive, read from their local headers.
fn unzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let u16_at = |i: usize| {
        bytes
            .get(i..i + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let u32_at = |i: usize| {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let mut out = Vec::new();
    let mut at = 0;
    while bytes.get(at..at + 4) == Some(b"PK\x03\x04") {
        let bad = || "a damaged ZIP header".to_string();
        let flags = u16_at(at + 6).ok_or_else(bad)?;
        let method = u16_at(at + 8).ok_or_else(bad)?;
        let size = u32_at(at + 18).ok_or_else(bad)? as usize;
        let name_len = u16_at(at + 26).ok_or_else(bad)? as usize;
        let extra_len = u16_at(at + 28).ok_or_else(bad)? as usize;
        if flags & 0x08 != 0 {
            return Err("ZIP members with trailing sizes are not read; unzip it first".into());
        }
        let data_at = at + 30 + name_len + extra_len;
        let data = bytes.get(data_at..data_at + size).ok_or_else(bad)?;
        match method {
            0 => out.extend_from_slice(data),
            8 => {
                flate2::read::DeflateDecoder::new(data)
                    .read_to_end(&mut out)
                    .map_err(|e| format!("cannot inflate: {e}"))?;
            }
            m => {
                return Err(format!(
                    "ZIP compression method {m} is not read; unzip it first"
                ))
            }
        }
        out.push(b'\n');
        at = data_at + size;
    }
    Ok(out)
}

/// The games of a PDN text: each starts where a tag line follows a line that is not one.
fn split_games(text: &str) -> Vec<&str> {
    let mut games = Vec::new();
    let mut start = None;
    let mut in_moves = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let is_tag = line.trim_start().starts_with('[');
        if is_tag && (in_moves || start.is_none()) {
            if let Some(s) = start {
                games.push(&text[s..offset]);
            }
            start = Some(offset);
            in_moves = false;
        } else if !is_tag && !line.trim().is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    if let Some(s) = start {
        games.push(&text[s..]);
    }
    games
}

/// A game record's moves and White's score, if it has a result and every move is legal
/// under `variant`'s rules. Tags other than `Result` and `FEN` are ignored; comments
/// (`{…}`), variations (`(…)`), move numbers and marks are skipped.
fn read_game(variant: Variant, record: &str) -> Option<(Game, f32)> {
    let mut result = None;
    let mut start = Position::start(variant);
    let mut moves_text = String::new();
    for line in record.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (key, value) = tag.split_once(char::is_whitespace)?;
            let value = value.trim().trim_matches('"');
            match key {
                "Result" => result = Some(value.to_string()),
                "FEN" => start = Position::from_fen(variant, value).ok()?,
                _ => {}
            }
        } else {
            moves_text.push_str(line);
            moves_text.push(' ');
        }
    }
    let first_wins = variant.first_player() == crate::engine::Color::White;
    let white = match result?.as_str() {
        "1-0" | "2-0" => {
            if first_wins {
                1.0
            } else {
                0.0
            }
        }
        "0-1" | "0-2" => {
            if first_wins {
                0.0
            } else {
                1.0
            }
        }
        "1/2-1/2" | "1-1" => 0.5,
        _ => return None,
    };
    let mut game = Game::from_position(start);
    let mut depth = 0;
    let mut word = String::new();
    let mut words = Vec::new();
    for c in moves_text.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = (depth - 1).max(0),
            _ if depth > 0 => {}
            c if c.is_whitespace() => words.push(std::mem::take(&mut word)),
            c => word.push(c),
        }
    }
    words.push(word);
    for w in words {
        let mv = w
            .rsplit('.')
            .next()
            .unwrap_or("")
            .trim_end_matches(['!', '?']);
        let is_result = matches!(mv, "*" | "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2");
        if mv.is_empty() || mv.starts_with('$') || is_result {
            continue;
        }
        if game.is_over() {
            return None;
        }
        game.play_text(mv).ok()?;
    }
    (game.ply() > 0).then_some((game, white))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_split_and_read_with_their_results() {
        let text = "[Event \"a\"]\n[Result \"0-1\"]\n1. 11-15 24-20 2. 8-11 {x} 28-24 0-1\n\n\
                    [Event \"b\"]\n[Result \"1/2-1/2\"]\n1. 9-14 (1. 9-13) 22-17 1/2-1/2\n\
                    [Event \"c\"]\n[Result \"*\"]\n1. 9-14 *\n\
                    [Event \"d\"]\n[Result \"1-0\"]\n1. 9-14 14-9 1-0\n";
        let games = split_games(text);
        assert_eq!(games.len(), 4);
        let read: Vec<Option<(usize, f32)>> = games
            .iter()
            .map(|g| read_game(Variant::English, g).map(|(g, w)| (g.ply(), w)))
            .collect();
        // English: the first player (Black) wins "1-0", so "0-1" is White's win.
        assert_eq!(read, [Some((4, 1.0)), Some((2, 0.5)), None, None]);
    }

    #[test]
    fn a_zip_archive_reads_in_place() {
        // A stored member and a deflated one, as `zip` writes them.
        let text = b"[Result \"1-0\"]\n1. 11-15 *\n";
        let mut deflated = Vec::new();
        {
            use std::io::Write;
            let mut enc =
                flate2::write::DeflateEncoder::new(&mut deflated, flate2::Compression::default());
            let _ = enc.write_all(text);
            let _ = enc.finish();
        }
        let mut zip = Vec::new();
        for (method, data) in [(0u16, &text[..]), (8, &deflated[..])] {
            zip.extend_from_slice(b"PK\x03\x04");
            zip.extend_from_slice(&[20, 0, 0, 0]);
            zip.extend_from_slice(&method.to_le_bytes());
            zip.extend_from_slice(&[0; 8]);
            zip.extend_from_slice(&(data.len() as u32).to_le_bytes());
            zip.extend_from_slice(&(text.len() as u32).to_le_bytes());
            zip.extend_from_slice(&1u16.to_le_bytes());
            zip.extend_from_slice(&0u16.to_le_bytes());
            zip.push(b'a');
            zip.extend_from_slice(data);
        }
        let out = unzip(&zip).unwrap_or_default();
        let out = String::from_utf8_lossy(&out);
        assert_eq!(out.matches("11-15").count(), 2, "{out}");
    }

    #[test]
    fn a_label_cache_is_read_only_for_the_positions_it_was_made_for() {
        let start = Position::start(Variant::Spanish);
        let other = Position::start(Variant::Portuguese);
        let header = label_cache_header(Variant::Spanish, 500, "w", &[start, start]);
        let text = format!("{header}\n12\n-40\n");
        assert_eq!(read_label_cache(&text, &header, 2), Ok(vec![12, -40]));
        // Other positions, nodes or weights, a damaged or short file: refused, and said why.
        for changed in [
            label_cache_header(Variant::Spanish, 500, "w", &[start, other]),
            label_cache_header(Variant::Spanish, 501, "w", &[start, start]),
            label_cache_header(Variant::Spanish, 500, "v", &[start, start]),
        ] {
            assert_ne!(changed, header);
            let err = read_label_cache(&text, &changed, 2)
                .err()
                .unwrap_or_default();
            assert!(err.contains("other positions, nodes or weights"), "{err}");
        }
        let bad = format!("{header}\n12\nx\n");
        assert_eq!(
            read_label_cache(&bad, &header, 2),
            Err("line 3: not a score: \"x\"".into())
        );
        assert_eq!(
            read_label_cache(&text, &header, 3),
            Err("2 scores for 3 positions".into())
        );
    }

    #[test]
    fn a_network_file_that_does_not_read_is_refused_before_any_work() {
        let dir = std::env::temp_dir().join(format!("damas-tune-net-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let network = dir.join("network.txt");
        let bad = "[spanish]\nhidden 2\nw1 1 2\n";
        let _ = std::fs::write(&network, bad);
        let args = |epochs: usize| NetworkArgs {
            samples: SampleArgs {
                variant: Variant::Spanish,
                // Never read: the checks come first.
                files: vec![dir.join("no-such-games.pdn")],
                skip_plies: 6,
                label_nodes: None,
                lambda: 0.5,
                concurrency: 1,
                label_cache: None,
                dry_run: false,
            },
            epochs,
            hidden: 2,
            seed: 1,
            network: network.clone(),
            weights: PathBuf::from(crate::ai::EVAL_WEIGHTS_PATH),
        };
        let err = train_network(args(3)).err().unwrap_or_default();
        assert!(
            err.contains("network.txt: [spanish]: no b1 row")
                || err.contains("network.txt: [spanish]: w1 has 2 numbers"),
            "{err}"
        );
        assert_eq!(
            train_network(args(0)).err().unwrap_or_default(),
            "--epochs must be at least 1"
        );
        // Nothing was written over the file.
        assert_eq!(std::fs::read_to_string(&network).unwrap_or_default(), bad);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_section_is_replaced_and_the_rest_kept() {
        let text = "# header\n[spanish]\na 1 1\n[english]\nb 2 2\n";
        let out = replace_section(text, Variant::Spanish, "[spanish]\na 5 5\n");
        assert_eq!(out, "# header\n[spanish]\na 5 5\n[english]\nb 2 2\n");
        let out = replace_section(text, Variant::English, "[english]\nb 7 7\n");
        assert_eq!(out, "# header\n[spanish]\na 1 1\n[english]\nb 7 7\n");
        let spaced = "[spanish]\na 1 1\n\n[english]\nb 2 2\n";
        let out = replace_section(spaced, Variant::Spanish, "[spanish]\na 5 5\n");
        assert_eq!(out, "[spanish]\na 5 5\n\n[english]\nb 2 2\n");
    }
}
