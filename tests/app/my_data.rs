//! Privacy: `/my-data` answers privately with a JSON file of everything kept about the caller
//! and nothing about anyone else; the sweeper removes finished games older than
//! `DAMAS_KEEP_GAMES_DAYS` and leaves ratings alone; `/help` says how to see and erase your
//! data, linking the operator's statement when there is one.

use crate::support::app::*;
use damas::app::commands::{find, ArgValue, Command, Invocation, TournamentCreate};
use damas::app::i18n::Lang;
use damas::app::puzzle::daily_puzzle;
use damas::app::{Action, Actor, App, Place, Reply, Settings};
use damas::engine::{Color, Variant};
use serde_json::Value;

/// Noon on a fixed day (the puzzle of the day depends on it).
const NOON: u64 = 20_000 * 86_400_000 + 12 * 3_600_000;
const DAY: u64 = 86_400_000;

fn at(channel_id: u64) -> Place {
    Place {
        guild_id: PLACE.guild_id,
        channel_id,
    }
}

/// `white` challenges `black` in `place` and `black` accepts: a game under way.
async fn game(app: &App, white: &Actor, black: &Actor, place: Place) {
    let a = app
        .challenge(
            white,
            place,
            &user(black),
            Some(Variant::Spanish),
            Some(Color::White),
        )
        .await;
    let accept = button_id(only(&a), Action::Accept);
    app.component(black, place, &accept, &[]).await;
    assert!(app.store().active_game(place.channel_id).unwrap().is_some());
}

/// A game in `place` that `black` resigns.
async fn finished_game(app: &App, white: &Actor, black: &Actor, place: Place) {
    game(app, white, black, place).await;
    app.resign(black, place).await;
    assert!(app.store().active_game(place.channel_id).unwrap().is_none());
}

