import { Type, type Static } from '@sinclair/typebox';
import { LANGUAGES } from '../../shared/languages.js';

const LanguageCode = Type.Union(
  LANGUAGES.map((code) => Type.Literal(code)),
  { description: 'A language Deskbook ships: en (English), de (German), fr (French).' },
);

export const Preferences = Type.Object(
  {
    language: Type.Union([LanguageCode, Type.Null()], {
      description: "The caller's chosen language; null: none chosen, the server's default applies (docs/i18n.md#choosing-the-language).",
    }),
    effectiveLanguage: Type.Union([LanguageCode], {
      description: 'The language the web app, mails and calendar entries use for the caller: `language`, else `defaultLanguage`.',
    }),
    defaultLanguage: Type.Union([LanguageCode], { description: "The server's default (DEFAULT_LANGUAGE)." }),
    languages: Type.Array(LanguageCode, { description: 'Every language the caller may choose.' }),
  },
  { additionalProperties: false },
);
export type PreferencesDto = Static<typeof Preferences>;

export const PreferencesBody = Type.Object(
  {
    language: Type.Union([LanguageCode, Type.Null()], { description: "A language from `languages`, or null for the server's default." }),
  },
  { additionalProperties: false },
);
export type PreferencesBody = Static<typeof PreferencesBody>;
