-- Issue 25, item 3: one outbox (docs/architecture.md#the-outbox) replaces mail_outbox and
-- calendar_outbox, and one job runner claims run slots (docs/architecture.md#background-jobs).
-- Hand-written. Pending rows of both old tables move over; sent and given-up mails keep their
-- retention (sent, dead); the old tables and calendar_mail_quota are dropped.
CREATE TYPE "outbox_status" AS ENUM ('pending', 'sending', 'sent', 'dead');--> statement-breakpoint
CREATE TABLE "outbox" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "kind" text NOT NULL,
  "group_key" text NOT NULL,
  "topic" text,
  "payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "status" "outbox_status" DEFAULT 'pending' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone,
  "lease_until" timestamp with time zone,
  "claim_token" uuid,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp with time zone,
  "dead_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "outbox_open_idx" ON "outbox" ("kind", "group_key", "id") WHERE "status" IN ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "outbox" ("sent_at") WHERE "status" = 'sent';--> statement-breakpoint
CREATE INDEX "outbox_dead_idx" ON "outbox" ("dead_at", "id") WHERE "status" = 'dead';--> statement-breakpoint
CREATE INDEX "outbox_group_idx" ON "outbox" ("group_key");--> statement-breakpoint
CREATE INDEX "outbox_claim_token_idx" ON "outbox" ("claim_token") WHERE "claim_token" IS NOT NULL;--> statement-breakpoint
-- The calendar trigger finds the rows of one reservation (a cancellation before any mail).
CREATE INDEX "outbox_calendar_reservation_idx" ON "outbox" (("payload" ->> 'reservationId')) WHERE "kind" = 'calendar.invitation';--> statement-breakpoint
CREATE TABLE "outbox_groups" (
  "kind" text NOT NULL,
  "group_key" text NOT NULL,
  "window_started_at" timestamp with time zone NOT NULL,
  "messages" integer DEFAULT 0 NOT NULL,
  "last_sent_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("kind", "group_key")
);--> statement-breakpoint
CREATE TABLE "job_slots" (
  "name" text PRIMARY KEY,
  "next_run_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
INSERT INTO "outbox" ("kind", "group_key", "payload", "status", "attempts", "next_attempt_at", "lease_until", "created_at", "sent_at", "dead_at", "last_error")
SELECT 'mail', lower("to_address"),
       jsonb_build_object('to', "to_address", 'subject', "subject", 'text', "text", 'html', "html"),
       CASE WHEN "sent_at" IS NOT NULL THEN 'sent' WHEN "failed_at" IS NOT NULL THEN 'dead' ELSE 'pending' END::"outbox_status",
       "attempts", CASE WHEN "sent_at" IS NULL AND "failed_at" IS NULL THEN greatest("next_attempt_at", coalesce("claimed_until", "next_attempt_at")) END,
       NULL, "created_at", "sent_at", "failed_at",
       CASE WHEN "failed_at" IS NOT NULL THEN 'the SMTP server did not accept the mail' END
FROM "mail_outbox" ORDER BY "created_at";--> statement-breakpoint
INSERT INTO "outbox" ("kind", "group_key", "topic", "payload", "status", "attempts", "next_attempt_at", "lease_until", "claim_token", "created_at")
SELECT 'calendar.invitation', "user_id"::text, coalesce("series_id", "reservation_id")::text,
       jsonb_build_object('reservationId', "reservation_id", 'seriesId', "series_id"),
       CASE WHEN "claim_token" IS NOT NULL THEN 'sending' ELSE 'pending' END::"outbox_status",
       "attempts", CASE WHEN "claim_token" IS NULL THEN "claimed_until" END,
       CASE WHEN "claim_token" IS NOT NULL THEN "claimed_until" END, "claim_token", "created_at"
FROM "calendar_outbox" ORDER BY "id";--> statement-breakpoint
INSERT INTO "outbox_groups" ("kind", "group_key", "window_started_at", "messages", "last_sent_at")
SELECT 'calendar.invitation', "user_id"::text, "window_started_at", "mails", "last_sent_at" FROM "calendar_mail_quota";--> statement-breakpoint
-- The trigger's function as src/db/functions/calendar_track.sql holds it: it fills the outbox now.
CREATE OR REPLACE FUNCTION "calendar_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "calendar_events" ("reservation_id", "user_id", "desk_id", "start_time", "end_time", "location", "sequence", "changed_at")
    VALUES (NEW."id", NEW."user_id", NEW."desk_id", NEW."start_time", NEW."end_time", coalesce("calendar_location"(NEW."desk_id"), ''), 0, now())
    ON CONFLICT ("reservation_id") DO UPDATE SET
      "user_id" = excluded."user_id", "desk_id" = excluded."desk_id", "start_time" = excluded."start_time", "end_time" = excluded."end_time",
      "location" = excluded."location", "sequence" = "calendar_events"."sequence" + 1, "changed_at" = excluded."changed_at", "cancelled_at" = NULL;
    INSERT INTO "outbox" ("kind", "group_key", "topic", "payload")
    VALUES ('calendar.invitation', NEW."user_id"::text, coalesce(to_jsonb(NEW) ->> 'series_id', NEW."id"::text),
            jsonb_build_object('reservationId', NEW."id", 'seriesId', to_jsonb(NEW) ->> 'series_id'));
    RETURN NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    IF (NEW."start_time", NEW."end_time", NEW."desk_id", NEW."user_id") IS NOT DISTINCT FROM (OLD."start_time", OLD."end_time", OLD."desk_id", OLD."user_id") THEN
      RETURN NULL;
    END IF;
    UPDATE "calendar_events" SET "user_id" = NEW."user_id", "desk_id" = NEW."desk_id", "start_time" = NEW."start_time", "end_time" = NEW."end_time",
      "location" = coalesce("calendar_location"(NEW."desk_id"), "location"), "sequence" = "sequence" + 1, "changed_at" = now(),
      "cancelled_at" = CASE WHEN NEW."released_at" IS DISTINCT FROM OLD."released_at" THEN NEW."end_time" ELSE "cancelled_at" END
    WHERE "reservation_id" = NEW."id";
    INSERT INTO "outbox" ("kind", "group_key", "topic", "payload")
    VALUES ('calendar.invitation', NEW."user_id"::text, coalesce(to_jsonb(NEW) ->> 'series_id', NEW."id"::text),
            jsonb_build_object('reservationId', NEW."id", 'seriesId', to_jsonb(NEW) ->> 'series_id'));
    RETURN NULL;
  ELSE
    IF EXISTS (
      SELECT 1 FROM "calendar_events" e
      WHERE e."reservation_id" = OLD."id" AND e."invited_at" IS NULL
        AND NOT EXISTS (SELECT 1 FROM "calendar_feeds" f WHERE f."user_id" = e."user_id" AND f."fetched_at" >= e."created_at")
        AND NOT EXISTS (SELECT 1 FROM "outbox" o WHERE o."kind" = 'calendar.invitation' AND o."payload" ->> 'reservationId' = OLD."id"::text
                          AND o."status" = 'sending')
    ) THEN
      DELETE FROM "calendar_events" WHERE "reservation_id" = OLD."id";
      DELETE FROM "outbox" WHERE "kind" = 'calendar.invitation' AND "payload" ->> 'reservationId' = OLD."id"::text AND "status" = 'pending';
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
    INSERT INTO "outbox" ("kind", "group_key", "topic", "payload")
    SELECT 'calendar.invitation', u."id"::text, coalesce(to_jsonb(OLD) ->> 'series_id', OLD."id"::text),
           jsonb_build_object('reservationId', OLD."id", 'seriesId', to_jsonb(OLD) ->> 'series_id')
    FROM "users" u WHERE u."id" = OLD."user_id";
    RETURN NULL;
  END IF;
END
$$;--> statement-breakpoint
DROP TABLE "calendar_outbox";--> statement-breakpoint
DROP TABLE "calendar_mail_quota";--> statement-breakpoint
DROP TABLE "mail_outbox";
