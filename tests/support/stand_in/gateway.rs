//! The gateway websocket: HELLO, IDENTIFY → READY, heartbeats, RESUME → replay + RESUMED.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State as AxumState;
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::{snowflake, Conn, Inner, Outgoing, Recorded, Route, Session, State};

/// Privileged intents: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
const PRIVILEGED_INTENTS: u64 = (1 << 1) | (1 << 8) | (1 << 15);

pub(crate) async fn upgrade(
    AxumState(inner): AxumState<Arc<Inner>>,
    ws: WebSocketUpgrade,
) -> Response {
    ws.on_upgrade(move |socket| serve(socket, inner))
}

async fn serve(mut socket: WebSocket, inner: Arc<Inner>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn_id = {
        let mut st = inner.state();
        st.next_conn += 1;
        let id = st.next_conn;
        st.conns.insert(
            id,
            Conn {
                tx: tx.clone(),
                session: None,
            },
        );
        id
    };
    inner.bump();
    let hello = json!({"op": 10, "d": {"heartbeat_interval": inner.cfg.heartbeat_interval.as_millis() as u64}});
    let _ = tx.send(Outgoing::Frame(hello));

    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => on_frame(&inner, conn_id, &tx, &text),
                Some(Ok(Message::Binary(_))) => {
                    // Discord only takes compressed frames if asked to; serenity never sends them.
                    let _ = tx.send(Outgoing::Close(4002, "Decode error.".into()));
                }
                Some(Ok(Message::Close(frame))) => {
                    on_close(&inner, conn_id, frame.map(|f| f.code));
                    // Keep reading: the next read sends the close reply serenity waits for.
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
            outgoing = rx.recv() => match outgoing {
                Some(Outgoing::Frame(frame)) => {
                    if socket.send(Message::Text(frame.to_string())).await.is_err() {
                        break;
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    let frame = CloseFrame { code, reason: reason.into() };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                }
                Some(Outgoing::Drop) | None => break,
            },
        }
    }

    {
        let mut st = inner.state();
        if let Some(conn) = st.conns.remove(&conn_id) {
            if let Some(session) = conn.session.and_then(|s| st.sessions.get_mut(&s)) {
                if session.conn == Some(conn_id) {
                    session.conn = None;
                    session.live = false;
                }
            }
        }
    }
    inner.bump();
}

fn gateway_record(
    route: Route,
    name: &str,
    d: Value,
    status: u16,
    problems: Vec<String>,
) -> Recorded {
    Recorded {
        index: 0,
        method: "GATEWAY".to_owned(),
        path: name.to_owned(),
        query: String::new(),
        route,
        json: Some(d),
        files: Vec::new(),
        status,
        response: None,
        problems,
        elapsed: None,
        at: Instant::now(),
        injected: false,
    }
}

fn token_ok(inner: &Inner, token: &Value) -> bool {
    let Some(token) = token.as_str() else {
        return false;
    };
    let expected = &inner.cfg.token;
    token == expected || token.strip_prefix("Bot ") == Some(expected.as_str())
}

fn on_frame(inner: &Inner, conn_id: u64, tx: &mpsc::UnboundedSender<Outgoing>, text: &str) {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        let _ = tx.send(Outgoing::Close(4002, "Decode error.".into()));
        return;
    };
    let d = frame["d"].clone();
    let mut st = inner.state();
    match frame["op"].as_u64() {
        Some(1) => {
            st.heartbeats += 1;
            let _ = tx.send(Outgoing::Frame(json!({"op": 11})));
        }
        Some(2) => identify(inner, &mut st, conn_id, tx, d),
        Some(6) => resume(inner, &mut st, conn_id, tx, d),
        Some(op) => {
            let rec = gateway_record(
                Route::GatewayOp { op },
                &format!("OP {op}"),
                d,
                0,
                Vec::new(),
            );
            inner.record(&mut st, rec);
        }
        None => {
            let _ = tx.send(Outgoing::Close(4001, "Unknown opcode.".into()));
        }
    }
    drop(st);
    inner.bump();
}

