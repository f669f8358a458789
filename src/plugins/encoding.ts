import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';

/**
 * Text arrives as valid UTF-8 or not at all (docs/behaviour.md, HTTP): bytes that are not UTF-8,
 * in a JSON body, a query string or a text header, are a 400 INVALID_ENCODING, never replaced by
 * U+FFFD or kept as undecoded escapes. (Paths are checked by the router: serverOptions.frameworkErrors.)
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A UTF-16 surrogate without its partner: what a JSON escape such as "\ud800" decodes to. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

const invalidEncoding = (detail: string) => new AppError('INVALID_ENCODING', detail);

/** Set on a parsed query string whose bytes were not percent-encoded UTF-8. */
const INVALID_QUERY = Symbol('invalid query string');

/**
 * The query string parser (serverOptions.routerOptions): like Fastify's own (repeated keys give
 * arrays, `+` is a space), but a component that does not decode is flagged, not passed on as is.
 * It cannot throw (it runs inside the router), so the flag is checked by an onRequest hook.
 */
export function parseQuery(query: string): Record<string | symbol, string | string[] | boolean> {
  const result: Record<string | symbol, string | string[] | boolean> = Object.create(null) as Record<string, string>;
  if (query.length === 0) return result;
  for (const part of query.split('&')) {
    if (part.length === 0) continue;
    const equals = part.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((equals < 0 ? part : part.slice(0, equals)).replaceAll('+', ' '));
      value = equals < 0 ? '' : decodeURIComponent(part.slice(equals + 1).replaceAll('+', ' '));
    } catch {
      result[INVALID_QUERY] = true;
      continue;
    }
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing as string, value];
  }
  return result;
}

/** A header that carries text (User-Agent): Node hands it over as Latin-1; it is decoded as UTF-8. */
export function headerText(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers[name];
  if (typeof raw !== 'string') return undefined;
  // Pure ASCII, the usual case, reads the same either way.
  if (!/[^\x00-\x7f]/.test(raw)) return raw;
  try {
    return utf8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    throw invalidEncoding(`The ${name} header is not valid UTF-8`);
  }
}

/** Registered before any route: the JSON body parser and the query string check. */
export default fp(
  async function encodingPlugin(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        done(invalidEncoding('The body is not valid UTF-8'), undefined);
        return;
      }
      parseJson(request, text, (error, parsed) => {
        // Only an escape can yield a lone surrogate; PostgreSQL would store it as U+FFFD.
        if (!error && SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(parsed)) {
          done(invalidEncoding('The body holds an unpaired surrogate escape (\\uD800 to \\uDFFF), which is no character'), undefined);
          return;
        }
        done(error, parsed);
      });
    });

    app.addHook('onRequest', async (request) => {
      if ((request.query as Record<symbol, unknown> | undefined)?.[INVALID_QUERY]) throw invalidEncoding('The query string is not valid percent-encoded UTF-8');
    });
  },
  { name: 'encoding' },
);

function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, item]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(item));
  return false;
}
