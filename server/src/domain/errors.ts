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

export const BUSY_RETRY_AFTER = 1;
export const BUSY_MESSAGE = 'The database is busy; nothing was changed, try again';

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
