//! Endgame databases: every position with few pieces solved exactly, by retrograde analysis
//! over the engine's own moves, so that Expert, `/review` and the puzzles know these endings
//! instead of guessing.
//!
//! - [`generate`] builds the tables of a variant up to a number of pieces (`damas egdb
//!   generate`), [`verify`] checks them (`damas egdb verify`).
//! - [`EndgameTables`] reads them from a folder (`DAMAS_EGDB`, by default `egdb` in the data
//!   folder: see [`crate::data_dir`]), a table when a probe first needs it and a block of it
//!   at a time; tables written there later are found when told to look again
//!   ([`EndgameTables::rescan`]).
//! - [`background`] builds the missing ones while the bot runs (`bot` and `serve` do at start),
//!   each file whole or absent, so that the search uses them as they appear.
//! - Entries hold the result for the side to move and the distance to conversion, under the
//!   no-progress count (and in Spanish the three-kings count): see [`value`] and
//!   `docs/ENDGAME-TABLES.md`.
//!
//! Without tables every probe answers `None` and the search plays on by itself.

pub mod background;
mod file;
mod generate;
mod index;
mod make;
mod material;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_background;
mod value;
mod verify;

pub use generate::TableStats;
pub use make::{generate, GenerateOptions, TableBuilt};
pub use material::{Material, MAX_PIECES};
pub use value::EndgameVerdict;
pub use verify::{verify, PlainSearchSample, TableCheck, VerifyOptions, VerifyReport};

use crate::engine::{Color, Game, Move, Position, Variant};
use crate::engine::{DrawCounters, Outcome};
use file::{BlockCache, TableFile};
use generate::Library;
use index::Canonical;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use value::{under_counts, Stored};

/// The environment variable naming the tables' folder (unset: `egdb` in the data folder).
pub use crate::data_dir::EGDB_ENV;
/// Decompressed blocks kept in memory, in all.
const CACHE_BYTES: usize = 64 << 20;
/// Moves of the line a root probe returns after its move.
const LINE_PLIES: usize = 10;
/// Three kings against one: with flying kings no search of a few plies finds how to win it
/// (the long diagonal first, then a sacrifice the lone king must take), so when the folder
/// lacks its table the tables build it in memory, with the endings it leads to (one and two
/// kings against one: 318,432 positions, about half a second of one core), as Expert did
/// before there were table files — never on a searching thread with a clock: see
/// [`EndgameTables::build_in_memory_in_background`].
const BUILT_IN: Material = Material::new(0, 3, 0, 1);

/// The tables most worth having, per variant: what `damas egdb generate` builds by default.
pub const fn default_pieces(variant: Variant) -> u32 {
    match variant {
        Variant::English => 5,
        Variant::Spanish | Variant::Portuguese => 4,
    }
}

/// A folder of tables, opened lazily. Cheap to clone (shared).
#[derive(Clone)]
pub struct EndgameTables(Arc<Inner>);

struct Inner {
    dir: Option<PathBuf>,
    variants: [VariantTables; 3],
    cache: Mutex<BlockCache>,
    /// By variant: [`BUILT_IN`]'s tables, built in memory when first needed (`None` if the
    /// build failed); no such tables at all for [`EndgameTables::none`].
    built_in: Option<[OnceLock<Option<Library>>; 3]>,
    /// By variant: set once [`EndgameTables::build_in_memory_in_background`] has started
    /// building [`BUILT_IN`]'s tables: from then on a probe does not wait for the build under
    /// way but answers "not here", and no second build starts.
    built_in_background: [AtomicBool; 3],
}

/// A variant's tables found so far. Tables are only ever added (a file is written whole
/// under its final name, never removed while the process runs), so a probe reads the slots
/// without a lock while [`EndgameTables::rescan`] fills new ones.
#[derive(Default)]
struct VariantTables {
    /// Pieces of the largest table found.
    max_pieces: AtomicU32,
    /// By [`Material::code`]: the tables found.
    slots: Vec<OnceLock<Slot>>,
}

impl VariantTables {
    fn empty() -> VariantTables {
        VariantTables {
            max_pieces: AtomicU32::new(0),
            slots: (0..Material::CODES).map(|_| OnceLock::new()).collect(),
        }
    }

