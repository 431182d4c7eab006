//! What the bot tells a monitoring stack about itself: every metric's name, help text, labels
//! and buckets, in this one place, and a function to record each.
//!
//! The layers record through the `metrics` facade by calling the functions here (never its
//! macros directly), so a name is written once. Until a recorder is installed
//! ([`install`], when `DAMAS_METRICS_LISTEN` is set) every call is a no-op, which costs a
//! load and a branch. This module uses nothing of ours: `store`, `app` and the front ends
//! may all call it; `engine` does not (the rules know nothing of the process).
//!
//! Names and labels follow Prometheus' conventions: the `damas_` prefix, base units
//! (`_seconds`, `_bytes`), `_total` on counters, and label values from a short fixed list —
//! never a user, channel, guild or game id.

use metrics::{counter, gauge, histogram, Unit};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// Interactions answered (or not), by `kind` (the command's name, `component` or
/// `autocomplete`) and `outcome` ([`Outcome`]).
pub const INTERACTIONS: &str = "damas_interactions_total";
/// Seconds from an interaction's receipt to its first answer reaching Discord, by `kind`
/// (as in [`INTERACTIONS`]).
pub const ANSWER_SECONDS: &str = "damas_answer_seconds";
/// Calls to Discord tried again, by `reason` ([`DeliveryFailure`]).
pub const DELIVERIES_RETRIED: &str = "damas_deliveries_retried_total";
/// Calls to Discord given up, by `reason` ([`DeliveryFailure`], or `final` for an error no
/// retry can mend, `deadline` for one out of time).
pub const DELIVERIES_FAILED: &str = "damas_deliveries_failed_total";
/// Games under way now, by `variant` and `kind` (`people`, `bot_easy` … `bot_expert`).
pub const GAMES_UNDER_WAY: &str = "damas_games_under_way";
/// Moves stored, by `variant` (a rate of this is moves per second).
pub const MOVES_STORED: &str = "damas_moves_stored_total";
/// Seconds a bot move waited in the search queue, by `level`.
pub const BOT_WAIT_SECONDS: &str = "damas_bot_move_wait_seconds";
/// Seconds a bot move was searched, by `level`.
pub const BOT_THINK_SECONDS: &str = "damas_bot_move_think_seconds";
/// Searches waiting in the pool's queues now, by `class` (`quick`, `short`, `long`).
pub const SEARCH_QUEUE_DEPTH: &str = "damas_search_queue_depth";
/// Seconds a store operation took, by `backend` (`sled`, `postgres`) and `op`.
pub const STORE_OP_SECONDS: &str = "damas_store_operation_seconds";
/// Store transactions run again after a conflict with another writer, by `backend`.
pub const STORE_CONFLICTS_RETRIED: &str = "damas_store_conflicts_retried_total";
/// Gateway shards of this process connected now.
pub const SHARDS_CONNECTED: &str = "damas_shards_connected";
/// Bot-turn leases (PostgreSQL) this process holds now.
pub const LEASES_HELD: &str = "damas_leases_held";
/// Passes of the sweeper.
pub const SWEEPS: &str = "damas_sweeper_runs_total";
/// What the sweeper did, by `action` (`reminder`, `loss_on_time`, `challenge_expired`,
/// `old_game_removed`).
pub const SWEEP_ACTIONS: &str = "damas_sweeper_actions_total";
/// The process's resident memory.
pub const RESIDENT_MEMORY: &str = "damas_process_resident_memory_bytes";
/// 1 while the process can serve (what `/readyz` says), 0 otherwise.
pub const READY: &str = "damas_ready";
/// By `variant`: 1 once its default set of endgame tables is complete in the tables' folder,
/// 0 while `bot` or `serve` is still building it in the background (or cannot).
pub const EGDB_SETS_READY: &str = "damas_egdb_sets_ready";

/// Latency buckets (seconds) for answers and bot moves: Discord's 3 s deadline and the 2 s
/// alert line fall on bucket bounds.
const LATENCY_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 60.0,
];
/// Store operations are quicker: finer buckets at the low end.
const STORE_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// The buckets of [`ANSWER_SECONDS`] (the load bench compares its own figures with them).
pub fn answer_buckets() -> &'static [f64] {
    LATENCY_BUCKETS
}

/// How an interaction ended, as [`INTERACTIONS`] counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Done as asked, and answered within Discord's deadline.
    Answered,
    /// Answered in time with a refusal: an illegal move, not your turn, no game here.
    Refused,
    /// The bot could not do it: storage failed, or the use case crashed.
    Failed,
    /// No first answer reached Discord in time (the answer went to the channel, or was lost).
    Late,
}

