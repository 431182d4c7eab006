-- Discord interactions some process already acted on (src/store/sightings.rs), so that a
-- signed request replayed to another process of the same database is refused too. Rows older
-- than the replay window are deleted by the sweeper.
CREATE TABLE seen_interactions (
    id bigint PRIMARY KEY,
    seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX seen_interactions_by_age ON seen_interactions (seen_at);
