-- Each server's /settings (src/store/server_settings.rs).
CREATE TABLE server_settings (key bytea PRIMARY KEY, value bytea NOT NULL);
