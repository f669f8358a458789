import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MAIL_MESSAGES } from '../../src/infrastructure/mail/messages.js';
import { catalogue } from '../../src/shared/errors.js';
import { LANGUAGES as SERVER_LANGUAGES } from '../../src/shared/languages.js';
import { projectPath } from '../../src/shared/paths.js';
import { formatMessage } from '../../web/src/lib/icu.js';
import { browserLanguage, LANGUAGES as WEB_LANGUAGES } from '../../web/src/lib/translate.js';
import { pseudoMessage, pseudoResources } from '../../web/src/lib/pseudo.js';
import { CODE_MESSAGES, problemMessage } from '../../web/src/lib/problems.js';
import { readLocales, startTestI18n } from '../helpers/i18n.js';
import i18next from 'i18next';

/**
 * The translations (docs/i18n.md): every shipped language has every key of English, with the
 * same arguments, in valid ICU; the converted files hold no hard-coded text for people; the
 * pseudo-locale keeps ICU intact; the server's languages are the web app's.
 */

/**
 * Every component file of the web app: each is scanned for hard-coded text people would see
 * (docs/i18n.md#converting-a-page), a page added later included.
 */
export const WEB_FILES = readdirSync(projectPath('web', 'src'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.tsx'))
  .map((name) => `web/src/${name.split(path.sep).join('/')}`)
  .sort();

/** Text that is the same in every language: the product's name, a configuration key. */
const NOT_TRANSLATED = new Set(['Deskbook', 'PUBLIC_URL']);

/** Attributes whose string values people read or hear. */
const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'label',
  'hint',
  'busyLabel',
  'submitLabel',
  'success',
  'replaceLabel',
  'cancelLabel',
]);

/** Flattened keys of a namespace: "nav.findDesk" → message. */
function flatten(tree: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out[`${prefix}${key}`] = value;
    else if (value && typeof value === 'object') Object.assign(out, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
  }
  return out;
}

