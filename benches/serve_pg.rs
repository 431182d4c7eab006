//! Two `damas serve` processes sharing one throwaway PostgreSQL (issue 15, item 6): games
//! against the bot at easy, each person's `/move`s sent to the two processes in turn, over
//! the Discord stand-in (`tests/support/stand_in/`), everything on this machine.
//!
//! ```text
//! cargo bench --bench serve_pg                        # release build
//! cargo bench --bench serve_pg -- --games 20 --moves 10
//! ```
//!
//! It prints the people's moves per second (all games together, each person waiting for the
//! bot's answer before moving again) and the time of a move's answer: sending the signed
//! `/move` to its board shown (the edit of the deferred answer), p50, p99 and max. The bot's
//! moves are searched, stored and posted too, so this is the whole loop, not the store alone.
//! The server comes from `tests/support/store/postgres.rs` (installed PostgreSQL needed).
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

use damas::store::Store;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};
use support::bot::{text, GUILD};
use support::stand_in::*;
use tokio::io::AsyncBufReadExt;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `damas serve` on the stand-in and `db`; returns the child (killed when dropped) and its
/// interactions URL.
async fn serve(standin: &StandIn, db: &str, workdir: &Path) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("DISCORD_TOKEN", standin.token())
        .env("DISCORD_PUBLIC_KEY", standin.public_key_hex())
        .env("DISCORD_API_PROXY", standin.base_url())
        .env("DISCORD_GUILD_ID", GUILD.to_string())
        .env("DAMAS_DB", db)
        .env("DAMAS_SEARCH_THREADS", "1")
        .env("RUST_LOG", "warn")
        .current_dir(workdir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("damas serve starts");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next_line().await.unwrap().expect("serve said where");
        if let Some(addr) = line.strip_prefix("listening on ") {
            break addr.to_owned();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, format!("http://{addr}/interactions"))
}

fn first_legal(store: &Store, channel: u64) -> Option<String> {
    let rec = store.active_game(channel).ok()??;
    let game = rec.to_game().ok()?;
    if game.is_over() {
        return None;
    }
    let position = game.position();
    let mv = *position.legal_moves().first()?;
    Some(position.move_notation(&mv))
}

/// One person's game: `moves` moves (fewer if it ends), alternating between the endpoints.
/// Returns the answer time of each move.
async fn play(
    standin: &StandIn,
    store: &Store,
    urls: &[String],
    game: usize,
    moves: usize,
) -> Vec<Duration> {
    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let start = standin.slash_command(
        &alice,
        place,
        "play",
        vec![opt_str("level", "easy"), opt_str("colour", "white")],
    );
    let (sent, _) = standin.post_interaction(&urls[game % 2], start).await;
    standin.original_edit(&sent).await;
    let mut times = Vec::new();
    for m in 0..moves {
        let Some(notation) = first_legal(store, place.channel) else {
            break;
        };
        let payload =
            standin.slash_command(&alice, place, "move", vec![opt_str("move", &notation)]);
        let sent_at = Instant::now();
        let (sent, _) = standin
            .post_interaction(&urls[(game + m) % 2], payload)
            .await;
        let shown = standin.original_edit(&sent).await;
        assert!(text(&shown).contains("alice played"), "{}", text(&shown));
        times.push(shown.at.duration_since(sent_at));
        let channel = place.channel;
        standin
            .next_request(move |r| {
                r.method == "POST"
                    && matches!(r.route, Route::ChannelMessages { channel: c } if c == channel)
            })
            .await;
    }
    times
}

fn main() {
    let games = arg("--games", 10);
    let moves = arg("--moves", 10);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = support::store::postgres::server().fresh_database();
        let dir = tempfile::tempdir().unwrap();
        let standin = StandIn::start_with(Config {
            wait: Duration::from_secs(60),
            ..Config::default()
        })
        .await;
        let (_a, url_a) = serve(&standin, &db, dir.path()).await;
        let (_b, url_b) = serve(&standin, &db, dir.path()).await;
        let urls = [url_a, url_b];
        let store = Store::open(&db).expect("open the shared database");
        let began = Instant::now();
        let all = futures::future::join_all(
            (0..games).map(|g| play(&standin, &store, &urls, g, moves)),
        )
        .await;
        let wall = began.elapsed();
        let mut times: Vec<Duration> = all.into_iter().flatten().collect();
        times.sort_unstable();
        let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "two serve processes, one PostgreSQL: {games} games against easy, {} moves by people in {:.1} s: {:.1} moves/s; a move's answer p50 {:?}, p99 {:?}, max {:?}",
            times.len(),
            wall.as_secs_f64(),
            times.len() as f64 / wall.as_secs_f64(),
            pick(0.5),
            pick(0.99),
            times[times.len() - 1],
        );
    });
}
