//! `damas puzzles generate`: builds a puzzle set from the computer's own games, offline.
//! `damas puzzles verify`: checks a shipped set again after the search or its evaluation
//! changed, and writes the set without the puzzles that no longer hold.

use super::fail;
use crate::ai::puzzles::{
    difficulty, format_set, generate, parse_set, recheck, verified_depth, GenerationSettings,
    Puzzle, Recheck,
};
use crate::engine::Variant;
use clap::{Args, Subcommand};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Play games at Hard and keep the shots found in them; progress goes to stderr.
    Generate(GenerateArgs),
    /// Check every puzzle of a set again; exits 1 when any no longer holds.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// How many puzzles to find.
    #[arg(long)]
    pub count: usize,
    /// The set's file; rewritten after every puzzle found, so a stopped run keeps its work.
    #[arg(long)]
    pub out: PathBuf,
    /// Seeds the openings and the players: the same seed and budgets give the same set.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hard's node budget in the games played.
    #[arg(long = "play-nodes", default_value_t = 20_000)]
    pub play_nodes: u64,
    /// Depth of the quick look that picks candidates.
    #[arg(long = "scan-depth", default_value_t = 6)]
    pub scan_depth: u32,
    /// Depth of the search that checks each candidate.
    #[arg(long = "verify-depth", default_value_t = crate::ai::puzzles::VERIFY_DEPTH)]
    pub verify_depth: u32,
    /// Depth at which each puzzle found is searched again for another winning first move,
    /// one `/move`'s judge (at depth 9) would call wrong: such a puzzle is dropped. 0 skips
    /// this look.
    #[arg(long = "deeper-depth", default_value_t = crate::ai::puzzles::DEEPER_DEPTH)]
    pub deeper_depth: u32,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The game: spanish, portuguese or english.
    #[arg(long, default_value = "spanish")]
    pub variant: Variant,
    /// The set to check.
    #[arg(long)]
    pub set: PathBuf,
    /// Depth of the check; by default the one the set's header records.
    #[arg(long = "verify-depth")]
    pub verify_depth: Option<u32>,
    /// Write the checked set here: the puzzles that hold keep their ids; the others are
    /// retired (their ids are never reused), and one whose first move still wins alone but
    /// by another line comes back under a new id at the end.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Puzzles checked at once.
    #[arg(long, default_value_t = 1, value_parser = super::threads())]
    pub threads: usize,
    /// Another set of the variant (a fresh `generate` run, at the same verify depth) whose
    /// puzzles are appended under new ids, those whose solution line the set has aside.
    #[arg(long)]
    pub add: Option<PathBuf>,
    /// Depth at which each puzzle that holds is searched again for another winning first
    /// move, one `/move`'s judge (at depth 9) would call wrong: such a puzzle is retired.
    /// 0 skips this look.
    #[arg(long = "deeper-depth", default_value_t = crate::ai::puzzles::DEEPER_DEPTH)]
    pub deeper_depth: u32,
}

/// `--deeper-depth`: 0 for no look, else deeper than the judge and at most 20.
fn deeper_depth(arg: u32) -> Result<Option<u32>, String> {
    let judge = crate::ai::puzzles::JUDGE_DEPTH;
    match arg {
        0 => Ok(None),
        d if d > judge && d <= 20 => Ok(Some(d)),
        _ => Err(format!("--deeper-depth must be 0 or {} to 20", judge + 1)),
    }
}

pub fn puzzles(args: PuzzlesArgs) -> ExitCode {
    match args.command {
        PuzzlesCommand::Generate(a) => generate_cmd(a),
        PuzzlesCommand::Verify(a) => verify_cmd(a),
    }
}

