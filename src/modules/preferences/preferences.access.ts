import type { Database } from '../../db/client.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import { PreferencesRepository } from './preferences.repository.js';

/**
 * The language of a person, for the modules that write to them (mails, the calendar feed):
 * their preference, else the organisation's default, else the server's (docs/i18n.md#choosing-the-language).
 */

/**
 * The server's default language, DEFAULT_LANGUAGE: what applies where neither the person nor the
 * organisation (organisation_settings.default_language, read with each person's choice below)
 * chose one.
 */
export function defaultLanguage(config: { DEFAULT_LANGUAGE: string }): Language {
  return isLanguage(config.DEFAULT_LANGUAGE) ? config.DEFAULT_LANGUAGE : 'en';
}

/** The first shipped language of the candidates, else `fallback`. */
export const firstLanguage = (fallback: Language, ...candidates: (string | null | undefined)[]): Language => candidates.find(isLanguage) ?? fallback;

/** A person's language: the one they chose, else the organisation's default, else `fallback` (the server's DEFAULT_LANGUAGE). */
export async function languageOf(db: Database, userId: string, fallback: Language): Promise<Language> {
  const { chosen, organisation } = await new PreferencesRepository(db).language(userId);
  return firstLanguage(fallback, chosen, organisation);
}

/** Several people's languages at once (an invitation run): each one's choice, else the organisation's default, else `fallback`. */
export async function languagesOf(db: Database, userIds: readonly string[], fallback: Language): Promise<(userId: string) => Language> {
  const { chosen, organisation } = await new PreferencesRepository(db).languages(userIds);
  return (userId) => firstLanguage(fallback, chosen.get(userId), organisation);
}
