//! `damas egdb verify`: the tables checked without trusting how they were built.
//!
//! 1. Every entry against its successors, forwards: the moves from
//!    [`Position::legal_moves`], each judged from the entry it leads to as in the game (see
//!    [`move_result`]), must give back exactly the stored result and distance. Since a win in
//!    `d` must rest on a loss in `d - 1` and so on down to a finished game or a conversion,
//!    entries that pass this check are right whenever the smaller tables are.
//! 2. A sample against a plain search: a full-width alpha-beta to a fixed depth, without
//!    tables, under the game's own draw rules. Where it sees the end of the game (a forced win
//!    or loss within its depth) the table must say the same.
//! 3. The cost of a probe through the files, cold and then with the blocks cached.

use super::file::TableFile;
use super::generate::{best_of, each_position, move_result, Library, TableStats};
use super::material::Material;
use super::{EndgameTables, EndgameVerdict};
use crate::ai::{best_move, Level, SearchLimits, SearchOptions, MATE_BOUND};
use crate::engine::{Game, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub variant: Variant,
    pub pieces: u32,
    pub dir: PathBuf,
    /// Positions checked against the plain search.
    pub sample: usize,
    /// Its depth in plies (captures followed beyond).
    pub depth: u32,
    pub seed: u64,
    /// Tables checked at once.
    pub threads: usize,
}

/// One table's check.
#[derive(Clone, Debug)]
pub struct TableCheck {
    pub material: Material,
    pub stats: TableStats,
    pub bytes: u64,
    /// Entries that do not follow from their successors.
    pub wrong: u64,
    /// A few of them, as `FEN: stored, expected`.
    pub examples: Vec<String>,
    pub time: Duration,
}

/// The sample against the plain search.
#[derive(Clone, Debug, Default)]
pub struct PlainSearchSample {
    pub checked: usize,
    /// Tables' wins and losses the search saw through to the end of the game.
    pub confirmed: usize,
    /// Positions where the search found a forced result the table does not give.
    pub contradictions: Vec<String>,
    pub time: Duration,
}

#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub tables: Vec<TableCheck>,
    pub sample: PlainSearchSample,
    /// Mean cost of a probe through the files: with a cold cache (files opened and blocks
    /// read as they come: one per probe where the tables' blocks outnumber the cache's),
    /// then with each probe's block in the cache (the first [`WARM_PROBES`] again).
    pub probe_cold: Duration,
    pub probe_warm: Duration,
    pub probes: usize,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.tables.iter().all(|t| t.wrong == 0) && self.sample.contradictions.is_empty()
    }
}

/// Checks every table of `opts.variant` up to `opts.pieces` pieces in `opts.dir`; a missing or
/// unreadable table is an error. `done` hears of each table checked.
pub fn verify(
    opts: &VerifyOptions,
    mut done: impl FnMut(&TableCheck),
) -> Result<VerifyReport, String> {
    let variant = opts.variant;
    let folder = opts.dir.join(variant.id());
    let all = Material::all_up_to(opts.pieces);
    let mut library = Library::new(variant);
    let mut sizes = Vec::new();
    for &m in &all {
        let path = folder.join(format!("{}.egdb", m.stem()));
        let f = TableFile::open(&path, variant, m)?;
        let values = f
            .read_all()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let bytes = std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
        sizes.push(bytes);
        library.insert(m, std::sync::Arc::new(values));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let checks: Vec<std::sync::Mutex<Option<TableCheck>>> =
        all.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let finished = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..opts.threads.clamp(1, all.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&m) = all.get(i) else { break };
                let check = check_table(&library, m, sizes[i]);
                if let Ok(mut f) = finished.lock() {
                    f.push(i);
                }
                if let Ok(mut slot) = checks[i].lock() {
                    *slot = Some(check);
                }
            });
        }
    });
    let mut tables = Vec::new();
    for slot in checks {
        let check = slot
            .into_inner()
            .ok()
            .flatten()
            .ok_or("a checking thread failed")?;
        done(&check);
        tables.push(check);
    }
    let files = EndgameTables::open(&opts.dir);
    let sample = plain_search_sample(&files, &all, opts);
    let (probe_cold, probe_warm, probes) = probe_cost(&opts.dir, &all, opts);
    Ok(VerifyReport {
        tables,
        sample,
        probe_cold,
        probe_warm,
        probes,
    })
}

