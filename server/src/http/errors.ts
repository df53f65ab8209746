import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, appError, busy, type ErrorCode, type FieldLimits, type FieldReason, isBusy, isDatabaseUnreachable } from '../domain/errors.ts';

// AppError, appError and BUSY live in domain/ so the db layer can raise them without depending on http/.
export { AppError, appError, busy, isBusy } from '../domain/errors.ts';

/**
 * 400 VALIDATION naming the input at fault: `<field>: <problem>` in English, and the kind of problem
 * as `reason` (with its bound in `limits`) for clients that word it themselves.
 */
export const validation = (field: string, problem: string, reason: FieldReason = 'INVALID', limits?: FieldLimits) =>
  appError('VALIDATION', { field, reason, limits, params: { message: `${field}: ${problem}` } });

type SchemaFailure = { keyword?: string; params?: Record<string, unknown> };

/** The reason (and bound) of a schema failure: ajv's keyword and its limit. */
export function schemaReason(failure: SchemaFailure | undefined): { reason: FieldReason; limits?: FieldLimits } {
  const limit = Number(failure?.params?.limit);
  switch (failure?.keyword) {
    case 'required':
      return { reason: 'REQUIRED' };
    case 'minLength':
    case 'minItems':
      return limit <= 1 ? { reason: 'REQUIRED' } : { reason: failure.keyword === 'minLength' ? 'TOO_SHORT' : 'INVALID', limits: { min: limit } };
    case 'maxLength':
      return { reason: 'TOO_LONG', limits: { max: limit } };
    case 'maxItems':
      return { reason: 'TOO_MANY', limits: { max: limit } };
    case 'minimum':
    case 'exclusiveMinimum':
      return { reason: 'OUT_OF_RANGE', limits: { min: limit } };
    case 'maximum':
    case 'exclusiveMaximum':
      return { reason: 'OUT_OF_RANGE', limits: { max: limit } };
    case 'format': {
      const format = String(failure.params?.format);
      return { reason: format === 'email' ? 'NOT_EMAIL' : format.startsWith('ur') ? 'NOT_URL' : 'INVALID' };
    }
    default:
      return { reason: 'INVALID' };
  }
}

/**
 * What a refusal by one of these schema patterns says instead of "must match pattern ...": an
 * `order_by` outside a list's sorts names them (http/paging.ts, `orderBy`).
 */
export const PATTERN_MESSAGES = new Map<string, string>();

function fieldOf(err: FastifyError): string | undefined {
  const first = err.validation?.[0] as { instancePath?: string; params?: { missingProperty?: string } } | undefined;
  if (!first) return undefined;
  const path = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = first.params?.missingProperty;
  return [path, missing].filter(Boolean).join('.') || err.validationContext;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return sendError(reply, err);
    if (err.validation) {
      const field = fieldOf(err);
      const first = err.validation[0];
      const better = first?.keyword === 'pattern' ? PATTERN_MESSAGES.get(String(first.params?.pattern)) : undefined;
      const message = better ? `${field}: ${better}` : err.message;
      return sendError(reply, appError('VALIDATION', { field, ...schemaReason(first), params: { message } }));
    }
    if (isBusy(err)) {
      // A write outside withTx that did not get its lock in time: the same answer as inside one.
      return sendError(reply, busy());
    }
    if (isDatabaseUnreachable(err)) {
      // This process lost its database (db/connection.ts): a load balancer sends the request to
      // another host (504 is this answer only), and /readyz answers 503 until it is back.
      request.log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database unreachable');
      return sendError(reply, appError('DATABASE_UNAVAILABLE', { retryAfter: 5 }));
    }
    if (isUniqueViolation(err)) {
      // Two requests raced for the same unique value (username, ...): the loser gets a clean 409.
      return sendError(reply, appError('CONFLICT'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, body too large, wrong content type...): its
      // status and text as they are; BAD_REQUEST covers a 4xx without a code of its own.
      const codes: Record<number, ErrorCode> = { 400: 'VALIDATION', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE', 414: 'URI_TOO_LONG', 415: 'UNSUPPORTED_MEDIA_TYPE' };
      const code = codes[status] ?? 'BAD_REQUEST';
      return reply.status(status).send({ statusCode: status, code, message: err.message, field: status === 400 ? 'body' : undefined });
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, appError('INTERNAL'));
  });
}

/** The one shape of an error answer: `{statusCode, code, message, field?, reason?, limits?}`, and Retry-After when the error has one. */
export function sendError(reply: FastifyReply, err: AppError) {
  if (err.retryAfter) reply.header('Retry-After', String(err.retryAfter));
  return reply.status(err.statusCode).send({ statusCode: err.statusCode, code: err.code, message: err.message, field: err.field, reason: err.reason, limits: err.limits });
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
