CREATE TYPE "public"."attendance_status" AS ENUM('PENDING', 'CHECKED_IN', 'NO_SHOW', 'NOT_REQUIRED');--> statement-breakpoint
CREATE TABLE "attendance" (
	"reservation_id" uuid PRIMARY KEY NOT NULL,
	"status" "attendance_status" NOT NULL,
	"check_in_opens_at" timestamp with time zone NOT NULL,
	"release_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "attendance_defaults" (
	"id" smallint PRIMARY KEY NOT NULL,
	"check_in_required" boolean NOT NULL,
	"check_in_opens_before_ms" integer NOT NULL,
	"check_in_grace_ms" integer NOT NULL,
	CONSTRAINT "attendance_defaults_one_row" CHECK ("attendance_defaults"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "department_settings" (
	"department_id" uuid PRIMARY KEY NOT NULL,
	"check_in_required" boolean,
	"check_in_opens_before_ms" integer,
	"check_in_grace_ms" integer,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "department_settings" ADD CONSTRAINT "department_settings_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_due_idx" ON "attendance" USING btree ("release_at") WHERE "attendance"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "attendance_released_idx" ON "attendance" USING btree ("released_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."sent_at" is null and "mail_outbox"."failed_at" is null;--> statement-breakpoint
-- Hand-written (attendance): the plan of a reservation's attendance is written by the database in
-- the transaction that writes the reservation, whatever writes it (booking, change, walk-in, seed).
-- The settings in force: the department's override, else the global row (absent: check-in off).
-- A reservation already checked in or released keeps its attendance.
CREATE FUNCTION "attendance_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  required boolean := false;
  opens_ms integer := 900000;
  grace_ms integer := 1200000;
BEGIN
  -- The release job cuts ends of rows it has just marked NO_SHOW: nothing to plan.
  IF current_setting('deskbook.attendance_releasing', true) = 'on' THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(s.check_in_required, g.check_in_required, false),
         coalesce(s.check_in_opens_before_ms, g.check_in_opens_before_ms, 900000),
         coalesce(s.check_in_grace_ms, g.check_in_grace_ms, 1200000)
    INTO required, opens_ms, grace_ms
    FROM "desks" d
    JOIN "rooms" ro ON ro.id = d.room_id
    LEFT JOIN "attendance_defaults" g ON g.id = 1
    LEFT JOIN "department_settings" s ON s.department_id = ro.department_id
   WHERE d.id = NEW.desk_id;
  INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at", "release_at")
  VALUES (
    NEW.id,
    CASE WHEN required THEN 'PENDING' ELSE 'NOT_REQUIRED' END::"attendance_status",
    NEW.start_time - opens_ms * interval '1 millisecond',
    CASE WHEN required THEN least(NEW.start_time + grace_ms * interval '1 millisecond', NEW.end_time) END
  )
  ON CONFLICT ("reservation_id") DO UPDATE
    SET "status" = EXCLUDED."status", "check_in_opens_at" = EXCLUDED."check_in_opens_at", "release_at" = EXCLUDED."release_at"
    WHERE "attendance"."status" IN ('PENDING', 'NOT_REQUIRED');
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A changed time or desk plans again, row by row (few rows at a time).
CREATE TRIGGER "reservations_attendance_replan" AFTER UPDATE OF "start_time", "end_time", "desk_id" ON "reservations" FOR EACH ROW
  WHEN (OLD.start_time IS DISTINCT FROM NEW.start_time OR OLD.end_time IS DISTINCT FROM NEW.end_time OR OLD.desk_id IS DISTINCT FROM NEW.desk_id)
  EXECUTE FUNCTION "attendance_plan"();--> statement-breakpoint
-- New reservations are planned once per statement, as a set (a bulk import stays fast).
CREATE FUNCTION "attendance_plan_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at", "release_at")
  SELECT p.id,
         CASE WHEN p.required THEN 'PENDING' ELSE 'NOT_REQUIRED' END::"attendance_status",
         p.start_time - p.opens_ms * interval '1 millisecond',
         CASE WHEN p.required THEN least(p.start_time + p.grace_ms * interval '1 millisecond', p.end_time) END
    FROM (SELECT n.id, n.start_time, n.end_time,
                 coalesce(s.check_in_required, g.check_in_required, false) AS required,
                 coalesce(s.check_in_opens_before_ms, g.check_in_opens_before_ms, 900000) AS opens_ms,
                 coalesce(s.check_in_grace_ms, g.check_in_grace_ms, 1200000) AS grace_ms
            FROM "new_reservations" n
            JOIN "desks" d ON d.id = n.desk_id
            JOIN "rooms" ro ON ro.id = d.room_id
            LEFT JOIN "attendance_defaults" g ON g.id = 1
            LEFT JOIN "department_settings" s ON s.department_id = ro.department_id) p
  ON CONFLICT ("reservation_id") DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reservations_attendance_planned" AFTER INSERT ON "reservations" REFERENCING NEW TABLE AS "new_reservations" FOR EACH STATEMENT EXECUTE FUNCTION "attendance_plan_inserted"();--> statement-breakpoint
-- Reservations written before this migration: check-in was not required.
INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at")
SELECT "id", 'NOT_REQUIRED', "start_time" - interval '15 minutes' FROM "reservations";--> statement-breakpoint
-- Hand-written (attendance and calendars): released reservations leave subscribed calendars (docs/behaviour.md#calendars).
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
    -- A reservation released as a no-show (the attendance release cuts its end) leaves calendars
    -- like a cancelled one: STATUS:CANCELLED in the feed and a METHOD:CANCEL mail.
    UPDATE "calendar_events" SET "user_id" = NEW."user_id", "desk_id" = NEW."desk_id", "start_time" = NEW."start_time", "end_time" = NEW."end_time",
      "location" = coalesce("calendar_location"(NEW."desk_id"), "location"), "sequence" = "sequence" + 1, "changed_at" = now(),
      "cancelled_at" = CASE WHEN current_setting('deskbook.attendance_releasing', true) = 'on' THEN now() ELSE "cancelled_at" END
    WHERE "reservation_id" = NEW."id";
    INSERT INTO "calendar_outbox" ("user_id", "reservation_id", "series_id") VALUES (NEW."user_id", NEW."id", (to_jsonb(NEW) ->> 'series_id')::uuid);
    RETURN NULL;
  ELSE
    -- The desk may be going away in the same statement (a cascade): the place last seen stays.
    UPDATE "calendar_events" SET "location" = coalesce("calendar_location"(OLD."desk_id"), "location"), "sequence" = "sequence" + 1,
      "changed_at" = now(), "cancelled_at" = now()
    WHERE "reservation_id" = OLD."id";
    -- A reservation deleted because its user is (a cascade) is mailed to nobody.
    INSERT INTO "calendar_outbox" ("user_id", "reservation_id", "series_id")
    SELECT u."id", OLD."id", (to_jsonb(OLD) ->> 'series_id')::uuid FROM "users" u WHERE u."id" = OLD."user_id";
    RETURN NULL;
  END IF;
END
$$;
