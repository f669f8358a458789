-- The booking check's lock and read of what the owner holds in one statement, and the areas of a
-- desk written once (docs/benchmarks.md#booking-policies, docs/architecture.md#sql-functions-written-once).
-- The booking-policy areas a desk lies in (docs/policies.md#areas): its department's, its room's,
-- and those that name it. Defined once: the booking check's context, the owner's held reservations
-- (policy_held) and a rule scoped to an area read it.
CREATE OR REPLACE FUNCTION "policy_desk_areas"(for_desk uuid)
RETURNS uuid[]
LANGUAGE sql STABLE AS $$
  SELECT array(
    SELECT a.id
      FROM "desks" d
      JOIN "rooms" r ON r.id = d.room_id
      JOIN "policy_areas" a ON a.department_id = r.department_id OR a.room_id = d.room_id
     WHERE d.id = for_desk
    UNION
    SELECT pad.area_id FROM "policy_area_desks" pad WHERE pad.desk_id = for_desk)
$$;
--> statement-breakpoint
-- What a booking's owner holds, for the counted limits of the booking policies
-- (docs/policies.md#races), after taking the transaction's advisory locks `lock_keys` (in sorted
-- order, so that two bookings never wait on each other in a circle): their reservations starting in
-- [from_time, to_time) or, with `not_ended`, not ended at `at_time`; not `except_id` (a move leaves
-- its own out) and not those this transaction wrote (the booking being judged may be sent before
-- this call); with the areas of each desk when `with_areas`. At most 1000 rows (far above any limit).
-- PL/pgSQL, so that the read after the locks takes a snapshot of its own and sees whatever
-- committed while they were awaited; one statement where the lock and the read took two.
CREATE OR REPLACE FUNCTION "policy_held"(lock_keys text[], owner uuid, from_time timestamptz, to_time timestamptz,
                                         at_time timestamptz, not_ended boolean, except_id uuid, with_areas boolean)
RETURNS TABLE ("start_time" timestamptz, "end_time" timestamptz, "desk_type" desk_type, "room_id" uuid, "department_id" uuid, "area_ids" uuid[])
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('deskbook.policy:' || k.key, 0))
     FROM (SELECT DISTINCT key FROM unnest(lock_keys) AS key ORDER BY key) k;
  RETURN QUERY
    SELECT res.start_time, res.end_time, d.type, d.room_id, r.department_id,
           CASE WHEN with_areas THEN "policy_desk_areas"(d.id) ELSE '{}'::uuid[] END
      FROM "reservations" res
      JOIN "desks" d ON d.id = res.desk_id
      JOIN "rooms" r ON r.id = d.room_id
     WHERE res.user_id = owner
       AND ((res.start_time >= from_time AND res.start_time < to_time) OR (not_ended AND res.end_time > at_time))
       AND (except_id IS NULL OR res.id <> except_id)
       AND res.xmin IS DISTINCT FROM xid(pg_current_xact_id_if_assigned())
     LIMIT 1000;
END
$$;
