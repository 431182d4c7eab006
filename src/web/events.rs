//! A page's live stream (Server-Sent Events): a `change` event each time the game changes,
//! which the page answers by fetching its state again. The changes come from the app's feed
//! (every write of a game by this process); a game changed by another process sharing the
//! database (PostgreSQL) is seen by a look at its revision every [`KEEPALIVE`].

use super::{secure, Answer};
use crate::app::App;
use http_body_util::BodyExt;
use hyper::body::{Bytes, Frame};
use hyper::{header, Response, StatusCode};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc;

/// How often a stream says it is alive (a comment line), and looks at the game's revision.
pub const KEEPALIVE: Duration = Duration::from_secs(15);
/// How long the browser waits before reconnecting a stream that broke.
const RETRY_MS: u32 = 2_000;

/// A response body fed by a channel: it ends when the sender is dropped.
struct Channel(mpsc::Receiver<Bytes>);

impl hyper::body::Body for Channel {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b))))
    }
}

/// The event stream of `channel`'s game.
pub fn stream(app: &App, channel: u64) -> Answer {
    let (tx, rx) = mpsc::channel::<Bytes>(4);
    let mut changes = app.follow_game(channel);
    let app = app.clone();
    tokio::spawn(async move {
        let hello = format!("retry: {RETRY_MS}\nevent: change\ndata: 0\n\n");
        if tx.send(Bytes::from(hello)).await.is_err() {
            return;
        }
        let mut seen = app.board_revision(channel);
        let mut ticks = tokio::time::interval(KEEPALIVE);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        let mut count: u64 = 0;
        loop {
            let changed = tokio::select! {
                () = tx.closed() => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    true
                }
                _ = ticks.tick() => {
                    let now = app.board_revision(channel);
                    std::mem::replace(&mut seen, now) != now
                }
            };
            let line = if changed {
                count += 1;
                seen = app.board_revision(channel);
                format!("event: change\ndata: {count}\n\n")
            } else {
                ": alive\n\n".to_string()
            };
            if tx.send(Bytes::from(line)).await.is_err() {
                return;
            }
        }
    });
    let mut response = Response::new(Channel(rx).boxed());
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    // Tells nginx not to hold the stream in its buffer.
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        header::HeaderValue::from_static("no"),
    );
    secure(headers);
    response
}
