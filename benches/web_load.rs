//! The board page under load: 200 open pages (Server-Sent Events clients) following 100 games
//! between people, two pages a game, while moves are played through the app; for each move
//! and page, the time from the move's request to that page holding the new position (its
//! `change` event, then its state fetched as the page's script does). Prints p50, p99 and max.
//!
//! The server is the web layer (`damas::web::Web`) on hyper over a sled store in a temporary
//! folder, with the pages on this machine: the figure is the app's and the page's, without a
//! network. Moves render their PNG as in Discord.
//!
//! Run by hand (seconds to a minute; not in CI): `cargo bench --bench web_load`.

use async_trait::async_trait;
use damas::app::board_page::BoardLinks;
use damas::app::deliver::{Delivery, MessageId, NotShown};
use damas::app::{Actor, App, Place, Reply, Settings, UserRef};
use damas::engine::{Color, Variant};
use damas::store::Store;
use damas::web::Web;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Shows nothing: the bench measures the page, not Discord.
struct Nowhere(AtomicU64);

#[async_trait]
impl Delivery for Nowhere {
    async fn post(&self, _: u64, _: &Reply) -> Result<MessageId, NotShown> {
        Ok(self.0.fetch_add(1, Ordering::SeqCst))
    }
    async fn edit(&self, _: u64, _: MessageId, _: &Reply) -> Result<(), NotShown> {
        Ok(())
    }
    async fn strip_controls(&self, _: u64, _: MessageId) -> Result<(), NotShown> {
        Ok(())
    }
    async fn open_thread(&self, _: u64, _: &str) -> Result<u64, NotShown> {
        Ok(self.0.fetch_add(1, Ordering::SeqCst))
    }
    async fn archive_thread(&self, _: u64) -> Result<(), NotShown> {
        Ok(())
    }
}

fn actor(id: u64, name: &str) -> Actor {
    Actor {
        user_id: id,
        name: name.into(),
        locale: "en-US".into(),
        can_manage_messages: false,
        can_manage_events: false,
        can_manage_guild: false,
        roles: Vec::new(),
    }
}

/// When each (channel, ply) was asked for.
type Asked = Arc<Mutex<HashMap<(u64, u64), Instant>>>;

/// One page: follows `channel`'s events and, on each, fetches the state; records the delay
/// since the move of the ply it then shows was asked for.
async fn page(base: String, channel: u64, asked: Asked, delays: Arc<Mutex<Vec<Duration>>>) {
    let http = reqwest::Client::new();
    let mut events = http
        .get(format!("{base}/board/{channel}/events"))
        .send()
        .await
        .expect("an event stream");
    let mut seen = 0u64;
    while let Ok(Some(chunk)) = events.chunk().await {
        if !String::from_utf8_lossy(&chunk).contains("event: change") {
            continue;
        }
        let state: serde_json::Value = match http
            .get(format!("{base}/board/{channel}/state"))
            .send()
            .await
        {
            Ok(r) => r
                .bytes()
                .await
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .unwrap_or_default(),
            Err(_) => continue,
        };
        let ply = state["ply"].as_u64().unwrap_or(0);
        if ply > seen {
            seen = ply;
            if let Some(at) = asked.lock().unwrap().get(&(channel, ply)) {
                delays.lock().unwrap().push(at.elapsed());
            }
        }
    }
}

fn main() {
    // `cargo test --benches` runs bench binaries without `--bench`: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let (games, pages_per_game, rounds) = if quick { (2, 2, 2) } else { (100, 2, 10) };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("db")).expect("store");
    let settings = Settings {
        board_links: Some(BoardLinks::new(
            "http://127.0.0.1",
            b"a secret for the bench, long enough",
            Duration::from_secs(3600),
        )),
        ..Settings::default()
    };
    let app = App::new(store, settings);
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let opponent = UserRef {
        user_id: 2,
        name: "bob".into(),
        is_bot: false,
    };
    runtime.block_on(async {
        let place = |g: u64| Place {
            guild_id: Some(1),
            channel_id: 1000 + g,
        };
        for g in 0..games {
            let a = app
                .challenge(
                    &alice,
                    place(g),
                    &opponent,
                    Some(Variant::Spanish),
                    Some(Color::White),
                )
                .await;
            let accept = a.replies[0].buttons[0].id.clone();
            app.component(&bob, place(g), &accept, &[]).await;
        }
        let web = Arc::new(Web::new(app.clone(), Arc::new(Nowhere(AtomicU64::new(1)))));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let web = Arc::clone(&web);
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |request| {
                        let web = Arc::clone(&web);
                        async move { Ok::<_, Infallible>(web.answer(request).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        let asked: Asked = Arc::default();
        let delays: Arc<Mutex<Vec<Duration>>> = Arc::default();
        for g in 0..games {
            for _ in 0..pages_per_game {
                tokio::spawn(page(
                    base.clone(),
                    place(g).channel_id,
                    Arc::clone(&asked),
                    Arc::clone(&delays),
                ));
            }
        }
        // Every page is following before the first move.
        while app.game_feed().followed() < games as usize {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        let mut moves = 0usize;
        for round in 0..rounds {
            for g in 0..games {
                let p = place(g);
                let Ok(Some(rec)) = app.store().active_game(p.channel_id) else {
                    continue;
                };
                let game = rec.to_game().expect("game");
                let legal = damas::engine::legal_notations(game.position());
                let pick = &legal[(round * 7 + g as usize) % legal.len()].1;
                let who = if game.side_to_move() == Color::White {
                    &alice
                } else {
                    &bob
                };
                asked
                    .lock()
                    .unwrap()
                    .insert((p.channel_id, game.ply() as u64 + 1), Instant::now());
                app.play_move(who, p, pick).await;
                moves += 1;
            }
        }
        let played = started.elapsed();
        // The last updates arrive.
        let expected = moves * pages_per_game;
        for _ in 0..100 {
            if delays.lock().unwrap().len() >= expected {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut times = delays.lock().unwrap().clone();
        times.sort();
        if times.is_empty() {
            println!("web load: no update arrived");
            return;
        }
        let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
        println!(
            "web load: {} pages following {} games, {} moves in {:.1} s ({:.0} moves/s); {} of {} updates arrived; update latency (move asked → page holds the new position) p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            games as usize * pages_per_game,
            games,
            moves,
            played.as_secs_f64(),
            moves as f64 / played.as_secs_f64(),
            times.len(),
            expected,
            pct(0.50).as_secs_f64() * 1e3,
            pct(0.99).as_secs_f64() * 1e3,
            times.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        );
    });
}
