import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, BUSY_MESSAGE, BUSY_RETRY_AFTER, isBusy } from '../domain/errors.ts';

// AppError and BUSY live in domain/errors.ts so the db layer can raise them without depending on http/.
export { AppError, busy, isBusy } from '../domain/errors.ts';


export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const forbidden = () => new AppError(403, 'FORBIDDEN', 'You are not allowed to do this');
export const validation = (field: string, message: string) =>
  new AppError(400, 'VALIDATION', `${field}: ${message}`, field);

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
    if (err instanceof AppError) {
      const retryAfter = (err as AppError & { retryAfter?: number }).retryAfter;
      if (retryAfter) reply.header('Retry-After', String(retryAfter));
      return reply
        .status(err.statusCode)
        .send({ statusCode: err.statusCode, code: err.code, message: err.message, field: err.field });
    }
    if (err.validation) {
      const field = fieldOf(err);
      const first = err.validation[0];
      const better = first?.keyword === 'pattern' ? PATTERN_MESSAGES.get(String(first.params?.pattern)) : undefined;
      const message = better ? `${field}: ${better}` : err.message;
      return reply.status(400).send({ statusCode: 400, code: 'VALIDATION', message, field });
    }
    if (isBusy(err)) {
      // A write outside withTx that did not get its lock in time: the same answer as inside one.
      reply.header('Retry-After', String(BUSY_RETRY_AFTER));
      return reply.status(503).send({ statusCode: 503, code: 'BUSY', message: BUSY_MESSAGE });
    }
    if (isUniqueViolation(err)) {
      // Two requests raced for the same unique value (username, ...): the loser gets a clean 409.
      return reply.status(409).send({ statusCode: 409, code: 'CONFLICT', message: 'This value is already taken' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type...
      const codes: Record<number, string> = { 400: 'VALIDATION', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE', 414: 'URI_TOO_LONG', 415: 'UNSUPPORTED_MEDIA_TYPE' };
      const code = codes[status] ?? 'BAD_REQUEST';
      return reply.status(status).send({ statusCode: status, code, message: err.message, field: status === 400 ? 'body' : undefined });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ statusCode: 500, code: 'INTERNAL', message: 'Internal server error' });
  });
}

export function rateLimited(retryAfter: number): AppError {
  const e = new AppError(429, 'RATE_LIMITED', 'Too many failed attempts, try again later') as AppError & {
    retryAfter?: number;
  };
  e.retryAfter = retryAfter;
  return e;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
