-- Who is making the bot's move in a channel (src/store/leases.rs): one row per claimed
-- channel, deleted when its holder is done; a row past `expires_at` was left by a process
-- that died and may be taken over.
CREATE TABLE bot_turn_leases (
    channel bigint PRIMARY KEY,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
);
