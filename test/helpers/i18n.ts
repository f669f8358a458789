import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { projectPath } from '../../src/shared/paths.js';
import { icuFormat } from '../../web/src/lib/icu.js';

/**
 * The web app's translations for unit tests (docs/i18n.md): i18next started with every namespace
 * of the shipped languages read from web/src/locales at once, as the app has them once loaded.
 */
export const LOCALES = projectPath('web', 'src', 'locales');

/** Every language folder's namespaces: { en: { common: {...}, ... }, de: ... }. */
export function readLocales(): Record<string, Record<string, Record<string, unknown>>> {
  const all: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const language of readdirSync(LOCALES)) {
    all[language] = {};
    for (const file of readdirSync(path.join(LOCALES, language)).filter((name) => name.endsWith('.json'))) {
      all[language][file.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(LOCALES, language, file), 'utf8')) as Record<string, unknown>;
    }
  }
  return all;
}

/** Starts (or switches) i18next in `language` with the files as they are on disk. */
export async function startTestI18n(language = 'en'): Promise<void> {
  const resources = readLocales();
  if (!i18next.isInitialized) {
    await i18next.use(icuFormat).init({ lng: language, fallbackLng: 'en', resources, defaultNS: 'common', interpolation: { escapeValue: false } });
  } else await i18next.changeLanguage(language);
}
