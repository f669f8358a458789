/**
 * The languages Deskbook ships (docs/i18n.md): English is the source. The web app's list
 * (web/src/lib/i18n.ts), DEFAULT_LANGUAGE's choices (src/config.ts) and the check of
 * user_preferences.language (migration 0033) hold the same; a unit test compares them.
 */
export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
