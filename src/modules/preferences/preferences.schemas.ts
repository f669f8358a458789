import { Type, type Static } from '@sinclair/typebox';
import { LanguageCode as LanguageCodeSchema } from '../../shared/schemas.js';

const LanguageCode = LanguageCodeSchema();

export const Preferences = Type.Object(
  {
    language: Type.Union([LanguageCode, Type.Null()], {
      description: "The caller's chosen language; null: none chosen, the server's default applies (docs/i18n.md#choosing-the-language).",
    }),
    effectiveLanguage: Type.Union([LanguageCode], {
      description: 'The language the web app, mails and calendar entries use for the caller: `language`, else `defaultLanguage`.',
    }),
    defaultLanguage: Type.Union([LanguageCode], {
      description:
        "The language of everyone who chose none: the organisation's (PATCH /api/organisation/settings, defaultLanguage), else the server's DEFAULT_LANGUAGE.",
    }),
    languages: Type.Array(LanguageCode, { description: 'Every language the caller may choose.' }),
  },
  { additionalProperties: false },
);
export type PreferencesDto = Static<typeof Preferences>;

export const PreferencesBody = Type.Object(
  {
    language: Type.Union([LanguageCode, Type.Null()], { description: 'A language from `languages`, or null for the default (`defaultLanguage`).' }),
  },
  { additionalProperties: false },
);
export type PreferencesBody = Static<typeof PreferencesBody>;
