//! The board page's use cases (`crate::web` shows them): a player's own link, signed and
//! expiring, answered privately to the game message's "Open the board" button; the page's
//! state for whoever looks (a player through their link, anyone else as a spectator); a move
//! made on the page, checked as every move is ([`App::play_move`]); and the feed that tells
//! open pages a game changed, fed from the one place every change of a game is written.
//!
//! A link is `<DAMAS_PUBLIC_URL>/board/<channel>#<token>`: the token rides in the fragment,
//! which browsers never send, so it is in no access log (ours has none; a reverse proxy's
//! would not see it either). The page's script sends it in a header. A token is
//! `<user>.<channel>.<game>.<expiry>.<signature>`, the signature an HMAC-SHA256 with
//! `DAMAS_WEB_SECRET` over the rest: bound to one person, one game, until its expiry.

use super::i18n::{self, n, s, t, tr, Lang};
use super::reply::Reply;
use super::settings::BadSetting;
use super::{game_of, seat_name, seat_of, storage_failed, Actor, Answer, App, Place};
use crate::engine::{legal_notations, Color, Game};
use crate::fl;
use crate::render::{self, BoardView};
use crate::store::GameRecord;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// The page's public address (what links start with).
pub const PUBLIC_URL_ENV: &str = "DAMAS_PUBLIC_URL";
/// The key links are signed with.
pub const SECRET_ENV: &str = "DAMAS_WEB_SECRET";
/// How long a player's link works.
pub const LINK_TTL_ENV: &str = "DAMAS_WEB_LINK_TTL";
/// A link works a day by default: a game's turn lasts days, the button gives a new one.
pub const DEFAULT_LINK_TTL: Duration = Duration::from_secs(24 * 3600);
/// The shortest secret taken: 32 characters (an HMAC-SHA256 key of 256 bits when random).
pub const MIN_SECRET_LEN: usize = 32;

/// The font the board's pictures are drawn with, which the page's SVG asks for too.
pub fn font() -> &'static [u8] {
    render::FONT_BYTES
}

/// What signs and addresses the board page's links (set when `DAMAS_PUBLIC_URL` is).
#[derive(Clone, PartialEq, Eq)]
pub struct BoardLinks {
    /// The page's base URL, without a trailing slash.
    pub public_url: String,
    secret: Vec<u8>,
    pub link_ttl: Duration,
}

impl fmt::Debug for BoardLinks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardLinks")
            .field("public_url", &self.public_url)
            .field("secret", &"<redacted>")
            .field("link_ttl", &self.link_ttl)
            .finish()
    }
}

impl BoardLinks {
    pub fn new(public_url: &str, secret: &[u8], link_ttl: Duration) -> BoardLinks {
        BoardLinks {
            public_url: public_url.trim_end_matches('/').to_string(),
            secret: secret.to_vec(),
            link_ttl,
        }
    }

