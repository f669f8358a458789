-- Hand-written (docs/behaviour.md#names-of-rooms-and-desks): room names are unique within their
-- department and desk names within their room, ignoring case. Names already repeated keep their
-- oldest holder (by created_at, then id); each later one gets the first free suffix " (2)",
-- " (3)", … (the name cut so that it stays within 200 characters), so that nothing is deleted and
-- an admin sees which to rename. Then the unique indexes hold it from here on.
DO $$
DECLARE
  item record;
  n integer;
  candidate text;
BEGIN
  FOR item IN
    SELECT r.id, r.department_id AS parent, r.name
      FROM (SELECT *, row_number() OVER (PARTITION BY department_id, lower(name) ORDER BY created_at, id) AS rank FROM "rooms") r
     WHERE r.rank > 1
     ORDER BY r.department_id, lower(r.name), r.created_at, r.id
  LOOP
    n := 2;
    LOOP
      candidate := left(item.name, 200 - length(' (' || n || ')')) || ' (' || n || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "rooms" WHERE department_id = item.parent AND lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE "rooms" SET name = candidate WHERE id = item.id;
  END LOOP;

  FOR item IN
    SELECT d.id, d.room_id AS parent, d.name
      FROM (SELECT *, row_number() OVER (PARTITION BY room_id, lower(name) ORDER BY created_at, id) AS rank FROM "desks") d
     WHERE d.rank > 1
     ORDER BY d.room_id, lower(d.name), d.created_at, d.id
  LOOP
    n := 2;
    LOOP
      candidate := left(item.name, 200 - length(' (' || n || ')')) || ' (' || n || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "desks" WHERE room_id = item.parent AND lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE "desks" SET name = candidate WHERE id = item.id;
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "desks_room_name_key" ON "desks" USING btree ("room_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_department_name_key" ON "rooms" USING btree ("department_id",lower("name"));