/** The argument names an ICU message uses ({name}, {count, plural, …}), sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: ReturnType<IntlMessageFormat['getAst']>) => {
    for (const element of elements) {
      if ('value' in element && typeof element.value === 'string' && element.type !== 0) names.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst());
  return [...names].sort();
}

const locales = readLocales();

describe('translations of the web app', () => {
  it('ship exactly the languages of the server and of DEFAULT_LANGUAGE', () => {
    expect([...WEB_LANGUAGES]).toEqual([...SERVER_LANGUAGES]);
    expect(Object.keys(locales).sort()).toEqual([...SERVER_LANGUAGES].sort());
    for (const language of SERVER_LANGUAGES) expect(loadConfig({ DEFAULT_LANGUAGE: language }).DEFAULT_LANGUAGE).toBe(language);
    expect(() => loadConfig({ DEFAULT_LANGUAGE: 'xx' })).toThrow(/DEFAULT_LANGUAGE/);
    expect(readFileSync(projectPath('migrations', '0033_user_preferences.sql'), 'utf8')).toContain(`IN (${SERVER_LANGUAGES.map((l) => `'${l}'`).join(', ')})`);
  });

  it('have every English key in every language, and no other, with the same arguments', () => {
    const english = locales.en!;
    for (const [language, namespaces] of Object.entries(locales)) {
      expect({ language, namespaces: Object.keys(namespaces).sort() }).toEqual({ language, namespaces: Object.keys(english).sort() });
      for (const [namespace, tree] of Object.entries(english)) {
        const source = flatten(tree);
        const translated = flatten(namespaces[namespace]!);
        expect({ language, namespace, keys: Object.keys(translated).sort() }).toEqual({ language, namespace, keys: Object.keys(source).sort() });
        for (const [key, message] of Object.entries(source)) {
          expect({ language, key, arguments: argumentsOf(translated[key]!) }).toEqual({ language, key, arguments: argumentsOf(message) });
        }
      }
    }
  });

  it('fails on a key missing in one language (the comparison above is not vacuous)', () => {
    const broken = structuredClone(locales.de!);
    delete (broken.common!.nav as Record<string, unknown>).findDesk;
    expect(Object.keys(flatten(broken.common!)).sort()).not.toEqual(Object.keys(flatten(locales.en!.common!)).sort());
  });

  it('are translated: nearly every German and French message differs from the English one', () => {
    for (const language of ['de', 'fr']) {
      let [differing, total] = [0, 0];
      for (const [namespace, tree] of Object.entries(locales.en!)) {
        const translated = flatten(locales[language]![namespace]!);
        for (const [key, message] of Object.entries(flatten(tree))) {
          total++;
          // A few words are the same in both languages (Team, Description, Menu).
          if (translated[key] !== message) differing++;
        }
      }
      expect({ language, share: differing / total > 0.9 }).toEqual({ language, share: true });
    }
  });
});

describe('the ICU formatter of the web app (lib/icu.ts)', () => {
  /** Sample values for a message's arguments: numbers for plurals, words for the rest. */
  const samples = (message: string, count: number) =>
    Object.fromEntries(argumentsOf(message).map((name) => [name, /count|max|current|requested|hours|minutes|min|line/.test(name) ? count : `«${name}»`]));

  it('formats every shipped message (and its pseudo form) as intl-messageformat does', () => {
    let checked = 0;
    for (const [language, namespaces] of Object.entries(locales)) {
      for (const tree of Object.values(namespaces)) {
        for (const message of [...Object.values(flatten(tree)), ...(language === 'en' ? Object.values(flatten(pseudoResources(tree))) : [])]) {
          for (const count of [0, 1, 2, 5, 1000]) {
            const values = samples(message, count);
            expect({ message, values, out: formatMessage(message, values, language) }).toEqual({
              message,
              values,
              out: String(new IntlMessageFormat(message, language).format(values)),
            });
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('chooses plural branches by the language’s rules, exact ones first', () => {
    const message = '{n, plural, =0 {none} one {# item} other {# items}}';
    expect([0, 1, 2, 1000].map((n) => formatMessage(message, { n }, 'en'))).toEqual(['none', '1 item', '2 items', '1,000 items']);
    expect(formatMessage('{n, plural, one {# Tag} other {# Tage}}', { n: 1000 }, 'de')).toBe('1.000 Tage');
    expect(formatMessage('{x, select, a {A} other {O}}', { x: 'b' }, 'en')).toBe('O');
  });
});

describe('the language of the signed-out pages', () => {
  it('is the first shipped language of navigator.languages, by its primary subtag, else English', () => {
    expect(browserLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(browserLanguage(['it-IT', 'fr-CH', 'de'])).toBe('fr');
    expect(browserLanguage(['EN-gb'])).toBe('en');
    expect(browserLanguage(['it', 'pt-BR'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});

describe('the pseudo-locale', () => {
  it('accents, lengthens and brackets text but keeps arguments and plural syntax', () => {
    const message = 'You have {count, plural, one {# desk} other {# desks}} in {room}.';
    const pseudo = pseudoMessage(message);
    expect(pseudo).toMatch(/^\[.*\]$/);
    expect(pseudo).not.toContain('desk');
    expect(pseudo.length).toBeGreaterThan(message.length);
    expect(argumentsOf(pseudo)).toEqual(['count', 'room']);
    expect(new IntlMessageFormat(pseudo, 'en').format({ count: 2, room: 'R1' })).toMatch(/^\[Ý.*2 .*R1.*\]$/);
  });

  it('makes every English message of the app a valid ICU message', () => {
    for (const tree of Object.values(locales.en!)) {
      for (const [key, message] of Object.entries(flatten(pseudoResources(tree)))) {
        expect({ key, parses: (() => argumentsOf(message) && true)() }).toEqual({ key, parses: true });
      }
    }
  });
});

describe('problem sentences (CODE_MESSAGES)', () => {
  beforeAll(() => startTestI18n('de'));

  it('are German for every code of the catalogue when German is in use', async () => {
    await i18next.changeLanguage('de');
    for (const code of Object.keys(catalogue)) {
      const german = problemMessage({ status: 409, code, retryAfter: 30 }, 'Der Raum');
      await i18next.changeLanguage('en');
      const english = problemMessage({ status: 409, code, retryAfter: 30 }, 'The room');
      await i18next.changeLanguage('de');
      expect({ code, german: german !== english && !german.includes('problems:') }).toEqual({ code, german: true });
    }
    expect(Object.keys(CODE_MESSAGES).length).toBeGreaterThan(50);
    expect(problemMessage({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: 61 })).toBe('Zu viele Versuche. Versuchen Sie es in 2 Minuten erneut.');
    await i18next.changeLanguage('en');
  });
});

describe('mail messages', () => {
  it('have every English key in every language, with the same arguments', () => {
    const english = MAIL_MESSAGES.en;
    for (const [language, messages] of Object.entries(MAIL_MESSAGES)) {
      expect({ language, keys: Object.keys(messages).sort() }).toEqual({ language, keys: Object.keys(english).sort() });
      for (const [key, message] of Object.entries(english)) {
        expect({ language, key, arguments: argumentsOf((messages as Record<string, string>)[key]!) }).toEqual({
          language,
          key,
          arguments: argumentsOf(message),
        });
      }
    }
  });
});

/** Hard-coded text people would see in a converted file: JSX text, text attributes, useTitle('…'). */
function hardCoded(file: string, text = readFileSync(projectPath(file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const words = node.text.trim();
      if (/\p{L}/u.test(words) && !NOT_TRANSLATED.has(words)) found.push(`text "${words}"`);
    } else if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const value = node.initializer;
      const literal = ts.isStringLiteral(value)
        ? value.text
        : ts.isJsxExpression(value) && value.expression && (ts.isStringLiteral(value.expression) || ts.isNoSubstitutionTemplateLiteral(value.expression))
          ? value.expression.text
          : undefined;
      if (literal !== undefined && /\p{L}/u.test(literal)) found.push(`${node.name.getText(source)}="${literal}"`);
    } else if (ts.isCallExpression(node) && node.expression.getText(source) === 'useTitle' && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(`useTitle('${node.arguments[0].text}')`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('converted files', () => {
  it.each(WEB_FILES)('%s has no hard-coded text for people', (file) => {
    expect(hardCoded(file)).toEqual([]);
  });

  it('the scan finds hard-coded text (it is not vacuous)', () => {
    // An unconverted page: each kind of text the scan looks for, once, and a translated line it must let pass.
    const page = `
      export function Page() {
        useTitle('Things');
        return (
          <form aria-label="Search things">
            <TextField label="Name" placeholder={'Name or e-mail'} />
            <p>Nothing found.</p>
            <p>{t('found', { count })}</p>
          </form>
        );
      }`;
    expect(hardCoded('Unconverted.tsx', page)).toEqual([
      "useTitle('Things')",
      'aria-label="Search things"',
      'label="Name"',
      'placeholder="Name or e-mail"',
      'text "Nothing found."',
    ]);
  });
});

describe('mail templates in a language', () => {
  it('write the release notice in German, the desk name bold in the HTML part', async () => {
    const { releaseMail } = await import('../../src/infrastructure/mail/templates.js');
    const mail = releaseMail({
      to: 'greta@example.test',
      firstName: 'Greta',
      deskName: 'A-01',
      roomName: 'Atlas',
      timeZone: 'Europe/Berlin',
      started: '2030-01-14 09:00',
      released: '2030-01-14 09:30',
      publicUrl: 'https://desk.example.test/',
      language: 'de',
    });
    expect(mail.subject).toBe('Arbeitsplatz A-01 freigegeben: niemand hat eingecheckt');
    expect(mail.text).toBe(
      'Hallo Greta,\n\nbei Ihrer Reservierung des Arbeitsplatzes A-01 in Atlas ab 2030-01-14 09:00 (Europe/Berlin) hat niemand eingecheckt, ' +
        'daher wurde der Arbeitsplatz um 2030-01-14 09:30 für andere freigegeben. Die Reservierung endet nun zu diesem Zeitpunkt.\n\n' +
        'Ihre Reservierungen: https://desk.example.test/reservations\n',
    );
    expect(mail.html).toContain('des Arbeitsplatzes <b>A-01</b> in Atlas');
    expect(mail.html).toContain('>Ihre Reservierungen</a>');
  });
});
