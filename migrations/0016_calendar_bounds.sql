CREATE TABLE "calendar_mail_quota" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"mails" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_events" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "fetched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calendar_mail_quota" ADD CONSTRAINT "calendar_mail_quota_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_events_user_tombstones_idx" ON "calendar_events" USING btree ("user_id","cancelled_at") WHERE "calendar_events"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "mail_outbox_done_idx" ON "mail_outbox" USING btree (coalesce("sent_at", "failed_at")) WHERE "mail_outbox"."sent_at" is not null or "mail_outbox"."failed_at" is not null;--> statement-breakpoint
-- Hand-written from here on. What existed before this migration may have been seen and mailed:
-- feeds count as fetched now, events as invited (docs/behaviour.md#calendar-feed).
UPDATE "calendar_feeds" SET "fetched_at" = now();--> statement-breakpoint
UPDATE "calendar_events" SET "invited_at" = "changed_at";--> statement-breakpoint
-- As in migration attendance, with three bounds (docs/behaviour.md#calendar-feed):
-- * a reservation deleted before anyone was told of it (no invitation mail went out, no feed was
--   read since it was made, no mail is being sent right now) leaves no tombstone and no mail;
-- * a person keeps at most 100 tombstones (the newest);
-- * a released no-show's tombstone is cancelled at its new end, so its cancellation is mailed.
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
      "cancelled_at" = CASE WHEN current_setting('deskbook.attendance_releasing', true) = 'on' THEN NEW."end_time" ELSE "cancelled_at" END
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
-- A series whose last occurrence is deleted goes with it (docs/behaviour.md#recurring-reservations).
CREATE FUNCTION "series_drop_empty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "reservation_series" s
  WHERE s."id" IN (SELECT DISTINCT o."series_id" FROM "old_reservations" o WHERE o."series_id" IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM "reservations" r WHERE r."series_id" = s."id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "reservations_series_drop_empty" AFTER DELETE ON "reservations" REFERENCING OLD TABLE AS "old_reservations" FOR EACH STATEMENT EXECUTE FUNCTION "series_drop_empty"();
