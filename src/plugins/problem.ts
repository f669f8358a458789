import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable, pgErrorCode, PG } from '../db/errors.js';
import { AppError, problemType, type FieldError } from '../shared/errors.js';
import { Problem } from '../shared/schemas.js';

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
    const path = (issue.instancePath ?? '').split('/').filter(Boolean).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (issue.keyword === 'additionalProperties' && typeof issue.params?.additionalProperty === 'string') {
      return { field: prefix + [...path, issue.params.additionalProperty].join('.'), message: 'is not an accepted member' };
    }
    if (issue.keyword === 'required' && typeof issue.params?.missingProperty === 'string') {
      return { field: prefix + [...path, issue.params.missingProperty].join('.'), message: 'is required' };
    }
    return { field: prefix + (path.join('.') || context), message: issue.message ?? 'is not valid' };
  });
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
  if (isDatabaseUnavailable(error) || !databaseOpen) return { appError: new AppError('SERVICE_UNAVAILABLE', 'The database does not answer in time'), unexpected: true };
  const code = pgErrorCode(error);
  if (code === PG.INVALID_TEXT_REPRESENTATION) return { appError: new AppError('VALIDATION_FAILED', 'A value has the wrong format'), unexpected: true };
  if (code === PG.CHARACTER_NOT_IN_REPERTOIRE || code === PG.UNTRANSLATABLE_CHARACTER) {
    return { appError: new AppError('VALIDATION_FAILED', 'Text must not contain NUL (U+0000) characters'), unexpected: false };
  }
  if (fastifyError.statusCode === 413) return { appError: new AppError('PAYLOAD_TOO_LARGE'), unexpected: false };
  if (fastifyError.statusCode === 415) return { appError: new AppError('UNSUPPORTED_MEDIA_TYPE'), unexpected: false };
  return { appError: new AppError('INTERNAL', 'An unexpected error occurred; it has been logged'), unexpected: true };
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, appError: AppError): FastifyReply {
  const { errors, conflicts, dependents, retryAfter } = appError.extras;
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
      ...(dependents ? { dependents } : {}),
    });
}

/** Fastify's own 400 for a URL it cannot decode (serverOptions.frameworkErrors). */
export function badUrlProblem(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  sendProblem(request, reply, new AppError('VALIDATION_FAILED', 'The URL is malformed (bad percent-encoding)'));
}

export default fp(
  async function problemPlugin(app: FastifyInstance, options: { databaseOpen: () => boolean }) {
    app.addSchema(Problem);
    app.setErrorHandler((error, request, reply) => {
      const { appError, unexpected } = toAppError(error, options.databaseOpen());
      if (unexpected) request.log.error({ err: error }, 'request failed');
      else if (appError.status >= 500) request.log.warn({ code: appError.code }, appError.message);
      return sendProblem(request, reply, appError);
    });
    app.setNotFoundHandler((request, reply) => sendProblem(request, reply, new AppError('ROUTE_NOT_FOUND', `No operation ${request.method} ${request.url.split('?')[0]}`)));
  },
  { name: 'problem' },
);
