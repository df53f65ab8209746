import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { OutboxTable } from '../../db/types.ts';

// The outbox and the sync columns it keeps (p2p_accounts.sync_*, lines.p2p_sync_*): written here only.

export type SubjectKind = OutboxTable['subject_kind'];

export interface Delivery {
  id: number;
  subject_kind: SubjectKind;
  subject_id: number;
  version: number;
  login: string;
  method: 'PUT' | 'DELETE';
  body: string | null;
  attempts: number;
}

/**
 * Counts `n` new changes on the subject and marks it pending (a failing one stays failed until a
 * delivery succeeds); returns its new sync_version.
 */
export async function bumpVersion(db: Tx, kind: SubjectKind, id: number, n: number): Promise<number> {
  if (kind === 'account') {
    const row = await db
      .updateTable('p2p_accounts')
      .set({ sync_version: sql`sync_version + ${n}`, sync_state: sql`case when sync_state = 'failed' then 'failed' else 'pending' end` })
      .where('id', '=', id)
      .returning('sync_version')
      .executeTakeFirstOrThrow();
    return row.sync_version;
  }
  const row = await db
    .updateTable('lines')
    .set({ p2p_sync_version: sql`p2p_sync_version + ${n}`, p2p_sync_state: sql`case when p2p_sync_state = 'failed' then 'failed' else 'pending' end` })
    .where('id', '=', id)
    .returning('p2p_sync_version')
    .executeTakeFirstOrThrow();
  return row.p2p_sync_version;
}

export async function insertDelivery(db: Tx, row: Omit<Delivery, 'id' | 'attempts'> & { created_at: number; next_attempt_at: number }): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/**
 * The deliveries due now that are first in line for their subject (no earlier undelivered row),
 * oldest first. With `skipLocked` (PostgreSQL) the rows are locked FOR UPDATE SKIP LOCKED, so
 * other server processes skip them, and their followers stay behind them.
 */
export function claimDue(db: Tx, nowMs: number, limit: number, skipLocked: boolean): Promise<Delivery[]> {
  let q = db
    .selectFrom('outbox as o')
    .select(['o.id', 'o.subject_kind', 'o.subject_id', 'o.version', 'o.login', 'o.method', 'o.body', 'o.attempts'])
    .where('o.delivered_at', 'is', null)
    .where('o.next_attempt_at', '<=', nowMs)
    // first in line: no earlier undelivered row of its subject (a correlated min over the subject's
    // index, one lookup per row; an anti-join was planned as a scan of the whole queue on fresh stats)
    .where('o.id', '=', ({ selectFrom }) =>
      selectFrom('outbox as e')
        .select(({ fn }) => fn.min('e.id').as('first'))
        .whereRef('e.subject_kind', '=', 'o.subject_kind')
        .whereRef('e.subject_id', '=', 'o.subject_id')
        .where('e.delivered_at', 'is', null),
    )
    .orderBy('o.id')
    .limit(limit);
  if (skipLocked) q = q.forUpdate().skipLocked();
  return q.execute() as Promise<Delivery[]>;
}

/** Done: the subject is synced unless a newer change is already queued. */
export async function markDelivered(db: Tx, d: Delivery, nowMs: number): Promise<void> {
  await db.updateTable('outbox').set({ delivered_at: nowMs, attempts: d.attempts + 1, last_error: null }).where('id', '=', d.id).execute();
  if (d.subject_kind === 'account') {
    await db
      .updateTable('p2p_accounts')
      .set({
        sync_state: sql`case when sync_version = ${d.version} then 'synced' else 'pending' end`,
        sync_error: null,
        synced_at: Math.floor(nowMs / 1000),
      })
      .where('id', '=', d.subject_id)
      .execute();
  } else {
    await db
      .updateTable('lines')
      .set({ p2p_sync_state: sql`case when p2p_sync_version = ${d.version} then 'synced' else 'pending' end`, p2p_sync_error: null })
      .where('id', '=', d.subject_id)
      .execute();
  }
}

/** Failed: tried again at `nextAttemptAt`; the subject shows the error meanwhile. */
export async function markFailed(db: Tx, d: Delivery, nextAttemptAt: number, error: string): Promise<void> {
  const message = error.slice(0, 500);
  await db.updateTable('outbox').set({ attempts: d.attempts + 1, next_attempt_at: nextAttemptAt, last_error: message }).where('id', '=', d.id).execute();
  if (d.subject_kind === 'account') {
    await db.updateTable('p2p_accounts').set({ sync_state: 'failed', sync_error: message }).where('id', '=', d.subject_id).execute();
  } else {
    await db.updateTable('lines').set({ p2p_sync_state: 'failed', p2p_sync_error: message }).where('id', '=', d.subject_id).execute();
  }
}

/** Undelivered rows, split by whether their last attempt failed, and the oldest one's age. */
export async function queueFigures(db: Tx) {
  const row = await db
    .selectFrom('outbox')
    .select([
      sql<number>`sum(case when last_error is null then 1 else 0 end)`.as('pending'),
      sql<number>`sum(case when last_error is null then 0 else 1 end)`.as('failed'),
      sql<number | null>`min(created_at)`.as('oldest'),
    ])
    .where('delivered_at', 'is', null)
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}

/** The last error of the undelivered rows, newest first (what an admin reads next to the counts). */
export function recentErrors(db: Tx, limit: number) {
  return db
    .selectFrom('outbox')
    .select(['id', 'login', 'method', 'attempts', 'last_error', 'next_attempt_at'])
    .where('delivered_at', 'is', null)
    .where('last_error', 'is not', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Forgets delivered rows older than `beforeMs` (a batch at a time). */
export async function pruneDelivered(db: Tx, beforeMs: number, limit = 1000): Promise<number> {
  const old = db.selectFrom('outbox').select('id').where('delivered_at', '<', beforeMs).limit(limit);
  const res = await db.deleteFrom('outbox').where('id', 'in', old).executeTakeFirst();
  return Number(res.numDeletedRows ?? 0);
}
