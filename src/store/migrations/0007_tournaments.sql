-- Tournaments and the link from each of their games (src/store/tournaments.rs).
CREATE TABLE tournaments (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE tournament_games (key bytea PRIMARY KEY, value bytea NOT NULL);
