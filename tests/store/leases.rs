//! The bot's turn claimed with a lease row on PostgreSQL: two `Store` handles on one database
//! are two processes' views of it. Checked by order (who holds what after which step), never by
//! timing. Without PostgreSQL's server programs these tests are skipped (`support::postgres`).

use crate::support::store::postgres::sql;
use damas::store::{Store, BOT_TURN_LEASE_TTL};
use std::time::Duration;

const CHANNEL: u64 = 1_234_567_890_123_456_789;

/// A fresh database and two handles on it; `None` when the test is skipped.
fn two_processes() -> Option<(String, Store, Store)> {
    let url = crate::support::postgres()?.fresh_database();
    let a = Store::open(&url).expect("open a");
    let b = Store::open(&url).expect("open b");
    Some((url, a, b))
}

#[test]
fn one_claimer_holds_the_turn_and_the_other_gets_it_once_released() {
    let Some((url, a, b)) = two_processes() else {
        return;
    };
    let a = a.bot_turn_leases("process-a", BOT_TURN_LEASE_TTL).unwrap();
    let b = b.bot_turn_leases("process-b", BOT_TURN_LEASE_TTL).unwrap();

    let held = a
        .claim(CHANNEL)
        .unwrap()
        .expect("a free channel is claimed");
    assert!(held.holder().starts_with("process-a"), "{held:?}");
    assert!(a.held_here(CHANNEL) && !b.held_here(CHANNEL));
    assert!(b.claim(CHANNEL).unwrap().is_none(), "b claimed a's turn");
    assert!(
        a.claim(CHANNEL).unwrap().is_none(),
        "a claimed its own turn twice"
    );
    // Other channels are independent.
    let other = b
        .claim(CHANNEL + 1)
        .unwrap()
        .expect("another channel is free");
    let rows = sql(&url, "SELECT holder FROM bot_turn_leases ORDER BY channel");
    let holders: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(holders.len(), 2, "{holders:?}");
    assert!(holders[0].starts_with("process-a") && holders[1].starts_with("process-b"));

    drop(held);
    assert!(!a.held_here(CHANNEL));
    let taken = b.claim(CHANNEL).unwrap().expect("released: b gets it");
    assert!(b.held_here(CHANNEL));
    assert!(a.claim(CHANNEL).unwrap().is_none());
    drop((taken, other));
    assert!(sql(&url, "SELECT 1 FROM bot_turn_leases").is_empty());
}

#[test]
fn a_lease_left_by_a_dead_process_is_taken_once_it_expires() {
    let Some((url, a, _)) = two_processes() else {
        return;
    };
    let a = a.bot_turn_leases("process-a", BOT_TURN_LEASE_TTL).unwrap();
    // A process that died while thinking: its lease is still live, then it expires.
    sql(
        &url,
        &format!(
            "INSERT INTO bot_turn_leases VALUES ({}, 'dead', now() + interval '1 hour')",
            CHANNEL as i64
        ),
    );
    assert!(
        a.claim(CHANNEL).unwrap().is_none(),
        "a live lease was taken"
    );
    sql(
        &url,
        "UPDATE bot_turn_leases SET expires_at = now() - interval '1 second'",
    );
    let taken = a
        .claim(CHANNEL)
        .unwrap()
        .expect("an expired lease is taken");
    let holder: String = sql(&url, "SELECT holder FROM bot_turn_leases")[0].get(0);
    assert_eq!(holder, taken.holder());
    // The new lease lasts the ttl from now.
    let left: f64 = sql(
        &url,
        "SELECT extract(epoch FROM expires_at - now())::float8 FROM bot_turn_leases",
    )[0]
    .get(0);
    assert!(left > 20.0 && left <= 30.5, "{left}");
}

#[test]
fn a_holder_that_lives_keeps_renewing_its_lease() {
    let Some((url, a, b)) = two_processes() else {
        return;
    };
    let ttl = Duration::from_secs(3);
    let a = a.bot_turn_leases("process-a", ttl).unwrap();
    let b = b.bot_turn_leases("process-b", ttl).unwrap();
    let held = a.claim(CHANNEL).unwrap().unwrap();
    let expiry = |url: &str| -> f64 {
        sql(
            url,
            "SELECT extract(epoch FROM expires_at)::float8 FROM bot_turn_leases",
        )[0]
        .get(0)
    };
    let first = expiry(&url);
    // Renewed (every ttl / 3) past the first expiry: wait for it, however slow the machine.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while expiry(&url) <= first + 3.5 {
        assert!(std::time::Instant::now() < deadline, "never renewed");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        b.claim(CHANNEL).unwrap().is_none(),
        "a renewed lease was taken"
    );
    drop(held);
    assert!(b.claim(CHANNEL).unwrap().is_some());
}

#[test]
fn sled_has_no_leases_its_one_process_claims_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("db")).unwrap();
    assert!(store
        .bot_turn_leases("process-a", BOT_TURN_LEASE_TTL)
        .is_none());
}

#[test]
fn racing_claimers_on_two_processes_get_one_lease() {
    let Some((_, a, b)) = two_processes() else {
        return;
    };
    let a = a.bot_turn_leases("process-a", BOT_TURN_LEASE_TTL).unwrap();
    let b = b.bot_turn_leases("process-b", BOT_TURN_LEASE_TTL).unwrap();
    for round in 0..20u64 {
        let channel = CHANNEL + 10 + round;
        let barrier = std::sync::Barrier::new(8);
        let won: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|i| {
                    let (leases, barrier) = (if i % 2 == 0 { &a } else { &b }, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        leases.claim(channel).unwrap()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let holders: Vec<_> = won.iter().flatten().collect();
        assert_eq!(holders.len(), 1, "round {round}: {holders:?}");
    }
}
