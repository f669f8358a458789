-- Hand-written (docs/i18n.md#choosing-the-language): a person's own preferences, for now their
-- language; no row or a null language means the server's DEFAULT_LANGUAGE.
CREATE TABLE "user_preferences" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "language" text,
  "modified_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "user_preferences_language_check" CHECK ("language" IN ('en', 'de', 'fr'))
);
