//! A throwaway PostgreSQL server for the store's tests and benchmarks: one per test binary,
//! started on first use (`initdb` into a temporary folder, `pg_ctl start` on a free local
//! port), a fresh database per test, stopped and deleted by a watchdog once the binary exits.
//!
//! `initdb` refuses to run as root (tests and CI do): then the server runs as the `postgres`
//! system user through `runuser`, the user being created if missing. Without the server's
//! programs the tests that need it are skipped ([`optional_server`], one line each; a failure
//! under `CI=true`); with them, a server that cannot start fails those tests with the reason.
//!
//! The server offers TLS (`ssl=on`) with a certificate made here for `127.0.0.1` only, signed
//! by a root of its own ([`PgServer::root_certificate`]); plain connections are taken too.
//!
//! [`SilenceableProxy`] stands between a client and the server and can stop answering, as a
//! database behind a cut network does.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

const HOW_TO_INSTALL: &str = "the store's PostgreSQL tests need PostgreSQL's server programs \
    (initdb, pg_ctl, postgres): install them with `apt-get install -y postgresql` (Debian and \
    Ubuntu put them in /usr/lib/postgresql/<version>/bin, which is searched), or put initdb \
    and pg_ctl on PATH";

/// The user the server runs as when the tests run as root.
const SERVER_USER: &str = "postgres";

pub struct PgServer {
    port: u16,
    /// The PEM file of the root that signed the server's certificate.
    root: PathBuf,
}

static SERVER: OnceLock<Result<PgServer, String>> = OnceLock::new();
static NEXT_DB: AtomicU32 = AtomicU32::new(0);

/// The server of this test binary, started on first use. Panics with the reason and how to
/// install PostgreSQL when none can be started: for the benchmarks, run by hand (tests ask
/// [`optional_server`]).
pub fn server() -> &'static PgServer {
    match SERVER.get_or_init(start) {
        Ok(s) => s,
        Err(e) => panic!("no PostgreSQL server for this test: {e}\n{HOW_TO_INSTALL}"),
    }
}

/// The server of this test binary for a test that runs only where PostgreSQL is installed:
/// `None`, the test skipped with one line ([`super::optional::skip`]; a failure under
/// `CI=true`), when its server programs are nowhere to be found. Programs that are there but
/// cannot start a server fail the test with the reason: that is a fault to see, not a
/// machine without PostgreSQL.
pub fn optional_server() -> Option<&'static PgServer> {
    if bin_dir().is_none() {
        super::optional::skip(
            "no PostgreSQL server programs (apt-get install postgresql, or put initdb and \
             pg_ctl on PATH)",
        );
        return None;
    }
    Some(server())
}

impl PgServer {
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The root certificate (PEM) that signed the server's, for `sslrootcert`.
    pub fn root_certificate(&self) -> &Path {
        &self.root
    }

