import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from './connection.ts';
import type { DB } from './types.ts';

export type Tx = Kysely<DB> | Transaction<DB>;

/**
 * One write transaction. On SQLite it starts with BEGIN IMMEDIATE so the write lock is taken
 * up front (no upgrade deadlocks between processes); the callback must not await anything
 * outside the database.
 */
export async function withTx<T>(database: Database, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    // A deadlock or serialization failure rolled everything back: running it again is safe.
    for (let attempt = 1; ; attempt++) {
      try {
        return await database.db.transaction().execute((trx) => fn(trx));
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw err;
      }
    }
  }
  return database.db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn);
      throw err;
    }
  });
}
