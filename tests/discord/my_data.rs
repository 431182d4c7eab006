//! `/my-data` over the stand-in: registered with its Spanish name, answered ephemerally with a
//! JSON file of the caller's data.

use crate::support::bot::*;
use crate::support::stand_in::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_data_answers_privately_with_a_json_file() {
    let dir = tempfile::tempdir().unwrap();
    let standin = StandIn::start().await;
    let bot = start_bot(&standin, &dir.path().join("db")).await;
    let put = standin.commands_put().await;
    let registered = put
        .body()
        .as_array()
        .and_then(|l| l.iter().find(|c| c["name"] == "my-data"))
        .cloned()
        .expect("/my-data is registered");
    assert_eq!(registered["name_localizations"]["es-ES"], "mis-datos");

    let alice = TestUser::random("alice");
    let place = Place::guild(GUILD, snowflake());
    let sent = standin
        .send_slash(&alice, place, Slash::named("my-data"))
        .await;
    let cb = standin.callback(&sent).await;
    assert!(cb.is_ephemeral(), "only alice sees it: {}", cb.summary());
    let name = format!("damas-my-data-{}.json", alice.id);
    let file = cb
        .file(&name)
        .unwrap_or_else(|| panic!("{name}: {}", cb.summary()));
    let doc: serde_json::Value = serde_json::from_slice(&file.bytes).expect("JSON");
    assert_eq!(doc["user_id"], alice.id.to_string());
    assert_eq!(doc["finished_games"], serde_json::json!([]));
    standin.assert_no_refusals();
    bot.stop().await;
}
