-- The first closed day (docs/policies.md#closures-and-holidays) that a span on a desk touches, in
-- the local days of the desk's office (its department's time zone, UTC without settings): a
-- closure everywhere, of the desk's department, or of its building (same location and building).
-- Defined once: the trigger closures_refuse, the series' skipped days and the search's free desks call it.
CREATE OR REPLACE FUNCTION "closure_on"(for_desk uuid, starts timestamptz, ends timestamptz)
RETURNS TABLE ("closure_id" uuid, "day" date, "reason" text)
LANGUAGE sql STABLE AS $$
  SELECT c.id, cd.day, c.reason
    FROM "desks" d
    JOIN "rooms" ro ON ro.id = d.room_id
    JOIN "departments" dep ON dep.id = ro.department_id
    LEFT JOIN "department_settings" s ON s.department_id = dep.id
    JOIN "closure_days" cd
      ON cd.day BETWEEN (starts AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date
                    AND ((ends - interval '1 microsecond') AT TIME ZONE coalesce(s.time_zone, 'UTC'))::date
    JOIN "closures" c ON c.id = cd.closure_id
   WHERE d.id = for_desk
     AND (c.scope = 'EVERYWHERE' OR c.department_id = dep.id
          OR (c.scope = 'BUILDING' AND c.location = dep.location AND c.building = dep.building))
   ORDER BY cd.day, c.created_at, c.id
   LIMIT 1
$$;