    /// Reads `DAMAS_PUBLIC_URL`, `DAMAS_WEB_SECRET` and `DAMAS_WEB_LINK_TTL`: `None` when no
    /// public URL is set. With one, the secret is required: a key made up at each start would
    /// void every link at a restart, and differ between the processes sharing a database.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<BoardLinks>, BadSetting> {
        let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let Some(raw) = set(PUBLIC_URL_ENV) else {
            return Ok(None);
        };
        let public_url = public_url(&raw)?;
        let secret = set(SECRET_ENV).ok_or_else(|| BadSetting {
            variable: SECRET_ENV,
            problem: format!(
                "is not set: with {PUBLIC_URL_ENV} set, the board page's links are signed with it (at least {MIN_SECRET_LEN} characters, like the output of `openssl rand -hex 32`)"
            ),
        })?;
        let secret = secret.trim();
        if secret.chars().count() < MIN_SECRET_LEN {
            return Err(BadSetting {
                variable: SECRET_ENV,
                problem: format!(
                    "must be at least {MIN_SECRET_LEN} characters (like the output of `openssl rand -hex 32`), not {} characters",
                    secret.chars().count()
                ),
            });
        }
        let link_ttl = match set(LINK_TTL_ENV) {
            None => DEFAULT_LINK_TTL,
            Some(v) => super::settings::parse_duration(&v).map_err(|problem| BadSetting {
                variable: LINK_TTL_ENV,
                problem,
            })?,
        };
        Ok(Some(BoardLinks::new(
            &public_url,
            secret.as_bytes(),
            link_ttl,
        )))
    }

    fn key(&self) -> ring::hmac::Key {
        ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &self.secret)
    }

    /// A token for `user` in game `game_id` of `channel`, good until `expires_s` (Unix
    /// seconds).
    pub fn token(&self, user: u64, channel: u64, game_id: u64, expires_s: u64) -> String {
        let body = format!("{user}.{channel}.{game_id}.{expires_s}");
        let tag = ring::hmac::sign(&self.key(), signed_text(&body).as_bytes());
        format!("{body}.{}", hex(tag.as_ref()))
    }

    /// What a token presented for `channel`'s page says, at `now_ms`.
    pub fn check(&self, token: &str, channel: u64, now_ms: u64) -> TokenCheck {
        let Some((body, tag)) = token.trim().rsplit_once('.') else {
            return TokenCheck::Forged;
        };
        let Some(tag) = unhex(tag) else {
            return TokenCheck::Forged;
        };
        if ring::hmac::verify(&self.key(), signed_text(body).as_bytes(), &tag).is_err() {
            return TokenCheck::Forged;
        }
        let parts: Vec<u64> = body.split('.').filter_map(|p| p.parse().ok()).collect();
        let [user, for_channel, game_id, expires_s] = parts[..] else {
            return TokenCheck::Forged;
        };
        if for_channel != channel {
            return TokenCheck::OtherGame;
        }
        if now_ms / 1000 >= expires_s {
            return TokenCheck::Expired;
        }
        TokenCheck::Valid { user, game_id }
    }

    /// The page of `channel`, with `token` if any.
    pub fn url(&self, channel: u64, token: Option<&str>) -> String {
        match token {
            Some(t) => format!("{}/board/{channel}#{t}", self.public_url),
            None => format!("{}/board/{channel}", self.public_url),
        }
    }
}

/// What is signed: the token's fields behind a label, so that no other signature made with
/// the same key can pass for a token.
fn signed_text(body: &str) -> String {
    format!("damas board link v1|{body}")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// `DAMAS_PUBLIC_URL`: an http(s) URL with a host, no query or fragment; plain http only on
/// this machine (the links carry a player's token).
fn public_url(raw: &str) -> Result<String, BadSetting> {
    let bad = |why: String| {
        BadSetting {
        variable: PUBLIC_URL_ENV,
        problem: format!("must be the page's public base URL, like https://damas.example.org ({why}), not {raw:?}"),
    }
    };
    let trimmed = raw.trim().trim_end_matches('/');
    let url = url::Url::parse(trimmed).map_err(|e| bad(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("the scheme must be https or http".into()));
    }
    if url.host_str().map_or(true, str::is_empty) {
        return Err(bad("it has no host".into()));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("it must have no query or fragment".into()));
    }
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if url.scheme() == "http" && !loopback {
        return Err(bad(
            "https:// is needed unless it is this machine: the links carry each player's key"
                .into(),
        ));
    }
    Ok(trimmed.to_string())
}

/// What a token says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenCheck {
    Valid {
        user: u64,
        game_id: u64,
    },
    /// Not signed with this server's secret, or not a token at all.
    Forged,
    Expired,
    /// Signed, for another channel's game.
    OtherGame,
}

/// Who looks at a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    Player,
    Spectator,
}