impl Outcome {
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Answered => "answered",
            Outcome::Refused => "refused",
            Outcome::Failed => "failed",
            Outcome::Late => "late",
        }
    }
}

/// Why a call to Discord failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryFailure {
    /// A 5xx answer.
    ServerError,
    /// A 429.
    RateLimited,
    /// No answer: connection refused or reset, a timeout.
    Network,
    /// An answer no retry can mend (a 4xx other than 429).
    Final,
    /// Out of time: the next try would end after the interaction's deadline.
    Deadline,
}

impl DeliveryFailure {
    pub fn label(self) -> &'static str {
        match self {
            DeliveryFailure::ServerError => "5xx",
            DeliveryFailure::RateLimited => "429",
            DeliveryFailure::Network => "network",
            DeliveryFailure::Final => "final",
            DeliveryFailure::Deadline => "deadline",
        }
    }
}

/// What the sweeper did for one game or challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepAction {
    Reminder,
    LossOnTime,
    ChallengeExpired,
    /// A finished game older than `DAMAS_KEEP_GAMES_DAYS` removed.
    OldGameRemoved,
}

impl SweepAction {
    fn label(self) -> &'static str {
        match self {
            SweepAction::Reminder => "reminder",
            SweepAction::LossOnTime => "loss_on_time",
            SweepAction::ChallengeExpired => "challenge_expired",
            SweepAction::OldGameRemoved => "old_game_removed",
        }
    }
}

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process's Prometheus recorder, once; later calls return the same handle.
/// `None` if another recorder was installed first.
pub fn install() -> Option<PrometheusHandle> {
    if let Some(handle) = HANDLE.get() {
        return Some(handle.clone());
    }
    let builder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(STORE_OP_SECONDS.into()), STORE_BUCKETS)
        .and_then(|b| b.set_buckets(LATENCY_BUCKETS))
        .ok()?;
    let recorder = builder.build_recorder();
    let handle = recorder.handle();
    metrics::set_global_recorder(recorder).ok()?;
    describe();
    let _ = HANDLE.set(handle.clone());
    Some(handle)
}

/// The help texts and units, from the constants' own docs.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        INTERACTIONS,
        "Interactions by kind and outcome (answered, refused, failed, late)."
    );
    describe_histogram!(
        ANSWER_SECONDS,
        Unit::Seconds,
        "Seconds from an interaction's receipt to its first answer reaching Discord, by kind."
    );
    describe_counter!(
        DELIVERIES_RETRIED,
        "Calls to Discord tried again, by reason (5xx, 429, network)."
    );
    describe_counter!(
        DELIVERIES_FAILED,
        "Calls to Discord given up, by reason (5xx, 429, network, final, deadline)."
    );
    describe_gauge!(
        GAMES_UNDER_WAY,
        "Games under way, by variant and kind (people, bot_<level>)."
    );
    describe_counter!(MOVES_STORED, "Moves stored, by variant.");
    describe_histogram!(
        BOT_WAIT_SECONDS,
        Unit::Seconds,
        "Seconds a bot move waited in the search queue, by level."
    );
    describe_histogram!(
        BOT_THINK_SECONDS,
        Unit::Seconds,
        "Seconds a bot move was searched, by level."
    );
    describe_gauge!(
        SEARCH_QUEUE_DEPTH,
        "Searches waiting in the pool's queues, by class (quick, short, long)."
    );
    describe_histogram!(
        STORE_OP_SECONDS,
        Unit::Seconds,
        "Seconds a store operation took, by backend and operation."
    );
    describe_counter!(
        STORE_CONFLICTS_RETRIED,
        "Store transactions run again after a conflict with another writer, by backend."
    );
    describe_gauge!(
        SHARDS_CONNECTED,
        "Gateway shards of this process connected."
    );
    describe_gauge!(
        LEASES_HELD,
        "Bot-turn leases (PostgreSQL) this process holds."
    );
    describe_counter!(SWEEPS, "Passes of the sweeper.");
    describe_counter!(
        SWEEP_ACTIONS,
        "What the sweeper did, by action (reminder, loss_on_time, challenge_expired, old_game_removed)."
    );
    describe_gauge!(
        RESIDENT_MEMORY,
        Unit::Bytes,
        "The process's resident memory."
    );
    describe_gauge!(
        READY,
        "1 while the process can serve (/readyz), 0 otherwise."
    );
    describe_gauge!(
        EGDB_SETS_READY,
        "1 once a variant's default endgame tables are complete, 0 while they are being built."
    );
}

