-- Games played in threads of their own (src/store/threads.rs).
CREATE TABLE threads (key bytea PRIMARY KEY, value bytea NOT NULL);
