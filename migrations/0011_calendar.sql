CREATE TABLE "calendar_events" (
	"reservation_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"desk_id" uuid NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "calendar_feeds_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "calendar_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "calendar_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"reservation_id" uuid NOT NULL,
	"series_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"claim_token" uuid,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"invitation_mails" boolean DEFAULT true NOT NULL,
	"modified_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_outbox" ADD CONSTRAINT "calendar_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_settings" ADD CONSTRAINT "calendar_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_events_user_start_idx" ON "calendar_events" USING btree ("user_id","start_time");--> statement-breakpoint
CREATE INDEX "calendar_events_cancelled_idx" ON "calendar_events" USING btree ("cancelled_at") WHERE "calendar_events"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "calendar_outbox_user_idx" ON "calendar_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "calendar_outbox_claim_idx" ON "calendar_outbox" USING btree ("claimed_until","id");--> statement-breakpoint
-- Hand-written from here on (drizzle cannot express functions and triggers).
-- The place of a desk as calendars show it: "location · building · Floor n · room · desk".
CREATE FUNCTION "calendar_location"(desk uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws(' · ', dep."location", dep."building", 'Floor ' || dep."floor", r."name", d."name")
  FROM "desks" d JOIN "rooms" r ON r."id" = d."room_id" JOIN "departments" dep ON dep."id" = r."department_id"
  WHERE d."id" = desk
$$;--> statement-breakpoint
-- Every write of a reservation, whichever code path makes it, keeps calendar_events (SEQUENCE,
-- DTSTAMP, tombstones of deleted ones) and appends a row to calendar_outbox for the invitation
-- mail, in the writing transaction. series_id is read through to_jsonb so that the trigger
-- picks the column up once reservations have one (null until then).
CREATE FUNCTION "calendar_track"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      "location" = coalesce("calendar_location"(NEW."desk_id"), "location"), "sequence" = "sequence" + 1, "changed_at" = now()
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
$$;--> statement-breakpoint
CREATE TRIGGER "reservations_calendar" AFTER INSERT OR UPDATE OR DELETE ON "reservations" FOR EACH ROW EXECUTE FUNCTION "calendar_track"();--> statement-breakpoint
-- Reservations made before this migration enter the feeds too (without invitation mails).
INSERT INTO "calendar_events" ("reservation_id", "user_id", "desk_id", "start_time", "end_time", "location", "sequence", "changed_at")
SELECT r."id", r."user_id", r."desk_id", r."start_time", r."end_time", coalesce("calendar_location"(r."desk_id"), ''), 0, r."modified_at" FROM "reservations" r;