pub fn interaction(kind: &'static str, outcome: Outcome) {
    counter!(INTERACTIONS, "kind" => kind, "outcome" => outcome.label()).increment(1);
}

pub fn answer_latency(kind: &'static str, latency: Duration) {
    histogram!(ANSWER_SECONDS, "kind" => kind).record(latency.as_secs_f64());
}

pub fn delivery_retried(reason: DeliveryFailure) {
    counter!(DELIVERIES_RETRIED, "reason" => reason.label()).increment(1);
}

pub fn delivery_failed(reason: DeliveryFailure) {
    counter!(DELIVERIES_FAILED, "reason" => reason.label()).increment(1);
}

/// Sets [`GAMES_UNDER_WAY`] for one (variant, kind); `kind` is `people` or a [`bot_kind`].
pub fn games_under_way(variant: &'static str, kind: String, games: usize) {
    gauge!(GAMES_UNDER_WAY, "variant" => variant, "kind" => kind).set(games as f64);
}

/// The `kind` of a game against the bot at the level whose id is `level_id`, for
/// [`GAMES_UNDER_WAY`]: `bot_easy` … `bot_expert` (the ids are the level's, written once).
pub fn bot_kind(level_id: &str) -> String {
    format!("bot_{level_id}")
}

pub fn moves_stored(variant: &'static str, moves: usize) {
    counter!(MOVES_STORED, "variant" => variant).increment(moves as u64);
}

pub fn bot_move(level: &'static str, waited: Duration, thought: Duration) {
    histogram!(BOT_WAIT_SECONDS, "level" => level).record(waited.as_secs_f64());
    histogram!(BOT_THINK_SECONDS, "level" => level).record(thought.as_secs_f64());
}

pub fn search_queue_depth(class: &'static str, waiting: usize) {
    gauge!(SEARCH_QUEUE_DEPTH, "class" => class).set(waiting as f64);
}

pub fn store_op(backend: &'static str, op: &'static str, took: Duration) {
    histogram!(STORE_OP_SECONDS, "backend" => backend, "op" => op).record(took.as_secs_f64());
}

pub fn store_conflict_retried(backend: &'static str) {
    counter!(STORE_CONFLICTS_RETRIED, "backend" => backend).increment(1);
}

pub fn shards_connected(shards: usize) {
    gauge!(SHARDS_CONNECTED).set(shards as f64);
}

pub fn lease_taken() {
    gauge!(LEASES_HELD).increment(1.0);
}

pub fn lease_released() {
    gauge!(LEASES_HELD).decrement(1.0);
}

pub fn sweep_run() {
    counter!(SWEEPS).increment(1);
}

pub fn sweep_action(action: SweepAction) {
    sweep_actions(action, 1);
}

pub fn sweep_actions(action: SweepAction, count: u64) {
    counter!(SWEEP_ACTIONS, "action" => action.label()).increment(count);
}

pub fn ready(ready: bool) {
    gauge!(READY).set(if ready { 1.0 } else { 0.0 });
}

pub fn egdb_set_ready(variant: &'static str, ready: bool) {
    gauge!(EGDB_SETS_READY, "variant" => variant).set(if ready { 1.0 } else { 0.0 });
}

/// Samples the process's resident memory (Linux: `/proc/self/statm`; elsewhere nothing).
pub fn sample_resident_memory() {
    if let Some(bytes) = resident_memory_bytes() {
        gauge!(RESIDENT_MEMORY).set(bytes as f64);
    }
}

/// Resident pages × page size, from `/proc/self/statm` (its second field).
fn resident_memory_bytes() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        // SAFETY: sysconf only reads a configuration value.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        u64::try_from(page).ok().map(|page| pages * page)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let bytes = resident_memory_bytes().expect("/proc/self/statm reads");
            // A test binary holds at least a megabyte, and less than the machine.
            assert!(bytes > 1 << 20, "{bytes}");
        }
    }

    #[test]
    fn the_answer_buckets_hold_the_alert_line_and_discords_deadline() {
        assert!(answer_buckets().contains(&2.0));
        assert!(answer_buckets().contains(&3.0));
        assert!(answer_buckets().windows(2).all(|w| w[0] < w[1]));
    }
}
