//! `/settings`: a server's admins choose its defaults, game channels, organiser role and
//! public language; the app refuses changes to anyone without Manage Server (whatever Discord
//! let them run), and every command then starts from those choices.

use crate::support::app::*;
use damas::app::commands::{self, ArgValue, Invocation};
use damas::app::{Action, Actor, Answer, Place, ReplyOutcome, UserRef};
use damas::engine::Variant;
use damas::lang::Lang;

const GUILD: u64 = 10;

fn at(channel_id: u64) -> Place {
    Place {
        guild_id: Some(GUILD),
        channel_id,
    }
}

fn admin() -> Actor {
    let mut a = actor(900, "admin");
    a.can_manage_guild = true;
    a
}

fn text(v: &str) -> ArgValue {
    ArgValue::Text(v.to_string())
}

/// A command by name (`"settings"`, `"play"`, or `"tournament create"`) with its options,
/// where the bot may open threads.
fn command(name: &str, args: Vec<(&'static str, ArgValue)>) -> Invocation {
    let spec = match name.split_once(' ') {
        Some((group, sub)) => commands::find_in_group(group, sub),
        None => commands::find(name),
    }
    .unwrap_or_else(|| panic!("no command {name}"));
    let mut inv = Invocation::new(spec);
    inv.args = args;
    inv.can_create_threads = true;
    inv
}

async fn settings(w: &World, who: &Actor, args: Vec<(&'static str, ArgValue)>) -> Answer {
    w.app
        .run_command(who, at(20), &command("settings", args))
        .await
}

fn refusal(a: &Answer) -> &str {
    let r = only(a);
    assert_eq!(r.outcome, ReplyOutcome::Refused, "{r:#?}");
    assert!(r.is_private());
    &r.text
}

fn stored(w: &World) -> damas::store::ServerSettings {
    w.app.store().server_settings(GUILD).unwrap()
}

#[tokio::test]
async fn only_members_who_manage_the_server_change_its_settings() {
    let w = world();
    // A member the server let run /settings: they may look, not change.
    let member = actor(1, "member");
    let a = settings(&w, &member, vec![("variant", text("english"))]).await;
    assert!(refusal(&a).contains("manage the server"), "{a:#?}");
    assert_eq!(stored(&w), Default::default());
    let a = settings(&w, &member, vec![]).await;
    let shown = only(&a);
    assert!(shown.is_private());
    assert_eq!(shown.title.as_deref(), Some("This server's settings"));
    assert!(
        shown
            .text
            .contains("Variant: Spanish draughts (the bot's default)"),
        "{}",
        shown.text
    );
    assert!(shown.text.contains("every channel"), "{}", shown.text);

    // An admin changes it: the one message lists every value and who changed it.
    let a = settings(
        &w,
        &admin(),
        vec![
            ("variant", text("english")),
            ("days", ArgValue::Integer(5)),
            ("add-channel", ArgValue::Channel(20)),
            ("role", ArgValue::Role(77)),
        ],
    )
    .await;
    let shown = only(&a);
    assert!(shown.is_private());
    assert_eq!(shown.outcome, ReplyOutcome::Done);
    assert!(
        shown
            .text
            .contains("Variant: English draughts (checkers) — changed by <@900> on "),
        "{}",
        shown.text
    );
    assert!(
        shown.text.contains("5 days — changed by <@900>"),
        "{}",
        shown.text
    );
    assert!(shown.text.contains("start in: <#20> — "), "{}", shown.text);
    assert!(
        shown.text.contains("Organiser role: <@&77> — "),
        "{}",
        shown.text
    );
    assert!(
        shown.text.contains("each member's own language"),
        "{}",
        shown.text
    );
    // Setting a role says how to let it see /cancel.
    assert!(shown.text.contains("Integrations"), "{}", shown.text);
    let s = stored(&w);
    assert_eq!(s.variant.value, Some(Variant::English));
    assert_eq!(s.variant.changed.and_then(|c| c.by), Some(900));
    assert_eq!(s.days_per_move.value, Some(5));

    // The member still cannot reset them.
    let a = settings(&w, &member, vec![("reset", text("all"))]).await;
    refusal(&a);
    assert_eq!(stored(&w), s);
    // A reset by the admin.
    settings(&w, &admin(), vec![("reset", text("all"))]).await;
    let after = stored(&w);
    assert_eq!(after.variant.value, None);
    assert_eq!(after.channels.value, None);
    assert_eq!(after.organiser_role.value, None);

    // Outside a server there is nothing to set.
    let dm = Place {
        guild_id: None,
        channel_id: 5,
    };
    let a = w
        .app
        .run_command(&admin(), dm, &command("settings", vec![]))
        .await;
    // (/settings is a server's command: refused before it runs, as every such command is.)
    assert!(refusal(&a).contains("needs a server"), "{a:#?}");
}

#[tokio::test]
async fn the_next_games_start_with_the_servers_defaults() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    // Without settings: a thread where the bot may open one, Spanish draughts.
    let a = w
        .app
        .run_command(&alice, at(20), &command("play", vec![]))
        .await;
    assert!(a.new_thread().is_some(), "{a:#?}");

    settings(
        &w,
        &admin(),
        vec![
            ("variant", text("english")),
            ("days", ArgValue::Integer(5)),
            ("thread", text("no")),
        ],
    )
    .await;
    let a = w
        .app
        .run_command(&alice, at(21), &command("play", vec![]))
        .await;
    assert!(a.new_thread().is_none(), "{a:#?}");
    assert_eq!(
        w.active_game(21).expect("played here").variant,
        Variant::English
    );

    // A challenge: the server's variant and days per move, in the channel.
    let challenge = command(
        "challenge",
        vec![(
            "opponent",
            ArgValue::User(UserRef {
                user_id: bob.user_id,
                name: bob.name.clone(),
                is_bot: false,
            }),
        )],
    );
    let a = w.app.run_command(&alice, at(22), &challenge).await;
    let c = w
        .app
        .store()
        .challenge(22)
        .unwrap()
        .expect("challenge stored");
    assert_eq!(c.variant, Variant::English);
    assert_eq!(c.move_time_ms, Some(5 * 86_400_000));
    let accept = button_id(only(&a), Action::Accept);
    w.app.component(&bob, at(22), &accept, &[]).await;
    let game = w.active_game(22).expect("accepted");
    assert_eq!(
        (game.variant, game.move_time_ms),
        (Variant::English, 5 * 86_400_000)
    );

    // What the command says still wins.
    let a = w
        .app
        .run_command(
            &bob,
            at(23),
            &command(
                "play",
                vec![("variant", text("portuguese")), ("thread", text("yes"))],
            ),
        )
        .await;
    assert!(a.new_thread().is_some(), "{a:#?}");

    // Threads by default again.
    settings(&w, &admin(), vec![("thread", text("yes"))]).await;
    let carol = actor(3, "carol");
    let a = w
        .app
        .run_command(&carol, at(24), &command("play", vec![]))
        .await;
    assert!(a.new_thread().is_some(), "{a:#?}");
}

#[tokio::test]
async fn games_and_tournaments_start_only_in_the_servers_channels() {
    let w = world();
    let alice = actor(1, "alice");
    settings(&w, &admin(), vec![("add-channel", ArgValue::Channel(30))]).await;
    settings(&w, &admin(), vec![("add-channel", ArgValue::Channel(31))]).await;
    let a = w
        .app
        .run_command(&alice, at(20), &command("play", vec![]))
        .await;
    assert_eq!(
        refusal(&a),
        "On this server, games and tournaments start in <#30> or <#31>."
    );
    assert!(w.active_game(20).is_none());
    let create = command("tournament create", vec![("name", text("Cup"))]);
    let a = w.app.run_command(&alice, at(20), &create).await;
    assert!(refusal(&a).contains("<#30> or <#31>"), "{a:#?}");
    // Other commands still work there.
    let a = w
        .app
        .run_command(&alice, at(20), &command("rules", vec![]))
        .await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done);

    let a = w
        .app
        .run_command(
            &alice,
            at(30),
            &command("play", vec![("thread", text("no"))]),
        )
        .await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done, "{a:#?}");
    assert!(w.active_game(30).is_some());

    // No channel left: every channel again.
    settings(
        &w,
        &admin(),
        vec![("remove-channel", ArgValue::Channel(30))],
    )
    .await;
    settings(
        &w,
        &admin(),
        vec![("remove-channel", ArgValue::Channel(31))],
    )
    .await;
    assert_eq!(stored(&w).channels.value, None);
    let a = w
        .app
        .run_command(
            &alice,
            at(20),
            &command("play", vec![("thread", text("no"))]),
        )
        .await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done, "{a:#?}");
}

