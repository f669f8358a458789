import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

type ErrorLike = Error & { code?: unknown; cause?: unknown; query?: unknown; statusCode?: unknown };

/**
 * Errors are logged without their bound parameters: drizzle puts a failed query's parameters
 * (which may hold a password hash) into its message, so only the SQL text and the driver's
 * code and message are kept.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error) || depth > 3) return { message: String(error) };
  const err = error as ErrorLike;
  const out: Record<string, unknown> = { type: err.name, message: err.message, stack: err.stack };
  if (typeof err.query === 'string') {
    out.message = 'database query failed';
    out.query = err.query;
    out.stack = undefined;
  }
  if (err.code !== undefined) out.code = err.code;
  if (err.statusCode !== undefined) out.statusCode = err.statusCode;
  if (err.cause !== undefined) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.accessToken',
  '*.refreshToken',
  '*.token',
];

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: serializeError as never,
      // Path only: a query string may carry a token.
      req: (request: { method: string; url: string }) => ({ method: request.method, path: request.url.split('?')[0] }),
    },
  };
}
