//! Crash test: a child process keeps playing moves into the store and prints each one after
//! the store acknowledged it; it is killed with SIGKILL at random moments, 50 times, and
//! after each kill the store must hold every acknowledged move and decode every record.
//!
//! A test binary without libtest (`harness = false` in Cargo.toml): run with `writer <path>
//! <seed>` it is the child; run any other way it is the test, and starts itself as the child.
//! Seed the rounds with `STORE_CRASH_SEED` to replay a failure. Runs on sled, then on
//! PostgreSQL (a server of this binary's own, which the kills do not touch: what is
//! checked there is that nothing is acknowledged before it is committed; skipped without
//! PostgreSQL's server programs, as the other store tests are).

// The store fixtures alone: this binary needs no Discord stand-in.
#[path = "support/store/mod.rs"]
mod store_common;

use damas::app::scoring::Scoring;
use damas::engine::{Outcome, Variant, WinReason};
use damas::store::{GameRecord, Store, StoreError};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use store_common::*;

const ROUNDS: usize = 50;
const GUILD: u64 = 1;

/// The channels the writer plays in: people, the computer, English people.
fn channel_players(channel: u64) -> (Variant, [damas::store::Seat; 2]) {
    match channel {
        1 => (Variant::Spanish, [human(1), human(2)]),
        2 => (Variant::Spanish, [human(3), bot(Level::Easy)]),
        _ => (Variant::English, [human(4), human(1)]),
    }
}
const CHANNELS: [u64; 3] = [1, 2, 3];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        println!("crash_recovery::sled: test");
        println!("crash_recovery::postgres: test");
        return ExitCode::SUCCESS;
    }
    if args.get(1).map(String::as_str) == Some("writer") {
        let (Some(path), Some(seed)) = (args.get(2), args.get(3).and_then(|s| s.parse().ok()))
        else {
            eprintln!("usage: store_crash writer <path> <seed>");
            return ExitCode::FAILURE;
        };
        return match writer(Path::new(path), seed) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("writer: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut code = ExitCode::SUCCESS;
    for (name, backend) in [("sled", Backend::Sled), ("postgres", Backend::Postgres)] {
        let test = format!("crash_recovery::{name}");
        // On a thread named after the test, as the harness runs its tests: a skip names it
        // (without PostgreSQL's server programs; a failure under CI=true), a panic is caught.
        let run = std::thread::Builder::new()
            .name(test.clone())
            .spawn(move || TestDb::optional(backend).map(crash_recovery))
            .expect("a thread for the test")
            .join();
        match run {
            // Skipped: the line saying so is printed.
            Ok(None) => {}
            Ok(Some(Ok(report))) => println!("{test} ... ok ({report})"),
            Ok(Some(Err(e))) => {
                println!("{test} ... FAILED\n{e}");
                code = ExitCode::FAILURE;
            }
            Err(_) => {
                println!("{test} ... FAILED (panicked, see above)");
                code = ExitCode::FAILURE;
            }
        }
    }
    code
}

// ---- the child ----

fn writer(path: &Path, seed: u64) -> Result<(), StoreError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StoreError::CreateDir {
            path: path.to_path_buf(),
            source: e,
        })?;
    runtime.block_on(async {
        let store = Store::open(path)?;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut clock = 1_000_000;
        loop {
            for channel in CHANNELS {
                clock += 1;
                match step(&store, channel, &mut rng, clock).await {
                    // On PostgreSQL, a COMMIT the killed writer had sent can land after this
                    // writer read the game: its change was never acknowledged, but it is there.
                    // Read again, as the bot does when a position changed under it.
                    Err(StoreError::Conflict { .. } | StoreError::ChannelBusy { .. }) => continue,
                    other => other?,
                }
            }
        }
    })
}