    fn slot(&self, m: Material) -> Option<&Slot> {
        self.slots.get(m.code()).and_then(OnceLock::get)
    }

    /// Adds the tables of `folder` not found before; returns how many.
    fn scan(&self, folder: &Path) -> usize {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return 0;
        };
        let mut added = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            // A file being written has another extension until it is whole (`file::write`).
            if path.extension().and_then(|e| e.to_str()) != Some("egdb") {
                continue;
            }
            let Some(m) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(Material::from_stem)
            else {
                continue;
            };
            let Some(cell) = self.slots.get(m.code()) else {
                continue;
            };
            let fresh = cell
                .set(Slot {
                    path,
                    material: m,
                    file: OnceLock::new(),
                })
                .is_ok();
            if fresh {
                // The slot first, then the count that lets probes reach it.
                self.max_pieces.fetch_max(m.pieces(), Ordering::AcqRel);
                added += 1;
            }
        }
        added
    }
}

struct Slot {
    path: PathBuf,
    material: Material,
    /// Opened on the first probe; `None` if the file is bad (logged once).
    file: OnceLock<Option<TableFile>>,
}

fn variant_slot(v: Variant) -> usize {
    file::variant_code(v) as usize
}

impl std::fmt::Debug for EndgameTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameTables")
            .field("dir", &self.0.dir)
            .finish_non_exhaustive()
    }
}

impl EndgameTables {
    /// No tables: every probe answers `None`.
    pub fn none() -> EndgameTables {
        EndgameTables(Arc::new(Inner {
            dir: None,
            variants: Default::default(),
            cache: Mutex::new(BlockCache::new(0)),
            built_in: None,
            built_in_background: Default::default(),
        }))
    }

    /// The tables in `dir` (`dir/<variant>/<material>.egdb`). Only the names are read now;
    /// a missing folder gives no tables but the flying-king variants' kings against one,
    /// built in memory when first needed ([`BUILT_IN`]).
    pub fn open(dir: impl Into<PathBuf>) -> EndgameTables {
        let tables = EndgameTables(Arc::new(Inner {
            dir: Some(dir.into()),
            variants: Variant::ALL.map(|_| VariantTables::empty()),
            cache: Mutex::new(BlockCache::new(CACHE_BYTES)),
            built_in: Some(Default::default()),
            built_in_background: Default::default(),
        }));
        tables.rescan();
        tables
    }

    /// Looks in the folder again for tables written since it was opened (by the builder
    /// running in the background, or `damas egdb generate`); probes use them from now on.
    /// Returns how many were added. Cheap: it reads the names only.
    pub fn rescan(&self) -> usize {
        Variant::ALL.iter().map(|&v| self.rescan_variant(v)).sum()
    }

    /// [`EndgameTables::rescan`] for one variant's folder.
    pub fn rescan_variant(&self, variant: Variant) -> usize {
        match &self.0.dir {
            Some(dir) => self.0.variants[variant_slot(variant)].scan(&dir.join(variant.id())),
            None => 0,
        }
    }

    /// Whether `variant`'s table of `m` is in the folder.
    pub fn has(&self, variant: Variant, m: Material) -> bool {
        self.0.variants[variant_slot(variant)].slot(m).is_some()
    }

