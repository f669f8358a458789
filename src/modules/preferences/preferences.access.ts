import type { Database } from '../../db/client.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import { PreferencesRepository } from './preferences.repository.js';

/**
 * The language of a person, for the modules that write to them (mails, the calendar feed):
 * their preference, else the server's default (docs/i18n.md#choosing-the-language).
 */

/**
 * The server's default language: DEFAULT_LANGUAGE for now. The ONE place that decides it, so an
 * organisation-wide setting can take its place later without touching the callers.
 */
export function defaultLanguage(config: { DEFAULT_LANGUAGE: string }): Language {
  return isLanguage(config.DEFAULT_LANGUAGE) ? config.DEFAULT_LANGUAGE : 'en';
}

/** A person's language: the one they chose, else `fallback` (the server's default). */
export async function languageOf(db: Database, userId: string, fallback: Language): Promise<Language> {
  const chosen = await new PreferencesRepository(db).language(userId);
  return isLanguage(chosen) ? chosen : fallback;
}

/** Several people's languages at once (an invitation run); anyone without a choice gets `fallback`. */
export async function languagesOf(db: Database, userIds: readonly string[], fallback: Language): Promise<(userId: string) => Language> {
  const chosen = await new PreferencesRepository(db).languages(userIds);
  return (userId) => {
    const language = chosen.get(userId);
    return isLanguage(language) ? language : fallback;
  };
}
