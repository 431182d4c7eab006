//! The real serenity client against the Discord stand-in: registration, a slash command answered
//! with a picture and a button, a click answered by a deferred update and an edit, autocomplete,
//! restarts, resumes, and what the stand-in refuses the way Discord would.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::stand_in::{
    opt_bool, opt_focused, opt_str, Config, Place, Route, RunningClient, Slash, StandIn, TestUser,
};
use serde_json::json;
use serenity::all::{
    ApplicationId, ButtonStyle, CommandOptionType, Context, CreateActionRow, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateCommand, CreateCommandOption, CreateEmbed,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    EditInteractionResponse, EventHandler, GatewayIntents, GuildId, Interaction, InteractionId,
    Ready, ResolvedValue,
};
use serenity::async_trait;
use serenity::builder::Builder;
use tokio::time::timeout;

/// A 1×1 transparent PNG.
const PNG_1X1: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00,
    0x00, 0x05, 0x00, 0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
    0xae, 0x42, 0x60, 0x82,
];

const VARIANTS: &[&str] = &["spanish", "portuguese", "english"];

/// A tiny bot: registers `/play` in one guild, answers it with a board picture and a button,
/// answers clicks with a deferred update then an edit, and autocompletes the variant.
struct SmokeBot {
    guild: GuildId,
    /// Errors the handler met (serenity calls that failed): the test asserts there are none.
    errors: Arc<Mutex<Vec<String>>>,
}

impl SmokeBot {
    fn fail(&self, what: &str, e: serenity::Error) {
        self.errors.lock().unwrap().push(format!("{what}: {e}"));
    }
}

#[async_trait]
impl EventHandler for SmokeBot {
    async fn ready(&self, ctx: Context, _ready: Ready) {
        let play = CreateCommand::new("play")
            .description("Start a game of draughts")
            .description_localized("es-ES", "Empieza una partida de damas")
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "variant", "Rules to play")
                    .required(true)
                    .set_autocomplete(true),
            )
            .add_option(CreateCommandOption::new(
                CommandOptionType::Boolean,
                "private",
                "Only you see it",
            ));
        if let Err(e) = self.guild.set_commands(&ctx.http, vec![play]).await {
            self.fail("set_commands", e);
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(command) => {
                let private = command.data.options().iter().any(|o| {
                    o.name == "private" && matches!(o.value, ResolvedValue::Boolean(true))
                });
                let button = CreateButton::new("move:1:12-16")
                    .label("12-16")
                    .style(ButtonStyle::Primary);
                let redraw = CreateButton::new("redraw")
                    .label("Redraw")
                    .style(ButtonStyle::Secondary);
                let answer = CreateInteractionResponseMessage::new()
                    .content(format!("{} starts a game", command.user.name))
                    .embed(
                        CreateEmbed::new()
                            .title("Board")
                            .image("attachment://board.png"),
                    )
                    .add_file(CreateAttachment::bytes(PNG_1X1, "board.png"))
                    .components(vec![CreateActionRow::Buttons(vec![button, redraw])])
                    .ephemeral(private);
                let result = command
                    .create_response(&ctx.http, CreateInteractionResponse::Message(answer))
                    .await;
                if let Err(e) = result {
                    self.fail("slash answer", e);
                }
            }
            Interaction::Component(click) => {
                if let Err(e) = click
                    .create_response(&ctx.http, CreateInteractionResponse::Acknowledge)
                    .await
                {
                    self.fail("deferred update", e);
                    return;
                }
                let edit = if click.data.custom_id == "redraw" {
                    // A new picture replaces the old one; the buttons stay.
                    EditInteractionResponse::new()
                        .new_attachment(CreateAttachment::bytes(PNG_1X1, "board.png"))
                        .embed(
                            CreateEmbed::new()
                                .title("Board")
                                .image("attachment://board.png"),
                        )
                } else {
                    // No attachments given: the picture stays; the buttons go.
                    EditInteractionResponse::new()
                        .content(format!("played {}", click.data.custom_id))
                        .components(vec![])
                };
                if let Err(e) = click.edit_response(&ctx.http, edit).await {
                    self.fail("edit original", e);
                }
            }
            Interaction::Autocomplete(search) => {
                let typed = search
                    .data
                    .autocomplete()
                    .map(|o| o.value.to_owned())
                    .unwrap_or_default();
                let mut choices = CreateAutocompleteResponse::new();
                for variant in VARIANTS.iter().filter(|v| v.starts_with(&typed)) {
                    choices = choices.add_string_choice(*variant, *variant);
                }
                let result = search
                    .create_response(&ctx.http, CreateInteractionResponse::Autocomplete(choices))
                    .await;
                if let Err(e) = result {
                    self.fail("autocomplete", e);
                }
            }
            _ => {}
        }
    }
}

