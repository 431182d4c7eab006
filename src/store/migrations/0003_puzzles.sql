-- Puzzle solvers and their places on each server's puzzle board (src/store/puzzles.rs).
CREATE TABLE puzzle_players (key bytea PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE puzzle_members (key bytea PRIMARY KEY, value bytea NOT NULL);
