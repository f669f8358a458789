-- Reservations by time alone (no desk): "which desks are free/full in this window" in search, and
-- "how many reservations overlap each day" in stats. The exclusion constraints' indexes lead with
-- the desk or the user, so they cannot serve these.
CREATE INDEX "reservations_range_idx" ON "reservations" USING gist (tstzrange("start_time", "end_time", '[)'));
