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
$$;
