//! A table on disk: a header, the offsets of its blocks, then the blocks, each a zstd frame
//! (with its checksum) of [`BLOCK_ENTRIES`] one-byte entries. A reader opens the file when a
//! probe first needs it and decompresses only the blocks probed, keeping the most recently
//! used ones in a cache shared by every table.
//!
//! ```text
//! 0   magic "DAMASEGT"         8 bytes
//! 8   format version           u8 (1)
//! 9   variant                  u8 (0 Spanish, 1 Portuguese, 2 English)
//! 10  material                 4 × u8: mover's men, kings; other side's men, kings
//! 14  log2 of entries a block  u8
//! 15  reserved                 u8 (0)
//! 16  entries                  u64
//! 24  blocks                   u32
//! 28  offsets                  (blocks + 1) × u64, from the start of the data
//! ..  data                     the blocks
//! ```
//! Integers are little-endian. Files are written to a temporary name of their writer's own
//! and renamed, so a table is either whole or absent, even with two processes building the
//! same folder at once (the last rename wins, with the same bytes).

use super::material::Material;
use crate::engine::Variant;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Mutex;

const MAGIC: &[u8; 8] = b"DAMASEGT";
const VERSION: u8 = 1;
const BLOCK_LOG2: u32 = 15;
/// Entries in a block: 32 KiB decompressed.
pub(crate) const BLOCK_ENTRIES: usize = 1 << BLOCK_LOG2;
const HEADER: u64 = 28;
/// zstd's level. On the English tables up to 5 pieces, in 32 KiB blocks, level 3 packs 11.2
/// to 1 at about 50 MB/s; level 19 packs 14.9 to 1 but at under 1 MB/s, which would make the
/// compression, not the analysis, most of a big table's building time.
const LEVEL: i32 = 3;

pub(crate) fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Spanish => 0,
        Variant::Portuguese => 1,
        Variant::English => 2,
    }
}

/// Writes a table; returns the bytes written.
pub(crate) fn write(
    path: &Path,
    variant: Variant,
    m: Material,
    values: &[u8],
) -> std::io::Result<u64> {
    let mut compressor = zstd::bulk::Compressor::new(LEVEL)?;
    compressor.include_checksum(true)?;
    let mut blocks = Vec::new();
    for chunk in values.chunks(BLOCK_ENTRIES) {
        blocks.push(compressor.compress(chunk)?);
    }
    let mut out = Vec::with_capacity(HEADER as usize + 8 * (blocks.len() + 1));
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.push(variant_code(variant));
    for n in [m.mover_men, m.mover_kings, m.other_men, m.other_kings] {
        out.push(n as u8);
    }
    out.push(BLOCK_LOG2 as u8);
    out.push(0);
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    let tmp = temporary_name(path);
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(&out)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    Ok(out.len() as u64)
}

/// A name beside `path` that no other writer uses: this process's id and a number of its own
/// (two threads, or two processes, writing the same table never share a temporary file).
/// Its extension is not `egdb`, so readers never take it for a table.
fn temporary_name(path: &Path) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    path.with_extension(format!("egdb.{}-{n}.tmp", std::process::id()))
}

/// An open table file.
pub(crate) struct TableFile {
    file: Mutex<File>,
    entries: u64,
    offsets: Vec<u64>,
    data_start: u64,
}

