import { ERROR_CODES, type ErrorCode, type FieldLimits, type FieldReason } from './error-codes.ts';

export type { ErrorCode, FieldLimits, FieldReason } from './error-codes.ts';

/** A domain error: the web app translates `code`; `message` is the English fallback. Raise it with appError. */
export class AppError extends Error {
  constructor(
    public statusCode: number,
    public code: ErrorCode,
    message: string,
    public field?: string,
    /** seconds, sent as Retry-After */
    public retryAfter?: number,
    /** VALIDATION: the kind of problem with `field` (FIELD_REASONS), and its bound */
    public reason?: FieldReason,
    public limits?: FieldLimits,
  ) {
    super(message);
  }
}

type Entry<C extends ErrorCode> = (typeof ERROR_CODES)[C];
type ParamsOf<C extends ErrorCode> = Entry<C>['message'] extends (params: infer P, field?: string) => string ? P : undefined;
/** No params to pass: a fixed message, or one whose params are all optional. */
type NoParams<C extends ErrorCode> = ParamsOf<C> extends undefined ? true : Partial<ParamsOf<C>> extends ParamsOf<C> ? true : false;
type StatusOf<C extends ErrorCode> = Entry<C>['status'] extends readonly (infer S)[] ? S : never;

export type AppErrorOptions<C extends ErrorCode> = {
  /** the input at fault, when the catalogue has none for this code or it is another one */
  field?: string;
  /** one of the code's other statuses (a list in the catalogue) */
  status?: StatusOf<C>;
  retryAfter?: number;
  /** VALIDATION: the kind of problem with `field`, and its bound when it has one */
  reason?: FieldReason;
  limits?: FieldLimits;
} & (NoParams<C> extends true ? { params?: ParamsOf<C> } : { params: ParamsOf<C> });

/** The error of a catalogue code (domain/error-codes.ts); `params` when its message names values. */
export function appError<C extends ErrorCode>(
  code: C,
  ...[options]: NoParams<C> extends true ? [AppErrorOptions<C>?] : [AppErrorOptions<C>]
): AppError {
  const entry: { status: number | readonly number[]; message: string | ((params: never, field?: string) => string); field?: string } = ERROR_CODES[code];
  const field = options?.field ?? entry.field;
  const message = typeof entry.message === 'string' ? entry.message : entry.message((options?.params ?? {}) as never, field);
  const status = options?.status ?? (typeof entry.status === 'number' ? entry.status : entry.status[0]);
  return new AppError(status as number, code, message, field, options?.retryAfter, options?.reason, options?.limits);
}

export const BUSY_RETRY_AFTER = 1;

/** 503 BUSY: a lock was not granted in time (db/tx.ts) and nothing was changed; the client may retry. */
export const busy = (): AppError => appError('BUSY', { retryAfter: BUSY_RETRY_AFTER });

/** Errors of the database connection itself (db/connection.ts marks them), not of a statement. */
const unreachable = new WeakSet<object>();

/**
 * Marks `err` as the database being out of reach (connecting failed, the connection broke, the
 * server is shutting down): the request answers 504 DATABASE_UNAVAILABLE, which a load balancer
 * retries on another host (docs/nginx-panel-lb.conf). Returns `err`.
 */
export function markDatabaseUnreachable<E>(err: E): E {
  if (err && typeof err === 'object') unreachable.add(err);
  return err;
}

export function isDatabaseUnreachable(err: unknown): boolean {
  return !!err && typeof err === 'object' && unreachable.has(err);
}

/** A lock not granted in time: PostgreSQL's lock_timeout (55P03), SQLite's busy timeout. */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '55P03' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'));
}
