-- Hand-written (docs/people.md): the organisation's settings (one row), each person's privacy
-- switches and the colleagues a person starred.
CREATE TABLE "organisation_settings" (
  "id" smallint PRIMARY KEY,
  "name_visibility" text DEFAULT 'nobody' NOT NULL,
  "works_council_mode" boolean DEFAULT true NOT NULL,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "organisation_settings_one_row" CHECK ("id" = 1),
  CONSTRAINT "organisation_settings_name_visibility_check" CHECK ("name_visibility" IN ('everyone', 'teams', 'nobody'))
);
--> statement-breakpoint
-- The most private defaults (docs/people.md#the-organisations-settings).
INSERT INTO "organisation_settings" ("id") VALUES (1);
--> statement-breakpoint
CREATE TABLE "person_privacy" (
  "user_id" uuid PRIMARY KEY REFERENCES "users"("id") ON DELETE CASCADE,
  "hide_bookings" boolean DEFAULT false NOT NULL,
  "book_anonymously" boolean DEFAULT false NOT NULL,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "starred_people" (
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "starred_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY ("user_id", "starred_id"),
  CONSTRAINT "starred_people_not_self_check" CHECK ("user_id" <> "starred_id")
);
--> statement-breakpoint
-- Deleting a user removes the stars others gave them: this index finds them without a scan.
CREATE INDEX "starred_people_starred_idx" ON "starred_people" ("starred_id");