fn verify_cmd(args: VerifyArgs) -> ExitCode {
    let variant = args.variant;
    let deeper = match deeper_depth(args.deeper_depth) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let text = match std::fs::read_to_string(&args.set) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot read {}: {e}", args.set.display())),
    };
    let set = match parse_set(variant, &text) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.set.display())),
    };
    let depth = args.verify_depth.unwrap_or_else(|| verified_depth(&text));
    if !(4..=20).contains(&depth) {
        return fail("--verify-depth must be 4 to 20");
    }
    let (added_text, added) = match &args.add {
        None => (String::new(), Vec::new()),
        Some(path) => {
            let read = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()));
            let parsed = read.and_then(|t| {
                let set = parse_set(variant, &t).map_err(|e| format!("{}: {e}", path.display()));
                set.map(|s| (t, s))
            });
            match parsed {
                Ok(x) => x,
                Err(e) => return fail(e),
            }
        }
    };
    let started = Instant::now();
    let results = recheck_all(&set, depth, deeper, args.threads, |p, r| {
        let what = match r {
            Recheck::Holds => "holds".to_string(),
            Recheck::NewLine(_) => "first move holds, another line".to_string(),
            Recheck::Gone => "no longer the only winning first move".to_string(),
            Recheck::Refused(moves) => format!(
                "{} also win{} at depth {}, and /move would refuse {}",
                moves
                    .iter()
                    .map(|(ply, m)| format!(
                        "{} (the solver's move {})",
                        p.position_at(*ply).move_notation(m),
                        ply / 2 + 1
                    ))
                    .collect::<Vec<_>>()
                    .join(", "),
                if moves.len() == 1 { "s" } else { "" },
                args.deeper_depth,
                if moves.len() == 1 { "it" } else { "them" },
            ),
        };
        eprintln!(
            "{:.0}s: #{} {}: {what}",
            started.elapsed().as_secs_f64(),
            p.id,
            p.position.fen()
        );
    });
    // Ids retired by an earlier check are not in the set any more, but are not free either.
    let given = ids_given(&text).max(set.iter().map(|p| p.id).max().unwrap_or(0));
    let rebuilt = rebuild(&set, &results, given, &added);
    let given = rebuilt.new_ids.last().copied().unwrap_or(given);
    let mut summary = format!(
        "re-verified by: damas puzzles verify --variant {} --set {} --verify-depth {depth} \
         --deeper-depth {}: {} of {} hold; retired {}; back under new ids {}",
        variant.id(),
        args.set.display(),
        args.deeper_depth,
        set.len() - rebuilt.retired.len(),
        set.len(),
        id_list(&rebuilt.retired),
        id_list(&rebuilt.new_ids[..rebuilt.renewed])
    );
    if let Some(path) = &args.add {
        summary.push_str(&format!(
            "; added from {} as {}:",
            path.display(),
            id_range(&rebuilt.new_ids[rebuilt.renewed..])
        ));
        // The added run's own commands, so the set's header says how all of it was made.
        for line in added_text.lines().filter_map(|l| l.strip_prefix("# ")) {
            if !line.starts_with("fields, tab-separated") {
                summary.push_str(&format!("\n  {line}"));
            }
        }
    }
    eprintln!("{summary} ({} s)", started.elapsed().as_secs());
    if let Some(out) = &args.out {
        // The set's own header (its commands) stays; the fields line is written again.
        let mut header: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .filter(|l| !l.starts_with("fields, tab-separated") && !l.starts_with(IDS_GIVEN))
            .collect();
        header.push(&summary);
        let given_line = format!("{IDS_GIVEN}{given}");
        header.push(&given_line);
        if let Err(e) = std::fs::write(out, format_set(&header.join("\n"), &rebuilt.set)) {
            return fail(format!("cannot write {}: {e}", out.display()));
        }
    }
    if rebuilt.retired.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The header line that records the highest id ever given in a set, retired ones included.
const IDS_GIVEN: &str = "ids given up to: ";

/// The highest id a set's header says was ever given (0 when it says nothing).
fn ids_given(text: &str) -> u32 {
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("# ")?
                .strip_prefix(IDS_GIVEN)?
                .trim()
                .parse()
                .ok()
        })
        .max()
        .unwrap_or(0)
}