impl TableFile {
    /// Opens `path` and checks that it holds `m`'s table of `variant`, whole.
    pub fn open(path: &Path, variant: Variant, m: Material) -> Result<TableFile, String> {
        let bad = |what: &str| format!("{}: {what}", path.display());
        let mut file = File::open(path).map_err(|e| bad(&e.to_string()))?;
        let len = file.metadata().map_err(|e| bad(&e.to_string()))?.len();
        let mut head = [0u8; HEADER as usize];
        file.read_exact(&mut head)
            .map_err(|_| bad("too short for a table"))?;
        if &head[..8] != MAGIC {
            return Err(bad("not a damas endgame table"));
        }
        if head[8] != VERSION {
            return Err(bad(&format!(
                "format version {}, expected {VERSION}",
                head[8]
            )));
        }
        if head[9] != variant_code(variant) {
            return Err(bad(&format!("not a {variant} table")));
        }
        let found = Material::new(
            head[10] as u32,
            head[11] as u32,
            head[12] as u32,
            head[13] as u32,
        );
        if found != m {
            return Err(bad(&format!("holds {found}, expected {m}")));
        }
        if head[14] as u32 != BLOCK_LOG2 {
            return Err(bad("unexpected block size"));
        }
        let entries = u64::from_le_bytes(head[16..24].try_into().unwrap_or_default());
        let blocks = u32::from_le_bytes(head[24..28].try_into().unwrap_or_default()) as u64;
        if entries != m.positions() || blocks != entries.div_ceil(BLOCK_ENTRIES as u64) {
            return Err(bad("wrong size for its material"));
        }
        let mut raw = vec![0u8; 8 * (blocks as usize + 1)];
        file.read_exact(&mut raw)
            .map_err(|_| bad("the block offsets are cut short"))?;
        let offsets: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let data_start = HEADER + raw.len() as u64;
        let ordered = offsets.windows(2).all(|w| w[0] <= w[1]);
        if offsets.first() != Some(&0) || !ordered || data_start + offsets[blocks as usize] != len {
            return Err(bad("the block offsets do not match the file"));
        }
        Ok(TableFile {
            file: Mutex::new(file),
            entries,
            offsets,
            data_start,
        })
    }

    pub fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Block `b`, decompressed (checksum checked).
    pub fn block(&self, b: usize) -> Result<Vec<u8>, String> {
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        let mut compressed = vec![0u8; (end - start) as usize];
        {
            let mut f = self.file.lock().map_err(|_| "table file lock poisoned")?;
            f.seek(SeekFrom::Start(self.data_start + start))
                .and_then(|_| f.read_exact(&mut compressed))
                .map_err(|e| e.to_string())?;
        }
        let expected = (self.entries - (b * BLOCK_ENTRIES) as u64).min(BLOCK_ENTRIES as u64);
        let out = zstd::bulk::decompress(&compressed, BLOCK_ENTRIES).map_err(|e| e.to_string())?;
        if out.len() as u64 != expected {
            return Err(format!(
                "block {b} holds {} entries, not {expected}",
                out.len()
            ));
        }
        Ok(out)
    }

    /// The whole table.
    pub fn read_all(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(self.entries as usize);
        for b in 0..self.blocks() {
            out.extend_from_slice(&self.block(b)?);
        }
        Ok(out)
    }
}

/// Recently probed blocks, decompressed, up to a number of bytes; the least recently used
/// goes first.
pub(crate) struct BlockCache {
    capacity: usize,
    used: usize,
    tick: u64,
    blocks: HashMap<(usize, usize), (Vec<u8>, u64)>,
    pub hits: u64,
    pub misses: u64,
}

impl BlockCache {
    pub fn new(capacity_bytes: usize) -> BlockCache {
        BlockCache {
            capacity: capacity_bytes.max(BLOCK_ENTRIES),
            used: 0,
            tick: 0,
            blocks: HashMap::new(),
            hits: 0,
            misses: 0,
        }
    }

    /// Entry `index` of the table `table` (any number naming it), read from `file` on a miss.
    pub fn entry(&mut self, table: usize, file: &TableFile, index: u64) -> Result<u8, String> {
        let b = (index >> BLOCK_LOG2) as usize;
        let at = (index as usize) & (BLOCK_ENTRIES - 1);
        self.tick += 1;
        let tick = self.tick;
        if let Some((data, used)) = self.blocks.get_mut(&(table, b)) {
            *used = tick;
            self.hits += 1;
            return data
                .get(at)
                .copied()
                .ok_or_else(|| "index past the block".into());
        }
        self.misses += 1;
        let data = file.block(b)?;
        let value = data.get(at).copied().ok_or("index past the block")?;
        self.used += data.len();
        self.blocks.insert((table, b), (data, tick));
        while self.used > self.capacity {
            let Some((&oldest, _)) = self.blocks.iter().min_by_key(|(_, (_, t))| *t) else {
                break;
            };
            if let Some((d, _)) = self.blocks.remove(&oldest) {
                self.used -= d.len();
            }
        }
        Ok(value)
    }

    /// Bytes held now.
    pub fn held(&self) -> usize {
        self.used
    }
}
