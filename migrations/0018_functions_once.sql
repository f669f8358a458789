ALTER TABLE "reservations" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written from here on (docs/architecture.md#sql-functions-written-once). Releases before
-- this migration: their reservation carries the release time too.
UPDATE "reservations" r SET "released_at" = a."released_at" FROM "attendance" a
 WHERE a."reservation_id" = r."id" AND a."status" = 'NO_SHOW' AND a."released_at" IS NOT NULL;--> statement-breakpoint
-- The global check-in settings until the service first starts and writes its configuration's
-- (src/config.ts; test/db/functions.test.ts checks these equal its defaults). The plan reads no
-- literal default any more: this row is always there.
INSERT INTO "attendance_defaults" ("id", "check_in_required", "check_in_opens_before_ms", "check_in_grace_ms")
VALUES (1, false, 900000, 1200000) ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
-- The attendance plan of one reservation (docs/behaviour.md#check-in), defined once: the row
-- trigger attendance_plan, the statement trigger attendance_plan_inserted and the re-planning of
-- src/modules/attendance/attendance.repository.ts all call it. The settings in force are the
-- department's override, else the global row attendance_defaults, which the service writes from
-- its configuration (CHECK_IN_REQUIRED, CHECK_IN_OPENS_BEFORE, CHECK_IN_GRACE) at start-up: the
-- defaults live in src/config.ts only. A plain SQL function, inlined into the statements that call it.
CREATE OR REPLACE FUNCTION "attendance_plan_of"(for_desk uuid, starts timestamptz, ends timestamptz)
RETURNS TABLE ("status" "attendance_status", "check_in_opens_at" timestamptz, "release_at" timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p.required THEN 'PENDING' ELSE 'NOT_REQUIRED' END::"attendance_status",
         starts - p.opens_ms * interval '1 millisecond',
         CASE WHEN p.required THEN least(starts + p.grace_ms * interval '1 millisecond', ends) END
    FROM (SELECT coalesce(s.check_in_required, g.check_in_required) AS required,
                 coalesce(s.check_in_opens_before_ms, g.check_in_opens_before_ms) AS opens_ms,
                 coalesce(s.check_in_grace_ms, g.check_in_grace_ms) AS grace_ms
            FROM "desks" d
            JOIN "rooms" ro ON ro.id = d.room_id
            JOIN "attendance_defaults" g ON g.id = 1
            LEFT JOIN "department_settings" s ON s.department_id = ro.department_id
           WHERE d.id = for_desk) p
$$;--> statement-breakpoint
-- A changed time or desk plans a reservation's attendance again (docs/behaviour.md#check-in), row
-- by row. A check-in belongs to the time it was made for: a reservation moved so that the moment
-- of its check-in no longer lies in its new window [start - opens before, end) is planned anew
-- (the check-in forgotten); one whose check-in still fits keeps it. A released no-show keeps its
-- attendance (the trigger does not even run for the release's own cut: reservations.released_at).
CREATE OR REPLACE FUNCTION "attendance_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at", "release_at")
  SELECT NEW.id, p."status", p."check_in_opens_at", p."release_at"
    FROM "attendance_plan_of"(NEW.desk_id, NEW.start_time, NEW.end_time) p
  ON CONFLICT ("reservation_id") DO UPDATE
    SET "status" = EXCLUDED."status", "check_in_opens_at" = EXCLUDED."check_in_opens_at", "release_at" = EXCLUDED."release_at",
        "checked_in_at" = NULL
    WHERE "attendance"."status" IN ('PENDING', 'NOT_REQUIRED')
       OR ("attendance"."status" = 'CHECKED_IN'
           AND NOT ("attendance"."checked_in_at" >= EXCLUDED."check_in_opens_at" AND "attendance"."checked_in_at" < NEW.end_time));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- New reservations are planned once per statement, as a set (a bulk import stays fast), whatever
-- writes them (docs/behaviour.md#check-in).
CREATE OR REPLACE FUNCTION "attendance_plan_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at", "release_at")
  SELECT n.id, p."status", p."check_in_opens_at", p."release_at"
    FROM "new_reservations" n
    CROSS JOIN LATERAL "attendance_plan_of"(n.desk_id, n.start_time, n.end_time) p
  ON CONFLICT ("reservation_id") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Calendar tracking (docs/behaviour.md#calendars, docs/behaviour.md#calendar-feed): every write of
-- a reservation updates its calendar event and queues its invitation mail, in the same transaction.
-- * a reservation deleted before anyone was told of it (no invitation mail went out, no feed was
--   read since it was made, no mail is being sent right now) leaves no tombstone and no mail;
-- * a person keeps at most 100 tombstones (the newest);
-- * a reservation released as a no-show (the release sets reservations.released_at as it cuts the
--   end) leaves calendars like a cancelled one, cancelled at its new end, so its cancellation is mailed.
CREATE OR REPLACE FUNCTION "calendar_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "calendar_events" ("reservation_id", "user_id", "desk_id", "start_time", "end_time", "location", "sequence", "changed_at")
    VALUES (NEW."id", NEW."user_id", NEW."desk_id", NEW."start_time", NEW."end_time", coalesce("calendar_location"(NEW."desk_id"), ''), 0, now())
    ON CONFLICT ("reservation_id") DO UPDATE SET
      "user_id" = excluded."user_id", "desk_id" = excluded."desk_id", "start_time" = excluded."start_time", "end_time" = excluded."end_time",
      "location" = excluded."location", "sequence" = "calendar_events"."sequence" + 1, "changed_at" = excluded."changed_at", "cancelled_at" = NULL;
    INSERT INTO "calendar_outbox" ("user_id", "reservation_id", "series_id") VALUES (NEW."user_id", NEW."id", (to_jsonb(NEW) ->> 'series_id')::uuid);
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    IF (NEW."start_time", NEW."end_time", NEW."desk_id", NEW."user_id") IS NOT DISTINCT FROM (OLD."start_time", OLD."end_time", OLD."desk_id", OLD."user_id") THEN
      RETURN NULL;
    END IF;
    UPDATE "calendar_events" SET "user_id" = NEW."user_id", "desk_id" = NEW."desk_id", "start_time" = NEW."start_time", "end_time" = NEW."end_time",
      "location" = coalesce("calendar_location"(NEW."desk_id"), "location"), "sequence" = "sequence" + 1, "changed_at" = now(),
      "cancelled_at" = CASE WHEN NEW."released_at" IS DISTINCT FROM OLD."released_at" THEN NEW."end_time" ELSE "cancelled_at" END
    WHERE "reservation_id" = NEW."id";
    INSERT INTO "calendar_outbox" ("user_id", "reservation_id", "series_id") VALUES (NEW."user_id", NEW."id", (to_jsonb(NEW) ->> 'series_id')::uuid);
    RETURN NULL;
  ELSE
    IF EXISTS (
      SELECT 1 FROM "calendar_events" e
      WHERE e."reservation_id" = OLD."id" AND e."invited_at" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "calendar_feeds" f WHERE f."user_id" = e."user_id" AND f."fetched_at" >= e."created_at")
        AND NOT EXISTS (SELECT 1 FROM "calendar_outbox" o WHERE o."reservation_id" = OLD."id" AND o."claim_token" IS NOT NULL)
    ) THEN
      DELETE FROM "calendar_events" WHERE "reservation_id" = OLD."id";
      DELETE FROM "calendar_outbox" WHERE "reservation_id" = OLD."id" AND "claim_token" IS NULL;
      RETURN NULL;
    END IF;
    -- The desk may be going away in the same statement (a cascade): the place last seen stays.
    UPDATE "calendar_events" SET "location" = coalesce("calendar_location"(OLD."desk_id"), "location"), "sequence" = "sequence" + 1,
      "changed_at" = now(), "cancelled_at" = now()
    WHERE "reservation_id" = OLD."id";
    DELETE FROM "calendar_events" WHERE "reservation_id" IN (
      SELECT "reservation_id" FROM "calendar_events" WHERE "user_id" = OLD."user_id" AND "cancelled_at" IS NOT NULL
      ORDER BY "cancelled_at" DESC, "reservation_id" OFFSET 100);
    -- A reservation deleted because its user is (a cascade) is mailed to nobody.
    INSERT INTO "calendar_outbox" ("user_id", "reservation_id", "series_id")
    SELECT u."id", OLD."id", (to_jsonb(OLD) ->> 'series_id')::uuid FROM "users" u WHERE u."id" = OLD."user_id";
    RETURN NULL;
  END IF;
END
$$;--> statement-breakpoint
-- The release's own cut (released_at changes) plans nothing: the attendance is NO_SHOW already.
DROP TRIGGER "reservations_attendance_replan" ON "reservations";--> statement-breakpoint
CREATE TRIGGER "reservations_attendance_replan" AFTER UPDATE OF "start_time", "end_time", "desk_id" ON "reservations" FOR EACH ROW
  WHEN ((OLD.start_time IS DISTINCT FROM NEW.start_time OR OLD.end_time IS DISTINCT FROM NEW.end_time OR OLD.desk_id IS DISTINCT FROM NEW.desk_id)
        AND OLD.released_at IS NOT DISTINCT FROM NEW.released_at)
  EXECUTE FUNCTION "attendance_plan"();