/// Every puzzle of `set` checked again at `depth` (and at `deeper` for a winning first move
/// the judge refuses), in order, on `threads` threads; `progress` hears of each as it is
/// done.
fn recheck_all(
    set: &[Puzzle],
    depth: u32,
    deeper: Option<u32>,
    threads: usize,
    progress: impl Fn(&Puzzle, &Recheck) + Sync,
) -> Vec<Recheck> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Recheck>>> = Mutex::new(vec![None; set.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(puzzle) = set.get(i) else { break };
                let result = recheck(puzzle, depth, deeper);
                progress(puzzle, &result);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or(Recheck::Gone))
        .collect()
}

/// A set after a check.
struct Rebuilt {
    set: Vec<Puzzle>,
    retired: Vec<u32>,
    /// The ids given, in order: first to the `renewed` puzzles that came back with another
    /// line, then to the added ones.
    new_ids: Vec<u32>,
    renewed: usize,
}

/// The set after a check: the puzzles that hold, with their ids; then under new ids after
/// `given` (the highest id ever given) those that came back with another line and the
/// `added` ones — each unless its solution line is already in the set.
fn rebuild(set: &[Puzzle], results: &[Recheck], given: u32, added: &[Puzzle]) -> Rebuilt {
    let mut kept: Vec<Puzzle> = Vec::new();
    let mut retired = Vec::new();
    let mut renewed: Vec<Puzzle> = Vec::new();
    for (p, r) in set.iter().zip(results) {
        match r {
            Recheck::Holds => kept.push(p.clone()),
            Recheck::NewLine(line) => {
                retired.push(p.id);
                renewed.push(Puzzle {
                    line: line.clone(),
                    difficulty: difficulty(line),
                    ..p.clone()
                });
            }
            Recheck::Gone | Recheck::Refused(_) => retired.push(p.id),
        }
    }
    let mut lines: HashSet<Vec<String>> = kept.iter().map(Puzzle::line_notation).collect();
    let mut next_id = given + 1;
    let mut new_ids = Vec::new();
    let mut append = |mut p: Puzzle, kept: &mut Vec<Puzzle>, new_ids: &mut Vec<u32>| {
        if lines.insert(p.line_notation()) {
            p.id = next_id;
            new_ids.push(next_id);
            next_id += 1;
            kept.push(p);
        }
    };
    for p in renewed {
        append(p, &mut kept, &mut new_ids);
    }
    let renewed = new_ids.len();
    for p in added {
        append(p.clone(), &mut kept, &mut new_ids);
    }
    Rebuilt {
        set: kept,
        retired,
        new_ids,
        renewed,
    }
}

/// "#305 to #420", or "none".
fn id_range(ids: &[u32]) -> String {
    match (ids.first(), ids.last()) {
        (Some(a), Some(b)) if a != b => format!("#{a} to #{b}"),
        (Some(a), _) => format!("#{a}"),
        _ => "none".into(),
    }
}