fn check_table(library: &Library, m: Material, bytes: u64) -> TableCheck {
    let started = Instant::now();
    let variant = library.variant();
    let mut wrong = 0;
    let mut examples = Vec::new();
    let values = library.get(m).cloned().unwrap_or_default();
    for (index, c) in each_position(m) {
        let pos = c.position(variant);
        let stored = super::value::Stored::decode(values[index as usize]);
        let results: Option<Vec<_>> = pos
            .legal_moves()
            .iter()
            .map(|mv| {
                let after = pos.apply(mv);
                Some(move_result(&pos, mv, &after, library.stored(&after)?))
            })
            .collect();
        let expected = results.map(best_of);
        if expected != Some(stored) {
            wrong += 1;
            if examples.len() < 5 {
                examples.push(format!(
                    "{}: stored {stored:?}, expected {expected:?}",
                    pos.fen()
                ));
            }
        }
    }
    TableCheck {
        material: m,
        stats: TableStats::of(m, &values),
        bytes,
        wrong,
        examples,
        time: started.elapsed(),
    }
}

/// A random position of the tables (weighted by their sizes), as a game from it.
fn random_game(rng: &mut SmallRng, all: &[Material], variant: Variant) -> Game {
    let total: u64 = all.iter().map(|m| m.positions()).sum();
    loop {
        let mut i = rng.gen_range(0..total);
        for &m in all {
            if i < m.positions() {
                if let Some(c) = super::index::Canonical::at(m, i) {
                    return Game::from_position(c.position(variant));
                }
                break;
            }
            i -= m.positions();
        }
    }
}

fn plain_search_sample(
    files: &EndgameTables,
    all: &[Material],
    opts: &VerifyOptions,
) -> PlainSearchSample {
    let started = Instant::now();
    let mut rng = SmallRng::seed_from_u64(opts.seed);
    let mut out = PlainSearchSample::default();
    let plain = SearchOptions {
        limits: Some(SearchLimits {
            depth: Some(opts.depth.max(1)),
            ..SearchLimits::default()
        }),
        endgame_tables: Some(EndgameTables::none()),
        ..SearchOptions::default()
    };
    let mut tries = 0;
    while out.checked < opts.sample && tries < opts.sample * 20 {
        tries += 1;
        let game = random_game(&mut rng, all, opts.variant);
        // A forced move is answered without a search.
        if game.is_over() || game.position().count_legal_moves() < 2 {
            continue;
        }
        let Some(verdict) = files.probe_game(&game) else {
            continue;
        };
        // Medium's searcher: full width, nothing pruned, no tables.
        let Some(found) = best_move(&game, Level::Medium, &plain) else {
            continue;
        };
        out.checked += 1;
        let seen = if found.score > MATE_BOUND {
            Some(true)
        } else if found.score < -MATE_BOUND {
            Some(false)
        } else {
            None
        };
        match (seen, verdict) {
            (None, _) => {}
            (Some(true), EndgameVerdict::Win { .. })
            | (Some(false), EndgameVerdict::Loss { .. }) => out.confirmed += 1,
            (Some(won), v) => out.contradictions.push(format!(
                "{}: the search {} by force, the table says {v:?}",
                game.position().fen(),
                if won { "wins" } else { "loses" }
            )),
        }
    }
    out.time = started.elapsed();
    out
}

/// Probes of random positions through freshly opened files, then the same again.
/// Probes timed with their blocks cached: 1,000 blocks of 32 KiB fit the 64 MiB cache.
const WARM_PROBES: usize = 1_000;

fn probe_cost(
    dir: &std::path::Path,
    all: &[Material],
    opts: &VerifyOptions,
) -> (Duration, Duration, usize) {
    let mut rng = SmallRng::seed_from_u64(opts.seed ^ 0x5eed);
    let games: Vec<Game> = (0..10_000)
        .map(|_| random_game(&mut rng, all, opts.variant))
        .filter(|g| !g.is_over())
        .collect();
    let positions: Vec<_> = games
        .iter()
        .map(|g| (*g.position(), g.draw_counters()))
        .collect();
    let files = EndgameTables::open(dir);
    let mut found = 0;
    let cold = Instant::now();
    for (p, c) in &positions {
        found += files.probe(p, c).is_some() as usize;
    }
    let cold = cold.elapsed();
    // Again a part small enough that all its blocks stay cached (the whole sample's blocks
    // need not fit: going round them again would only measure reading them again).
    let again = &positions[..positions.len().min(WARM_PROBES)];
    for (p, c) in again {
        found += files.probe(p, c).is_some() as usize;
    }
    let warm = Instant::now();
    for (p, c) in again {
        found += files.probe(p, c).is_some() as usize;
    }
    let warm = warm.elapsed();
    std::hint::black_box(found);
    let n = positions.len().max(1) as u32;
    (cold / n, warm / again.len().max(1) as u32, positions.len())
}