fn identify(
    inner: &Inner,
    st: &mut State,
    conn_id: u64,
    tx: &mpsc::UnboundedSender<Outgoing>,
    d: Value,
) {
    let intents = d["intents"].as_u64().unwrap_or(0);
    let shard = d["shard"]
        .as_array()
        .cloned()
        .unwrap_or_else(|| vec![json!(0), json!(1)]);
    let (shard_id, shard_count) = (
        shard[0].as_u64().unwrap_or(0),
        shard[1].as_u64().unwrap_or(1),
    );
    let refusal = if st.conns.get(&conn_id).is_some_and(|c| c.session.is_some()) {
        Some((4005, "Already authenticated."))
    } else if !token_ok(inner, &d["token"]) {
        Some((4004, "Authentication failed."))
    } else if intents & PRIVILEGED_INTENTS != 0 && !inner.cfg.allow_privileged_intents {
        Some((4014, "Disallowed intent(s)."))
    } else if shard_id >= shard_count {
        Some((4010, "Invalid shard."))
    } else {
        None
    };
    if let Some((code, reason)) = refusal {
        let rec = gateway_record(
            Route::Identify,
            "IDENTIFY",
            d,
            code,
            vec![reason.to_owned()],
        );
        inner.record(st, rec);
        let _ = tx.send(Outgoing::Close(code, reason.to_owned()));
        return;
    }
    let rec = gateway_record(Route::Identify, "IDENTIFY", d, 0, Vec::new());
    inner.record(st, rec);

    let session_id = format!("{:032x}", snowflake());
    let created = snowflake();
    st.sessions.insert(
        session_id.clone(),
        Session {
            seq: 0,
            events: Vec::new(),
            conn: Some(conn_id),
            resumable: true,
            live: true,
            created,
            shard: (shard_id, shard_count),
        },
    );
    if let Some(conn) = st.conns.get_mut(&conn_id) {
        conn.session = Some(session_id.clone());
    }
    let ready = json!({
        "v": 10,
        "user": inner.bot_json(),
        "guilds": [],
        "session_id": session_id,
        "resume_gateway_url": inner.gateway_url(),
        "shard": [shard_id, shard_count],
        "application": {"id": inner.app_id.to_string(), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "_trace": ["stand-in"],
    });
    st.dispatch(&session_id, "READY", ready);
}

fn resume(
    inner: &Inner,
    st: &mut State,
    conn_id: u64,
    tx: &mpsc::UnboundedSender<Outgoing>,
    d: Value,
) {
    if !token_ok(inner, &d["token"]) {
        let rec = gateway_record(
            Route::Resume,
            "RESUME",
            d,
            4004,
            vec!["Authentication failed.".to_owned()],
        );
        inner.record(st, rec);
        let _ = tx.send(Outgoing::Close(4004, "Authentication failed.".to_owned()));
        return;
    }
    let session_id = d["session_id"].as_str().unwrap_or_default().to_owned();
    let their_seq = d["seq"].as_u64().unwrap_or(0);
    let resumable = st.sessions.get(&session_id).is_some_and(|s| s.resumable);
    if !resumable {
        // Discord answers op 9 with d=false: start over with IDENTIFY.
        let rec = gateway_record(Route::Resume, "RESUME", d, 0, Vec::new());
        let index = inner.record(st, rec);
        st.log[index].response = Some(json!({"op": 9, "d": false}));
        let _ = tx.send(Outgoing::Frame(json!({"op": 9, "d": false})));
        return;
    }
    let rec = gateway_record(Route::Resume, "RESUME", d, 0, Vec::new());
    inner.record(st, rec);

    let old_conn = st.sessions[&session_id].conn;
    if let Some(old) = old_conn.filter(|&c| c != conn_id) {
        if let Some(conn) = st.conns.get_mut(&old) {
            conn.session = None;
            let _ = conn.tx.send(Outgoing::Drop);
        }
    }
    if let Some(conn) = st.conns.get_mut(&conn_id) {
        conn.session = Some(session_id.clone());
    }
    let session = st.sessions.get_mut(&session_id).expect("checked above");
    session.conn = Some(conn_id);
    session.live = true;
    for frame in session
        .events
        .iter()
        .filter(|f| f["s"].as_u64().unwrap_or(0) > their_seq)
    {
        let _ = tx.send(Outgoing::Frame(frame.clone()));
    }
    st.dispatch(&session_id, "RESUMED", json!({"_trace": ["stand-in"]}));
}

fn on_close(inner: &Inner, conn_id: u64, code: Option<u16>) {
    let mut st = inner.state();
    let rec = gateway_record(
        Route::GatewayClose { code },
        "CLOSE",
        json!({ "code": code }),
        0,
        Vec::new(),
    );
    inner.record(&mut st, rec);
    // Closing with 1000 or 1001 ends the session on Discord: it cannot be resumed.
    let session = st.conns.get(&conn_id).and_then(|c| c.session.clone());
    if let Some(session) = session.and_then(|s| st.sessions.get_mut(&s)) {
        session.live = false;
        if matches!(code, Some(1000 | 1001)) {
            session.resumable = false;
        }
    }
    drop(st);
    inner.bump();
}
