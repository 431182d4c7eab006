//! Each server's `/settings`: stored per guild, kept across a restart, and a member's
//! `/forget-me` drops their id from them while the settings stay.

use super::*;
use damas::store::{Changed, ServerSettings, Setting};

on_both_backends! {
#[tokio::test]
async fn server_settings_outlive_a_restart_and_are_the_guilds_own(db) {
    let store = db.open();
    assert_eq!(store.server_settings(7).unwrap(), ServerSettings::default());
    let stored = store
        .change_server_settings(7, |s| {
            s.variant.set(Some(Variant::English), 11, 1_000);
            s.days_per_move.set(Some(5), 11, 1_000);
            s.threads.set(Some(false), 12, 2_000);
            s.channels.set(Some(vec![30, 31]), 12, 2_000);
            s.organiser_role.set(Some(77), 12, 2_000);
            s.language.set(Some(Lang::Es), 11, 3_000);
        })
        .await
        .unwrap();
    // Another guild: untouched.
    store
        .change_server_settings(8, |s| s.variant.set(Some(Variant::Portuguese), 13, 4_000))
        .await
        .unwrap();
    let store = reopen(&db, store);
    let read = store.server_settings(7).unwrap();
    assert_eq!(read, stored);
    assert_eq!(
        read.variant,
        Setting {
            value: Some(Variant::English),
            changed: Some(Changed { by: Some(11), at_ms: 1_000 }),
        }
    );
    assert_eq!(read.channels.value, Some(vec![30, 31]));
    assert_eq!(read.language.value, Some(Lang::Es));
    assert_eq!(
        store.server_settings(8).unwrap().variant.value,
        Some(Variant::Portuguese)
    );
    assert_eq!(store.server_settings(8).unwrap().threads, Setting::default());
    let mine: Vec<u64> = store
        .server_settings_changed_by(12)
        .unwrap()
        .into_iter()
        .map(|(guild, _)| guild)
        .collect();
    assert_eq!(mine, vec![7]);

    // A reset keeps who did it.
    store
        .change_server_settings(7, |s| s.organiser_role.set(None, 12, 5_000))
        .await
        .unwrap();
    let read = store.server_settings(7).unwrap();
    assert_eq!(read.organiser_role.value, None);
    assert_eq!(read.organiser_role.changed, Some(Changed { by: Some(12), at_ms: 5_000 }));

    // /forget-me of member 11: the values stay, their id goes; 12's stays.
    let summary = store.forget_user(11).await.unwrap();
    assert_eq!(summary.server_settings, 1);
    let store = reopen(&db, store);
    let read = store.server_settings(7).unwrap();
    assert_eq!(read.variant.value, Some(Variant::English));
    assert_eq!(read.variant.changed, Some(Changed { by: None, at_ms: 1_000 }));
    assert_eq!(read.language.changed, Some(Changed { by: None, at_ms: 3_000 }));
    assert_eq!(read.threads.changed, Some(Changed { by: Some(12), at_ms: 2_000 }));
    assert!(store.server_settings_changed_by(11).unwrap().is_empty());
    assert_eq!(store.forget_user(11).await.unwrap().server_settings, 0);
}
}

on_both_backends! {
#[tokio::test]
async fn a_server_settings_record_of_another_version_is_reported_not_overwritten(db) {
    let store = db.open();
    let mut bytes = vec![FORMAT_VERSION + 1];
    bytes.extend(postcard::to_allocvec(&ServerSettings::default()).unwrap());
    store
        .raw_put(damas::store::TREE_SERVER_SETTINGS, &[(key(9), bytes.clone())])
        .await
        .unwrap();
    assert!(matches!(
        store.server_settings(9),
        Err(StoreError::UnknownVersion { .. })
    ));
    assert!(store
        .change_server_settings(9, |s| s.threads.set(Some(true), 1, 1))
        .await
        .is_err());
    assert_eq!(
        store.raw_get(damas::store::TREE_SERVER_SETTINGS, &key(9)).unwrap(),
        Some(bytes)
    );
}
}
