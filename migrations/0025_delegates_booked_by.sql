-- Hand-written (docs/policies.md#booking-for-someone-else): who booked a reservation for its owner,
-- and the people a person lets book for them (their delegates).
ALTER TABLE "reservations" ADD COLUMN "booked_by" uuid;
--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- Deleting a user nulls the rows they booked for others: this index finds them without a scan.
CREATE INDEX "reservations_booked_by_idx" ON "reservations" ("booked_by") WHERE "booked_by" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "delegates" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "delegate_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("user_id", "delegate_id"),
  CONSTRAINT "delegates_not_self_check" CHECK ("user_id" <> "delegate_id")
);
--> statement-breakpoint
CREATE INDEX "delegates_delegate_idx" ON "delegates" ("delegate_id", "user_id");
