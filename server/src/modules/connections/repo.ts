import { type ExpressionBuilder, sql } from 'kysely';
import { type LineFilters, filtered } from '../../repos/line-filters-repo.ts';
import { visibleLines } from '../../repos/scope-repo.ts';
import type { Tx } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

/** A connection: one client (IP + user agent) of one line watching one stream. */
export interface ConnectionKey {
  lineId: number;
  streamId: number;
  ip: string;
  userAgent: string;
}

const byKey = (k: ConnectionKey) => (eb: ExpressionBuilder<DB, 'line_activity'>) =>
  eb.and([eb('line_id', '=', k.lineId), eb('stream_id', '=', k.streamId), eb('user_ip', '=', k.ip), eb('user_agent', '=', k.userAgent)]);

export function findConnection(db: Tx, k: ConnectionKey) {
  return db.selectFrom('line_activity').select(['activity_id', 'last_seen', 'ended_at', 'banned_until']).where(byKey(k)).executeTakeFirst();
}

/** Locks these connections' rows in id order (PostgreSQL), so concurrent flushes cannot deadlock. */
export async function lockConnections(db: Tx, activityIds: number[]): Promise<void> {
  await db.selectFrom('line_activity').select('activity_id').where('activity_id', 'in', activityIds).orderBy('activity_id').forUpdate().execute();
}

/** Refreshes connections seen at `now` through one edge (none, if that edge was removed meanwhile). */
export async function touch(db: Tx, activityIds: number[], now: number, serverId: number | null): Promise<void> {
  await db
    .updateTable('line_activity')
    .set((eb) => ({ last_seen: now, server_id: serverId === null ? null : eb.selectFrom('servers').select('id').where('id', '=', serverId) }))
    .where('activity_id', 'in', activityIds)
    .execute();
}

