import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { databaseUnavailable } from '../infrastructure/database-gate/breaker.js';
import { isConcurrencyAbort, isDatabaseUnavailable, pgErrorCode, PG } from '../db/errors.js';
import { AppError, catalogue, problemType, type ErrorCode, type FieldError } from '../shared/errors.js';
import { Problem } from '../shared/schemas.js';
import { setApiHeaders } from './api-headers.js';

/**
 * The one place errors become responses: RFC 9457 problem+json with a stable `code`. Internals
 * (stack traces, SQL, driver messages) reach the log only, never the client.
 */

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const CONTEXT_PREFIX: Record<string, string> = { body: '', querystring: '', params: '', headers: 'header ' };

function fieldErrors(error: FastifyError): FieldError[] {
  const context = error.validationContext ?? 'body';
  const prefix = CONTEXT_PREFIX[context] ?? '';
  return (error.validation as AjvError[]).map((issue) => {
    const path = (issue.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
      return { field: prefix + [...path, issue.params.additionalProperty].join('.'), message: 'is not an accepted member' };
    }
    if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') {
      return { field: prefix + [...path, issue.params.missingProperty].join('.'), message: 'is required' };
    }
    return { field: prefix + (path.join('.') || context), message: issue.message ?? 'is not valid' };
  });
}

/**
 * A 4xx error raised by Fastify itself or one of its plugins (@fastify/static refusing a path,
 * @fastify/multipart limits, …) is the client's mistake: it keeps a 4xx status, under the code
 * that fits it, with a fixed detail (plugin messages may name files).
 */
const FRAMEWORK_4XX: Partial<Record<number, ErrorCode>> = {
  403: 'FORBIDDEN',
  404: 'ROUTE_NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
};

function frameworkClientError(error: FastifyError): AppError | undefined {
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  // A path outside the web app's files (/assets/../x, NUL bytes, …) is simply not there.
  if (error.code === 'FST_STATIC_FORBIDDEN_PATH') return new AppError('ROUTE_NOT_FOUND', 'No such file');
  const code = FRAMEWORK_4XX[status];
  return code ? new AppError(code) : new AppError('VALIDATION_FAILED', 'The request cannot be processed as sent');
}

/** Maps anything thrown to an AppError; unexpected errors become INTERNAL (logged in full). */
export function toAppError(error: unknown, databaseOpen = true): { appError: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const errors = fieldErrors(fastifyError);
    const detail = errors.map((item) => `${item.field} ${item.message}`).join('; ');
    return { appError: new AppError('VALIDATION_FAILED', detail, { errors }), unexpected: false };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { appError: new AppError('MALFORMED_JSON'), unexpected: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { appError: new AppError('MALFORMED_JSON', 'The body is empty but declared as JSON'), unexpected: false };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { appError: new AppError('PAYLOAD_TOO_LARGE'), unexpected: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { appError: new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'), unexpected: false };
  }
  const clientError = frameworkClientError(fastifyError);
  if (clientError) return { appError: clientError, unexpected: false };
  if (isDatabaseUnavailable(error) || !databaseOpen) return { appError: databaseUnavailable('The database does not answer in time'), unexpected: false };
  const code = pgErrorCode(error);
  // A write aborted by a concurrent one that its own retries did not get past: the client's retry will.
  if (isConcurrencyAbort(error)) {
    return { appError: new AppError('CONFLICT', 'A concurrent change got in the way; try again', { retryAfter: 1 }), unexpected: false };
  }
  if (code === PG.INVALID_TEXT_REPRESENTATION) return { appError: new AppError('VALIDATION_FAILED', 'A value has the wrong format'), unexpected: true };
  if (code === PG.CHARACTER_NOT_IN_REPERTOIRE || code === PG.UNTRANSLATABLE_CHARACTER) {
    return { appError: new AppError('VALIDATION_FAILED', 'Text must not contain NUL (U+0000) characters'), unexpected: false };
  }
  return { appError: new AppError('INTERNAL', 'An unexpected error occurred; it has been logged'), unexpected: true };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, appError: AppError): FastifyReply {
  const { errors, conflicts, reason, rule, rows, occurrences, dependents, retryAfter, subject, limit, closure, used, window } = appError.extras;
  if (retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  if (appError.status === 401) {
    const error = appError.code === 'UNAUTHENTICATED' || appError.code === 'INVALID_CREDENTIALS' ? '' : ', error="invalid_token"';
    reply.header('www-authenticate', `Bearer realm="deskbook"${error}`);
  }
  return reply
    .code(appError.status)
    .type('application/problem+json; charset=utf-8')
    .send({
      type: problemType(appError.code),
      title: appError.title,
      status: appError.status,
      detail: appError.message,
      instance: request.url.split('?')[0],
      code: appError.code,
      requestId: request.id,
      ...(errors ? { errors } : {}),
      ...(conflicts ? { conflicts } : {}),
      ...(reason ? { reason } : {}),
      ...(rule ? { rule } : {}),
      ...(rows ? { rows } : {}),
      ...(occurrences ? { occurrences } : {}),
      ...(dependents ? { dependents } : {}),
      ...(subject !== undefined ? { subject } : {}),
      ...(limit ? { limit } : {}),
      ...(closure ? { closure } : {}),
      ...(used !== undefined ? { used } : {}),
      ...(window ? { window } : {}),
    });
}

/** Fastify's own 400 for a URL it cannot decode (serverOptions.frameworkErrors). */
export function badUrlProblem(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook runs for a URL the router cannot decode: the headers they set are set here.
  reply.header('x-request-id', request.id);
  setApiHeaders(request.url, reply);
  sendProblem(request, reply, new AppError('INVALID_ENCODING', 'The URL is malformed (bad percent-encoding, or not UTF-8)'));
}

/**
 * What Node's HTTP parser rejects before any request exists (serverOptions.clientErrorHandler):
 * a request that took longer than HTTP_REQUEST_TIMEOUT to arrive, oversized headers, bytes that
 * are not HTTP. Answered as a problem on the raw socket, which is then closed.
 */
export function clientErrorProblem(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'REQUEST_TIMEOUT' : error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'VALIDATION_FAILED';
  const { status, title } = catalogue[code];
  const detail = code === 'VALIDATION_FAILED' ? 'The request is not valid HTTP' : title;
  const body = JSON.stringify({ type: problemType(code), title, status, detail, instance: '', code, requestId: randomUUID() });
  // Slow and broken clients are routine on the internet: not a failure of the service.
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export default fp(
  async function problemPlugin(app: FastifyInstance, options: { databaseOpen: () => boolean; observe?: (error: unknown) => void }) {
    app.addSchema(Problem);
    app.setErrorHandler((error, request, reply) => {
      options.observe?.(error);
      const { appError, unexpected } = toAppError(error, options.databaseOpen());
      if (unexpected) request.log.error({ err: error }, 'request failed');
      else if (appError.status >= 500) request.log.warn({ code: appError.code, cause: pgErrorCode(error) }, appError.message);
      else if (!(error instanceof AppError)) request.log.debug({ code: appError.code, cause: (error as FastifyError).code }, 'request refused');
      return sendProblem(request, reply, appError);
    });
    app.setNotFoundHandler((request, reply) =>
      sendProblem(request, reply, new AppError('ROUTE_NOT_FOUND', `No operation ${request.method} ${request.url.split('?')[0]}`)),
    );
  },
  { name: 'problem' },
);
