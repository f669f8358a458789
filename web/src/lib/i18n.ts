import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { icuFormat } from './icu.js';

/**
 * The web app's translations (docs/i18n.md): i18next with ICU messages (lib/icu.ts), one JSON file per language
 * and namespace under web/src/locales/<language>/<namespace>.json, each its own chunk that is
 * fetched only when that language is in use.
 */

import { browserLanguage, isLanguage, LANGUAGES, PSEUDO, type Language } from './translate.js';

export { browserLanguage, LANGUAGES, PSEUDO, type Language };

/** Each language's own name, shown as is in the picker (never translated). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français' };

/**
 * The namespaces: one per converted area of the app; a page converted later adds its own (and its
 * components name it in useTranslation, which waits for the file under the page's Suspense).
 * The first paint waits for `common`, `auth` (the bar, the sign-in pages) and `labels` (floors,
 * desks, equipment, desk states and picture words of lib/labels.ts and lib/images.ts, which pages
 * of every area read outside React); `problems` (the error sentences) follows once the page is
 * idle, and whatever shows one first waits for it (translate.ts, loadProblems); every other
 * namespace comes with its pages.
 */
export const NAMESPACES = [
  'common',
  'auth',
  'profile',
  'problems',
  // Admin and people pages.
  'users',
  'outbox',
  'stats',
  'reports',
  'attendance',
  'people',
  // Booking pages.
  'booking',
  'checkin',
  // Booking rules, closures, teams, approvals.
  'policies',
  'closures',
  'teams',
  'approvals',
  // Offices, rooms, desks, floor plans and lobby displays; the words of lib/labels.ts.
  'labels',
  'inventory',
  'displays',
] as const;
const FIRST_PAINT = ['common', 'auth', 'labels'];

/** The files, each a lazy import Vite turns into its own chunk. */
const FILES = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { import: 'default' });

async function load(language: string, namespace: string): Promise<Record<string, unknown>> {
  if (language === PSEUDO) {
    const [{ pseudoResources }, english] = await Promise.all([import('./pseudo.js'), load('en', namespace)]);
    return pseudoResources(english);
  }
  const file = FILES[`../locales/${language}/${namespace}.json`];
  if (!file) return {};
  return file();
}

const lazyFiles: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language: string, namespace: string, callback: ReadCallback) => {
    load(language, namespace).then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** `?lang=de` or `?lang=en-XA` on any address sets this tab's language over every other choice (tests, translators). */
const OVERRIDE = 'deskbook.language-override';
/** The language last shown, so that a signed-in person's next visit starts in it before their preference arrives. */
const LAST = 'deskbook.language';

function storage(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** This tab's override, if any (docs/i18n.md#the-pseudo-locale). */
export function languageOverride(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked && (isLanguage(asked) || asked === PSEUDO)) storage('session')?.setItem(OVERRIDE, asked);
  const stored = storage('session')?.getItem(OVERRIDE);
  return stored && (isLanguage(stored) || stored === PSEUDO) ? stored : undefined;
}

/** The language to start in: the override, the last one shown here, else the browser's. */
export function startingLanguage(): string {
  const last = storage('local')?.getItem(LAST);
  return languageOverride() ?? (isLanguage(last) ? last : browserLanguage());
}

/**
 * Switches to a language (a person's preference, once known): the override still wins. Loads
 * the language's files first; `<html lang>` follows.
 */
export async function applyLanguage(language: string | undefined): Promise<void> {
  const next = languageOverride() ?? (isLanguage(language) ? language : browserLanguage());
  if (next !== i18next.language) await i18next.changeLanguage(next);
}

/** Forgets the signed-in person's language: the signed-out pages go back to the browser's. */
export function forgetLanguage(): void {
  storage('local')?.removeItem(LAST);
  void applyLanguage(undefined);
}

/** Starts i18next in `language` and waits for its files: main.tsx renders after this. */
export async function startI18n(language = startingLanguage()): Promise<void> {
  i18next.on('languageChanged', (next) => {
    if (typeof document !== 'undefined') document.documentElement.lang = next;
    if (next !== PSEUDO && next === languageOverride()) return;
    if (isLanguage(next)) storage('local')?.setItem(LAST, next);
  });
  await i18next
    .use(lazyFiles)
    .use(icuFormat)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...LANGUAGES, PSEUDO],
      fallbackLng: 'en',
      ns: FIRST_PAINT,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
  if (typeof document !== 'undefined') document.documentElement.lang = i18next.language;
}
