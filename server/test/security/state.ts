import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';

// What an attack could change, row by row, each row tagged with the reseller it belongs to
// ('global' for admin-managed tables). Sessions, logs, rate-limit counters, idempotency records
// and caches are left out: reading and being refused may touch those.

export type Owner = number | 'global';
export type Snapshot = Map<string, { owner: Owner; value: string }>;

/** Tables read below, and tables that reading, signing in or being refused may write. */
const HANDLED = ['resellers', 'lines', 'p2p_accounts', 'outbox', 'credit_ledger', 'reseller_tree', 'reseller_domains', 'short_links', 'news', 'packages', 'bouquets', 'settings', 'categories', 'streams', 'bouquet_items', 'servers'];
const VOLATILE = ['sessions', 'logs', 'login_attempts', 'login_throttle', 'idempotency_keys', 'dashboard_cache', 'known_devices', 'two_factor_challenges', 'line_activity'];
const extraTables = new WeakMap<object, Promise<string[]>>();

/** Other tables with a reseller_id column (added by later features, e.g. two-factor secrets): owned per reseller. */
function perResellerTables(db: Kysely<DB>): Promise<string[]> {
  let found = extraTables.get(db);
  if (!found) {
    found = db.introspection.getTables().then((tables) =>
      tables
        .filter((t) => !HANDLED.includes(t.name) && !VOLATILE.includes(t.name) && !t.name.startsWith('kysely_'))
        .filter((t) => t.columns.some((c) => c.name === 'reseller_id'))
        .map((t) => t.name),
    );
    extraTables.set(db, found);
  }
  return found;
}

/**
 * Every row an attack could change. The reads go out together (on PostgreSQL they run side by side
 * on the pool; the matrix takes two snapshots per request, so this is most of its time); the rows
 * are then put in one fixed order.
 */