async fn command(
    app: &App,
    who: &Actor,
    place: Place,
    name: &str,
    args: &[(&'static str, &str)],
) -> Reply {
    let mut inv = Invocation::new(find(name).expect("command"));
    for (k, v) in args {
        inv.args.push((k, ArgValue::Text(v.to_string())));
    }
    only(&app.run_command(who, place, &inv).await).clone()
}

/// Every string of a JSON document with the keys leading to it and the object holding it.
fn strings<'a>(
    v: &'a Value,
    path: &mut Vec<String>,
    parent: Option<&'a Value>,
    out: &mut Vec<(String, &'a str, Option<&'a Value>)>,
) {
    match v {
        Value::String(s) => out.push((path.join("."), s, parent)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                strings(item, path, parent, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(k.clone());
                strings(item, path, Some(v), out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[tokio::test]
async fn my_data_holds_the_callers_games_puzzles_and_tournaments_and_nobody_elses_data() {
    let w = World::clocked(seeded(7), NOON);
    let app = &w.app;
    let alice = actor(1001, "alice");
    let bob = actor(1002, "bob");
    let carol = actor(1003, "carol");
    let dave = actor(1004, "dave");
    let erin = actor(1005, "erin");

    // alice's games: one finished, one under way, both against bob.
    finished_game(app, &alice, &bob, at(20)).await;
    game(app, &bob, &alice, at(23)).await;
    // Games alice is not in, bob's included.
    finished_game(app, &bob, &carol, at(21)).await;
    finished_game(app, &carol, &dave, at(22)).await;
    // A challenge she made, still open.
    app.challenge(&alice, at(24), &user(&erin), None, None)
        .await;
    // A try at the puzzle of the day: a wrong move.
    let puzzle = daily_puzzle(Variant::Spanish, 10, NOON).expect("a puzzle");
    command(app, &alice, at(25), "puzzle", &[]).await;
    let wrong = damas::engine::legal_notations(&puzzle.position)
        .into_iter()
        .map(|(_, n)| n)
        .find(|n| *n != puzzle.line_notation()[0])
        .expect("puzzles have several moves");
    command(app, &alice, at(25), "move", &[("move", &wrong)]).await;
    // carol also tries it, and joins alice's tournament.
    command(app, &carol, at(26), "puzzle", &[]).await;
    command(app, &carol, at(26), "move", &[("move", &wrong)]).await;
    let create = Command::TournamentCreate(TournamentCreate {
        name: "Winter cup".into(),
        variant: None,
        format: None,
        rounds: None,
        days: None,
        start: None,
        opening: None,
    });
    app.run(&alice, at(50), create, false).await;
    app.tournament_join(&alice, at(50)).await;
    app.tournament_join(&carol, at(50)).await;
    // alice, who manages the server, sets its variant; carol's change of its language is
    // carol's, not hers.
    let mut alice_admin = alice.clone();
    alice_admin.can_manage_guild = true;
    let mut carol_admin = carol.clone();
    carol_admin.can_manage_guild = true;
    command(
        app,
        &alice_admin,
        at(27),
        "settings",
        &[("variant", "english")],
    )
    .await;
    command(app, &carol_admin, at(27), "settings", &[("language", "es")]).await;
    let server = app
        .store()
        .server_settings(PLACE.guild_id.unwrap())
        .unwrap();
    assert_eq!(
        server.variant.value,
        Some(Variant::English),
        "alice's change was made"
    );
    assert_eq!(
        server.language.value,
        Some(Lang::Es),
        "carol's change was made"
    );

    let reply = command(app, &alice, at(20), "my-data", &[]).await;
    assert!(reply.is_private(), "only alice sees it");
    assert!(reply.text.contains("(2 games)"), "{}", reply.text);
    let [file] = &reply.files[..] else {
        panic!("one file: {reply:#?}");
    };
    assert!(file.filename.ends_with(".json"), "{}", file.filename);
    let doc: Value = serde_json::from_slice(&file.bytes).expect("the file is JSON");

    assert_eq!(doc["user_id"], "1001");
    let games = |key: &str| -> Vec<(String, String)> {
        doc[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key}: {doc:#}"))
            .iter()
            .map(|g| {
                (
                    g["channel"].as_str().unwrap().to_string(),
                    g["your_colour"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(
        games("finished_games"),
        [("20".to_string(), "white".to_string())]
    );
    assert_eq!(
        games("games_under_way"),
        [("23".to_string(), "black".to_string())]
    );
    let first = &doc["finished_games"][0];
    assert_eq!(first["result"]["for_you"], "win");
    assert_eq!(first["black"]["name"], "bob");
    assert!(
        first["pdn"].as_str().unwrap().contains("[Black \"bob\"]"),
        "{first:#}"
    );
    assert_eq!(doc["record"]["name"], "alice");
    assert_eq!(
        doc["record"]["variants"]["spanish"]["against_people"]["wins"],
        1
    );
    assert_eq!(doc["leaderboards"][0]["server"], "10");
    assert_eq!(doc["puzzles"]["failed"], 1);
    assert_eq!(doc["puzzles"]["name"], "alice");
    let tournaments = doc["tournaments"].as_array().unwrap();
    assert_eq!(tournaments.len(), 1, "{doc:#}");
    assert_eq!(tournaments[0]["name"], "Winter cup");
    assert_eq!(tournaments[0]["entered_as"], "alice");
    assert_eq!(tournaments[0]["you_organised_it"], true);
    assert_eq!(doc["open_challenges"][0]["other_player"]["user_id"], "1005");
    let changed = doc["server_settings_changed"].as_array().unwrap();
    assert_eq!(changed.len(), 1, "alice's change alone: {doc:#}");
    assert_eq!(changed[0]["setting"], "variant");
    assert_eq!(changed[0]["value"], "english");
    assert_eq!(changed[0]["server"], "10");

    // Nobody else's data: carol and dave (not her opponents) appear nowhere; bob and erin
    // only as the opponent in her own game or challenge (and the PDN that names him).
    let mut found = Vec::new();
    strings(&doc, &mut Vec::new(), None, &mut found);
    for (path, text, parent) in found {
        for other in [&carol, &dave] {
            assert!(
                !text.contains(&other.name) && text != other.user_id.to_string(),
                "{} at {path}: {text}",
                other.name
            );
        }
        for other in [&bob, &erin] {
            if !(text.contains(&other.name) || text == other.user_id.to_string()) {
                continue;
            }
            let as_opponent = path.ends_with(".pdn")
                || ((path.ends_with(".user_id") || path.ends_with(".name"))
                    && parent
                        .is_some_and(|p| p["kind"] == "person" || path.contains("other_player")));
            assert!(as_opponent, "{} at {path}: {text}", other.name);
        }
    }

    // bob's file has his games, not alice's challenge or puzzle.
    let bobs = command(app, &bob, at(20), "my-data", &[]).await;
    let doc: Value = serde_json::from_slice(&bobs.files[0].bytes).unwrap();
    assert_eq!(doc["finished_games"].as_array().unwrap().len(), 2);
    assert_eq!(doc["puzzles"], Value::Null);
    assert_eq!(doc["open_challenges"], Value::Array(vec![]));
    assert_eq!(doc["tournaments"], Value::Array(vec![]));
}

/// alice (White) and bob play in PLACE from NOON; bob resigns.
async fn finished_at_noon(settings: Settings) -> (World, Actor, Actor) {
    let w = World::clocked(settings, NOON);
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    finished_game(&w.app, &alice, &bob, PLACE).await;
    (w, alice, bob)
}

#[tokio::test]
async fn the_sweeper_removes_games_older_than_the_setting_and_keeps_the_ratings() {
    let keep_30_days = Settings {
        keep_games_days: Some(30),
        ..seeded(7)
    };
    let (w, _, _) = finished_at_noon(keep_30_days).await;
    let store = w.app.store();
    let before = (store.player(1).unwrap(), store.player(2).unwrap());
    let board = || store.leaderboard(10, Variant::Spanish, None, 10).unwrap();
    let board_before = board();
    assert_eq!(board_before.len(), 2);

    w.at(29 * DAY);
    w.app.sweep().await;
    assert_eq!(store.games_of_player(1, 10).unwrap().len(), 1, "not yet");
    w.at(31 * DAY);
    w.app.sweep().await;
    assert!(store.games_of_player(1, 10).unwrap().is_empty());
    assert!(store
        .games_in_channel(PLACE.channel_id, 10)
        .unwrap()
        .is_empty());
    assert_eq!((store.player(1).unwrap(), store.player(2).unwrap()), before);
    assert_eq!(board(), board_before);

    // `off` keeps them.
    let keep_all = Settings {
        keep_games_days: None,
        ..seeded(7)
    };
    let (w, _, _) = finished_at_noon(keep_all).await;
    w.at(10_000 * DAY);
    w.app.sweep().await;
    assert_eq!(w.app.store().games_of_player(1, 10).unwrap().len(), 1);
}

#[tokio::test]
async fn help_says_how_to_see_and_erase_your_data() {
    let w = World::new(seeded(7));
    let alice = actor(1, "alice");
    let help = command(&w.app, &alice, PLACE, "help", &[]).await;
    assert!(
        help.text.contains("/my-data") && help.text.contains("/forget-me"),
        "{}",
        help.text
    );
    let url = "https://example.org/damas/privacy";
    let w = World::new(Settings {
        privacy_url: Some(url.into()),
        ..seeded(7)
    });
    let help = command(&w.app, &alice, PLACE, "help", &[]).await;
    assert!(help.text.contains(url), "{}", help.text);
    let mut spanish = alice.clone();
    spanish.locale = "es-ES".into();
    let ayuda = command(&w.app, &spanish, PLACE, "help", &[]).await;
    assert!(
        ayuda.text.contains(url) && ayuda.text.contains("/mis-datos"),
        "{}",
        ayuda.text
    );
}

#[tokio::test]
async fn a_file_too_big_leaves_out_the_oldest_finished_games_and_says_so() {
    let w = World::new(seeded(7));
    let (alice, bob) = (actor(1, "alice"), actor(2, "bob"));
    for channel in [20, 21, 22] {
        finished_game(&w.app, &alice, &bob, at(channel)).await;
    }
    let lang = damas::app::i18n::Lang::En;
    let (whole, games, left_out) = w.app.my_data_within(lang, 1, usize::MAX).unwrap();
    assert_eq!((games, left_out), (3, 0));
    // Room for all but about one and a half games.
    let doc: Value = serde_json::from_slice(&whole).unwrap();
    let game_size = serde_json::to_vec(&doc["finished_games"][0]).unwrap().len();
    let mut short = doc.clone();
    short["finished_games"] = Value::Array(vec![]);
    let limit = serde_json::to_vec(&short).unwrap().len() + 64 + game_size * 3 / 2;
    let (cut, games, left_out) = w.app.my_data_within(lang, 1, limit).unwrap();
    assert!(cut.len() <= limit, "{} > {limit}", cut.len());
    assert_eq!((games, left_out), (1, 2));
    let doc: Value = serde_json::from_slice(&cut).unwrap();
    assert_eq!(doc["finished_games_left_out"], 2);
    let kept: Vec<&str> = doc["finished_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["channel"].as_str().unwrap())
        .collect();
    assert_eq!(kept, ["22"], "the newest is kept");
}
