CREATE TABLE "floor_plan_positions" (
	"desk_id" uuid PRIMARY KEY NOT NULL,
	"department_id" uuid NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"rotation" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "floor_plan_positions_inside" CHECK ("floor_plan_positions"."x" >= 0 and "floor_plan_positions"."y" >= 0 and "floor_plan_positions"."width" > 0 and "floor_plan_positions"."height" > 0 and "floor_plan_positions"."x" + "floor_plan_positions"."width" <= 1 and "floor_plan_positions"."y" + "floor_plan_positions"."height" <= 1),
	CONSTRAINT "floor_plan_positions_rotation" CHECK ("floor_plan_positions"."rotation" >= 0 and "floor_plan_positions"."rotation" < 360)
);
--> statement-breakpoint
ALTER TABLE "floor_plan_positions" ADD CONSTRAINT "floor_plan_positions_desk_id_desks_id_fk" FOREIGN KEY ("desk_id") REFERENCES "public"."desks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "floor_plan_positions" ADD CONSTRAINT "floor_plan_positions_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "floor_plan_positions_department_idx" ON "floor_plan_positions" USING btree ("department_id","desk_id");--> statement-breakpoint
-- Hand-written: a desk moved to a room of another department, or whose room moves to another
-- department, leaves its old department's floor plan, whichever path moves it (docs/behaviour.md#floor-plans). Deleting the desk or the department
-- is covered by the foreign keys above.
CREATE FUNCTION "floor_plan_position_follows_desk"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "floor_plan_positions" p
  WHERE p."desk_id" = NEW."id"
    AND p."department_id" IS DISTINCT FROM (SELECT r."department_id" FROM "rooms" r WHERE r."id" = NEW."room_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "desks_floor_plan_position" AFTER UPDATE OF "room_id" ON "desks" FOR EACH ROW WHEN (OLD."room_id" IS DISTINCT FROM NEW."room_id") EXECUTE FUNCTION "floor_plan_position_follows_desk"();
--> statement-breakpoint
CREATE FUNCTION "floor_plan_positions_follow_room"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "floor_plan_positions" p
  USING "desks" d
  WHERE d."room_id" = NEW."id" AND p."desk_id" = d."id" AND p."department_id" <> NEW."department_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rooms_floor_plan_positions" AFTER UPDATE OF "department_id" ON "rooms" FOR EACH ROW WHEN (OLD."department_id" IS DISTINCT FROM NEW."department_id") EXECUTE FUNCTION "floor_plan_positions_follow_room"();
