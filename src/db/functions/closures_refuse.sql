-- The trigger that refuses a reservation touching a closed day (docs/policies.md#closures-and-holidays),
-- in the writing statement, so on every write path. A release (released_at set) and a reservation
-- that only shrinks on its desk pass: reservations kept over a closure may still end early. The
-- first test reads only closure_days near the span's UTC dates (local dates lie within a day of
-- them), so a booking with no closure near costs one index probe. Each query of this (volatile)
-- function sees what was committed before it ran: a closure committed while the insert waited on
-- the table lock its creation holds is seen here.
CREATE OR REPLACE FUNCTION "closures_refuse"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hit record;
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.released_at IS DISTINCT FROM OLD.released_at
      OR (NEW.desk_id = OLD.desk_id AND NEW.start_time >= OLD.start_time AND NEW.end_time <= OLD.end_time)) THEN
    RETURN NEW;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "closure_days"
                  WHERE day BETWEEN (NEW.start_time AT TIME ZONE 'UTC')::date - 1 AND (NEW.end_time AT TIME ZONE 'UTC')::date + 1) THEN
    RETURN NEW;
  END IF;
  SELECT * INTO hit FROM "closure_on"(NEW.desk_id, NEW.start_time, NEW.end_time);
  IF FOUND THEN
    RAISE EXCEPTION 'the office is closed on %', hit.day
      USING ERRCODE = 'DBC01',
            DETAIL = json_build_object('closureId', hit.closure_id, 'date', hit.day, 'reason', hit.reason)::text;
  END IF;
  RETURN NEW;
END
$$;
