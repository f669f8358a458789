import i18next from 'i18next';

/**
 * Translation outside React, free of the browser (unit tests load it too): the problem sentences
 * (lib/problems.ts) and the date formats (lib/locale.ts) read the language in use from here.
 * Starting i18next and loading the files is lib/i18n.ts (docs/i18n.md).
 */

/** The shipped languages, English (the source) first. The server's list must match (docs/i18n.md#adding-a-language). */
export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: string | null | undefined): value is Language => (LANGUAGES as readonly string[]).includes(value ?? '');

/** The first shipped language the browser asks for (navigator.languages), else English: the signed-out pages' language. */
export function browserLanguage(preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/** The pseudo-locale: English made longer, accented and bracketed, to find untranslated text (docs/i18n.md#the-pseudo-locale). */
export const PSEUDO = 'en-XA';

/** The language in use ('en' before i18next starts, as in unit tests). */
export const activeLanguage = (): string => i18next.language || 'en';

/** A translated message: `namespace:key` as in components (docs/i18n.md#converting-a-page). */
export const translate = (key: string, values: Record<string, unknown> = {}): string => i18next.t(key, values);

/**
 * The problem sentences (namespace `problems`) arrive after the first paint (docs/i18n.md#what-it-weighs):
 * whatever is about to show one — a failed request, a form's check, the end of a session — waits
 * for this first (at once when they are there).
 */
export const loadProblems = async (): Promise<void> => {
  if (!i18next.hasLoadedNamespace('problems')) await i18next.loadNamespaces('problems');
};
