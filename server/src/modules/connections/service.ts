import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { type ListQuery, lockLineRow, resolveFilters } from '../lines/service.ts';
import { writeLog } from '../logs/service.ts';
import { allSettings } from '../settings/service.ts';
import * as repo from './repo.ts';

/** The online list's sorts (public name -> column); its `order_by` schema is built from the keys. */
export const ORDER_FIELDS = { activity_id: 'a.activity_id', username: 'ln.username', date_start: 'a.date_start', master_username: 'o.username', created_at: 'ln.created_at' };
const DEFAULT_ORDER: Order = { column: 'a.activity_id', direction: 'desc' };
/** An open connection's last_seen is refreshed at most this often (its other requests only read)... */
const SEEN_RESOLUTION = 10;
/** ... and written behind, all refreshes of this long in one transaction (one commit, not one per request). */
const FLUSH_MS = 5000;
const PRUNE_CHANCE = 0.01;
const PRUNE_AFTER_SECONDS = 86_400;

/** The online list (docs/integrations.md, "Edges"): open connections of the caller's lines, with the user list's filters. */
export async function list(deps: Deps, actor: AuthUser, q: Omit<ListQuery, 'id' | 'text_search'>) {
  const order = parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER);
  const { createdAt, resellerId } = await resolveFilters(deps, actor, q);
  const now = nowSec();
  const since = now - deps.config.onlineWindowSeconds;
  const res = await repo.pageConnections(deps.database.db, actor, q, { now, since, createdAt, resellerId, hints: deps.database.dialect === 'sqlite' }, { page: q.page, per: q.per, order, cursor: cursorOf(q) });
  return {
    ...res,
    data: res.data.map((r) => ({ ...r, user_id: r.id, watching: r.stream_display_name, server_time: now, elapsed: Math.max(0, now - Number(r.date_start)) })),
  };
}

/**
 * Ends a connection of a line the caller reaches (logged): the line is refused from that address,
 * whatever the user agent, for DISCONNECT_BAN_SECONDS, and its other connections from there end too.
 */
export async function disconnect(deps: Deps, actor: AuthUser, lineId: number, activityId: number) {
  const now = nowSec();
  return withTx(deps.database, async (trx) => {
    const found = await repo.findVisibleConnection(trx, actor, lineId, activityId, now - deps.config.onlineWindowSeconds);
    if (!found) throw appError('NOT_FOUND', { params: { what: 'Connection' } });
    await repo.endAddress(trx, lineId, found.user_ip, now, now + deps.config.disconnectBanSeconds);
    await writeLog(trx, { type_log: 'user', action: 'user_disconnect', actor_id: actor.id, reseller_id: found.member_id, target_user: found.username, value_int: activityId });
    return { message: 'user disconnected successfully' };
  });
}

export interface Admission {
  lineId: number;
  maxConnections: number;
  streamId: number;
  ip: string;
  userAgent: string;
  serverId: number | null;
}

export type AdmissionResult = 'allowed' | 'disconnected' | 'limit';

/**
 * Where a player stands on the line: its connection `open` (not ended, seen within the screen
 * hold), `banned` (its connection, or the line from its address, disconnected and the ban not
 * over), or `new`.
 */
async function standing(db: Tx, key: repo.ConnectionKey, now: number, since: number) {
  const row = await repo.findConnection(db, key);
  if (row && row.ended_at === null && row.last_seen > since) return { is: 'open', row } as const;
  if ((row?.banned_until ?? 0) > now || (await repo.addressBanned(db, key.lineId, key.ip, now))) return { is: 'banned' } as const;
  return { is: 'new' } as const;
}

/**
 * Admits one edge request (docs/integrations.md, "Edges"). An open connection only refreshes its row
 * (at most every SEEN_RESOLUTION s). A player disconnected from the panel is refused on every stream
 * of the line until its ban ends. A new connection first ends the same player's connection to another
 * of the line's streams (a change of channel), then is counted against max_connections in a
 * transaction that holds the line (BEGIN IMMEDIATE on SQLite, the line's row lock on PostgreSQL),
 * so two new connections cannot both take the last screen.
 */
