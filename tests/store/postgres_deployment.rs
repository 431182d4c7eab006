//! PostgreSQL for real deployments: TLS, and a database that stops answering.

use crate::support::store::postgres::{self, SilenceableProxy};
use damas::app::i18n::{t, Lang};
use damas::app::{App, Place, Settings, Visibility};
use damas::engine::{Color, Variant};
use damas::store::{DbTimeouts, Durability, Store, StoreError, TREE_GAMES};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Short timeouts, so that the tests of a silent database take seconds.
const SHORT: DbTimeouts = DbTimeouts {
    connect: Duration::from_secs(1),
    statement: Duration::from_secs(1),
    pool_wait: Duration::from_secs(1),
};

/// Whether the connections to `database` (the store's pool) are encrypted, as the server
/// sees them; `None` when there is none.
fn encrypted(database: &str) -> Option<bool> {
    let admin = postgres::server().url("postgres");
    let database = database.to_owned();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
                .await
                .expect("connect as the admin");
            tokio::spawn(conn);
            let row = client
                .query_one(
                    "SELECT count(*), bool_and(s.ssl) FROM pg_stat_ssl s \
                     JOIN pg_stat_activity a USING (pid) WHERE a.datname = $1",
                    &[&database],
                )
                .await
                .expect("pg_stat_ssl");
            let n: i64 = row.get(0);
            (n > 0).then(|| row.get(1))
        })
    })
    .join()
    .unwrap()
}

/// A fresh database's URL with `params`, reached as `host`; and its name.
fn database(host: &str, params: &str) -> (String, String) {
    let url = postgres::server().fresh_database();
    let name = url.rsplit('/').next().unwrap().to_owned();
    let url = url.replace("127.0.0.1", host);
    (format!("{url}{params}"), name)
}

/// A store round trip: one entry written (a transaction) and read back.
async fn round_trip(store: &Store) {
    let entry = (vec![1u8, 2, 3], vec![9u8; 40]);
    store
        .raw_put(TREE_GAMES, std::slice::from_ref(&entry))
        .await
        .expect("write");
    assert_eq!(store.raw_get(TREE_GAMES, &entry.0).unwrap(), Some(entry.1));
}

/// A root certificate of no concern to the server (PEM in a file).
fn another_root(dir: &Path) -> std::path::PathBuf {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let key = rcgen::KeyPair::generate().unwrap();
    let path = dir.join("other-root.pem");
    std::fs::write(&path, params.self_signed(&key).unwrap().pem()).unwrap();
    path
}

/// The test server offers TLS with a certificate for 127.0.0.1, signed by a root of its
/// own: each `sslmode` encrypts, checks and refuses as libpq's does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_follows_the_urls_sslmode() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let root = server.root_certificate().display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let other = another_root(dir.path()).display().to_string();
    for (host, params, tls) in [
        ("127.0.0.1", "?sslmode=disable".to_owned(), false),
        // libpq's default, prefer: encrypted when the server offers it.
        ("127.0.0.1", String::new(), true),
        ("127.0.0.1", "?sslmode=require".to_owned(), true),
        (
            "127.0.0.1",
            format!("?sslmode=verify-full&sslrootcert={root}"),
            true,
        ),
        // verify-ca checks the signature, not the name.
        (
            "localhost",
            format!("?sslmode=verify-ca&sslrootcert={root}"),
            true,
        ),
    ] {
        let (url, name) = database(host, &params);
        let store = Store::open(&url).unwrap_or_else(|e| panic!("{params}: {e}"));
        round_trip(&store).await;
        assert_eq!(encrypted(&name), Some(tls), "{host}{params}");
    }
    for (host, params, says) in [
        // The certificate names 127.0.0.1, not localhost.
        (
            "localhost",
            format!("?sslmode=verify-full&sslrootcert={root}"),
            "certificate not valid for name \"localhost\"",
        ),
        (
            "127.0.0.1",
            format!("?sslmode=verify-full&sslrootcert={other}"),
            "invalid peer certificate",
        ),
    ] {
        let (url, name) = database(host, &params);
        let e = Store::open(&url).expect_err(&params).to_string();
        assert!(e.contains(says), "{params}: {e}");
        assert_eq!(encrypted(&name), None, "nothing connected");
    }
}

/// Accepts connections and never says a word.
fn silent_listener() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().map_while(Result::ok) {
            held.push(stream);
        }
    });
    addr
}

/// A database that accepts the connection and never answers: opening gives up after the
/// connect timeout, and the error does not show the password.
#[test]
fn opening_a_database_that_never_answers_gives_up() {
    let addr = silent_listener();
    let url = format!("postgres://damas:hunter2-secret@{addr}/damas");
    // Without a connect timeout this would wait forever: the test bounds its own wait.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(Store::open_configured(&url, Durability::default(), SHORT).err());
    });
    let e = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an answer within 20 s")
        .expect("nothing answered")
        .to_string();
    assert!(e.contains("could not reach PostgreSQL"), "{e}");
    assert!(!e.contains("hunter2-secret"), "{e}");
}

