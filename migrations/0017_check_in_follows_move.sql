-- Hand-written (attendance, docs/behaviour.md#check-in): a check-in belongs to the time it was made
-- for. A reservation moved so that the moment of its check-in no longer lies in its new check-in
-- window [start - opens before, end) is planned anew (PENDING or NOT_REQUIRED, the check-in
-- forgotten); one whose check-in still fits keeps it (leaving early, staying longer, another desk
-- the same day). A released no-show keeps its attendance, as before.
CREATE OR REPLACE FUNCTION "attendance_plan"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    SET "status" = EXCLUDED."status", "check_in_opens_at" = EXCLUDED."check_in_opens_at", "release_at" = EXCLUDED."release_at",
        "checked_in_at" = NULL
    WHERE "attendance"."status" IN ('PENDING', 'NOT_REQUIRED')
       OR ("attendance"."status" = 'CHECKED_IN'
           AND NOT ("attendance"."checked_in_at" >= EXCLUDED."check_in_opens_at" AND "attendance"."checked_in_at" < NEW.end_time));
  RETURN NULL;
END
$$;