/** Open connections of a line: not ended, seen since `since`. */
export async function countOnline(db: Tx, lineId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('line_activity')
    .select(sql<number>`count(*)`.as('n'))
    .where('line_id', '=', lineId)
    .where('ended_at', 'is', null)
    .where('last_seen', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function oldestOnline(db: Tx, lineId: number, since: number) {
  return db
    .selectFrom('line_activity')
    .select('activity_id')
    .where('line_id', '=', lineId)
    .where('ended_at', 'is', null)
    .where('last_seen', '>', since)
    .orderBy('date_start')
    .orderBy('activity_id')
    .executeTakeFirst();
}

/** Starts a connection: a new row, or the key's old row opened again (after it went stale or its ban ended). */
export async function open(db: Tx, k: ConnectionKey, now: number, serverId: number | null): Promise<void> {
  await db
    .insertInto('line_activity')
    .values({ line_id: k.lineId, stream_id: k.streamId, user_ip: k.ip, user_agent: k.userAgent, server_id: serverId, date_start: now, last_seen: now })
    .onConflict((oc) =>
      oc.columns(['line_id', 'stream_id', 'user_ip', 'user_agent']).doUpdateSet({ date_start: now, last_seen: now, ended_at: null, banned_until: null, address_ban: 0, server_id: serverId }),
    )
    .execute();
}

/** Ends one connection and refuses it until `bannedUntil`; false when it was not open. */
export async function end(db: Tx, activityId: number, now: number, bannedUntil: number): Promise<boolean> {
  const res = await db.updateTable('line_activity').set({ ended_at: now, banned_until: bannedUntil }).where('activity_id', '=', activityId).where('ended_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Is the line refused from this address after a disconnect, on whichever stream and whatever the
 * user agent? A player must not get back in by changing its User-Agent.
 */
export async function addressBanned(db: Tx, lineId: number, ip: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('line_activity')
    .select('activity_id')
    .where('line_id', '=', lineId)
    .where('user_ip', '=', ip)
    .where('address_ban', '=', 1)
    .where('banned_until', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends every open connection of the line from this address and refuses them until `bannedUntil` (a disconnect). */
export async function endAddress(db: Tx, lineId: number, ip: string, now: number, bannedUntil: number): Promise<void> {
  await db.updateTable('line_activity').set({ ended_at: now, banned_until: bannedUntil, address_ban: 1 }).where('line_id', '=', lineId).where('user_ip', '=', ip).where('ended_at', 'is', null).execute();
}

/** Ends the client's open connections to the line's other streams (a player that changed channel), without a ban. */
export async function endClientsOtherStreams(db: Tx, k: ConnectionKey, now: number): Promise<void> {
  await db
    .updateTable('line_activity')
    .set({ ended_at: now })
    .where('line_id', '=', k.lineId)
    .where('user_ip', '=', k.ip)
    .where('user_agent', '=', k.userAgent)
    .where('stream_id', '!=', k.streamId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every open connection of a line (blocked, deleted, moved to P2P). */
export async function endAll(db: Tx, lineId: number, now: number, bannedUntil: number): Promise<void> {
  await db.updateTable('line_activity').set({ ended_at: now, banned_until: bannedUntil }).where('line_id', '=', lineId).where('ended_at', 'is', null).execute();
}

/** Forgets connections not seen since `before` whose ban (if any) is over. */
export async function prune(db: Tx, before: number, now: number): Promise<void> {
  await db
    .deleteFrom('line_activity')
    .where('last_seen', '<', before)
    .where((eb) => eb.or([eb('banned_until', 'is', null), eb('banned_until', '<=', now)]))
    .execute();
}

export interface ConnectionRow {
  activity_id: number;
  id: number;
  username: string;
  is_trial: number;
  created_at: number;
  master_username: string | null;
  stream_id: number | null;
  stream_display_name: string | null;
  server_name: string | null;
  user_ip: string;
  user_agent: string;
  date_start: number;
  last_seen: number;
}

/** The online list: open connections of the caller's lines, with the user list's filters. */
export function pageConnections(
  db: Tx,
  actor: AuthUser,
  f: LineFilters,
  opts: { now: number; since: number; createdAt?: [number, number]; resellerId?: number; hints?: boolean },
  paging: { page?: number; per?: number; order: Order; cursor?: PageCursor },
) {
  // The open connections drive (line_activity_last_seen: the viewers online now); `hints` (SQLite)
  // keeps it off the lines' filter indexes, which would read a broad filter's lines first.
  const base = filtered(db, actor, f, opts.now, { createdAt: opts.createdAt, resellerId: opts.resellerId, walk: opts.hints ? 'a.last_seen' : undefined, scanInOrder: opts.hints })
    .innerJoin('line_activity as a', 'a.line_id', 'ln.id')
    .where('a.ended_at', 'is', null)
    .where('a.last_seen', '>', opts.since);
  return paginate<ConnectionRow>(
    base,
    (q) =>
      (q as typeof base)
        .leftJoin('resellers as o', 'o.id', 'ln.member_id')
        .leftJoin('streams as s', 's.id', 'a.stream_id')
        .leftJoin('servers as sv', 'sv.id', 'a.server_id')
        .select([
          'a.activity_id',
          'ln.id',
          'ln.username',
          'ln.is_trial',
          'ln.created_at',
          'o.username as master_username',
          'a.stream_id',
          's.name as stream_display_name',
          'sv.name as server_name',
          'a.user_ip',
          'a.user_agent',
          'a.date_start',
          'a.last_seen',
        ]) as never,
    { ...paging, db, tiebreak: 'a.activity_id' },
  );
}

/** One open connection of a line, if the line is the caller's to reach. */
export function findVisibleConnection(db: Tx, actor: AuthUser, lineId: number, activityId: number, since: number) {
  return visibleLines(db, actor)
    .innerJoin('line_activity as a', 'a.line_id', 'ln.id')
    .select(['a.activity_id', 'a.user_ip', 'ln.id as line_id', 'ln.username', 'ln.member_id'])
    .where('ln.id', '=', lineId)
    .where('a.activity_id', '=', activityId)
    .where('a.ended_at', 'is', null)
    .where('a.last_seen', '>', since)
    .executeTakeFirst();
}
