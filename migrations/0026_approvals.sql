-- Hand-written (docs/policies.md#approvals): approval requirements and the approval of each
-- reservation that falls under one. A requirement holds in a department, a room or for a desk
-- type, for everyone, the people of a team or the people outside it; its approvers are the admins
-- and the managers of a named team. reservation_approvals keeps one row per reservation that needed
-- approval, written in the booking's transaction by the one writer; it has no foreign key to
-- reservations, so a rejected or expired request keeps its outcome after its reservation is cancelled.
-- calendar_events.tentative: a pending reservation is a TENTATIVE event (function approval_calendar).
CREATE TYPE "approval_scope" AS ENUM ('DEPARTMENT', 'ROOM', 'DESK_TYPE');
--> statement-breakpoint
CREATE TYPE "approval_applies_to" AS ENUM ('EVERYONE', 'MEMBERS', 'NON_MEMBERS');
--> statement-breakpoint
CREATE TYPE "approval_status" AS ENUM ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED');
--> statement-breakpoint
CREATE TABLE "approval_requirements" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "scope" "approval_scope" NOT NULL,
  "department_id" uuid REFERENCES "departments"("id") ON DELETE CASCADE,
  "room_id" uuid REFERENCES "rooms"("id") ON DELETE CASCADE,
  "desk_type" "desk_type",
  "applies_to" "approval_applies_to" DEFAULT 'EVERYONE' NOT NULL,
  "team_id" uuid REFERENCES "teams"("id") ON DELETE CASCADE,
  "approver_team_id" uuid REFERENCES "teams"("id") ON DELETE SET NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "approval_requirements_department_check" CHECK (("scope" = 'DEPARTMENT') = ("department_id" IS NOT NULL)),
  CONSTRAINT "approval_requirements_room_check" CHECK (("scope" = 'ROOM') = ("room_id" IS NOT NULL)),
  CONSTRAINT "approval_requirements_desk_type_check" CHECK (("scope" = 'DESK_TYPE') = ("desk_type" IS NOT NULL)),
  CONSTRAINT "approval_requirements_team_check" CHECK (("applies_to" = 'EVERYONE') = ("team_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX "approval_requirements_department_idx" ON "approval_requirements" ("department_id");
--> statement-breakpoint
CREATE INDEX "approval_requirements_room_idx" ON "approval_requirements" ("room_id");
--> statement-breakpoint
CREATE INDEX "approval_requirements_approver_team_idx" ON "approval_requirements" ("approver_team_id");
--> statement-breakpoint
CREATE TABLE "reservation_approvals" (
  "reservation_id" uuid PRIMARY KEY NOT NULL,
  "requirement_id" uuid REFERENCES "approval_requirements"("id") ON DELETE SET NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "desk_id" uuid REFERENCES "desks"("id") ON DELETE SET NULL,
  "start_time" timestamp with time zone NOT NULL,
  "end_time" timestamp with time zone NOT NULL,
  "status" "approval_status" DEFAULT 'PENDING' NOT NULL,
  "requested_at" timestamp with time zone NOT NULL,
  "decided_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "decided_at" timestamp with time zone,
  "note" text,
  CONSTRAINT "reservation_approvals_note_check" CHECK (length("note") <= 500),
  CONSTRAINT "reservation_approvals_decided_check" CHECK (("status" = 'PENDING') = ("decided_at" IS NULL))
);
--> statement-breakpoint
CREATE INDEX "reservation_approvals_pending_idx" ON "reservation_approvals" ("start_time", "reservation_id") WHERE "status" = 'PENDING';
--> statement-breakpoint
CREATE INDEX "reservation_approvals_user_idx" ON "reservation_approvals" ("user_id", "requested_at");
--> statement-breakpoint
CREATE INDEX "reservation_approvals_requirement_idx" ON "reservation_approvals" ("requirement_id");
--> statement-breakpoint
ALTER TABLE "calendar_events" ADD COLUMN "tentative" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Approvals in calendars (docs/policies.md#approvals): a reservation awaiting approval is a
-- TENTATIVE event, one approved is CONFIRMED again; a rejected or expired one is cancelled by the
-- one writer, and calendar_track then cancels its event. Rows of reservation_approvals:
-- * inserted (PENDING) in the transaction that wrote the reservation, whose own change already
--   moved the event's SEQUENCE and queued its invitation: the event only turns tentative;
-- * a change of status to APPROVED (or back to PENDING after a move) is a change of the event:
--   its SEQUENCE grows and its invitation is queued again (kind calendar.invitation, like calendar_track);
-- * deleted while pending (the reservation left every requirement, or is gone): no longer tentative.
CREATE OR REPLACE FUNCTION "approval_calendar"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "calendar_events" SET "tentative" = (NEW."status" = 'PENDING') WHERE "reservation_id" = NEW."reservation_id";
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW."status" IS NOT DISTINCT FROM OLD."status" OR NEW."status" NOT IN ('PENDING', 'APPROVED') THEN
      RETURN NULL;
    END IF;
    UPDATE "calendar_events" SET "tentative" = (NEW."status" = 'PENDING'), "sequence" = "sequence" + 1, "changed_at" = now()
    WHERE "reservation_id" = NEW."reservation_id" AND "cancelled_at" IS NULL;
    INSERT INTO "outbox" ("kind", "group_key", "topic", "payload")
    SELECT 'calendar.invitation', r."user_id"::text, coalesce(r."series_id"::text, r."id"::text),
           jsonb_build_object('reservationId', r."id", 'seriesId', r."series_id")
    FROM "reservations" r WHERE r."id" = NEW."reservation_id";
  ELSE
    UPDATE "calendar_events" SET "tentative" = false WHERE "reservation_id" = OLD."reservation_id" AND "tentative";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "reservation_approvals_calendar" AFTER INSERT OR UPDATE OF "status" OR DELETE ON "reservation_approvals"
FOR EACH ROW EXECUTE FUNCTION "approval_calendar"();
