//! `/settings` and who may use what, over the stand-in: the registration tells Discord each
//! command's default permissions, the member's permissions and roles are read from the
//! interaction, and the app refuses what the server's own overrides let through.

use crate::support::bot::*;
use crate::support::stand_in::*;
use serde_json::{json, Value};

fn registered<'a>(body: &'a Value, name: &str) -> &'a Value {
    body.as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{name} not registered: {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_for_admins_and_the_organiser_role_cancels() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let _bot = start_bot(&standin, &dir.path().join("db")).await;

    // Discord hides the moderators' commands from the other members by default.
    let put = standin.commands_put().await;
    assert_eq!(put.status, 200, "{}", put.summary());
    let body = put.body();
    // MANAGE_GUILD, MANAGE_MESSAGES (as Discord takes them: strings of the bits).
    assert_eq!(
        registered(body, "settings")["default_member_permissions"],
        json!("32")
    );
    assert_eq!(
        registered(body, "cancel")["default_member_permissions"],
        json!("8192")
    );
    // /tournament join is everyone's: the group cannot be hidden.
    assert_eq!(
        registered(body, "tournament")["default_member_permissions"],
        Value::Null
    );
    assert_eq!(
        registered(body, "play")["default_member_permissions"],
        Value::Null
    );
    let settings = registered(body, "settings");
    assert_eq!(settings["name_localizations"]["es-ES"], "ajustes");
    let option = |name: &str| {
        settings["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("no option {name}: {settings}"))
            .clone()
    };
    assert_eq!(option("add-channel")["type"], 7);
    assert_eq!(option("add-channel")["channel_types"], json!([0]));
    assert_eq!(option("role")["type"], 8);

    // A member the server let run /settings cannot change anything.
    let place = Place::guild(GUILD, snowflake());
    let member = TestUser::random("member");
    let sent = standin
        .send_slash(
            &member,
            place,
            Slash::named("settings").with("variant", "english"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, "Only members who can manage the server");

    // An admin sets the variant, a game channel and the organiser role.
    let admin = TestUser::random("admin").with_manage_guild();
    let command = Slash {
        name: "settings",
        options: vec![
            opt_str("variant", "english"),
            opt_channel("add-channel", place.channel),
            opt_role("role", 77),
        ],
    };
    let sent = standin.send_slash(&admin, place, command).await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, "English draughts");
    assert_says(&cb, &format!("<#{}>", place.channel));
    assert_says(&cb, "<@&77>");
    // Only the one asked for is ever notified: nobody here.
    let allowed = &cb.message_body()["allowed_mentions"];
    assert_eq!(allowed["parse"], json!([]), "{allowed}");
    assert_eq!(allowed["users"], json!([]), "{allowed}");

    // Elsewhere games no longer start, and the refusal says where.
    let elsewhere = Place::guild(GUILD, snowflake());
    let alice = TestUser::random("alice");
    let sent = standin
        .send_slash(
            &alice,
            elsewhere,
            Slash::play_easy("white").with("thread", "no"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, &format!("start in <#{}>", place.channel));

    // Here a game starts with the server's variant; a member with the role cancels it.
    let sent = standin
        .send_slash(
            &alice,
            place,
            Slash::play_easy("white").with("thread", "no"),
        )
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, "English");
    let stranger = TestUser::random("stranger").with_roles(&[5]);
    let sent = standin
        .send_slash(&stranger, place, Slash::named("cancel"))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "{}", cb.summary());
    let organiser = TestUser::random("organiser").with_roles(&[5, 77]);
    let sent = standin
        .send_slash(&organiser, place, Slash::named("cancel"))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(!cb.is_ephemeral(), "{}", cb.summary());
    assert_says(&cb, "cancelled the game");
}
