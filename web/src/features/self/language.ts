import { useEffect } from 'react';
import { applyLanguage } from '../../lib/i18n.js';
import { usePreferences } from './queries.js';

/** Puts the signed-in person's language in use once it is known (docs/i18n.md#choosing-the-language); the Layout calls it. */
export function useSignedInLanguage(): void {
  const preferences = usePreferences();
  const language = preferences.data?.effectiveLanguage;
  useEffect(() => {
    if (language) void applyLanguage(language);
  }, [language]);
}