    /// The process's tables: from `$DAMAS_EGDB` (default `egdb` in the data folder), opened
    /// once.
    pub fn global() -> &'static EndgameTables {
        static GLOBAL: OnceLock<EndgameTables> = OnceLock::new();
        GLOBAL.get_or_init(|| EndgameTables::open(default_dir()))
    }

    pub fn dir(&self) -> Option<&Path> {
        self.0.dir.as_deref()
    }

    /// The materials found for `variant`, smallest first.
    pub fn materials(&self, variant: Variant) -> Vec<Material> {
        let mut out: Vec<Material> = self.0.variants[variant_slot(variant)]
            .slots
            .iter()
            .filter_map(OnceLock::get)
            .map(|s| s.material)
            .collect();
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// Pieces of the largest table of `variant` found (0 without tables).
    pub fn max_pieces(&self, variant: Variant) -> u32 {
        self.0.variants[variant_slot(variant)]
            .max_pieces
            .load(Ordering::Acquire)
    }

    /// One line saying what tables there are, for the log.
    pub fn summary(&self) -> String {
        let dir = self
            .dir()
            .map_or_else(|| "none".to_string(), |d| d.display().to_string());
        let found: Vec<String> = Variant::ALL
            .iter()
            .map(|&v| {
                let built_in = if self.builds_in_memory(v) {
                    " (kings against one built in memory)"
                } else {
                    ""
                };
                match self.materials(v).len() {
                    0 => format!("{v}: none{built_in}"),
                    n => format!(
                        "{v}: {n} tables up to {} pieces{built_in}",
                        self.max_pieces(v)
                    ),
                }
            })
            .collect();
        format!("endgame tables in {dir}: {}", found.join(", "))
    }

    /// Whether `variant`'s three kings against one comes from [`BUILT_IN`]'s tables built in
    /// memory: a flying-king variant whose folder lacks that table's file.
    pub fn builds_in_memory(&self, variant: Variant) -> bool {
        self.0.built_in.is_some() && variant.flying_kings() && !self.has(variant, BUILT_IN)
    }

    /// Builds now, on another thread, the tables [`EndgameTables::builds_in_memory`] says
    /// will be built in memory (the bot does at start, a search on a clock when it starts).
    /// Until they are ready, probes of their positions answer "not here" rather than wait, so
    /// no move waits for them. Calling it again while they are being built does nothing.
    pub fn build_in_memory_in_background(&self) {
        self.build_in_memory_in_background_of(&Variant::ALL);
    }

    /// [`EndgameTables::build_in_memory_in_background`] for `variants` only (`damas engine`
    /// builds the one variant of the game it is told to start).
    pub fn build_in_memory_in_background_of(&self, variants: &[Variant]) {
        let variants: Vec<Variant> = variants
            .iter()
            .copied()
            .filter(|&v| self.builds_in_memory(v) && !self.built_in_ready(v))
            // Claimed here, so that a second call (the next search) starts no second build.
            .filter(|&v| !self.0.built_in_background[variant_slot(v)].swap(true, Ordering::AcqRel))
            .collect();
        if variants.is_empty() {
            return;
        }
        let tables = self.clone();
        let building = variants.clone();
        let spawned = std::thread::Builder::new()
            .name("egdb-built-in".into())
            .spawn(move || {
                for v in building {
                    tables.built_in_now(v);
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("endgame tables: cannot build kings against one ahead: {e}");
            // Nobody builds them: a probe without a clock may build them itself again.
            for v in variants {
                self.0.built_in_background[variant_slot(v)].store(false, Ordering::Release);
            }
        }
    }

    /// Whether [`BUILT_IN`]'s tables of `variant` are built (or failed to build).
    fn built_in_ready(&self, variant: Variant) -> bool {
        self.0
            .built_in
            .as_ref()
            .is_some_and(|cells| cells[variant_slot(variant)].get().is_some())
    }

    /// [`BUILT_IN`]'s tables of `variant` if they are ready; else built now, unless
    /// [`EndgameTables::build_in_memory_in_background`] is building them: then `None`, so
    /// that the search plays on rather than wait.
    fn built_in(&self, variant: Variant) -> Option<&Library> {
        let cell = &self.0.built_in.as_ref()?[variant_slot(variant)];
        match cell.get() {
            Some(ready) => ready.as_ref(),
            None if self.0.built_in_background[variant_slot(variant)].load(Ordering::Acquire) => {
                None
            }
            None => self.built_in_now(variant),
        }
    }

    /// [`BUILT_IN`]'s tables of `variant`, built on first call (later callers wait for the
    /// first one); `None` for [`EndgameTables::none`], a variant without flying kings, or
    /// a failed build (logged once).
    fn built_in_now(&self, variant: Variant) -> Option<&Library> {
        if !variant.flying_kings() {
            return None;
        }
        self.0.built_in.as_ref()?[variant_slot(variant)]
            .get_or_init(|| {
                #[cfg(test)]
                BUILT_IN_BUILDS_HERE.with(|n| n.set(n.get() + 1));
                let started = std::time::Instant::now();
                match make::build_in_memory(variant, &[BUILT_IN]) {
                    Ok(library) => {
                        tracing::info!(
                            "endgame tables: {variant} kings against one built in memory in {:.1} s",
                            started.elapsed().as_secs_f64()
                        );
                        Some(library)
                    }
                    Err(e) => {
                        tracing::error!("endgame tables: {variant} kings against one: {e}");
                        None
                    }
                }
            })
            .as_ref()
    }

    /// The entry of `pos` from [`BUILT_IN`]'s tables, if they hold it: only kings, one of
    /// them alone, at most four in all, flying.
    fn stored_built_in(&self, pos: &Position) -> Option<Stored> {
        let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
        let covered = self.0.built_in.is_some()
            && pos.variant().flying_kings()
            && pos.occupied().count() <= BUILT_IN.pieces()
            && pos.men(Color::White).is_empty()
            && pos.men(Color::Black).is_empty()
            && white.count().min(black.count()) == 1;
        if !covered {
            return None;
        }
        self.built_in(pos.variant())?.stored(pos)
    }

    /// The stored entry of `pos`, if its table is here.
    fn stored(&self, pos: &Position) -> Option<Stored> {
        let variant = pos.variant();
        let tables = &self.0.variants[variant_slot(variant)];
        let side = pos.side_to_move();
        if pos.pieces(side).is_empty() || pos.pieces(!side).is_empty() {
            return None;
        }
        if pos.occupied().count() > tables.max_pieces.load(Ordering::Acquire) {
            return self.stored_built_in(pos);
        }
        let c = Canonical::of(pos);
        let m = c.material();
        let Some(slot) = tables.slot(m) else {
            return self.stored_built_in(pos);
        };
        let file = slot
            .file
            .get_or_init(|| match TableFile::open(&slot.path, variant, m) {
                Ok(f) => Some(f),
                Err(e) => {
                    tracing::error!("endgame table left unused: {e}");
                    None
                }
            })
            .as_ref()?;
        let index = c.index()?;
        let table = variant_slot(variant) * Material::CODES + m.code();
        let mut cache = self.0.cache.lock().ok()?;
        match cache.entry(table, file, index) {
            Ok(byte) => Some(Stored::decode(byte)),
            Err(e) => {
                tracing::error!("endgame table {}: {e}", slot.path.display());
                None
            }
        }
    }

    /// The exact result of `pos` for the side to move, with the draw counts `counters`;
    /// `None` when no table here holds it, or (Spanish three kings against one) the counts
    /// leave it open.
    pub fn probe(&self, pos: &Position, counters: &DrawCounters) -> Option<EndgameVerdict> {
        let stored = self.stored(pos)?;
        under_counts(pos, stored, counters)
    }

    /// [`EndgameTables::probe`] for a game's current position and counts (`None` once the
    /// game is over).
    pub fn probe_game(&self, game: &Game) -> Option<EndgameVerdict> {
        if game.is_over() {
            return None;
        }
        self.probe(game.position(), &game.draw_counters())
    }

    /// Every legal move of the game's position with its exact result for the player making
    /// it — the game's own rules first (a move that wins at once, or repeats a position the
    /// third time, or runs out a count), then the tables — or `None` if any move is not
    /// covered.
    pub fn rate_moves(&self, game: &Game) -> Option<Vec<(Move, EndgameVerdict)>> {
        if game.is_over() {
            return None;
        }
        let pos = game.position();
        let counters = game.draw_counters();
        pos.legal_moves()
            .iter()
            .map(|mv| {
                let after = pos.apply(mv);
                let next = counters.after(pos, mv, &after);
                let verdict = self.after_move(&after, &next, |p| {
                    game.positions().iter().filter(|q| *q == p).count() + 1
                })?;
                Some((*mv, verdict))
            })
            .collect()
    }

    /// The result for the player who just moved to `after` (with counts `next`);
    /// `seen(after)` says how many times it has now stood.
    fn after_move(
        &self,
        after: &Position,
        next: &DrawCounters,
        seen: impl Fn(&Position) -> usize,
    ) -> Option<EndgameVerdict> {
        let opponent = after.side_to_move();
        if after.pieces(opponent).is_empty() || after.count_legal_moves() == 0 {
            return Some(EndgameVerdict::Win { plies: 1 });
        }
        if seen(after) >= 3 || next.draw(after.variant()).is_some() {
            return Some(EndgameVerdict::Draw);
        }
        let plies = |d: u32| {
            if next.no_progress_plies() == 0 {
                1
            } else {
                d + 1
            }
        };
        Some(match self.probe(after, next)? {
            EndgameVerdict::Win { plies: d } => EndgameVerdict::Loss { plies: plies(d) },
            EndgameVerdict::Loss { plies: d } => EndgameVerdict::Win { plies: plies(d) },
            EndgameVerdict::Draw => EndgameVerdict::Draw,
        })
    }

    /// The tables' move in the game's position: the quickest win, else a drawing move, else
    /// the longest defence; among equals, the one `prefer` rates highest (the position after
    /// it, from the mover's side). With the result and the line that follows (the tables'
    /// moves on both sides, a few plies). `None` when the position or any move is not covered.
    pub fn best_move(
        &self,
        game: &Game,
        prefer: impl Fn(&Position) -> i32,
    ) -> Option<(Move, EndgameVerdict, Vec<Move>)> {
        let rated = self.rate_moves(game)?;
        let pos = game.position();
        let (mv, verdict) = rated.into_iter().max_by_key(|(mv, v)| {
            let rank = match v {
                EndgameVerdict::Win { plies } => (2, -(*plies as i64)),
                EndgameVerdict::Draw => (1, 0),
                EndgameVerdict::Loss { plies } => (0, *plies as i64),
            };
            (rank, prefer(&pos.apply(mv)))
        })?;
        let mut line = vec![mv];
        let mut at = pos.apply(&mv);
        let mut counters = game.draw_counters().after(pos, &mv, &at);
        while line.len() < LINE_PLIES && counters.draw(at.variant()).is_none() {
            let here = at;
            let Some((next, _)) = here
                .legal_moves()
                .iter()
                .filter_map(|m| {
                    let after = here.apply(m);
                    let c = counters.after(&here, m, &after);
                    Some((*m, self.after_move(&after, &c, |_| 1)?))
                })
                .max_by_key(|(_, v)| match v {
                    EndgameVerdict::Win { plies } => (2, -(*plies as i64)),
                    EndgameVerdict::Draw => (1, 0),
                    EndgameVerdict::Loss { plies } => (0, *plies as i64),
                })
            else {
                break;
            };
            line.push(next);
            at = here.apply(&next);
            counters = counters.after(&here, &next, &at);
        }
        Some((mv, verdict, line))
    }

    /// Cache figures: (hits, misses, bytes held).
    pub fn cache_figures(&self) -> (u64, u64, usize) {
        self.0
            .cache
            .lock()
            .map(|c| (c.hits, c.misses, c.held()))
            .unwrap_or_default()
    }
}

#[cfg(test)]
thread_local! {
    /// Builds of [`BUILT_IN`]'s tables run on this thread (tests of which thread builds them).
    static BUILT_IN_BUILDS_HERE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times [`BUILT_IN`]'s tables were built on the calling thread (tests).
#[cfg(test)]
pub(crate) fn built_in_builds_on_this_thread() -> usize {
    BUILT_IN_BUILDS_HERE.with(std::cell::Cell::get)
}

/// `$DAMAS_EGDB`, or `egdb` in the data folder ([`crate::data_dir::egdb_dir`]).
pub fn default_dir() -> PathBuf {
    crate::data_dir::egdb_dir()
}

/// Whether a finished game's outcome agrees with a verdict for the side that was to move at
/// its start (tests and checks).
pub fn outcome_matches(verdict: EndgameVerdict, mover: crate::engine::Color, o: Outcome) -> bool {
    match (verdict, o.winner()) {
        (EndgameVerdict::Win { .. }, Some(w)) => w == mover,
        (EndgameVerdict::Loss { .. }, Some(w)) => w != mover,
        (EndgameVerdict::Draw, None) => true,
        _ => false,
    }
}
