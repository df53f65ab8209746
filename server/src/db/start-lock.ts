import { sql } from 'kysely';
import type { Database } from './connection.ts';

/** The advisory lock key of the start-up work (any constant; "panel" in ASCII). */
const START_LOCK = 0x70616e656c;

/**
 * Runs `fn` (migrations and the first admin) while holding a PostgreSQL session advisory lock, so
 * hosts started at the same moment on an empty database do it once: the others wait here, then
 * find the work done. The lock is taken on one pooled connection and `fn` may use the others; it
 * is released when `fn` ends, or by PostgreSQL when a holder dies. SQLite: one process per
 * database (config.ts refuses WORKERS there), nothing to wait for.
 */
export async function whileHoldingStartLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.dialect !== 'postgres') return fn();
  return database.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${START_LOCK})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${START_LOCK})`.execute(conn);
    }
  });
}
