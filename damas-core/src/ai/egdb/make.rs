//! `damas egdb generate`: every table of a variant up to a number of pieces, in an order where
//! each table finds the ones its moves lead to already built, written to the tables' folder.

use super::file;
use super::generate::{solve_pair, with_dependencies, Library, TableStats};
use super::material::Material;
use crate::engine::Variant;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub variant: Variant,
    /// Tables of 2 up to this many pieces.
    pub pieces: u32,
    /// The tables' folder; each variant's tables go in a folder of its own inside.
    pub dir: PathBuf,
    /// Tables built at once (each pair of tables is one thread's work).
    pub threads: usize,
    /// Build again tables already on disk (otherwise they are read and kept).
    pub force: bool,
    /// Only these tables (of at most `pieces` pieces) and the ones their moves lead to;
    /// `None` for all.
    pub only: Option<Vec<Material>>,
}

/// One table, built or found.
#[derive(Clone, Debug)]
pub struct TableBuilt {
    pub material: Material,
    pub stats: TableStats,
    /// Size of the file.
    pub bytes: u64,
    /// Building the table with its mirror (the same for both), or `None` when it was on disk.
    pub time: Option<Duration>,
}

/// Builds the tables; `done` hears of each as it is written (or found). Stops at the first
/// error (a table that cannot be written, a bad file in the way).
pub fn generate(
    opts: &GenerateOptions,
    mut done: impl FnMut(&TableBuilt),
) -> Result<Vec<TableBuilt>, String> {
    let variant = opts.variant;
    if opts.pieces < 2 || opts.pieces > super::material::MAX_PIECES {
        return Err(format!(
            "--pieces must be from 2 to {}",
            super::material::MAX_PIECES
        ));
    }
    let folder = opts.dir.join(variant.id());
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let path = |m: Material| folder.join(format!("{}.egdb", m.stem()));
    let mut library = Library::new(variant);
    let mut out = Vec::new();
    let mut all = Material::all_up_to(opts.pieces);
    if let Some(only) = &opts.only {
        let needed = super::generate::with_dependencies(only);
        all.retain(|m| needed.contains(m));
    }
    // Stages: same pieces and men; the pairs of a stage depend only on earlier stages.
    let mut stages: Vec<Vec<Material>> = Vec::new();
    for m in &all {
        if m.mirror() < *m && all.contains(&m.mirror()) {
            continue;
        }
        match stages.last_mut() {
            Some(s) if s[0].pieces() == m.pieces() && s[0].men() == m.men() => s.push(*m),
            _ => stages.push(vec![*m]),
        }
    }
    for stage in stages {
        let mut todo = Vec::new();
        for m in stage {
            let pair = if m.mirror() == m {
                vec![m]
            } else {
                vec![m, m.mirror()]
            };
            let found: Option<Vec<(Material, Vec<u8>, u64)>> = if opts.force {
                None
            } else {
                pair.iter()
                    .map(|&x| {
                        let f = file::TableFile::open(&path(x), variant, x).ok()?;
                        let bytes = std::fs::metadata(path(x)).ok()?.len();
                        Some((x, f.read_all().ok()?, bytes))
                    })
                    .collect()
            };
            match found {
                Some(tables) => {
                    for (x, values, bytes) in tables {
                        let built = TableBuilt {
                            material: x,
                            stats: TableStats::of(x, &values),
                            bytes,
                            time: None,
                        };
                        done(&built);
                        out.push(built);
                        library.insert(x, Arc::new(values));
                    }
                }
                None => todo.push(m),
            }
        }
        let results = build_stage(&library, &todo, opts.threads.max(1));
        for result in results {
            let (tables, time) = result?;
            for (x, values, stats) in tables {
                let bytes = file::write(&path(x), variant, x, &values)
                    .map_err(|e| format!("cannot write {}: {e}", path(x).display()))?;
                let built = TableBuilt {
                    material: x,
                    stats,
                    bytes,
                    time: Some(time),
                };
                done(&built);
                out.push(built);
                library.insert(x, Arc::new(values));
            }
        }
    }
    Ok(out)
}

type Solved = Result<(Vec<(Material, Vec<u8>, TableStats)>, Duration), String>;

/// Solves the pairs of a stage on up to `threads` threads, in order.
fn build_stage(library: &Library, todo: &[Material], threads: usize) -> Vec<Solved> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Solved>>> =
        todo.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.min(todo.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&m) = todo.get(i) else {
                    break;
                };
                let started = Instant::now();
                let r = solve_pair(library, m).map(|t| (t, started.elapsed()));
                if let Ok(mut slot) = results[i].lock() {
                    *slot = Some(r);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("a builder thread failed".into()))
        })
        .collect()
}

/// The tables of `targets` and of every material their moves lead to, built in memory on this
/// thread (no files): what [`super::EndgameTables`] builds for itself when its folder lacks
/// the kings-against-one tables of the flying-king variants.
pub(crate) fn build_in_memory(variant: Variant, targets: &[Material]) -> Result<Library, String> {
    let needed = with_dependencies(targets);
    let pieces = needed.iter().map(|m| m.pieces()).max().unwrap_or(2);
    let mut library = Library::new(variant);
    for m in Material::all_up_to(pieces) {
        if !needed.contains(&m) || library.get(m).is_some() {
            continue;
        }
        for (x, values, _) in solve_pair(&library, m)? {
            library.insert(x, Arc::new(values));
        }
    }
    Ok(library)
}
