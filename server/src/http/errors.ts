import type { FastifyError, FastifyInstance } from 'fastify';

/** A domain error: the web app translates `code`; `message` is the English fallback. */
export class AppError extends Error {
  constructor(
    public statusCode: number,
    public code: string,
    message: string,
    public field?: string,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const forbidden = () => new AppError(403, 'FORBIDDEN', 'You are not allowed to do this');
export const validation = (field: string, message: string) =>
  new AppError(400, 'VALIDATION', `${field}: ${message}`, field);

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
      return reply.status(400).send({ statusCode: 400, code: 'VALIDATION', message: err.message, field });
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

const BUSY_RETRY_AFTER = 1;
const BUSY_MESSAGE = 'The database is busy; nothing was changed, try again';

/** 503 BUSY: a lock was not granted in time (db/tx.ts) and nothing was changed; the client may retry. */
export function busy(): AppError {
  const e = new AppError(503, 'BUSY', BUSY_MESSAGE) as AppError & { retryAfter?: number };
  e.retryAfter = BUSY_RETRY_AFTER;
  return e;
}

/** A lock not granted in time: PostgreSQL's lock_timeout (55P03), SQLite's busy timeout. */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '55P03' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'));
}
