-- Hand-written (docs/i18n.md#choosing-the-language): the organisation's default language, for
-- everyone who chose none; null means the server's DEFAULT_LANGUAGE.
ALTER TABLE "organisation_settings" ADD COLUMN "default_language" text;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_default_language_check" CHECK ("organisation_settings"."default_language" IN ('en', 'de', 'fr'));
