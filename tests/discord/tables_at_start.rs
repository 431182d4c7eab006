//! A first start without endgame tables: `damas serve` says where its data is, starts building
//! the tables into its data folder in the background, and serves meanwhile — ready, answering,
//! the tables appearing one by one.

use crate::support::bot::*;
use crate::support::stand_in::*;
use serde_json::json;
use std::time::Duration;

/// Polls `done` every 100 ms, at most `tries` times: a safety net for a process that never
/// gets there, not a measure of its speed.
async fn eventually(tries: u32, mut done: impl FnMut() -> bool) -> bool {
    for _ in 0..tries {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    done()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_start_without_tables_builds_them_in_the_background_and_serves_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data_text = data.to_str().expect("a UTF-8 path");
    let standin = StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await;
    let db = dir.path().join("db");
    let serve = BotProcess::serve_with(
        &standin,
        db.to_str().expect("a UTF-8 path"),
        dir.path(),
        &[
            ("DAMAS_DATA", data_text),
            ("DAMAS_EGDB_BUILD", "on"),
            ("DAMAS_METRICS_LISTEN", "127.0.0.1:0"),
        ],
    )
    .await;
    // The start-up line: the data folder, the database, the tables found (none).
    let start = serve.printed("data folder ");
    assert_eq!(start.len(), 1, "{start:?}");
    let egdb = data.join("egdb");
    for part in [
        data_text.to_string(),
        format!("database {}", db.display()),
        format!("endgame tables in {}", egdb.display()),
    ] {
        assert!(start[0].contains(&part), "{part:?} in {}", start[0]);
    }
    // The builder's line, naming each set and the folder.
    assert!(
        eventually(300, || !serve
            .printed("endgame tables: building")
            .is_empty())
        .await,
        "the builder says it starts"
    );
    let building = serve.printed("endgame tables: building").remove(0);
    for set in [
        "spanish up to 4 pieces",
        "portuguese up to 4 pieces",
        "english up to 5 pieces",
    ] {
        assert!(building.contains(set), "{set:?} in {building}");
    }
    // Ready and answering while it builds: readiness does not wait for the tables.
    let metrics = serve.metrics_addr().await;
    assert_eq!(http_get(&metrics, "/readyz").await, (200, "ready\n".into()));
    let pong = standin.post_ping(&serve.url).await;
    assert_eq!((pong.status, pong.body), (200, json!({"type": 1})));
    // English's five pieces take minutes: not ready yet, and the metric says so.
    let (status, scrape) = http_get(&metrics, "/metrics").await;
    assert_eq!(status, 200);
    assert_eq!(
        metric(&scrape, "damas_egdb_sets_ready", &[("variant", "english")]),
        Some(0.0),
        "{scrape}"
    );
    // The first tables appear in the data folder, whole (no temporary name left behind once
    // a table is there).
    let spanish = egdb.join("spanish");
    let tables_written = || {
        std::fs::read_dir(&spanish)
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.path().extension().is_some_and(|x| x == "egdb"))
                    .count()
            })
            .unwrap_or(0)
    };
    assert!(
        eventually(3000, || tables_written() > 0).await,
        "tables are written into {}",
        spanish.display()
    );
}
