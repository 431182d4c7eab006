//! The board page in a real browser (headless Chromium through chromedriver), over a `damas
//! serve` child process and the Discord stand-in: two players' pages on one game, a
//! multiple capture entered by clicks, the other page following live, a `/move` made in
//! Discord showing on both, a spectator and an expired link that cannot move, and the page's
//! board against the PNG of the same position. Skipped with one line without Chromium
//! (mandatory under `CI=true`).

use crate::support::board::{answer_text, post_move, BoardServer, Players, PUBLIC_URL, SECRET};
use crate::support::bot::*;
use crate::support::browser::Browser;
use crate::support::stand_in::*;
use crate::support::webdriver::{Client, Locator};
use damas::app::board_page::BoardLinks;
use damas::engine::{legal_notations, Color, Game, Position, Square, Variant};
use damas::render::{palette, BoardView, Layout};
use serde_json::Value;
use std::time::Duration;

/// The shortest line from the start (in the engine's order of moves) after which the side
/// to move has a capture with two landings or more: the moves before it, and that capture.
fn line_to_multiple_capture() -> (Vec<String>, String) {
    fn search(pos: &Position, depth: usize, line: &mut Vec<String>) -> Option<String> {
        if let Some((_, n)) = legal_notations(pos)
            .into_iter()
            .find(|(m, _)| m.path().len() >= 2)
        {
            return Some(n);
        }
        if depth == 0 {
            return None;
        }
        for (mv, n) in legal_notations(pos) {
            line.push(n);
            if let Some(found) = search(&pos.apply(&mv), depth - 1, line) {
                return Some(found);
            }
            line.pop();
        }
        None
    }
    let start = Position::start(Variant::Spanish);
    for depth in 1..=8 {
        let mut line = Vec::new();
        if let Some(capture) = search(&start, depth, &mut line) {
            return (line, capture);
        }
    }
    panic!("no multiple capture within 8 plies of the start");
}

/// The channel's latest message with an "Open the board" button.
fn latest_board(standin: &StandIn, channel: u64) -> Value {
    standin
        .messages_in(channel)
        .into_iter()
        .rev()
        .find(|m| {
            custom_ids(m)
                .iter()
                .any(|id| id.starts_with("damas:board:"))
        })
        .expect("a board with its Open the board button")
}

/// `user`'s link to the board page, from the button's private answer, made to point at the
/// real listener.
async fn board_link(
    standin: &StandIn,
    url: &str,
    base: &str,
    user: &TestUser,
    channel: u64,
) -> String {
    let board = latest_board(standin, channel);
    let click = standin.button_click(user, &board, &custom_id_starting(&board, "damas:board:"));
    let (sent, answered) = standin.post_interaction(url, click).await;
    let said = answer_text(standin, &sent, &answered).await;
    let start = said
        .find(PUBLIC_URL)
        .unwrap_or_else(|| panic!("no link in {said:?}"));
    let link: String = said[start..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '>' && *c != ')')
        .collect();
    link.replacen(PUBLIC_URL, base, 1)
}

async fn attr(page: &Client, css: &str, name: &str) -> Option<String> {
    page.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .attr(name)
        .await
        .expect("an attribute")
}

/// Waits (10 s at most) until the page shows the board at `ply`.
async fn wait_ply(page: &Client, ply: usize, who: &str) {
    let css = format!("#board[data-ply='{ply}']");
    page.wait_for(Locator::Css(&css), Duration::from_secs(10))
        .await
        .unwrap_or_else(|e| panic!("{who}'s page never showed ply {ply}: {e}"));
}

async fn click_square(page: &Client, square: u8) {
    page.find(Locator::Css(&format!("#board .hit[data-sq='{square}']")))
        .await
        .expect("the square's target")
        .click()
        .await
        .expect("a click");
}

