import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/errors.js';
import { isUuid } from '../shared/text.js';

const base: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false };

/** An Ajv as the service validates with (tests check their expectations with the same). */
export function createAjv(options: Options) {
  const instance = new Ajv({ ...base, ...options });
  addFormats.default(instance);
  // ajv-formats also takes `urn:uuid:…`, which PostgreSQL does not read (it failed there, logged as an error).
  instance.addFormat('uuid', isUuid);
  return instance;
}

/**
 * Text PostgreSQL cannot store as sent: NUL, and a UTF-16 surrogate without its pair (JSON may
 * spell one as `"\ud800"`; it would be stored as U+FFFD, silently changed).
 */
const UNSTORABLE = /\u0000|\p{Cs}/u;
const UNSTORABLE_MESSAGE = 'must not contain NUL (U+0000) or an unpaired surrogate (such as \\ud800)';

/** The path (`a.b.0`) of the first member name or string holding unstorable text; '' for the value itself. */
export function unstorableTextAt(value: unknown): string | undefined {
  // A loop, not recursion: the schemas bound the depth, but this must not depend on it.
  const pending: [unknown, string][] = [[value, '']];
  for (let next = 0; next < pending.length; next++) {
    const [current, path] = pending[next]!;
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return path;
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [name, member] of Object.entries(current)) {
        const at = path ? `${path}.${name}` : name;
        if (UNSTORABLE.test(name)) return at;
        pending.push([member, at]);
      }
    }
  }
  return undefined;
}

/**
 * Query strings, path parameters and headers arrive as text and are coerced to the declared
 * types; JSON bodies are not: a number where a string belongs is a 400, as are unknown members
 * (Fastify's default would coerce bodies and silently drop unknown members). Text that cannot be
 * stored is a 400 too, checked once the schema has passed, before any work.
 */
export default fp(
  async function validationPlugin(app: FastifyInstance) {
    const coercing = createAjv({ coerceTypes: 'array' });
    const strict = createAjv({ coerceTypes: false });
    app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object));
    app.addHook('preHandler', (request, _reply, done) => {
      // Only what the operation takes: a query member a route ignores never reaches the database.
      const schema = request.routeOptions.schema;
      for (const [part, value] of [
        ['body', schema?.body && request.body],
        ['querystring', schema?.querystring && request.query],
      ] as const) {
        const at = unstorableTextAt(value);
        if (at !== undefined) {
          const field = at || part;
          done(new AppError('VALIDATION_FAILED', `${field} ${UNSTORABLE_MESSAGE}`, { errors: [{ field, message: UNSTORABLE_MESSAGE }] }));
          return;
        }
      }
      done();
    });
  },
  { name: 'validation' },
);
