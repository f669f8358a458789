-- Calendar tracking (docs/behaviour.md#calendars, docs/behaviour.md#calendar-feed): every write of
-- a reservation updates its calendar event and queues its invitation mail, in the same transaction.
-- * its invitation mail is a row of the outbox (kind calendar.invitation, grouped by the person,
--   topic: its series or itself; docs/architecture.md#the-outbox);
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
$$;
