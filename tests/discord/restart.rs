//! The bot process dies (a deploy, a crash, the OOM killer) while it owes a move, and comes
//! back on the same database: the move appears with no user action, exactly once.
//!
//! These run `damas bot` as a child process against the stand-in, and kill it for real.

use crate::support::bot::*;
use crate::support::stand_in::*;
use std::path::PathBuf;
use std::time::Duration;

/// How long a restarted bot may take to show the move it owed (the figure).
const CATCH_UP: Duration = Duration::from_secs(10);

/// The stand-in, waiting long enough for a process to start.
async fn standin() -> StandIn {
    StandIn::start_with(Config {
        wait: Duration::from_secs(30),
        ..Config::default()
    })
    .await
}

/// A post of the bot's move in `channel`. Not any post: on a slow machine the game's first
/// board misses its interaction's answer and is posted in the channel too.
fn bot_move_in(channel: u64) -> impl Fn(&Recorded) -> bool {
    let post_in = bot_post_in(channel);
    move |r| post_in(r) && text(r).contains("Bot · expert played")
}

/// The bot's answer, posted in the channel within [`CATCH_UP`].
async fn the_bot_moves(standin: &StandIn, channel: u64) -> Recorded {
    let post = standin
        .next_request_within(
            CATCH_UP,
            "the bot's move after the restart",
            bot_move_in(channel),
        )
        .await;
    assert_says(&post, "Bot · expert");
    assert_says(&post, "played");
    post
}

/// No second board for the same move appears.
async fn no_second_answer(standin: &StandIn, channel: u64) {
    standin
        .assert_no_request_within(Duration::from_secs(3), bot_move_in(channel))
        .await;
}

/// A bot process on a database of its own, and a channel to play in.
struct Scene {
    _dir: tempfile::TempDir,
    db: PathBuf,
    standin: StandIn,
    place: Place,
}

impl Scene {
    async fn start() -> (Scene, BotProcess) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db");
        let standin = standin().await;
        let bot = BotProcess::start(&standin, &db).await;
        let place = Place::guild(GUILD, snowflake());
        let scene = Scene {
            _dir: dir,
            db,
            standin,
            place,
        };
        (scene, bot)
    }

    /// Once the old process is gone, starts the bot again on the same database: the move it
    /// owed appears, once, and nothing it sent was refused.
    async fn restart_and_see_the_move_once(&self) {
        self.standin.wait_disconnected().await;
        let _bot = BotProcess::start(&self.standin, &self.db).await;
        the_bot_moves(&self.standin, self.place.channel).await;
        no_second_answer(&self.standin, self.place.channel).await;
        self.standin.assert_no_refusals();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_while_the_bot_thinks_it_moves_after_the_restart() {
    let (scene, bot) = Scene::start().await;
    let (standin, place) = (&scene.standin, scene.place);
    hand_the_bot_its_turn(standin, place).await;
    bot.signal("KILL");
    drop(bot);

    scene.restart_and_see_the_move_once().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopped_with_sigterm_while_the_bot_thinks_it_finishes_or_resumes_the_move() {
    let (scene, mut bot) = Scene::start().await;
    let (standin, place) = (&scene.standin, scene.place);
    hand_the_bot_its_turn(standin, place).await;
    bot.signal("TERM");
    // A clean stop: the work under way finishes (at most 10 s), then exit 0.
    let status = bot.wait_exit(Duration::from_secs(15)).await;
    assert!(status.success(), "exit status {status:?}");
    drop(bot);

    scene.restart_and_see_the_move_once().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_between_storing_the_move_and_showing_it_the_board_still_comes() {
    let (scene, bot) = Scene::start().await;
    let (standin, place) = (&scene.standin, scene.place);
    // The bot's post is held: the move is stored, its board not yet shown.
    let held = standin.inject(
        FaultRoute::ChannelPost,
        FaultAction::Delay(Duration::from_secs(60)),
        1,
    );
    hand_the_bot_its_turn(standin, place).await;
    standin.wait_fault_hit(held).await;
    bot.signal("KILL");
    drop(bot);

    scene.restart_and_see_the_move_once().await;
}
