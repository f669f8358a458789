-- Hand-written (docs/favourites.md#tables): a person's favourite desks, and their home office and
-- default booking window, which Find a desk opens on.
CREATE TABLE "favourite_desks" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "desk_id" uuid NOT NULL REFERENCES "desks"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("user_id", "desk_id")
);
--> statement-breakpoint
-- Deleting a desk deletes its stars: this index finds them without a scan.
CREATE INDEX "favourite_desks_desk_idx" ON "favourite_desks" ("desk_id");
--> statement-breakpoint
CREATE TYPE "public"."booking_window_kind" AS ENUM('NONE', 'HOURS', 'WHOLE_DAY');
--> statement-breakpoint
CREATE TABLE "booking_defaults" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "home_department_id" uuid REFERENCES "departments"("id") ON DELETE SET NULL,
  "window_kind" "booking_window_kind" DEFAULT 'NONE' NOT NULL,
  "window_start_minute" smallint,
  "window_end_minute" smallint,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "booking_defaults_hours_check" CHECK (
    ("window_kind" = 'HOURS') = ("window_start_minute" IS NOT NULL AND "window_end_minute" IS NOT NULL)
    AND ("window_kind" <> 'HOURS' OR (0 <= "window_start_minute" AND "window_start_minute" < "window_end_minute" AND "window_end_minute" <= 1440))
  )
);
--> statement-breakpoint
-- Deleting a department clears it as a home office: this index finds the rows without a scan.
CREATE INDEX "booking_defaults_home_department_idx" ON "booking_defaults" ("home_department_id") WHERE "home_department_id" IS NOT NULL;
