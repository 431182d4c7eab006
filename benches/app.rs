//! The application layer's time for a human move, picture included, without the network:
//! load the game, check and play the move, store it durably (flush), render the board.
//! Prints p50, p99 and max over many moves. Run: `cargo bench --bench app`.

use damas::app::{Actor, App, Place, Settings, UserRef};
use damas::engine::{Color, Variant};
use damas::store::Store;
use std::time::{Duration, Instant};

fn actor(id: u64, name: &str) -> Actor {
    Actor {
        user_id: id,
        name: name.into(),
        locale: "en-US".into(),
        can_manage_messages: false,
        can_manage_events: false,
        can_manage_guild: false,
        roles: vec![],
    }
}

fn main() {
    // `cargo test --benches` runs bench binaries with `--bench`-less args; keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games = if quick { 1 } else { 20 };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(dir.path().join("db")).expect("store");
    let app = App::new(store, Settings::default());
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let opponent = UserRef {
        user_id: 2,
        name: "bob".into(),
        is_bot: false,
    };
    let mut times: Vec<Duration> = Vec::new();
    runtime.block_on(async {
        for g in 0..games {
            let place = Place {
                guild_id: Some(1),
                channel_id: 100 + g,
            };
            let a = app
                .challenge(
                    &alice,
                    place,
                    &opponent,
                    Some(Variant::Spanish),
                    Some(Color::White),
                )
                .await;
            let accept = a.replies[0].buttons[0].id.clone();
            app.component(&bob, place, &accept, &[]).await;
            // Play the menu's first move until the game ends or 120 plies.
            for ply in 0..120 {
                let Ok(Some(rec)) = app.store().active_game(place.channel_id) else {
                    break;
                };
                let game = rec.to_game().expect("game");
                let moves = damas::engine::legal_notations(game.position());
                let pick = &moves[(ply * 7 + g as usize) % moves.len()].1;
                let who = if game.side_to_move() == Color::White {
                    &alice
                } else {
                    &bob
                };
                let t = Instant::now();
                let answer = app.play_move(who, place, pick).await;
                times.push(t.elapsed());
                assert!(
                    answer.replies[0].image.is_some(),
                    "a picture with every move"
                );
            }
        }
    });
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "app human move (durable store + picture): {} moves, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
    );
}
