-- Hand-written (docs/policies.md#closures-and-holidays): days an office is closed, everywhere, in
-- one department or in one building (a location and building pair of departments), as one-off
-- dates or an RRULE with an end, with a reason. closure_days holds every closed local date of a
-- closure, expanded (bounded) when it is created, so each check is an index probe.
CREATE TYPE "closure_scope" AS ENUM ('EVERYWHERE', 'DEPARTMENT', 'BUILDING');
--> statement-breakpoint
CREATE TABLE "closures" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "scope" "closure_scope" NOT NULL,
  "department_id" uuid REFERENCES "departments"("id") ON DELETE CASCADE,
  "location" text,
  "building" text,
  "reason" text NOT NULL,
  "dates" date[],
  "rrule" text,
  "start_date" date NOT NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "closures_reason_check" CHECK (length("reason") BETWEEN 1 AND 200),
  CONSTRAINT "closures_department_check" CHECK (("scope" = 'DEPARTMENT') = ("department_id" IS NOT NULL)),
  CONSTRAINT "closures_building_check" CHECK (("scope" = 'BUILDING') = ("location" IS NOT NULL AND "building" IS NOT NULL)),
  CONSTRAINT "closures_days_check" CHECK (("dates" IS NULL) <> ("rrule" IS NULL)),
  CONSTRAINT "closures_rrule_check" CHECK (length("rrule") <= 500)
);
--> statement-breakpoint
CREATE INDEX "closures_department_idx" ON "closures" ("department_id");
--> statement-breakpoint
CREATE TABLE "closure_days" (
  "closure_id" uuid NOT NULL REFERENCES "closures"("id") ON DELETE CASCADE,
  "day" date NOT NULL,
  PRIMARY KEY ("closure_id", "day")
);
--> statement-breakpoint
CREATE INDEX "closure_days_day_idx" ON "closure_days" ("day", "closure_id");
--> statement-breakpoint
-- The first closed day (docs/policies.md#closures-and-holidays) that a span on a desk touches, in
-- the local days of the desk's office (its department's time zone, UTC without settings): a
-- closure everywhere, of the desk's department, or of its building (same location and building).
-- Defined once: the trigger closures_refuse, the series' skipped days and the search's free desks call it.
CREATE OR REPLACE FUNCTION "closure_on"(for_desk uuid, starts timestamptz, ends timestamptz)
RETURNS TABLE ("closure_id" uuid, "day" date, "reason" text)
LANGUAGE sql STABLE AS $$
  SELECT c.id, cd.day, c.reason
    FROM "desks" d
    JOIN "rooms" ro ON ro.id = d.room_id
    JOIN "departments" dep ON dep.id = ro.department_id
    LEFT JOIN "department_settings" s ON s.department_id = dep.id
    JOIN "closure_days" cd
      ON cd.day BETWEEN (starts AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date
                    AND ((ends - interval '1 microsecond') AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date
    JOIN "closures" c ON c.id = cd.closure_id
   WHERE d.id = for_desk
     AND (c.scope = 'EVERYWHERE' OR c.department_id = dep.id
          OR (c.scope = 'BUILDING' AND c.location = dep.location AND c.building = dep.building))
   ORDER BY cd.day, c.created_at, c.id
   LIMIT 1
$$;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TRIGGER "reservations_closures" BEFORE INSERT OR UPDATE OF "desk_id", "start_time", "end_time" ON "reservations"
  FOR EACH ROW EXECUTE FUNCTION "closures_refuse"();
