-- New reservations are planned once per statement, as a set (a bulk import stays fast), whatever
-- writes them (docs/behaviour.md#check-in).
CREATE OR REPLACE FUNCTION "attendance_plan_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "attendance" ("reservation_id", "status", "check_in_opens_at", "release_at")
  SELECT n.id, p."status", p."check_in_opens_at", p."release_at"
    FROM "new_reservations" n
    CROSS JOIN LATERAL "attendance_plan_of"(n.desk_id, n.start_time, n.end_time) p
  ON CONFLICT ("reservation_id") DO NOTHING;
  RETURN NULL;
END
$$;