/// What sits in the middle of a square of a picture: the nearest of the colours a square's
/// centre can have (a square, a piece's body or crown, a taken piece's cross).
fn centre_kind(img: &image::RgbImage, x: f32, y: f32) -> &'static str {
    let px = img.get_pixel(x.round() as u32, y.round() as u32).0;
    let kinds: [(&str, palette::Rgb); 7] = [
        ("empty", palette::DARK_SQUARE),
        ("white man", palette::WHITE_BODY),
        ("black man", palette::BLACK_BODY),
        ("white king", palette::WHITE_CROWN),
        ("black king", palette::BLACK_CROWN),
        ("taken", palette::CAPTURED_CROSS),
        ("light square", palette::LIGHT_SQUARE),
    ];
    kinds
        .iter()
        .min_by(|a, b| palette::distance(px, a.1).total_cmp(&palette::distance(px, b.1)))
        .map(|k| k.0)
        .unwrap_or("none")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_on_their_board_pages_and_others_only_watch() {
    let Some(mut browser) = Browser::start().await else {
        return;
    };
    let server = BoardServer::serve(false, &[]).await;
    let (standin, base) = (&server.standin, server.base.as_str());
    // alice (White) challenges bob, who accepts; they play up to a multiple capture.
    let Players { alice, bob, place } = server.new_game().await;
    let channel = place.channel;
    let (line, capture) = line_to_multiple_capture();
    let mut game = Game::new(Variant::Spanish);
    let player = |c: Color| if c == Color::White { &alice } else { &bob };
    for mv in &line {
        let who = player(game.side_to_move());
        let (sent, answered) = standin
            .post_interaction(server.url(), standin.slash(who, place, Slash::mv(mv)))
            .await;
        answer_text(standin, &sent, &answered).await;
        game.play_text(mv).unwrap();
    }
    let capturer = game.side_to_move();
    let (mover, watcher) = (player(capturer), player(capturer.opposite()));

    // Each player's own link, from the button on the game's message.
    let mover_link = board_link(standin, server.url(), base, mover, channel).await;
    let watcher_link = board_link(standin, server.url(), base, watcher, channel).await;
    assert!(mover_link.contains('#') && mover_link != watcher_link);
    let mover_key = mover_link.split_once('#').unwrap().1.to_string();

    let mover_page = browser.session(700, 1100).await;
    let watcher_page = browser.session(700, 1100).await;
    mover_page.goto(&mover_link).await.unwrap();
    watcher_page.goto(&watcher_link).await.unwrap();
    let ply = game.ply();
    wait_ply(&mover_page, ply, "the mover").await;
    wait_ply(&watcher_page, ply, "the watcher").await;
    assert_eq!(
        attr(&mover_page, "#board", "data-viewer").await.as_deref(),
        Some("player")
    );
    assert_eq!(
        attr(&watcher_page, "#board", "data-viewer")
            .await
            .as_deref(),
        Some("player")
    );

    // The capture, square by square: the piece, then each landing in turn; after the piece,
    // its next landing lights up.
    let mv = game.position().parse_move(&capture).unwrap();
    click_square(&mover_page, mv.from().number()).await;
    let first = mv.path()[0].number();
    assert_eq!(
        attr(
            &mover_page,
            &format!(".dot[data-sq='{first}']"),
            "visibility"
        )
        .await
        .as_deref(),
        Some("visible"),
        "the first landing of {capture} lights up"
    );
    let board_before = latest_board(standin, channel)["id"].clone();
    for landing in mv.path() {
        click_square(&mover_page, landing.number()).await;
    }
    // The same landings may take other pieces: the page asks which.
    if let Ok(choice) = mover_page
        .find(Locator::Css(&format!(
            "#choice-list button[data-notation='{capture}']"
        )))
        .await
    {
        choice.click().await.unwrap();
    }
    game.play_text(&capture).unwrap();
    wait_ply(&mover_page, game.ply(), "the mover").await;
    wait_ply(&watcher_page, game.ply(), "the watcher (live)").await;
    // The move is in Discord too: a new board in the channel, the old one without controls.
    let mut board_after = latest_board(standin, channel)["id"].clone();
    for _ in 0..100 {
        if board_after != board_before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        board_after = latest_board(standin, channel)["id"].clone();
    }
    assert_ne!(
        board_after, board_before,
        "the page's move posted a board in the channel"
    );

    // A /move made in Discord shows on both pages.
    let answer = legal_notations(game.position())[0].1.clone();
    let (sent, answered) = standin
        .post_interaction(
            server.url(),
            standin.slash(watcher, place, Slash::mv(&answer)),
        )
        .await;
    answer_text(standin, &sent, &answered).await;
    game.play_text(&answer).unwrap();
    wait_ply(&mover_page, game.ply(), "the mover (after /move)").await;
    wait_ply(&watcher_page, game.ply(), "the watcher (after /move)").await;

    // The page's board is the picture's: every square's centre shows the same thing.
    let shot = mover_page
        .find(Locator::Css("#board svg"))
        .await
        .unwrap()
        .screenshot()
        .await
        .unwrap();
    let shot = image::load_from_memory(&shot).unwrap().to_rgb8();
    let mut view = BoardView::new(game.position(), capturer);
    view.last_move = game.moves().last().copied();
    view.highlight_captures = true;
    let png = damas::render::render_image(&view).unwrap();
    let scale = shot.width() as f32 / Layout::WIDTH as f32;
    assert!(scale > 0.5, "the board is {} px wide", shot.width());
    let mut pieces = 0;
    for sq in Square::all() {
        let (x, y) = Layout::square_center(Variant::Spanish, capturer, sq);
        let expected = centre_kind(&png, x, y);
        let seen = centre_kind(&shot, x * scale, y * scale);
        assert_eq!(seen, expected, "square {sq}");
        pieces += usize::from(expected.ends_with("man") || expected.ends_with("king"));
    }
    assert!(pieces > 20, "{pieces} pieces compared");
    let (lx, ly) = (Layout::SQUARE as f32 / 2.0, Layout::BOARD_TOP as f32 + 40.0);
    let light = if Layout::square_at_cell(Variant::Spanish, capturer, 0, 0).is_none() {
        (lx, ly)
    } else {
        (lx + Layout::SQUARE as f32, ly)
    };
    assert_eq!(
        centre_kind(&shot, light.0 * scale, light.1 * scale),
        "light square"
    );

    // It is the mover's turn again. Without a key, the page only watches: no piece can be
    // chosen, and the API refuses a move.
    let (to_play, _) = legal_notations(game.position())[0].clone();
    let spectator = format!("{base}/board/{channel}?as=spectator");
    watcher_page.goto(&spectator).await.unwrap();
    wait_ply(&watcher_page, game.ply(), "the spectator").await;
    assert_eq!(
        attr(&watcher_page, "#board", "data-viewer")
            .await
            .as_deref(),
        Some("spectator")
    );
    click_square(&watcher_page, to_play.from().number()).await;
    assert_eq!(
        attr(
            &watcher_page,
            &format!(".sel[data-sq='{}']", to_play.from().number()),
            "visibility"
        )
        .await
        .as_deref(),
        Some("hidden"),
        "a spectator cannot choose a piece"
    );
    let notation = game.position().move_notation(&to_play);
    assert_eq!(post_move(base, channel, None, &notation).await, 403);

    // An expired link (signed with the right secret) only watches, and cannot move.
    let state = reqwest::Client::new()
        .get(format!("{base}/board/{channel}/state"))
        .bearer_auth(&mover_key)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let state: Value = serde_json::from_slice(&state).unwrap();
    let game_id = state["game_id"].as_u64().unwrap();
    let links = BoardLinks::new(PUBLIC_URL, SECRET.as_bytes(), Duration::from_secs(60));
    let expired = links.token(player(game.side_to_move()).id, channel, game_id, 1);
    watcher_page
        .goto(&format!("{base}/board/{channel}?as=expired#{expired}"))
        .await
        .unwrap();
    wait_ply(&watcher_page, game.ply(), "the expired link's page").await;
    assert_eq!(
        attr(&watcher_page, "#board", "data-viewer")
            .await
            .as_deref(),
        Some("spectator")
    );
    let note = watcher_page
        .find(Locator::Id("note"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(note.contains("expired"), "{note}");
    assert_eq!(
        post_move(base, channel, Some(&expired), &notation).await,
        403
    );
    // Nothing moved.
    wait_ply(&mover_page, game.ply(), "the mover").await;

    // The mover's own key still plays (the refusals above were the keys', not the move's).
    assert_eq!(
        post_move(base, channel, Some(&mover_key), &notation).await,
        200
    );
    game.play_text(&notation).unwrap();
    wait_ply(&mover_page, game.ply(), "the mover").await;

    mover_page.close().await.unwrap();
    watcher_page.close().await.unwrap();
}