export async function snapshot(db: Kysely<DB>): Promise<Snapshot> {
  const untyped = db as unknown as Kysely<Record<string, { reseller_id: number }>>;
  const extra = await perResellerTables(db);
  const [extraRows, resellers, lines, accounts, outbox, ledger, tree, domains, links, news, packages, bouquets, settings, categories, streams, items, servers, webhooks, keys] = await Promise.all([
    Promise.all(extra.map((table) => untyped.selectFrom(table).selectAll().execute())),
    db.selectFrom('resellers').select(['id', 'username', 'password_hash', 'email', 'whatsapp', 'telegram', 'notes', 'member_group_id', 'owner_id', 'credits', 'status', 'deleted_at']).execute(),
    db.selectFrom('lines').selectAll().execute(),
    db.selectFrom('p2p_accounts').selectAll().execute(),
    db.selectFrom('outbox').selectAll().execute(),
    db
      .selectFrom('credit_ledger')
      .select(['reseller_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('delta').as('sum')])
      .groupBy('reseller_id')
      .execute(),
    db.selectFrom('reseller_tree').selectAll().execute(),
    db.selectFrom('reseller_domains').selectAll().execute(),
    db.selectFrom('short_links').selectAll().execute(),
    db.selectFrom('news').selectAll().execute(),
    db.selectFrom('packages').selectAll().execute(),
    db.selectFrom('bouquets').selectAll().execute(),
    db.selectFrom('settings').selectAll().execute(),
    db.selectFrom('categories').selectAll().execute(),
    db.selectFrom('streams').selectAll().execute(),
    db.selectFrom('bouquet_items').selectAll().execute(),
    db.selectFrom('servers').selectAll().execute(),
    db.selectFrom('webhook_endpoints').select(['id', 'reseller_id', 'url', 'events', 'include_credentials', 'credits_low_threshold', 'deleted_at']).execute(),
    // an API key's last use moves with every call through it: not a change
    db.selectFrom('api_keys').select(['id', 'reseller_id', 'name', 'scopes', 'allowed_ips', 'key_hash', 'expires_at', 'revoked_at']).execute(),
  ]);

  const out: Snapshot = new Map();
  extra.forEach((table, i) => {
    for (const row of extraRows[i] ?? []) {
      // an API key's own use record (written at most every 10 s, on any request it signs, refused
      // or not) is the caller's bookkeeping, not a change to anyone's data
      if (table === 'api_keys') {
        delete (row as Record<string, unknown>).last_used_at;
        delete (row as Record<string, unknown>).last_used_ip;
      }
      const text = JSON.stringify(row);
      out.set(`${table}:${text}`, { owner: Number(row.reseller_id), value: text });
    }
  });
  const put = (key: string, owner: Owner, value: unknown) => out.set(key, { owner, value: JSON.stringify(value) });
  for (const r of resellers) put(`reseller:${r.id}`, r.id, r);
  const lineOwner = new Map<number, number>();
  for (const l of lines) {
    lineOwner.set(l.id, l.member_id);
    put(`line:${l.id}`, l.member_id, l);
  }
  const accountOwner = new Map<number, number>();
  for (const a of accounts) {
    accountOwner.set(a.id, a.member_id);
    put(`p2p:${a.id}`, a.member_id, a);
  }
  // deliveries to the P2P server belong to the owner of their account or line
  for (const o of outbox) {
    const owner = (o.subject_kind === 'account' ? accountOwner : lineOwner).get(o.subject_id);
    put(`outbox:${o.id}`, owner ?? 'global', o);
  }
  for (const l of ledger) put(`ledger:${l.reseller_id}`, l.reseller_id, { n: Number(l.n), sum: Number(l.sum) });
  for (const t of tree) put(`tree:${t.ancestor_id}:${t.descendant_id}`, t.descendant_id, t.depth);
  for (const d of domains) put(`domain:${d.id}`, d.reseller_id, d);
  for (const s of links) {
    const { hits: _, ...link } = s as typeof s & { hits?: number }; // following a link counts a hit
    put(`shortlink:${s.id}`, lineOwner.get(s.line_id) ?? 'global', link);
  }
  for (const n of news) put(`news:${n.id}`, 'global', n);
  for (const p of packages) put(`package:${p.id}`, 'global', p);
  for (const b of bouquets) put(`bouquet:${b.id}`, 'global', b);
  for (const s of settings) put(`setting:${s.key}`, 'global', s);
  // the catalogue and the edges are admin-managed
  for (const c of categories) put(`category:${c.id}`, 'global', c);
  for (const s of streams) put(`stream:${s.id}`, 'global', s);
  for (const i of items) put(`bouquet_item:${i.bouquet_id}:${i.category_id}:${i.stream_id}`, 'global', i);
  for (const e of servers) put(`server:${e.id}`, 'global', e);
  for (const w of webhooks) put(`webhook:${w.id}`, w.reseller_id, w);
  for (const k of keys) put(`api_key:${k.id}`, k.reseller_id, k);
  return out;
}

export interface Change {
  key: string;
  owner: Owner;
  kind: 'added' | 'removed' | 'changed';
}

export function diff(before: Snapshot, after: Snapshot): Change[] {
  const changes: Change[] = [];
  for (const [key, b] of before) {
    const a = after.get(key);
    if (!a) changes.push({ key, owner: b.owner, kind: 'removed' });
    else if (a.value !== b.value) changes.push({ key, owner: b.owner, kind: 'changed' });
  }
  for (const [key, a] of after) if (!before.has(key)) changes.push({ key, owner: a.owner, kind: 'added' });
  return changes;
}

/** Ids a reseller may reach after the change: itself and every descendant in `after`. */
export function reachable(after: Snapshot, callerId: number): Set<number> {
  const ids = new Set([callerId]);
  const prefix = `tree:${callerId}:`;
  for (const key of after.keys()) if (key.startsWith(prefix)) ids.add(Number(key.slice(prefix.length)));
  return ids;
}

// ---- the money invariants ----

export interface LedgerProblem {
  resellerId: number;
  credits: number;
  ledgerSum: number;
}

/** Every balance equals the sum of its ledger deltas and none is negative. */
export async function ledgerProblems(db: Kysely<DB>): Promise<LedgerProblem[]> {
  const balances = await db.selectFrom('resellers').select(['id', 'credits']).execute();
  const sums = await db.selectFrom('credit_ledger').select(['reseller_id', (eb) => eb.fn.sum<number>('delta').as('sum')]).groupBy('reseller_id').execute();
  const sumOf = new Map(sums.map((s) => [s.reseller_id, Number(s.sum)]));
  const problems: LedgerProblem[] = [];
  for (const r of balances) {
    const ledgerSum = sumOf.get(r.id) ?? 0;
    if (r.credits !== ledgerSum || r.credits < 0) problems.push({ resellerId: r.id, credits: r.credits, ledgerSum });
  }
  return problems;
}