    /// A new, empty database; returns its URL.
    pub fn fresh_database(&self) -> String {
        let name = format!("test_{}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
        let admin = self.url("postgres");
        sql(&admin, &format!("CREATE DATABASE {name}"));
        self.url(&name)
    }
}

/// Runs `statement` on the database at `url` and returns its rows, from a thread of its own
/// (the caller may be inside a tokio runtime).
pub fn sql(url: &str, statement: &str) -> Vec<tokio_postgres::Row> {
    let (url, statement) = (url.to_owned(), statement.to_owned());
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .expect("connect");
            tokio::spawn(conn);
            client.query(&statement, &[]).await.expect(&statement)
        })
    })
    .join()
    .expect("statement ran")
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("could not run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The folder holding initdb and pg_ctl: on PATH, or Debian's newest.
fn bin_dir() -> Option<PathBuf> {
    let has_both = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(d) = std::env::split_paths(&path).find(|d| has_both(d)) {
            return Some(d);
        }
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, d)| has_both(d))
        .collect();
    debian.sort();
    debian.pop().map(|(_, d)| d)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn start() -> Result<PgServer, String> {
    let bin = bin_dir().ok_or("initdb and pg_ctl were not found")?;
    let as_root = is_root();
    let dir = std::env::temp_dir().join(format!(
        "damas-pg-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // The server's own programs, as the server's user.
    let server_cmd = |program: &str| {
        let path = bin.join(program);
        if as_root {
            let mut c = Command::new("runuser");
            c.args(["-u", SERVER_USER, "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    };
    if as_root {
        if Command::new("id")
            .arg(SERVER_USER)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_or(true, |s| !s.success())
        {
            run(Command::new("useradd")
                .args(["--system", "--user-group", "--no-create-home"])
                .args(["--shell", "/usr/sbin/nologin", SERVER_USER]))?;
        }
        run(Command::new("chown")
            .arg(format!("{SERVER_USER}:"))
            .arg(&dir))?;
    }
    let (root, certificate, key) = (
        dir.join("root.pem"),
        dir.join("server.crt"),
        dir.join("server.key"),
    );
    make_certificates(&root, &certificate, &key)?;
    if as_root {
        // The server reads its key only if it owns it and nobody else may read it.
        for file in [&certificate, &key] {
            run(Command::new("chown")
                .arg(format!("{SERVER_USER}:"))
                .arg(file))?;
        }
    }
    let data = dir.join("data");
    run(server_cmd("initdb").arg("-D").arg(&data).args([
        "-U",
        "postgres",
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--locale=C",
        "--no-sync",
    ]))?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let options = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300 \
         -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
        dir.display(),
        certificate.display(),
        key.display()
    );
    let started = run(server_cmd("pg_ctl")
        .arg("-D")
        .arg(&data)
        .arg("-l")
        .arg(dir.join("server.log"))
        .args(["-w", "-t", "60", "-o", &options, "start"]));
    if let Err(e) = started {
        let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
        return Err(format!("{e}\nserver log:\n{log}"));
    }
    // Stops the server and deletes its folder once this process is gone, however it ends.
    let stop = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {runas}{pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        runas = if as_root {
            format!("runuser -u {SERVER_USER} -- ")
        } else {
            String::new()
        },
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.display(),
    );
    Command::new("setsid")
        .args(["sh", "-c", &stop])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start the server's watchdog: {e}"))?;
    Ok(PgServer { port, root })
}

/// A root certificate and, signed by it, the server's certificate for 127.0.0.1 (only: not
/// for `localhost`) and its key (readable by its owner alone).
fn make_certificates(root: &Path, certificate: &Path, key: &Path) -> Result<(), String> {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
    let fail = |e: rcgen::Error| format!("cannot make the server's certificate: {e}");
    let mut root_params = CertificateParams::new(Vec::<String>::new()).map_err(fail)?;
    root_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    root_params
        .distinguished_name
        .push(DnType::CommonName, "damas test root");
    root_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let root_key = KeyPair::generate().map_err(fail)?;
    let root_cert = root_params.self_signed(&root_key).map_err(fail)?;
    let mut server_params = CertificateParams::new(vec!["127.0.0.1".to_owned()]).map_err(fail)?;
    server_params
        .distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let server_key = KeyPair::generate().map_err(fail)?;
    let server_cert = server_params
        .signed_by(&server_key, &root_cert, &root_key)
        .map_err(fail)?;
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    write(root, root_cert.pem())?;
    write(certificate, server_cert.pem())?;
    write(key, server_key.serialize_pem())?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(key, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("{}: {e}", key.display()))
}

/// A TCP relay to the test server that can go silent: while silent it still accepts
/// connections, but forwards nothing either way (what arrives is dropped), as a database
/// behind a cut network. Runs on threads of its own until the test binary ends.
pub struct SilenceableProxy {
    addr: SocketAddr,
    silent: Arc<AtomicBool>,
}

impl SilenceableProxy {
    /// A relay to `127.0.0.1:port`, forwarding.
    pub fn start(port: u16) -> SilenceableProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let silent = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&silent);
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(("127.0.0.1", port)) else {
                    continue;
                };
                for (mut from, mut to) in [
                    (
                        client.try_clone().expect("clone"),
                        server.try_clone().expect("clone"),
                    ),
                    (server, client),
                ] {
                    let silent = Arc::clone(&flag);
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16 * 1024];
                        loop {
                            let n = match from.read(&mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => n,
                            };
                            if !silent.load(Ordering::SeqCst) && to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        SilenceableProxy { addr, silent }
    }

    /// `url` (a URL of the test server) through this relay.
    pub fn url(&self, url: &str) -> String {
        let server = server();
        url.replace(
            &format!("127.0.0.1:{}", server.port),
            &self.addr.to_string(),
        )
    }

    pub fn silence(&self) {
        self.silent.store(true, Ordering::SeqCst);
    }

    pub fn resume(&self) {
        self.silent.store(false, Ordering::SeqCst);
    }
}

/// What a client asked of the server, as counted by a [`CountingProxy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Statements run: extended-protocol executions and simple queries (`BEGIN`, `COMMIT`).
    pub statements: u64,
    /// Times the client waited for the server, preparing aside: each `Sync` and each simple
    /// query is answered by one `ReadyForQuery`, which the store awaits before going on.
    pub round_trips: u64,
    /// Statements prepared (a `Parse`, and its own round trip): none once each connection
    /// has cached the statements it uses, so they are counted apart.
    pub prepares: u64,
    /// Of the statements, those run on connections started with `synchronous_commit=off`
    /// (whose commits do not wait for the disk).
    pub relaxed: u64,
}

impl std::ops::Sub for Cost {
    type Output = Cost;
    fn sub(self, before: Cost) -> Cost {
        Cost {
            statements: self.statements - before.statements,
            round_trips: self.round_trips - before.round_trips,
            prepares: self.prepares - before.prepares,
            relaxed: self.relaxed - before.relaxed,
        }
    }
}

/// A TCP relay to the test server that reads the PostgreSQL protocol the client sends and
/// counts statements, round trips and prepares ([`Cost`]), for every connection through it.
/// Plain connections only: its URLs say `sslmode=disable`.
pub struct CountingProxy {
    addr: SocketAddr,
    counts: Arc<[std::sync::atomic::AtomicU64; 4]>,
}

impl CountingProxy {
    pub fn start() -> CountingProxy {
        let port = server().port;
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let counts: Arc<[std::sync::atomic::AtomicU64; 4]> = Arc::default();
        let shared = Arc::clone(&counts);
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = TcpStream::connect(("127.0.0.1", port)) else {
                    continue;
                };
                let (mut from_client, mut to_server) = (
                    client.try_clone().expect("clone"),
                    server.try_clone().expect("clone"),
                );
                let counts = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let mut reader = FrontendReader::default();
                    let mut buf = [0u8; 16 * 1024];
                    loop {
                        let n = match from_client.read(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(n) => n,
                        };
                        reader.feed(&buf[..n], &counts);
                        if to_server.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    let _ = to_server.shutdown(std::net::Shutdown::Both);
                });
                let (mut from_server, mut to_client) = (server, client);
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from_server, &mut to_client);
                    let _ = to_client.shutdown(std::net::Shutdown::Both);
                });
            }
        });
        CountingProxy { addr, counts }
    }

    /// A fresh database of the test server, reached through this relay, without TLS.
    pub fn fresh_database(&self) -> String {
        let url = server().fresh_database();
        let through = url.replace(
            &format!("127.0.0.1:{}", server().port),
            &self.addr.to_string(),
        );
        format!("{through}?sslmode=disable")
    }

    /// Everything counted so far; subtract two of them for what happened in between.
    pub fn cost(&self) -> Cost {
        let [statements, round_trips, prepares, relaxed] =
            self.counts.each_ref().map(|c| c.load(Ordering::SeqCst));
        Cost {
            statements,
            // A prepare's Sync is its own round trip.
            round_trips: round_trips - prepares,
            prepares,
            relaxed,
        }
    }
}

