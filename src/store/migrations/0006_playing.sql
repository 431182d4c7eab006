-- Each person's games under way (src/store/playing.rs), written with the games themselves.
CREATE TABLE playing (key bytea PRIMARY KEY, value bytea NOT NULL);