/// A bot that ignores interactions, so the test can answer them by hand.
struct SilentBot;

#[async_trait]
impl EventHandler for SilentBot {}

fn smoke_bot(guild: u64) -> (SmokeBot, Arc<Mutex<Vec<String>>>) {
    let errors = Arc::new(Mutex::new(Vec::new()));
    (
        SmokeBot {
            guild: GuildId::new(guild),
            errors: Arc::clone(&errors),
        },
        errors,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_command_button_and_autocomplete_reach_discord_correctly() {
    timeout(Duration::from_secs(60), async {
        let standin = StandIn::start().await;
        let place = Place::random_guild();
        let (bot, errors) = smoke_bot(place.guild.unwrap());
        let running = RunningClient::start(&standin, GatewayIntents::non_privileged(), bot).await;

        // IDENTIFY carries the token and no privileged intent.
        let identify = standin.identify().await;
        assert_eq!(identify.body()["token"], json!(format!("Bot {}", standin.token())));
        let intents = identify.body()["intents"].as_u64().unwrap();
        assert_eq!(intents & ((1 << 1) | (1 << 8) | (1 << 15)), 0, "privileged intents asked: {intents}");

        // READY → the guild command is registered with its option and localization.
        let put = standin.commands_put().await;
        assert_eq!(put.route, Route::Commands { guild: place.guild });
        assert_eq!(put.status, 200, "{}", put.summary());
        let body = put.body();
        assert_eq!(body[0]["name"], "play");
        assert_eq!(body[0]["description_localizations"]["es-ES"], "Empieza una partida de damas");
        assert_eq!(body[0]["options"][0]["autocomplete"], true);
        let registered = standin.registered_commands(place.guild);
        assert_eq!(registered.len(), 1);

        // A slash command is answered with a picture, an embed using it, and a button.
        let alice = TestUser::random("alice").with_locale("es-ES");
        let payload = standin.slash(&alice, place, Slash::named("play").with("variant", "spanish"));
        assert_eq!(payload["data"]["id"], registered[0]["id"], "the registered command's id is used");
        let sent = standin.send_interaction(payload).await;
        let answer = standin.callback(&sent).await;
        assert_eq!(answer.status, 204, "{}", answer.summary());
        assert_eq!(answer.callback_type(), Some(4));
        assert_eq!(answer.content(), "alice starts a game");
        assert!(!answer.is_ephemeral());
        let file = answer.file("board.png").expect("board.png uploaded");
        assert_eq!(file.field, "files[0]");
        assert_eq!(file.bytes, PNG_1X1);
        let data = &answer.body()["data"];
        assert_eq!(data["attachments"][0]["filename"], "board.png");
        assert_eq!(data["embeds"][0]["image"]["url"], "attachment://board.png");
        assert_eq!(answer.custom_ids(), vec!["move:1:12-16", "redraw"]);

        // What Discord now shows: the picture is attached and the embed points at it.
        let board = standin.original_message(&sent);
        assert_eq!(standin.attachment_bytes(&board, "board.png").unwrap(), PNG_1X1);
        assert_eq!(board["attachments"][0]["width"], 1);
        assert_eq!(board["embeds"][0]["image"]["url"], board["attachments"][0]["url"]);

        // The same command asked in private is answered ephemerally (flag 64).
        let private = standin.slash_command(
            &alice,
            place,
            "play",
            vec![opt_str("variant", "english"), opt_bool("private", true)],
        );
        let sent_private = standin.send_interaction(private).await;
        let answer = standin.callback(&sent_private).await;
        assert_eq!(answer.flags() & 64, 64, "{}", answer.summary());

        // "Redraw": deferred update, then an edit uploading a new picture (multipart PATCH).
        let redraw = standin.button_click(&alice, &board, "redraw");
        let sent_redraw = standin.send_interaction(redraw).await;
        assert_eq!(standin.callback(&sent_redraw).await.callback_type(), Some(6));
        let edit = standin.original_edit(&sent_redraw).await;
        assert_eq!(edit.status, 200, "{}", edit.summary());
        assert_eq!(edit.file("board.png").expect("new picture uploaded").bytes, PNG_1X1);
        assert_eq!(edit.body()["attachments"][0]["filename"], "board.png");
        let redrawn = standin.original_message(&sent_redraw);
        assert_eq!(redrawn["id"], board["id"]);
        let attachments = redrawn["attachments"].as_array().unwrap();
        assert_eq!(attachments.len(), 1, "the old picture is replaced: {attachments:?}");
        assert_ne!(attachments[0]["id"], board["attachments"][0]["id"]);
        assert_eq!(redrawn["embeds"][0]["image"]["url"], attachments[0]["url"]);
        assert_eq!(crate::support::stand_in::custom_ids(&redrawn), vec!["move:1:12-16", "redraw"]);
        let board = redrawn;

        // A click: deferred update (type 6), then an edit of @original, which is the board.
        let click = standin.button_click(&alice, &board, "move:1:12-16");
        let sent_click = standin.send_interaction(click).await;
        let ack = standin.callback(&sent_click).await;
        assert_eq!(ack.callback_type(), Some(6), "{}", ack.summary());
        let edit = standin.original_edit(&sent_click).await;
        assert_eq!(edit.status, 200, "{}", edit.summary());
        assert_eq!(edit.content(), "played move:1:12-16");
        assert_eq!(edit.message_id(), board["id"].as_str().and_then(|s| s.parse().ok()));
        let board_after = standin.original_message(&sent_click);
        assert_eq!(board_after["content"], "played move:1:12-16");
        assert_eq!(board_after["components"], json!([]), "the buttons are gone");
        assert_eq!(board_after["attachments"], board["attachments"], "the picture stays");

        // A string select on a message the bot posted earlier (an old board, say).
        let select = json!([{"type": 1, "components": [{
            "type": 3, "custom_id": "variant-pick", "min_values": 1, "max_values": 1,
            "options": [{"label": "Spanish", "value": "spanish"}, {"label": "English", "value": "english"}],
        }]}]);
        let old = standin.post_message(place, &standin.bot_user(), "Pick the rules", select);
        let pick = standin.select_menu(&alice, &old, "variant-pick", &["english"]);
        assert_eq!(pick["data"]["values"], json!(["english"]));
        let sent_pick = standin.send_interaction(pick).await;
        assert_eq!(standin.callback(&sent_pick).await.callback_type(), Some(6));
        let edit = standin.original_edit(&sent_pick).await;
        assert_eq!(edit.message_id(), old["id"].as_str().and_then(|s| s.parse().ok()));
        let id: u64 = old["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(standin.message(id).unwrap()["content"], "played variant-pick");

        // In DMs there is no member: the user comes in `user`.
        let dm = standin.slash(&alice, Place::dm(crate::support::stand_in::snowflake()), Slash::named("play"));
        assert!(dm.get("member").is_none() && dm["user"]["username"] == "alice");
        let sent_dm = standin.send_interaction(dm).await;
        assert_eq!(standin.callback(&sent_dm).await.content(), "alice starts a game");

        // Autocomplete: the typed prefix is a string, the answer has the matching choices.
        let search = standin.autocomplete(&alice, place, "play", vec![opt_focused("variant", 3, "p")]);
        let sent_search = standin.send_interaction(search).await;
        let choices = standin.callback(&sent_search).await;
        assert_eq!(choices.callback_type(), Some(8));
        assert_eq!(choices.choices(), vec![json!({"name": "portuguese", "value": "portuguese"})]);

        running.stop().await;
        standin.wait_disconnected().await;
        let close = standin.next_request(|r| matches!(r.route, Route::GatewayClose { .. })).await;
        assert_eq!(close.route, Route::GatewayClose { code: Some(1000) });
        assert!(errors.lock().unwrap().is_empty(), "handler errors: {:?}", errors.lock().unwrap());
        standin.assert_no_refusals();
    })
    .await
    .expect("the test finishes within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_identifies_again_and_keeps_working() {
    timeout(Duration::from_secs(60), async {
        let standin = StandIn::start().await;
        let place = Place::random_guild();
        let bob = TestUser::random("bob");

        let (bot, errors) = smoke_bot(place.guild.unwrap());
        let first = RunningClient::start(&standin, GatewayIntents::empty(), bot).await;
        standin.identify().await;
        let first_put = standin.commands_put().await;
        let sent = standin.send_slash(&bob, place, Slash::named("play")).await;
        let board = {
            standin.callback(&sent).await;
            standin.original_message(&sent)
        };
        first.stop().await;
        standin.wait_disconnected().await;

        // A new process: fresh connection, IDENTIFY, READY, registration again.
        let (bot, errors_2) = smoke_bot(place.guild.unwrap());
        let second = RunningClient::start(&standin, GatewayIntents::empty(), bot).await;
        standin.identify().await;
        let second_put = standin.commands_put().await;
        assert_eq!(
            first_put.response.as_ref().unwrap()[0]["id"],
            second_put.response.as_ref().unwrap()[0]["id"],
            "re-registering keeps the command id, as on Discord"
        );
        // A button of the board posted before the restart still works.
        let sent = standin
            .send_interaction(standin.button_click(&bob, &board, "move:1:12-16"))
            .await;
        assert_eq!(standin.callback(&sent).await.callback_type(), Some(6));
        assert_eq!(standin.original_edit(&sent).await.status, 200);

        second.stop().await;
        for errors in [errors, errors_2] {
            assert!(
                errors.lock().unwrap().is_empty(),
                "handler errors: {:?}",
                errors.lock().unwrap()
            );
        }
        standin.assert_no_refusals();
    })
    .await
    .expect("the test finishes within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heartbeats_are_acknowledged_and_sessions_resume() {
    timeout(Duration::from_secs(60), async {
        let cfg = Config {
            heartbeat_interval: Duration::from_millis(250),
            ..Config::default()
        };
        let standin = StandIn::start_with(cfg).await;
        let place = Place::random_guild();
        let carol = TestUser::random("carol");
        let (bot, errors) = smoke_bot(place.guild.unwrap());
        let running = RunningClient::start(&standin, GatewayIntents::empty(), bot).await;
        standin.identify().await;
        standin.commands_put().await;

        // Heartbeats flow and are answered: no reconnect meanwhile.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        assert!(
            standin.heartbeats() >= 2,
            "heartbeats: {}",
            standin.heartbeats()
        );
        assert!(standin.is_connected());

        // op 7 RECONNECT: serenity resumes on a new connection, nothing re-identifies.
        standin.request_reconnect();
        let resume = standin.next_request(|r| r.route == Route::Resume).await;
        assert_eq!(resume.status, 0, "{}", resume.summary());
        assert!(
            resume.response.is_none(),
            "resumed, not refused: {}",
            resume.summary()
        );
        standin.wait_connected().await;
        let sent = standin
            .send_slash(&carol, place, Slash::named("play"))
            .await;
        assert_eq!(standin.callback(&sent).await.callback_type(), Some(4));

        // A cut connection: an interaction sent meanwhile is replayed when serenity resumes.
        standin.drop_connections();
        let sent = standin
            .queue_interaction(standin.slash(&carol, place, Slash::named("play")))
            .await;
        let resume = standin.next_request(|r| r.route == Route::Resume).await;
        let resumed_from = resume.body()["seq"].as_u64().unwrap();
        assert!(
            resumed_from < sent.seq,
            "the bot had not seen it: seq {resumed_from} < {}",
            sent.seq
        );
        assert_eq!(standin.callback(&sent).await.callback_type(), Some(4));
        standin.wait_connected().await;

        // INVALID_SESSION: serenity identifies anew. (Slow: serenity's shard queuer waits 5 s
        // between two IDENTIFYs of one client.)
        standin.invalidate_sessions();
        standin.identify().await;
        standin.wait_connected().await;
        let sent = standin
            .send_slash(&carol, place, Slash::named("play"))
            .await;
        assert_eq!(standin.callback(&sent).await.callback_type(), Some(4));

        running.stop().await;
        assert!(
            errors.lock().unwrap().is_empty(),
            "handler errors: {:?}",
            errors.lock().unwrap()
        );
        standin.assert_no_refusals();
    })
    .await
    .expect("the test finishes within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_token_or_privileged_intents_fail_clearly() {
    timeout(Duration::from_secs(60), async {
        let standin = StandIn::start().await;

        // REST: 401.
        let err = standin
            .http_with_token("not-the-token")
            .get_current_user()
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("401") || format!("{err:?}").contains("401"),
            "{err:?}"
        );
        assert!(standin.http().get_current_user().await.is_ok());

        // Gateway: close 4004, and client.start() returns an error instead of hanging.
        let client = serenity::client::ClientBuilder::new_with_http(
            standin.http_with_token("not-the-token"),
            GatewayIntents::empty(),
        );
        let mut client = client.event_handler(SilentBot).await.unwrap();
        let result = timeout(Duration::from_secs(10), client.start())
            .await
            .expect("start returns");
        let err = result.unwrap_err();
        assert!(
            format!("{err:?}").contains("InvalidAuthentication"),
            "{err:?}"
        );
        assert_eq!(standin.identify().await.status, 4004);

        // A privileged intent the portal has not allowed: close 4014.
        let running =
            RunningClient::start(&standin, GatewayIntents::MESSAGE_CONTENT, SilentBot).await;
        let err = running.finished().await.unwrap_err();
        assert!(
            format!("{err:?}").contains("DisallowedGatewayIntents"),
            "{err:?}"
        );
        assert_eq!(standin.identify().await.status, 4014);
    })
    .await
    .expect("the test finishes within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stand_in_refuses_what_discord_refuses() {
    timeout(Duration::from_secs(60), async {
        let standin = StandIn::start().await;
        let running = RunningClient::start(&standin, GatewayIntents::empty(), SilentBot).await;
        standin.wait_connected().await;
        let http = standin.http();
        http.set_application_id(ApplicationId::new(standin.application_id()));
        let dave = TestUser::random("dave");
        let place = Place::random_guild();
        let status_of = |e: serenity::Error| match e {
            serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
                (r.status_code.as_u16(), r.error.code)
            }
            other => panic!("not an HTTP refusal: {other:?}"),
        };

        let sent = standin.send_slash(&dave, place, Slash::named("play")).await;
        let id = InteractionId::new(sent.id);

        // A custom_id longer than 100 characters: 400 Invalid Form Body.
        let long = CreateButton::new("x".repeat(101)).label("too long");
        let answer = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content("hi")
                .components(vec![CreateActionRow::Buttons(vec![long])]),
        );
        let err = answer.execute(&http, (id, &sent.token)).await.unwrap_err();
        assert_eq!(status_of(err), (400, 50035));

        // An embed image pointing at a file that was not uploaded.
        let answer = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .embed(CreateEmbed::new().image("attachment://missing.png")),
        );
        let err = answer.execute(&http, (id, &sent.token)).await.unwrap_err();
        assert_eq!(status_of(err), (400, 50035));

        // Autocomplete answers to a command: wrong type.
        let answer = CreateInteractionResponse::Autocomplete(CreateAutocompleteResponse::new());
        let err = answer.execute(&http, (id, &sent.token)).await.unwrap_err();
        assert_eq!(status_of(err), (400, 50035));

        // A good answer, then a second one: 40060 already acknowledged.
        let good = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new().content("hi"),
        );
        good.clone()
            .execute(&http, (id, &sent.token))
            .await
            .unwrap();
        let err = good.execute(&http, (id, &sent.token)).await.unwrap_err();
        assert_eq!(status_of(err), (400, 40060));

        // Follow-ups work after an answer and are kept apart from the original.
        let followup = CreateInteractionResponseFollowup::new()
            .content("and more")
            .ephemeral(true);
        let message = followup.execute(&http, (None, &sent.token)).await.unwrap();
        assert_eq!(standin.followup(&sent).await.status, 200);
        assert!(message
            .flags
            .unwrap()
            .contains(serenity::model::channel::MessageFlags::EPHEMERAL));
        assert_eq!(standin.original_message(&sent)["content"], "hi");

        // 26 autocomplete choices are too many.
        let search =
            standin.autocomplete(&dave, place, "play", vec![opt_focused("variant", 3, "")]);
        let sent = standin.send_interaction(search).await;
        let mut choices = CreateAutocompleteResponse::new();
        for i in 0..26 {
            choices = choices.add_string_choice(format!("choice {i}"), format!("{i}"));
        }
        let err = CreateInteractionResponse::Autocomplete(choices)
            .execute(&http, (InteractionId::new(sent.id), &sent.token))
            .await
            .unwrap_err();
        assert_eq!(status_of(err), (400, 50035));

        // A bad command registration: uppercase name, locale "es" instead of "es-ES".
        let bad = CreateCommand::new("Play")
            .description("x")
            .name_localized("es", "jugar");
        let err = GuildId::new(place.guild.unwrap())
            .set_commands(&http, vec![bad])
            .await
            .unwrap_err();
        assert_eq!(status_of(err), (400, 50035));
        let put = standin.commands_put().await;
        assert!(
            put.problems.iter().any(|p| p.contains("Invalid locale")),
            "{}",
            put.summary()
        );

        // A modal submit reaches the bot and can be answered with a message.
        let modal = standin.modal_submit(&dave, place, "resign-confirm", &[("reason", "tired")]);
        let sent = standin.send_interaction(modal).await;
        let answer = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new().content("ok"),
        );
        answer
            .execute(&http, (InteractionId::new(sent.id), &sent.token))
            .await
            .unwrap();

        // Anything unknown is answered 404 and shows up as a refusal.
        let err = http
            .get_guild(serenity::all::GuildId::new(1))
            .await
            .unwrap_err();
        assert_eq!(status_of(err).0, 404);
        assert_eq!(standin.refusals().last().unwrap().route, Route::Unknown);

        running.stop().await;
    })
    .await
    .expect("the test finishes within 60 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_answers_are_unknown_interactions_when_the_deadline_is_on() {
    timeout(Duration::from_secs(60), async {
        let cfg = Config {
            interaction_deadline: Some(Duration::from_millis(200)),
            ..Config::default()
        };
        let standin = StandIn::start_with(cfg).await;
        let running = RunningClient::start(&standin, GatewayIntents::empty(), SilentBot).await;
        let http = standin.http();
        http.set_application_id(ApplicationId::new(standin.application_id()));
        let place = Place::random_guild();
        let sent = standin
            .send_slash(&TestUser::random("eve"), place, Slash::named("play"))
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let answer = CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new().content("late"),
        );
        let err = answer
            .execute(&http, (InteractionId::new(sent.id), &sent.token))
            .await
            .unwrap_err();
        assert!(format!("{err:?}").contains("10062"), "{err:?}");
        let callback = standin.callback(&sent).await;
        assert_eq!(callback.status, 404);
        assert!(callback.elapsed.unwrap() >= Duration::from_millis(300));
        running.stop().await;
    })
    .await
    .expect("the test finishes within 60 s");
}
