-- Hand-checked (drizzle-kit generate, renumbered 0021; docs/behaviour.md#report-status): a defect
-- report's status (OPEN, IN_PROGRESS, RESOLVED), the admins' note to the reporter, and when and by
-- whom it last changed. Existing reports start OPEN; a constant default adds the column without
-- rewriting the table. The status is not a member of the Report resource (the interface fixes it).
CREATE TYPE "public"."report_status" AS ENUM('OPEN', 'IN_PROGRESS', 'RESOLVED');--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "status" "report_status" DEFAULT 'OPEN' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "status_note" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "status_changed_by" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_status_created_idx" ON "reports" USING btree ("status","created_at","id");
