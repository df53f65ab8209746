import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { resellerIdByUsername } from '../../repos/scope-repo.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { queueStatus } from './outbox.ts';
import * as client from './p2p-client.ts';
import * as repo from './repo.ts';

const DEFAULT_ORDER: Order = { column: 'pa.id', direction: 'desc' };

export async function list(deps: Deps, actor: AuthUser, q: repo.P2pFilters & { page?: number; per?: number; order_by?: string; after?: string; before?: string }) {
  const db = deps.database.db;
  const order = parseOrder(q.order_by, repo.ORDER_FIELDS, DEFAULT_ORDER);
  // The owner filter only resolves inside the caller's subtree; anything else matches nothing.
  const resellerId = q.reseller ? ((await resellerIdByUsername(db, q.reseller)) ?? -1) : undefined;
  return repo.pageAccounts(db, repo.filtered(db, actor, q, nowSec(), resellerId), { page: q.page, per: q.per, order, cursor: cursorOf(q) });
}

export async function get({ database }: Deps, actor: AuthUser, id: number) {
  const row = await repo.findVisible(database.db, actor, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'P2P user' } });
  return row;
}

export async function selectSearch({ database }: Deps, actor: AuthUser, search: string) {
  const rows = await repo.searchVisible(database.db, actor, search);
  return { data: rows.map((r) => ({ label: r.email, value: String(r.id) })) };
}

// The P2P server's online list is read at most every 10 s per process, shared by concurrent callers.
const ONLINE_CACHE_MS = 10_000;
let onlineCache: { url: string; at: number; rows: Promise<client.OnlineRow[]> } | undefined;

function onlineRows(deps: Deps): Promise<client.OnlineRow[]> {
  const url = deps.config.p2pApiUrl ?? '';
  if (onlineCache && onlineCache.url === url && nowMs() - onlineCache.at < ONLINE_CACHE_MS) return onlineCache.rows;
  const rows = client.online(deps.config);
  const entry = { url, at: nowMs(), rows };
  onlineCache = entry;
  rows.catch(() => {
    if (onlineCache === entry) onlineCache = undefined; // a failure is not kept
  });
  return rows;
}

/** Who is watching now, among the caller's accounts and P2P lines (admins: everyone). */
export async function online(deps: Deps, actor: AuthUser) {
  const rows = await onlineRows(deps);
  if (actor.type === 'admin') return { data: rows };
  const visible = await repo.visibleLogins(deps.database.db, actor, rows.map((r) => r.username));
  return { data: rows.filter((r) => visible.has(r.username) || visible.has(r.username.toLowerCase())) };
}

/** For admins: the deliveries waiting for the P2P server. */
export async function outboxStatus(deps: Deps) {
  return { configured: deps.config.p2pApiUrl !== undefined, ...(await queueStatus(deps.database.db)) };
}