/// A legal move as the page offers it: the squares clicked in turn (`from`, then each
/// landing of `path`), what it takes, and the notation sent to play it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageMove {
    /// How the page offers it when several moves go the same way: the notation and, for a
    /// capture, what it takes.
    pub label: String,
    pub from: u8,
    pub path: Vec<u8>,
    pub captured: Vec<u8>,
    pub notation: String,
}

/// What the page shows, in the viewer's language.
#[derive(Clone, Debug, Serialize)]
pub struct BoardState {
    pub game_id: u64,
    /// Changes with every write of the game: the page fetches again when it differs.
    pub revision: u64,
    pub ply: usize,
    pub over: bool,
    pub svg: String,
    pub title: String,
    pub players: String,
    /// Whose turn, counts, draw offer, or the result.
    pub status: String,
    /// The last move, in words.
    pub last_move: Option<String>,
    /// The time the person to move has left, in words.
    pub clock: Option<String>,
    pub viewer: Viewer,
    /// What the viewer can do, or why they only watch.
    pub note: String,
    /// The viewer's colour, when a player.
    pub you: Option<&'static str>,
    /// The moves the viewer may play now (empty unless it is their turn).
    pub moves: Vec<PageMove>,
    pub draw_offered: bool,
    /// The viewer offered the draw on offer (they wait for the answer).
    pub draw_offered_by_you: bool,
}

/// The answer to a move made on the page: the game's answer for the front end to show
/// ([`App::serve`]) where the game is played, with where and in which language.
pub struct PageMoved {
    pub answer: Answer,
    pub place: Place,
    pub lang: Lang,
}

/// What a player does on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageAction {
    /// A move, in notation.
    Move(String),
    Resign,
    /// Offers a draw, or accepts the opponent's offer.
    Draw,
    /// Declines the opponent's offer.
    DeclineDraw,
}

/// Why a page request is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageRefusal {
    /// The board page is not set up (no `DAMAS_PUBLIC_URL`).
    Off,
    /// No game was ever played in that channel.
    NoGame(String),
    /// The viewer may not move (spectator, expired or forged token, another game).
    NotAllowed(String),
    /// Storage failed.
    Failed(String),
}

/// One notification channel per game's channel: a page following a game holds a receiver;
/// every write of the game sends. Senders nobody listens to any more are dropped at the next
/// change.
#[derive(Default)]
pub struct GameFeed {
    channels: Mutex<HashMap<u64, watch::Sender<u64>>>,
}

impl GameFeed {
    /// Follows the game of `channel`: the value changes with every change of it.
    pub fn follow(&self, channel: u64) -> watch::Receiver<u64> {
        let mut map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(channel)
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    /// The game of `channel` changed.
    pub fn changed(&self, channel: u64) {
        let mut map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tx) = map.get(&channel) {
            if tx.receiver_count() == 0 {
                map.remove(&channel);
            } else {
                tx.send_modify(|v| *v = v.wrapping_add(1));
            }
        }
    }

    /// Channels followed (for the bench and tests).
    pub fn followed(&self) -> usize {
        let map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        map.values().filter(|tx| tx.receiver_count() > 0).count()
    }
}

impl App {
    /// The board links' settings, when the page is set up.
    pub fn board_links(&self) -> Option<&BoardLinks> {
        self.settings.board_links.as_ref()
    }

    /// Follows the game of `channel` (see [`GameFeed`]).
    pub fn follow_game(&self, channel: u64) -> watch::Receiver<u64> {
        self.feed.follow(channel)
    }

    /// The feed of game changes (for the bench and tests).
    pub fn game_feed(&self) -> &Arc<GameFeed> {
        &self.feed
    }

    /// The game under way in `channel` and its revision, if any: what a page's stream looks
    /// at to see changes made by another process. A storage error reads as no change.
    pub fn board_revision(&self, channel: u64) -> Option<(u64, u64)> {
        match self.store.active_game(channel) {
            Ok(rec) => rec.map(|r| (r.id, r.revision)),
            Err(_) => None,
        }
    }

