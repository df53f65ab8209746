import type { Tx } from '../../db/tx.ts';
import type { NewLog } from '../../db/types.ts';

/** Writes one action-log row; callers pass their transaction so the row lands with the change. */
export async function writeLog(db: Tx, row: Omit<NewLog, 'created_at'>): Promise<void> {
  await db
    .insertInto('logs')
    .values({ ...row, created_at: Date.now() })
    .execute();
}
