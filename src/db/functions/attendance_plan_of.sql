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
$$;
