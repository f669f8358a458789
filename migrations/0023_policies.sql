-- Hand-written (docs/policies.md): areas where teams sit, and booking rules. An area is a
-- department, a room or a set of desks, reserved for one or more teams, optionally only on some
-- weekdays (ISO 1 = Monday … 7, in the office's zone; none: every day). A rule is a scope × who ×
-- limit; its figures are in `params`, checked by the policies module. The unique index keeps one
-- rule per scope, who and limit (per period for quotas): two would contradict each other.
CREATE TYPE "policy_area_kind" AS ENUM ('DEPARTMENT', 'ROOM', 'DESKS');
--> statement-breakpoint
CREATE TYPE "policy_scope" AS ENUM ('EVERYWHERE', 'DEPARTMENT', 'ROOM', 'AREA', 'DESK_TYPE');
--> statement-breakpoint
CREATE TYPE "policy_who" AS ENUM ('EVERYONE', 'TEAM', 'ROLE');
--> statement-breakpoint
CREATE TYPE "policy_role" AS ENUM ('USER', 'ADMIN', 'TEAM_MANAGER');
--> statement-breakpoint
CREATE TYPE "policy_limit_kind" AS ENUM (
  'BOOKING_WINDOW', 'MIN_DURATION', 'MAX_DURATION', 'GRANULARITY', 'WEEKDAYS_HOURS',
  'MAX_BOOKINGS', 'MAX_HOURS', 'MAX_CONCURRENT', 'CAPACITY', 'CANCEL_LEAD', 'OWN_AREAS_ONLY'
);
--> statement-breakpoint
CREATE TABLE "policy_areas" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "kind" "policy_area_kind" NOT NULL,
  "department_id" uuid REFERENCES "departments"("id") ON DELETE CASCADE,
  "room_id" uuid REFERENCES "rooms"("id") ON DELETE CASCADE,
  "weekdays" smallint[] DEFAULT '{}' NOT NULL,
  "exclusive" boolean DEFAULT true NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "policy_areas_name_check" CHECK (length("name") BETWEEN 1 AND 100),
  CONSTRAINT "policy_areas_department_check" CHECK (("kind" = 'DEPARTMENT') = ("department_id" IS NOT NULL)),
  CONSTRAINT "policy_areas_room_check" CHECK (("kind" = 'ROOM') = ("room_id" IS NOT NULL)),
  CONSTRAINT "policy_areas_weekdays_check" CHECK ("weekdays" <@ '{1,2,3,4,5,6,7}'::smallint[])
);
--> statement-breakpoint
CREATE UNIQUE INDEX "policy_areas_name_lower_key" ON "policy_areas" (lower("name"));
--> statement-breakpoint
CREATE INDEX "policy_areas_department_idx" ON "policy_areas" ("department_id");
--> statement-breakpoint
CREATE INDEX "policy_areas_room_idx" ON "policy_areas" ("room_id");
--> statement-breakpoint
CREATE TABLE "policy_area_teams" (
  "area_id" uuid NOT NULL REFERENCES "policy_areas"("id") ON DELETE CASCADE,
  "team_id" uuid NOT NULL REFERENCES "teams"("id") ON DELETE CASCADE,
  PRIMARY KEY ("area_id", "team_id")
);
--> statement-breakpoint
CREATE INDEX "policy_area_teams_team_idx" ON "policy_area_teams" ("team_id");
--> statement-breakpoint
CREATE TABLE "policy_area_desks" (
  "area_id" uuid NOT NULL REFERENCES "policy_areas"("id") ON DELETE CASCADE,
  "desk_id" uuid NOT NULL REFERENCES "desks"("id") ON DELETE CASCADE,
  PRIMARY KEY ("area_id", "desk_id")
);
--> statement-breakpoint
CREATE INDEX "policy_area_desks_desk_idx" ON "policy_area_desks" ("desk_id", "area_id");
--> statement-breakpoint
CREATE TABLE "policy_rules" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "name" text DEFAULT '' NOT NULL,
  "scope" "policy_scope" NOT NULL,
  "department_id" uuid REFERENCES "departments"("id") ON DELETE CASCADE,
  "room_id" uuid REFERENCES "rooms"("id") ON DELETE CASCADE,
  "area_id" uuid REFERENCES "policy_areas"("id") ON DELETE CASCADE,
  "desk_type" "desk_type",
  "who" "policy_who" NOT NULL,
  "team_id" uuid REFERENCES "teams"("id") ON DELETE CASCADE,
  "role" "policy_role",
  "kind" "policy_limit_kind" NOT NULL,
  "params" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "applies_to_admins" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "policy_rules_name_check" CHECK (length("name") <= 100),
  CONSTRAINT "policy_rules_department_check" CHECK (("scope" = 'DEPARTMENT') = ("department_id" IS NOT NULL)),
  CONSTRAINT "policy_rules_room_check" CHECK (("scope" = 'ROOM') = ("room_id" IS NOT NULL)),
  CONSTRAINT "policy_rules_area_check" CHECK (("scope" = 'AREA') = ("area_id" IS NOT NULL)),
  CONSTRAINT "policy_rules_desk_type_check" CHECK (("scope" = 'DESK_TYPE') = ("desk_type" IS NOT NULL)),
  CONSTRAINT "policy_rules_team_check" CHECK (("who" = 'TEAM') = ("team_id" IS NOT NULL)),
  CONSTRAINT "policy_rules_role_check" CHECK (("who" = 'ROLE') = ("role" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "policy_rules_slot_key" ON "policy_rules" (
  "scope", "department_id", "room_id", "area_id", "desk_type", "who", "team_id", "role", "kind", ("params" ->> 'per')
) NULLS NOT DISTINCT;
