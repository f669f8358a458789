import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';

const base: Options = { useDefaults: true, removeAdditional: false, allErrors: false, addUsedSchema: false };

function ajv(options: Options) {
  const instance = new Ajv({ ...base, ...options });
  addFormats.default(instance);
  return instance;
}

/**
 * Query strings, path parameters and headers arrive as text and are coerced to the declared
 * types; JSON bodies are not: a number where a string belongs is a 400, as are unknown members
 * (Fastify's default would coerce bodies and silently drop unknown members).
 */
export default fp(
  async function validationPlugin(app: FastifyInstance) {
    const coercing = ajv({ coerceTypes: 'array' });
    const strict = ajv({ coerceTypes: false });
    app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object));
  },
  { name: 'validation' },
);
