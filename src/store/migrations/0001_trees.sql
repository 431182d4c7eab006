-- One table per tree of the store (see src/store/mod.rs): keys and values are the same
-- bytes sled holds, keys compare bytewise, so a prefix scan reads in the same order.
CREATE TABLE games (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE posts (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE challenges (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE archive (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE by_player (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE by_channel (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE pairs (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE players (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE boards (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE board_members (key bytea PRIMARY KEY, value bytea NOT NULL);
-- Game ids: unique, increasing, across every process sharing the database.
CREATE SEQUENCE game_ids;