/// PostgreSQL stops answering under a running bot (a network cut between them): a
/// command gets "try again" within the timeouts, nothing is stored, and no write that may
/// have landed is reported as not done — such a one stops the process (here: the hook).
/// Once the network is back the same command works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_stops_answering_gets_try_again_and_acknowledges_nothing() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let url = server.fresh_database();
    let proxy = SilenceableProxy::start(server.port());
    let fatal = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&fatal);
    let store = Store::open_configured(proxy.url(&url), Durability::default(), SHORT)
        .expect("open through the proxy")
        .with_fatal_hook(Arc::new(move |e: &StoreError| {
            seen.lock().unwrap().push(e.to_string())
        }));
    let app = App::new(
        store.clone(),
        Settings {
            search_threads: 1,
            search_memory_mb: 8,
            ..Settings::default()
        },
    );
    let actor = damas::app::Actor {
        user_id: 7,
        name: "alice".into(),
        locale: "en-US".into(),
        can_manage_messages: false,
        can_manage_events: false,
        can_manage_guild: false,
        roles: vec![],
    };
    let place = Place {
        guild_id: Some(1),
        channel_id: 4242,
    };
    let play = || {
        app.play_bot(
            &actor,
            place,
            None,
            Some(Variant::Spanish),
            Some(Color::White),
        )
    };

    proxy.silence();
    let asked = Instant::now();
    // The store's calls block their thread, so a timeout around them would never fire:
    // the command runs on a thread of its own, and the test bounds its wait.
    let (tx, rx) = std::sync::mpsc::channel();
    let (waiting_app, waiting_actor) = (app.clone(), actor.clone());
    let runtime = tokio::runtime::Handle::current();
    std::thread::spawn(move || {
        let _ = tx.send(runtime.block_on(waiting_app.play_bot(
            &waiting_actor,
            place,
            None,
            Some(Variant::Spanish),
            Some(Color::White),
        )));
    });
    let answer = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an answer within 20 s");
    let took = asked.elapsed();
    let reply = &answer.replies[0];
    assert_eq!(answer.replies.len(), 1, "{:#?}", answer.replies);
    assert_eq!(
        reply.text,
        t(Lang::En, damas::fl!("err-storage")),
        "{reply:#?}"
    );
    assert_eq!(reply.visibility, Visibility::Private);
    // The statement timeout and its grace, and a little for the pool's connection.
    assert!(took < Duration::from_secs(6), "answered after {took:?}");
    assert!(fatal.lock().unwrap().is_empty(), "{:?}", fatal.lock());

    proxy.resume();
    let direct = Store::open(&url).expect("the database, directly");
    assert!(direct.active_game(place.channel_id).unwrap().is_none());
    let answer = play().await;
    assert!(
        answer.replies[0].board_of.is_some(),
        "{:#?}",
        answer.replies
    );
    assert!(direct.active_game(place.channel_id).unwrap().is_some());

    // A write that commits on its own, unanswered: it may have landed, so it is fatal.
    proxy.silence();
    let e = store.reserve_ids_through(1_000).expect_err("no answer");
    assert!(matches!(e, StoreError::OutcomeUnknown { .. }), "{e}");
    assert_eq!(fatal.lock().unwrap().len(), 1, "{:?}", fatal.lock());
}

/// `/readyz` (as both listeners answer it) for `health`: its status and body.
async fn readyz(health: &damas::discord::health::Health) -> (u16, String) {
    let answer = damas::discord::health::probe(health, &hyper::Method::GET, "/readyz")
        .await
        .expect("an answer to /readyz");
    let status = answer.status().as_u16();
    let body = http_body_util::BodyExt::collect(answer.into_body())
        .await
        .expect("a body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// Asks `/readyz` until it says `status` (each answer is reused for a second), at most
/// 20 s; returns the last answer.
async fn readyz_until(health: &damas::discord::health::Health, status: u16) -> (u16, String) {
    let mut last = readyz(health).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while last.0 != status && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        last = readyz(health).await;
    }
    last
}

/// `/readyz` follows the database: 200 while it answers, 503 naming the store while it
/// is silent (answered within the store's timeouts, not hanging), 200 again once it
/// answers, and 503 for good once the process is stopping.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_database() {
    use damas::discord::health::Health;
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let url = server.fresh_database();
    let proxy = SilenceableProxy::start(server.port());
    let store = Store::open_configured(proxy.url(&url), Durability::default(), SHORT)
        .expect("open through the proxy");
    let app = App::new(
        store,
        Settings {
            search_threads: 1,
            search_memory_mb: 8,
            ..Settings::default()
        },
    );
    let health = Health::new(app, SHORT.connect + SHORT.pool_wait + SHORT.statement);
    // Nothing listens yet (no gateway shard, no endpoint): not ready.
    assert_eq!(readyz(&health).await, (503, "not ready: gateway\n".into()));
    health.listening();
    assert_eq!(readyz_until(&health, 200).await, (200, "ready\n".into()));

    proxy.silence();
    let asked = Instant::now();
    assert_eq!(
        readyz_until(&health, 503).await,
        (503, "not ready: store\n".into())
    );
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );

    proxy.resume();
    assert_eq!(readyz_until(&health, 200).await, (200, "ready\n".into()));
    health.stopping();
    assert_eq!(
        readyz(&health).await,
        (503, "not ready: shutting down\n".into())
    );
}

/// A statement waited for under a runtime's own `block_on` (a `main`, the console, a test)
/// leaves the wake-ups of the futures beside it alone: a timer `join!`ed with a run of reads
/// ends with them. Waiting on the driver's `Handle::block_on` parked on the same per-thread
/// token as the outer `block_on` and swallowed the timer's wake-up, which then never came.
#[test]
fn a_statement_under_block_on_leaves_the_wake_ups_of_the_futures_beside_it() {
    let Some(server) = crate::support::postgres() else {
        return;
    };
    let store = Store::open(server.fresh_database()).expect("open");
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let timer = tokio::time::sleep(Duration::from_millis(20));
            // Statements one after another, for long enough that the timer fires during one.
            let reads = async {
                let started = Instant::now();
                while started.elapsed() < Duration::from_millis(300) {
                    store.active_game(1).expect("read");
                }
            };
            tokio::join!(timer, reads);
        });
        let _ = done.send(());
    });
    assert!(
        finished.recv_timeout(Duration::from_secs(30)).is_ok(),
        "the timer beside the reads never woke its task"
    );
}