export async function admit(deps: Deps, a: Admission): Promise<AdmissionResult> {
  const { config, database } = deps;
  const now = nowSec();
  // a screen is held while its player asks within the hold, shorter than the online window so that a
  // customer switching devices waits less than a minute (docs/integrations.md, "Edges")
  const since = now - config.screenHoldSeconds;
  const key = { lineId: a.lineId, streamId: a.streamId, ip: a.ip, userAgent: a.userAgent };

  // Read first without a transaction: nearly every request is a segment of an open connection, and
  // a transaction would make each a commit (BEGIN IMMEDIATE and an fsync on SQLite; see seenLater).
  const first = await standing(database.db, key, now, since);
  if (first.is === 'open' && keptOpen(deps, first.row, a.serverId)) return 'allowed';
  if (first.is === 'banned') return 'disconnected';

  const result = await withTx(database, async (trx): Promise<AdmissionResult> => {
    await lockLineRow(trx, database.dialect, a.lineId);
    // read again under the line's lock: another request may have opened, ended or banned it since
    const current = await standing(trx, key, now, since);
    if (current.is === 'banned') return 'disconnected';
    if (current.is === 'new') {
      // the same player (address and user agent) on another of the line's streams changed channel
      await repo.endClientsOtherStreams(trx, key, now);
      if ((await repo.countOnline(trx, a.lineId, since)) >= a.maxConnections) {
        if ((await allSettings(trx)).max_connections_policy !== 'drop_oldest') return 'limit';
        const oldest = await repo.oldestOnline(trx, a.lineId, since);
        if (oldest) await repo.end(trx, oldest.activity_id, now, now + config.disconnectBanSeconds);
      }
    }
    await repo.open(trx, key, now, a.serverId);
    return 'allowed';
  });
  if (Math.random() < PRUNE_CHANCE) await repo.prune(database.db, now - PRUNE_AFTER_SECONDS, now);
  return result;
}

/**
 * True when this connection row holds its screen (not ended, seen within the hold); its refresh is
 * then written behind (at most every SEEN_RESOLUTION s). The edge's common question ends here.
 */
export function keptOpen(deps: Deps, row: { activity_id: number; last_seen: number; ended_at: number | null }, serverId: number | null): boolean {
  const now = nowSec();
  if (row.ended_at !== null || row.last_seen <= now - deps.config.screenHoldSeconds) return false;
  if (now - row.last_seen >= SEEN_RESOLUTION) seenLater(deps, row.activity_id, now, serverId);
  return true;
}

interface Seen {
  at: number;
  serverId: number | null;
}

/** Refreshes waiting to be written, per database: activity id -> when and through which edge. */
const pendingSeen = new WeakMap<Deps['database'], Map<number, Seen>>();

/**
 * Every allowed segment of an open connection would otherwise be a commit (an fsync on SQLite,
 * where the driver is synchronous: every other request waits for it). A refresh lost with the
 * process only makes its connection look idle sooner; ONLINE_WINDOW_SECONDS is far longer.
 */
function seenLater(deps: Deps, activityId: number, at: number, serverId: number | null): void {
  let pending = pendingSeen.get(deps.database);
  if (!pending) {
    pending = new Map();
    pendingSeen.set(deps.database, pending);
  }
  const first = pending.size === 0;
  pending.set(activityId, { at, serverId });
  if (first) setTimeout(() => void flushSeen(deps).catch(() => {}), FLUSH_MS).unref();
}

/** Writes the waiting refreshes now (also called by tests). */
export async function flushSeen(deps: Deps): Promise<void> {
  const pending = pendingSeen.get(deps.database);
  if (!pending?.size) return;
  // one statement per second and edge seen (a handful), not one per connection: a flush's row
  // locks are held for milliseconds, so a write waiting on one of those rows is not kept waiting
  const groups = new Map<string, { at: number; serverId: number | null; ids: number[] }>();
  for (const [id, seen] of pending) {
    const key = `${seen.at}|${seen.serverId}`;
    const group = groups.get(key) ?? { at: seen.at, serverId: seen.serverId, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  pending.clear();
  const ids = [...groups.values()].flatMap((g) => g.ids).sort((a, b) => a - b);
  await withTx(deps.database, async (trx) => {
    if (deps.database.dialect === 'postgres') for (let i = 0; i < ids.length; i += 500) await repo.lockConnections(trx, ids.slice(i, i + 500));
    for (const g of groups.values()) {
      for (let i = 0; i < g.ids.length; i += 500) await repo.touch(trx, g.ids.slice(i, i + 500), g.at, g.serverId);
    }
  });
}

/** Open connections of one line (the player API's active_cons). */
export const onlineCount = ({ config, database }: Deps, lineId: number) => repo.countOnline(database.db, lineId, nowSec() - config.onlineWindowSeconds);
export { endLineConnections } from './end.ts';