    /// Tells the pages following the game of `channel` that it changed.
    pub(crate) fn game_changed(&self, channel: u64) {
        self.feed.changed(channel);
    }

    /// The board message plus, when the page is set up, its "Open the board" button.
    pub(crate) fn board_reply(
        &self,
        lang: Lang,
        rec: &GameRecord,
        game: &Game,
        headline: Option<String>,
    ) -> Reply {
        let mut reply = super::board::board_reply(lang, rec, game, headline);
        if self.board_links().is_some() && !game.is_over() {
            reply.buttons.push(super::reply::Button {
                id: super::ids::ComponentId::new(
                    super::ids::Action::Board,
                    rec.channel_id,
                    game.ply() as u64,
                )
                .encode(),
                label: t(lang, fl!("button-board")),
                style: super::reply::ButtonStyle::Secondary,
            });
        }
        reply
    }

    /// The "Open the board" button: a player gets their own link, privately; anyone else the
    /// spectators' link.
    pub async fn board_link(&self, actor: &Actor, place: Place) -> Answer {
        let lang = actor.lang();
        let Some(links) = self.board_links() else {
            return Reply::refusal(t(lang, fl!("err-board-off"))).into();
        };
        let loaded = match self.load(lang, place).await {
            Ok(l) => l,
            Err(r) => return r.into(),
        };
        let rec = &loaded.rec;
        let text = match seat_of(rec, actor.user_id) {
            Some(_) => {
                let ttl = links.link_ttl;
                let expires = (self.now_ms() + ttl.as_millis() as u64) / 1000;
                let token = links.token(actor.user_id, place.channel_id, rec.id, expires);
                let hours = ttl.as_secs().div_ceil(3600);
                tr(
                    lang,
                    fl!("board-link-player"),
                    &[
                        ("url", s(links.url(place.channel_id, Some(&token)))),
                        ("hours", n(hours as f64)),
                    ],
                )
            }
            None => tr(
                lang,
                fl!("board-link-spectator"),
                &[("url", s(links.url(place.channel_id, None)))],
            ),
        };
        Reply::private(text).into()
    }

    /// The key of `user`, whom Discord vouched for (the Activity's sign-in), for the game
    /// `channel`'s page shows: the same signed token as their link's, so the page's requests
    /// go through the same checks. `None` when they hold no seat in it (they watch) or no
    /// game was played there (the page says so).
    pub fn activity_key(
        &self,
        channel: u64,
        user: u64,
        lang: Lang,
    ) -> Result<Option<String>, PageRefusal> {
        let Some(links) = self.board_links() else {
            return Err(PageRefusal::Off);
        };
        let rec = match self.page_game(lang, channel) {
            Ok(rec) => rec,
            Err(PageRefusal::NoGame(_)) => return Ok(None),
            Err(other) => return Err(other),
        };
        if seat_of(&rec, user).is_none() {
            return Ok(None);
        }
        let expires = (self.now_ms() + links.link_ttl.as_millis() as u64) / 1000;
        Ok(Some(links.token(user, channel, rec.id, expires)))
    }

    /// The game shown on `channel`'s page: the one under way, else the last one played there.
    fn page_game(&self, lang: Lang, channel: u64) -> Result<GameRecord, PageRefusal> {
        let failed = |e| {
            let reply = storage_failed(lang, &e);
            PageRefusal::Failed(reply.text)
        };
        if let Some(rec) = self.store.active_game(channel).map_err(failed)? {
            return Ok(rec);
        }
        self.store
            .games_in_channel(channel, 1)
            .map_err(failed)?
            .into_iter()
            .next()
            .ok_or_else(|| PageRefusal::NoGame(t(lang, fl!("board-no-game"))))
    }