/// One acknowledged change in `channel`, printed once the store has returned.
async fn step(store: &Store, channel: u64, rng: &mut SmallRng, now: u64) -> Result<(), StoreError> {
    let Some(rec) = store.active_game(channel)? else {
        let (variant, players) = channel_players(channel);
        let id = store.new_game_id()?;
        let rec = GameRecord::new(id, Some(GUILD), channel, variant, players.into(), now);
        store.create_game(rec).await?;
        println!("created {channel} {id}");
        return Ok(());
    };
    let ply = rec.ply();
    let mut next = rec.clone();
    // Now and then someone resigns, so that games end often and the kill also lands in the
    // middle of finishing them.
    if rng.gen_ratio(1, 40) {
        let loser = side_to_move(&rec);
        next.outcome = Some(Outcome::Win {
            winner: loser.opposite(),
            reason: WinReason::Resignation,
        });
        store.finish_game(channel, ply, &next, &Scoring).await?;
        println!("finished {channel} {} {ply} -", rec.id);
        return Ok(());
    }
    let Some(mv) = random_move(&rec, rng) else {
        return Ok(());
    };
    push_move(&mut next, mv, now);
    let stored = damas::store::StoredMove::from_move(&mv);
    if next.outcome.is_some() {
        store.finish_game(channel, ply, &next, &Scoring).await?;
        println!("finished {channel} {} {} {stored}", rec.id, ply + 1);
    } else {
        store.update_game(channel, ply, &next).await?;
        println!("ack {channel} {} {} {stored}", rec.id, ply + 1);
    }
    Ok(())
}

// ---- the test ----

/// What the children acknowledged, over all rounds.
#[derive(Default)]
struct Acknowledged {
    /// game id → channel.
    games: HashMap<u64, u64>,
    /// game id → ply → the move at that ply ("-" for a resignation).
    moves: HashMap<u64, HashMap<usize, String>>,
    /// game id → ply at which it ended.
    finished: HashMap<u64, usize>,
    count: usize,
}

impl Acknowledged {
    fn read(&mut self, line: &str) -> Result<(), String> {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| -> Result<u64, String> {
            parts
                .get(i)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| format!("bad line {line:?}"))
        };
        match parts.first().copied() {
            Some("created") => {
                self.games.insert(num(2)?, num(1)?);
            }
            Some(kind @ ("ack" | "finished")) => {
                let (channel, id, ply) = (num(1)?, num(2)?, num(3)? as usize);
                let mv = parts.get(4).ok_or_else(|| format!("bad line {line:?}"))?;
                self.games.insert(id, channel);
                if *mv != "-" {
                    self.moves
                        .entry(id)
                        .or_default()
                        .insert(ply, mv.to_string());
                }
                if kind == "finished" {
                    self.finished.insert(id, ply);
                }
            }
            _ => return Err(format!("unexpected output {line:?}")),
        }
        self.count += 1;
        Ok(())
    }
}

fn crash_recovery(db: TestDb) -> Result<String, String> {
    let started = Instant::now();
    let seed = std::env::var("STORE_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    let mut rng = SmallRng::seed_from_u64(seed);
    let path = db.spec.clone();
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut acked = Acknowledged::default();
    let fail = |round: usize, e: String| format!("round {round} (STORE_CRASH_SEED={seed}): {e}");

    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .arg("writer")
            .arg(&path)
            .arg(rng.gen::<u64>().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(round, format!("spawn: {e}")))?;
        // Opening the store takes a moment; kill anywhere from before it is open to well
        // into the writing.
        std::thread::sleep(Duration::from_millis(rng.gen_range(5..250)));
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            return Err(fail(
                round,
                format!("the writer stopped by itself ({status}): {err}"),
            ));
        }
        child
            .kill()
            .map_err(|e| fail(round, format!("kill: {e}")))?; // SIGKILL on Unix
        child
            .wait()
            .map_err(|e| fail(round, format!("wait: {e}")))?;
        let mut out = String::new();
        if let Some(mut stdout) = child.stdout.take() {
            stdout
                .read_to_string(&mut out)
                .map_err(|e| fail(round, format!("read: {e}")))?;
        }
        // Only whole lines count: a line cut by the kill was never fully acknowledged.
        let whole = out.rfind('\n').map_or("", |end| &out[..end]);
        for line in whole.lines() {
            acked.read(line).map_err(|e| fail(round, e))?;
        }
        check(&path, &acked).map_err(|e| fail(round, e))?;
    }
    if acked.count < ROUNDS {
        return Err(format!(
            "only {} changes acknowledged in {ROUNDS} rounds: the kills came too early to test anything",
            acked.count
        ));
    }
    Ok(format!(
        "{ROUNDS} kills, {} acknowledged changes, {} games ended, {:.1} s",
        acked.count,
        acked.finished.len(),
        started.elapsed().as_secs_f64()
    ))
}

