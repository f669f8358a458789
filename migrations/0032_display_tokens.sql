-- Hand-written (docs/people.md#the-lobby-display): the tokens of the lobby displays, one office each,
-- stored as their SHA-256 only.
CREATE TABLE "display_tokens" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "department_id" uuid NOT NULL REFERENCES "departments"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "token_hash" text NOT NULL,
  "created_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "display_tokens_name_check" CHECK (length("name") BETWEEN 1 AND 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "display_tokens_hash_key" ON "display_tokens" ("token_hash");
--> statement-breakpoint
CREATE INDEX "display_tokens_department_idx" ON "display_tokens" ("department_id", "created_at");
