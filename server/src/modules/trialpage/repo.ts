import { sql } from 'kysely';
import type { Dialect } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import type { TrialRequestStatus } from '../../db/types.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

// The trial pages' settings and the trials asked for on them (040_trial_pages). The limits are
// counted here, in SQL, through the trial_requests indexes; nothing loads the table.

export interface PageRow {
  reseller_id: number;
  enabled: number;
  slug: string | null;
  package_id: number | null;
  per_day: number;
  message: string | null;
  updated_at: number;
}

export const pageOf = (db: Tx, resellerId: number): Promise<PageRow | undefined> => db.selectFrom('trial_pages').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

export const pageBySlug = (db: Tx, slug: string): Promise<PageRow | undefined> => db.selectFrom('trial_pages').selectAll().where('slug', '=', slug).executeTakeFirst();

export async function savePage(db: Tx, row: PageRow): Promise<void> {
  const { reseller_id, ...rest } = row;
  await db
    .insertInto('trial_pages')
    .values(row)
    .onConflict((oc) => oc.column('reseller_id').doUpdateSet(rest))
    .execute();
}

/** The page's owner as the actor of its trials (the lines module's AuthUser), with what the public page shows of it. */
export async function owner(db: Tx, resellerId: number): Promise<(AuthUser & { whatsapp: string | null; active: boolean }) | undefined> {
  const row = await db
    .selectFrom('resellers as r')
    .innerJoin('groups as g', 'g.group_id', 'r.member_group_id')
    .select(['r.id', 'r.username', 'r.credits', 'r.whatsapp', 'r.status', 'g.type'])
    .where('r.id', '=', resellerId)
    .where('r.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, username: row.username, credits: row.credits, type: row.type as AuthUser['type'], sessionId: 0, twoFactorEnabled: false, whatsapp: row.whatsapp, active: row.status === 1 };
}

/**
 * On PostgreSQL, holds a transaction lock on one client address, so two requests from it to two
 * pages cannot both pass its limit (SQLite's writers are serialised already).
 */
export async function lockAddress(trx: Tx, dialect: Dialect, ip: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`trial-ip:${ip}`}))`.execute(trx);
}

/** Requests that count for the limits: a trial being sent or sent (a failed one created nothing). */
const COUNTED: TrialRequestStatus[] = ['sending', 'sent'];

/** Has this number had a trial from this account after `since`? */
export async function numberUsedSince(db: Tx, resellerId: number, whatsapp: string, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('trial_requests')
    .select('id')
    .where('reseller_id', '=', resellerId)
    .where('whatsapp', '=', whatsapp)
    .where('created_at', '>', since)
    .where('status', 'in', COUNTED)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * How many counted trials after `since` (by one address, or of one account), and when the one that
 * must leave the window for a new trial to fit under `limit` was made: the oldest `count - limit + 1`th.
 */
export async function windowOf(db: Tx, by: { ip: string } | { resellerId: number }, since: number, limit: number): Promise<{ count: number; freeAt?: number }> {
  let q = db.selectFrom('trial_requests').where('created_at', '>', since).where('status', 'in', COUNTED);
  q = 'ip' in by ? q.where('ip', '=', by.ip) : q.where('reseller_id', '=', by.resellerId);
  const counted = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const count = Number(counted?.n ?? 0);
  if (count < limit) return { count };
  const edge = await q
    .select('created_at')
    .orderBy('created_at', 'asc')
    .limit(1)
    .offset(count - limit)
    .executeTakeFirst();
  return { count, freeAt: edge ? Number(edge.created_at) : undefined };
}

export async function insertRequest(db: Tx, row: { reseller_id: number; whatsapp: string; ip: string; line_id: number; created_at: number }): Promise<number> {
  const inserted = await db
    .insertInto('trial_requests')
    .values({ ...row, status: 'sending', error: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function finishRequest(db: Tx, id: number, status: 'sent' | 'failed', error: string | null): Promise<void> {
  await db
    .updateTable('trial_requests')
    .set({ status, error: error?.slice(0, 300) ?? null })
    .where('id', '=', id)
    .execute();
}