#[tokio::test]
async fn the_organiser_role_may_cancel_games_and_create_tournaments() {
    let w = world();
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    let mut organiser = actor(3, "organiser");
    organiser.roles = vec![77, 78];
    let dave = actor(4, "dave");
    let challenge = w
        .app
        .challenge(&alice, at(20), &user(&bob), None, None)
        .await;
    let accept = button_id(only(&challenge), Action::Accept);
    w.app.component(&bob, at(20), &accept, &[]).await;
    assert!(w.active_game(20).is_some());

    // Without the role set, the organiser is a member like any other.
    let cancel = command("cancel", vec![]);
    let a = w.app.run_command(&organiser, at(20), &cancel).await;
    refusal(&a);
    assert!(w.active_game(20).is_some());

    settings(&w, &admin(), vec![("role", ArgValue::Role(77))]).await;
    let a = w.app.run_command(&dave, at(20), &cancel).await;
    refusal(&a);
    let a = w.app.run_command(&organiser, at(20), &cancel).await;
    assert!(!only(&a).is_private(), "{a:#?}");
    assert!(w.active_game(20).is_none());

    // Once a role organises, only it (and Manage Events) creates tournaments.
    let create = command("tournament create", vec![("name", text("Cup"))]);
    let a = w.app.run_command(&dave, at(40), &create).await;
    assert!(refusal(&a).contains("<@&77>"), "{a:#?}");
    let a = w.app.run_command(&organiser, at(40), &create).await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done, "{a:#?}");
    // …and runs any tournament of the server: dave creates one elsewhere once allowed.
    let mut steward = actor(5, "steward");
    steward.can_manage_events = true;
    let a = w.app.run_command(&steward, at(41), &create).await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done, "{a:#?}");
    let cancel_cup = command("tournament cancel", vec![]);
    let a = w.app.run_command(&dave, at(41), &cancel_cup).await;
    refusal(&a);
    let a = w.app.run_command(&organiser, at(41), &cancel_cup).await;
    assert_eq!(only(&a).outcome, ReplyOutcome::Done, "{a:#?}");
}

#[tokio::test]
async fn public_messages_speak_the_servers_language_and_refusals_the_members() {
    let w = world();
    let alice = actor(1, "alice");
    settings(&w, &admin(), vec![("language", text("es"))]).await;
    let a = w
        .app
        .run_command(
            &alice,
            at(20),
            &command("play", vec![("thread", text("no"))]),
        )
        .await;
    let board = &a.replies[0];
    assert!(!board.is_private());
    assert!(
        board.text.contains("¡Empieza la partida!"),
        "{}",
        board.text
    );
    // What the bot later says on its own there is in Spanish too.
    assert_eq!(w.active_game(20).unwrap().lang, Lang::Es);
    // A refusal is alice's alone: in her language.
    let a = w
        .app
        .run_command(
            &alice,
            at(21),
            &command("move", vec![("move", text("11-15"))]),
        )
        .await;
    assert_eq!(
        refusal(&a),
        "There is no game in this channel. Start one with /challenge or /play."
    );
    // Answers to her alone stay in her language.
    let a = w
        .app
        .run_command(&alice, at(21), &command("help", vec![]))
        .await;
    assert!(only(&a).text.contains("/challenge"), "{}", only(&a).text);
}
