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
  // A framework error may quote the request's URL, and with it a feed token (logPath).
  const out: Record<string, unknown> = { type: err.name, message: redactFeedTokens(err.message), stack: err.stack && redactFeedTokens(err.stack) };
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

/**
 * The path of a request as the log may show it: no query string (it may carry a token), and the
 * calendar feed's secret token replaced (docs/deployment.md#logs-and-secrets). Every log line
 * that names a request's path goes through here.
 */
export function logPath(url: string): string {
  const path = url.split('?')[0]!;
  return redactFeedTokens(path);
}

function redactFeedTokens(text: string): string {
  return text.replace(FEED_TOKEN, '$1[redacted]$3');
}

/** `/api/calendar/<token>.ics`, however it is spelled (repeated slashes, any case, trailing slash). */
const FEED_TOKEN = /(\/api\/+calendar\/+)([^/\s?#"']+?)(\.ics)?(?=[/\s?#"']|$)/gi;

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: serializeError as never,
      // Path only: a query string may carry a token, and the feed's path is one (logPath).
      req: (request: { method: string; url: string }) => ({ method: request.method, path: logPath(request.url) }),
    },
  };
}