/// Reopens the store and checks every acknowledged change and every record.
fn check(path: &Path, acked: &Acknowledged) -> Result<(), String> {
    let store = Store::open(path).map_err(|e| format!("reopen: {e}"))?;
    let mut found: HashMap<u64, GameRecord> = HashMap::new();
    for active in store.active_games().map_err(|e| e.to_string())? {
        let rec = active.map_err(|e| format!("active game: {e}"))?;
        rec.to_game()
            .map_err(|e| format!("active game {}: {e}", rec.id))?;
        if let Some(old) = found.insert(rec.id, rec) {
            return Err(format!("game {} active in two channels", old.id));
        }
    }
    for channel in CHANNELS {
        for rec in store
            .games_in_channel(channel, usize::MAX)
            .map_err(|e| format!("archive: {e}"))?
        {
            if rec.outcome.is_none() {
                return Err(format!("archived game {} has no outcome", rec.id));
            }
            rec.to_game()
                .map_err(|e| format!("archived game {}: {e}", rec.id))?;
            if found.insert(rec.id, rec.clone()).is_some() {
                return Err(format!("game {} is both active and archived", rec.id));
            }
        }
    }
    for (id, channel) in &acked.games {
        let rec = found
            .get(id)
            .ok_or_else(|| format!("acknowledged game {id} (channel {channel}) is gone"))?;
        if rec.channel_id != *channel {
            return Err(format!("game {id} moved from channel {channel}"));
        }
        for (ply, mv) in acked.moves.get(id).into_iter().flatten() {
            let stored = rec.moves.get(ply - 1).map(ToString::to_string);
            if stored.as_deref() != Some(mv.as_str()) {
                return Err(format!(
                    "game {id}: acknowledged {mv} at ply {ply}, found {stored:?} ({} plies)",
                    rec.ply()
                ));
            }
        }
        if let Some(ply) = acked.finished.get(id) {
            if rec.outcome.is_none() || rec.ply() != *ply {
                return Err(format!(
                    "game {id}: acknowledged as ended at ply {ply}, found {} plies, outcome {:?}",
                    rec.ply(),
                    rec.outcome
                ));
            }
        }
    }
    for user in 1..=4 {
        store
            .player(user)
            .map_err(|e| format!("player {user}: {e}"))?;
    }
    for variant in Variant::ALL {
        store
            .leaderboard(GUILD, variant, None, usize::MAX)
            .map_err(|e| format!("leaderboard: {e}"))?;
    }
    store
        .leaderboard(GUILD, Variant::Spanish, Some(Level::Easy), usize::MAX)
        .map_err(|e| format!("leaderboard: {e}"))?;
    // Players' game counts agree with the archive: each finished game was counted once.
    let archived_people = found
        .values()
        .filter(|r| r.outcome.is_some() && r.channel_id == 1)
        .count() as u32;
    if let Some(p) = store.player(2).map_err(|e| e.to_string())? {
        let counted = p.variant(Variant::Spanish).people.games();
        if counted != archived_people {
            return Err(format!(
                "player 2 has {counted} Spanish games counted, the archive holds {archived_people}"
            ));
        }
    }
    Ok(())
}
