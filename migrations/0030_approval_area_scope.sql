-- Hand-written (docs/policies.md#approvals): an approval requirement may hold in an area (the desks
-- of a policy area, migration 0023). The scope was an enum; a value added to an enum cannot be used
-- in the transaction that adds it (the migrations may run in one), so the column becomes text with
-- a check constraint listing the scopes, and the enum type goes. The constraints that compared the
-- enum are dropped and made again on the text column.
ALTER TABLE "approval_requirements" DROP CONSTRAINT "approval_requirements_department_check";
--> statement-breakpoint
ALTER TABLE "approval_requirements" DROP CONSTRAINT "approval_requirements_room_check";
--> statement-breakpoint
ALTER TABLE "approval_requirements" DROP CONSTRAINT "approval_requirements_desk_type_check";
--> statement-breakpoint
ALTER TABLE "approval_requirements" ALTER COLUMN "scope" TYPE text USING "scope"::text;
--> statement-breakpoint
DROP TYPE "approval_scope";
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD COLUMN "area_id" uuid REFERENCES "policy_areas"("id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD CONSTRAINT "approval_requirements_scope_check" CHECK ("scope" IN ('AREA', 'ROOM', 'DEPARTMENT', 'DESK_TYPE'));
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD CONSTRAINT "approval_requirements_department_check" CHECK (("scope" = 'DEPARTMENT') = ("department_id" IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD CONSTRAINT "approval_requirements_room_check" CHECK (("scope" = 'ROOM') = ("room_id" IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD CONSTRAINT "approval_requirements_desk_type_check" CHECK (("scope" = 'DESK_TYPE') = ("desk_type" IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "approval_requirements" ADD CONSTRAINT "approval_requirements_area_check" CHECK (("scope" = 'AREA') = ("area_id" IS NOT NULL));
--> statement-breakpoint
CREATE INDEX "approval_requirements_area_idx" ON "approval_requirements" ("area_id");