    /// Who a token says the viewer is in `rec`: their colour, or why they only watch.
    fn page_viewer(
        &self,
        lang: Lang,
        rec: &GameRecord,
        token: Option<&str>,
    ) -> Result<Color, String> {
        let spectator = || t(lang, fl!("board-spectator"));
        let (Some(links), Some(token)) = (self.board_links(), token.filter(|t| !t.is_empty()))
        else {
            return Err(spectator());
        };
        match links.check(token, rec.channel_id, self.now_ms()) {
            TokenCheck::Valid { user, game_id } if game_id == rec.id => {
                seat_of(rec, user).ok_or_else(spectator)
            }
            TokenCheck::Valid { .. } | TokenCheck::OtherGame => {
                Err(t(lang, fl!("board-link-other")))
            }
            TokenCheck::Expired => Err(t(lang, fl!("board-link-expired"))),
            TokenCheck::Forged => Err(t(lang, fl!("board-link-bad"))),
        }
    }

    /// The page of `channel` for the holder of `token` (or a spectator), in `lang`.
    pub fn board_state(
        &self,
        channel: u64,
        token: Option<&str>,
        lang: Lang,
    ) -> Result<BoardState, PageRefusal> {
        if self.board_links().is_none() {
            return Err(PageRefusal::Off);
        }
        let rec = self.page_game(lang, channel)?;
        let game = game_of(lang, &rec).map_err(|r| PageRefusal::Failed(r.text))?;
        let viewer = self.page_viewer(lang, &rec, token);
        let you = viewer.as_ref().ok().copied();
        let perspective = you.unwrap_or_else(|| super::board::perspective(&rec, &game));
        let over = game.is_over();
        let side = game.side_to_move();
        let your_turn = !over && you == Some(side);
        let caption = super::board::caption(lang, &rec, &game, None);
        let view = BoardView {
            position: game.position(),
            perspective,
            last_move: game.moves().last().copied(),
            highlight_captures: !over,
            reachable_from: None,
            explanation: None,
            caption: caption.clone(),
        };
        let description = super::board::game_description(lang, &rec, &game, None);
        let svg = render::board_svg(&view, &description);
        let moves = if your_turn {
            legal_notations(game.position())
                .into_iter()
                .map(|(mv, notation)| {
                    let mut captured: Vec<u8> =
                        mv.captured().squares().map(|s| s.number()).collect();
                    captured.sort_unstable();
                    let label = if captured.is_empty() {
                        notation.clone()
                    } else {
                        let taken: Vec<String> = captured.iter().map(u8::to_string).collect();
                        tr(
                            lang,
                            fl!("board-capture-choice"),
                            &[
                                ("move", s(&notation)),
                                ("squares", s(i18n::and_list(lang, &taken))),
                            ],
                        )
                    };
                    PageMove {
                        label,
                        from: mv.from().number(),
                        path: mv.path().iter().map(|s| s.number()).collect(),
                        captured,
                        notation,
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        let clock = (!over).then(|| {
            let left = rec.deadline_ms().saturating_sub(self.now_ms());
            let (unit, count) = super::sweep::time_left(left);
            tr(
                lang,
                fl!("board-clock"),
                &[
                    ("unit", s(unit)),
                    ("count", n(count as f64)),
                    ("name", super::seat_arg(lang, rec.seat(side))),
                ],
            )
        });
        let note = match (&viewer, over) {
            (_, true) => i18n::result_text(lang, game.outcome()),
            (Ok(c), false) if *c == side => t(lang, fl!("board-your-turn")),
            (Ok(_), false) => tr(
                lang,
                fl!("board-waiting"),
                &[("name", super::seat_arg(lang, rec.seat(side)))],
            ),
            (Err(why), false) => why.clone(),
        };
        let plain = |text: &str| super::reply::plain(text).into_owned();
        Ok(BoardState {
            game_id: rec.id,
            revision: rec.revision,
            ply: game.ply(),
            over,
            svg,
            title: caption.title,
            players: caption.players,
            status: plain(&super::board::status_line(lang, &rec, &game)),
            last_move: super::board::last_move_text(lang, &rec, &game).map(|l| plain(&l)),
            clock: clock.map(|c| plain(&c)),
            viewer: if you.is_some() {
                Viewer::Player
            } else {
                Viewer::Spectator
            },
            note: plain(&note),
            you: you.map(|c| match c {
                Color::White => "white",
                Color::Black => "black",
            }),
            moves,
            draw_offered: rec.draw_offer.is_some(),
            draw_offered_by_you: you.is_some() && rec.draw_offer == you,
        })
    }

    /// A move made on `channel`'s page by the holder of `token`: the same checks as any
    /// move (their game, their turn, a game under way, a legal move), by [`App::play_move`].
    /// The caller shows the answer where the game is played ([`App::serve`]).
    pub async fn board_move(
        &self,
        channel: u64,
        token: Option<&str>,
        lang: Lang,
        text: &str,
    ) -> Result<PageMoved, PageRefusal> {
        self.board_act(channel, token, lang, &PageAction::Move(text.to_string()))
            .await
    }

    /// What the holder of `token` does on `channel`'s page, as that player, through the use
    /// case the game's buttons and commands use ([`App::play_move`], [`App::resign`],
    /// [`App::draw`], [`App::decline_draw`]), with their checks. The caller shows the answer
    /// where the game is played ([`App::serve`]).
    pub async fn board_act(
        &self,
        channel: u64,
        token: Option<&str>,
        lang: Lang,
        action: &PageAction,
    ) -> Result<PageMoved, PageRefusal> {
        if self.board_links().is_none() {
            return Err(PageRefusal::Off);
        }
        let rec = self.page_game(lang, channel)?;
        let color = self
            .page_viewer(lang, &rec, token)
            .map_err(PageRefusal::NotAllowed)?;
        let place = Place {
            guild_id: rec.guild_id,
            channel_id: channel,
        };
        let user_id = match rec.seat(color) {
            crate::store::Seat::Human { user_id, .. } => *user_id,
            _ => return Err(PageRefusal::NotAllowed(t(lang, fl!("board-spectator")))),
        };
        let actor = Actor {
            user_id,
            name: seat_name(lang, rec.seat(color)),
            locale: lang.code().to_string(),
            can_manage_messages: false,
            can_manage_events: false,
            can_manage_guild: false,
            roles: Vec::new(),
        };
        let answer = match action {
            PageAction::Move(text) => self.play_move(&actor, place, text).await,
            PageAction::Resign => self.resign(&actor, place).await,
            PageAction::Draw => self.draw(&actor, place).await,
            PageAction::DeclineDraw => self.decline_draw(&actor, place).await,
        };
        Ok(PageMoved {
            answer: answer.for_actor(user_id),
            place,
            lang,
        })
    }
}

/// The language of an `Accept-Language` header: the first of Spanish and English by the
/// browser's preference (its q-values), English when it names neither.
pub fn lang_of_accept_language(header: Option<&str>) -> Lang {
    let Some(header) = header else {
        return Lang::default();
    };
    let mut ranked: Vec<(f32, usize, Lang)> = header
        .split(',')
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.split(';');
            let tag = parts.next()?.trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let lang = Lang::from_code(tag)?;
            (q > 0.0).then_some((q, i, lang))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.first().map_or(Lang::default(), |r| r.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> BoardLinks {
        BoardLinks::new("https://damas.example.org/", &[7u8; 32], DEFAULT_LINK_TTL)
    }

    #[test]
    fn a_token_is_good_for_its_player_game_and_time_only() {
        let l = links();
        let token = l.token(11, 22, 33, 1_000);
        assert_eq!(
            l.check(&token, 22, 999_000),
            TokenCheck::Valid {
                user: 11,
                game_id: 33
            }
        );
        assert_eq!(l.check(&token, 22, 1_000_000), TokenCheck::Expired);
        assert_eq!(l.check(&token, 23, 0), TokenCheck::OtherGame);
        // Any field changed breaks the signature.
        let forged = token.replacen("11.", "12.", 1);
        assert_eq!(l.check(&forged, 22, 0), TokenCheck::Forged);
        let later = token.replacen(".1000.", ".9999999.", 1);
        assert_eq!(l.check(&later, 22, 0), TokenCheck::Forged);
        // Another server's secret.
        let other = BoardLinks::new("https://x.org", &[8u8; 32], DEFAULT_LINK_TTL);
        assert_eq!(other.check(&token, 22, 0), TokenCheck::Forged);
        for junk in ["", ".", "a.b.c.d.e", "1.2.3.4.zz", "1.2.3.4"] {
            assert_eq!(l.check(junk, 22, 0), TokenCheck::Forged, "{junk:?}");
        }
        assert_eq!(
            l.url(22, Some("tok")),
            "https://damas.example.org/board/22#tok"
        );
    }

    #[test]
    fn the_settings_name_their_variable() {
        let read = |vars: &[(&str, &str)]| {
            BoardLinks::from_vars(|name| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(read(&[]), Ok(None));
        let secret = "s".repeat(32);
        let ok = read(&[
            (PUBLIC_URL_ENV, "https://d.example/"),
            (SECRET_ENV, &secret),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(ok.public_url, "https://d.example");
        assert_eq!(ok.link_ttl, DEFAULT_LINK_TTL);
        assert!(
            !format!("{ok:?}").contains(&secret),
            "the secret is never shown"
        );
        for (vars, variable) in [
            (vec![(PUBLIC_URL_ENV, "https://d.example")], SECRET_ENV),
            (
                vec![(PUBLIC_URL_ENV, "https://d.example"), (SECRET_ENV, "short")],
                SECRET_ENV,
            ),
            (
                vec![(PUBLIC_URL_ENV, "http://d.example"), (SECRET_ENV, &secret)],
                PUBLIC_URL_ENV,
            ),
            (
                vec![(PUBLIC_URL_ENV, "ftp://d.example"), (SECRET_ENV, &secret)],
                PUBLIC_URL_ENV,
            ),
            (
                vec![
                    (PUBLIC_URL_ENV, "https://d.example/?a=1"),
                    (SECRET_ENV, &secret),
                ],
                PUBLIC_URL_ENV,
            ),
            (
                vec![
                    (PUBLIC_URL_ENV, "https://d.example"),
                    (SECRET_ENV, &secret),
                    (LINK_TTL_ENV, "forever"),
                ],
                LINK_TTL_ENV,
            ),
        ] {
            let e = read(&vars).unwrap_err();
            assert_eq!(e.variable, variable, "{vars:?}: {e}");
        }
        assert!(read(&[
            (PUBLIC_URL_ENV, "http://127.0.0.1:8080"),
            (SECRET_ENV, &secret)
        ])
        .is_ok());
    }

    #[test]
    fn the_language_follows_the_browsers_preference() {
        assert_eq!(lang_of_accept_language(None), Lang::En);
        assert_eq!(
            lang_of_accept_language(Some("es-AR,es;q=0.9,en;q=0.8")),
            Lang::Es
        );
        assert_eq!(
            lang_of_accept_language(Some("fr-FR,en;q=0.5,es;q=0.7")),
            Lang::Es
        );
        assert_eq!(lang_of_accept_language(Some("de, *;q=0.1")), Lang::En);
        assert_eq!(lang_of_accept_language(Some("es;q=0, en")), Lang::En);
    }

    #[test]
    fn a_feed_wakes_its_followers_and_forgets_the_unfollowed() {
        let feed = GameFeed::default();
        let mut a = feed.follow(5);
        feed.changed(5);
        assert!(a.has_changed().unwrap());
        a.mark_unchanged();
        feed.changed(6);
        assert!(!a.has_changed().unwrap());
        assert_eq!(feed.followed(), 1);
        drop(a);
        feed.changed(5);
        assert_eq!(feed.followed(), 0);
    }
}
