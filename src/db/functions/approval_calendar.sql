-- Approvals in calendars (docs/policies.md#approvals): a reservation awaiting approval is a
-- TENTATIVE event, one approved is CONFIRMED again; a rejected or expired one is cancelled by the
-- one writer, and calendar_track then cancels its event. Rows of reservation_approvals:
-- * inserted (PENDING) in the transaction that wrote the reservation, whose own change already
--   moved the event's SEQUENCE and queued its invitation: the event only turns tentative;
-- * a change of status to APPROVED (or back to PENDING after a move) is a change of the event:
--   its SEQUENCE grows and its invitation is queued again (kind calendar.invitation, like calendar_track);
-- * deleted while pending (the reservation left every requirement, or is gone): no longer tentative.
CREATE OR REPLACE FUNCTION "approval_calendar"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "calendar_events" SET "tentative" = (NEW."status" = 'PENDING') WHERE "reservation_id" = NEW."reservation_id";
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW."status" IS NOT DISTINCT FROM OLD."status" OR NEW."status" NOT IN ('PENDING', 'APPROVED') THEN
      RETURN NULL;
    END IF;
    UPDATE "calendar_events" SET "tentative" = (NEW."status" = 'PENDING'), "sequence" = "sequence" + 1, "changed_at" = now()
    WHERE "reservation_id" = NEW."reservation_id" AND "cancelled_at" IS NULL;
    INSERT INTO "outbox" ("kind", "group_key", "topic", "payload")
    SELECT 'calendar.invitation', r."user_id"::text, coalesce(r."series_id"::text, r."id"::text),
           jsonb_build_object('reservationId', r."id", 'seriesId', r."series_id")
    FROM "reservations" r WHERE r."id" = NEW."reservation_id";
  ELSE
    UPDATE "calendar_events" SET "tentative" = false WHERE "reservation_id" = OLD."reservation_id" AND "tentative";
  END IF;
  RETURN NULL;
END
$$;