fn id_list(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter()
        .map(|i| format!("#{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn generate_cmd(args: GenerateArgs) -> ExitCode {
    let variant = args.variant;
    if !(1..=100_000).contains(&args.count) {
        return fail("--count must be between 1 and 100000");
    }
    if !(2..=16).contains(&args.scan_depth) || !(4..=20).contains(&args.verify_depth) {
        return fail("--scan-depth must be 2 to 16 and --verify-depth 4 to 20");
    }
    if args.play_nodes == 0 {
        return fail("--play-nodes must be at least 1");
    }
    let mut settings = GenerationSettings::new(variant, args.count, args.seed);
    settings.play_nodes = args.play_nodes;
    settings.scan_depth = args.scan_depth;
    settings.verify_depth = args.verify_depth;
    settings.deeper_depth = match deeper_depth(args.deeper_depth) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let command = format!(
        "damas puzzles generate --variant {} --count {} --out {} --seed {} --play-nodes {} \
         --scan-depth {} --verify-depth {} --deeper-depth {}",
        variant.id(),
        args.count,
        args.out.display(),
        args.seed,
        args.play_nodes,
        args.scan_depth,
        args.verify_depth,
        args.deeper_depth
    );
    // Fail before hours of work, not after.
    if let Err(e) = write_set(&args.out, &command, 0, &[]) {
        return fail(e);
    }
    let started = Instant::now();
    let mut all: Vec<Puzzle> = Vec::new();
    let mut write_error = None;
    let puzzles = generate(&settings, |puzzle, stats| {
        all.push(puzzle.clone());
        let secs = started.elapsed().as_secs();
        eprintln!(
            "{secs}s: {}/{} found after {} games ({} candidates, {} dropped for a winning move \
             /move would refuse); #{} difficulty {}",
            stats.found,
            args.count,
            stats.games,
            stats.candidates,
            stats.refused,
            puzzle.id,
            puzzle.difficulty
        );
        match write_set(&args.out, &command, secs, &all) {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        }
    });
    if let Some(e) = write_error {
        return fail(e);
    }
    let secs = started.elapsed().as_secs();
    if let Err(e) = write_set(&args.out, &command, secs, &puzzles) {
        return fail(e);
    }
    eprintln!("{} puzzles in {secs} s", puzzles.len());
    ExitCode::SUCCESS
}

fn write_set(path: &Path, command: &str, secs: u64, puzzles: &[Puzzle]) -> Result<(), String> {
    let header = format!(
        "damas puzzles, {} found in {secs} s\ngenerated by: {command}",
        puzzles.len()
    );
    std::fs::write(path, format_set(&header, puzzles))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puzzles of the shipped English set, `skip` in, `n` of them.
    fn shipped(skip: usize, n: usize) -> Vec<Puzzle> {
        let text = include_str!("../../data/puzzles-english.txt");
        let set = parse_set(Variant::English, text).expect("the shipped set reads");
        set.into_iter().skip(skip).take(n).collect()
    }

    fn ids(puzzles: &[Puzzle]) -> Vec<u32> {
        puzzles.iter().map(|p| p.id).collect()
    }

    #[test]
    fn the_highest_id_ever_given_is_read_from_the_header() {
        assert_eq!(ids_given("# damas puzzles generate …\n#\tfen\tline\n"), 0);
        let header = "# ids given up to: 12\n# re-verified by: …\n# ids given up to: 40\n";
        assert_eq!(ids_given(header), 40);
    }

    #[test]
    fn a_check_keeps_the_ids_that_hold_and_never_gives_a_retired_one_again() {
        let set = shipped(0, 4);
        let before = ids(&set);
        let results = vec![
            Recheck::Holds,
            Recheck::Gone,
            Recheck::NewLine(set[2].line.clone()),
            Recheck::Holds,
        ];
        // Ids up to 50 were given once, some of them since retired: new ones start after.
        let rebuilt = rebuild(&set, &results, 50, &[]);
        assert_eq!(rebuilt.retired, vec![before[1], before[2]]);
        assert_eq!(ids(&rebuilt.set), vec![before[0], before[3], 51]);
        assert_eq!(rebuilt.new_ids, vec![51]);
        assert_eq!(rebuilt.renewed, 1);
        assert_eq!(
            rebuilt.set[2].line_notation(),
            set[2].line_notation(),
            "the puzzle comes back with its line under its new id"
        );
    }

    #[test]
    fn added_puzzles_follow_under_new_ids_unless_their_line_is_in_the_set() {
        let set = shipped(0, 3);
        let results = vec![Recheck::Holds; set.len()];
        let fresh = shipped(3, 2);
        // The first of these repeats a line the set has; the others are new to it.
        let added = vec![set[1].clone(), fresh[0].clone(), fresh[1].clone()];
        let given = 60;
        let rebuilt = rebuild(&set, &results, given, &added);
        assert!(rebuilt.retired.is_empty());
        assert_eq!(rebuilt.renewed, 0);
        assert_eq!(rebuilt.new_ids, vec![61, 62]);
        let mut expected = ids(&set);
        expected.extend([61, 62]);
        assert_eq!(ids(&rebuilt.set), expected);
        assert_eq!(rebuilt.set[3].line_notation(), fresh[0].line_notation());
        assert_eq!(id_range(&rebuilt.new_ids), "#61 to #62");
        assert_eq!(id_list(&rebuilt.retired), "none");
    }
}