/// Splits the client's bytes into protocol messages as they arrive: the first ones untyped
/// (the startup message, or a TLS or cancel request), then a type byte and a length each.
#[derive(Default)]
struct FrontendReader {
    started: bool,
    /// The startup message turned `synchronous_commit` off for the connection.
    relaxed: bool,
    pending: Vec<u8>,
}

impl FrontendReader {
    fn feed(&mut self, bytes: &[u8], counts: &[std::sync::atomic::AtomicU64; 4]) {
        self.pending.extend_from_slice(bytes);
        loop {
            let header = if self.started { 5 } else { 4 };
            if self.pending.len() < header {
                return;
            }
            let at = header - 4;
            let length = u32::from_be_bytes(self.pending[at..at + 4].try_into().unwrap());
            let total = at + length as usize;
            if self.pending.len() < total {
                return;
            }
            if self.started {
                let relaxed = u64::from(self.relaxed);
                let counted = match self.pending[0] {
                    b'E' => [1, 0, 0, relaxed],
                    b'S' => [0, 1, 0, 0],
                    b'Q' => [1, 1, 0, relaxed],
                    b'P' => [0, 0, 1, 0],
                    _ => [0, 0, 0, 0],
                };
                for (count, add) in counts.iter().zip(counted) {
                    count.fetch_add(add, Ordering::SeqCst);
                }
            } else {
                // The startup message carries protocol 3.0; a TLS request (refused here, as
                // the URL says sslmode=disable) is followed by it.
                let code = u32::from_be_bytes(self.pending[4..8].try_into().unwrap());
                self.started = code == 196_608;
                // Its parameters, `options` among them, as NUL-terminated names and values.
                let message = &self.pending[8..total];
                self.relaxed = self.started
                    && message
                        .windows(b"synchronous_commit=off".len())
                        .any(|w| w == b"synchronous_commit=off");
            }
            self.pending.drain(..total);
        }
    }
}
