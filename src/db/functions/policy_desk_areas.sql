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
