import { type Insertable, sql } from 'kysely';
import type { Dialect } from '../../db/connection.ts';
import { afterPrefix, escapeLike, visibleLines, visibleP2pAccounts } from '../../repos/scope-repo.ts';
import type { Tx } from '../../db/tx.ts';
import type { P2pAccount, P2pAccountsTable } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

export interface P2pFilters {
  id?: number;
  username?: string;
  reseller?: string;
  /** -1 registered, 0 disabled, 1 active and not expired, 3 expired */
  status?: -1 | 0 | 1 | 3;
  type_user?: 'normal' | 'trial';
}

/** An account as the API shows it (the product's names: created, expiracao, externo_senha; docs/decisions.md). */
export interface P2pRow {
  id: number;
  name: string;
  username: string;
  email: string;
  password: string;
  externo_senha: string | null;
  created: number;
  expiracao: number;
  status: number;
  is_trial: number;
  member_id: number;
  master_username: string | null;
  package_id: number | null;
  max_connections: number;
  whatsapp: string | null;
  notes: string | null;
  sync_state: 'synced' | 'pending' | 'failed';
  sync_error: string | null;
  synced_at: number | null;
}

const COLUMNS = [
  'pa.id',
  'pa.name',
  'pa.username',
  'pa.email',
  'pa.password',
  'pa.external_password as externo_senha',
  'pa.created_at as created',
  'pa.expires_at as expiracao',
  'pa.status',
  'pa.is_trial',
  'pa.member_id',
  'o.username as master_username',
  'pa.package_id',
  'pa.max_connections',
  'pa.whatsapp',
  'pa.notes',
  'pa.sync_state',
  'pa.sync_error',
  'pa.synced_at',
] as const;

/** Public sort names -> columns: every column of the row. */
export const ORDER_FIELDS: Record<string, string> = {
  id: 'pa.id',
  name: 'pa.name',
  username: 'pa.username',
  email: 'pa.email',
  password: 'pa.password',
  externo_senha: 'pa.external_password',
  created: 'pa.created_at',
  expiracao: 'pa.expires_at',
  status: 'pa.status',
  is_trial: 'pa.is_trial',
  member_id: 'pa.member_id',
  master_username: 'o.username',
  package_id: 'pa.package_id',
  max_connections: 'pa.max_connections',
  whatsapp: 'pa.whatsapp',
  notes: 'pa.notes',
  sync_state: 'pa.sync_state',
  sync_error: 'pa.sync_error',
  synced_at: 'pa.synced_at',
};

const withOwner = (q: ReturnType<typeof visibleP2pAccounts>) => q.leftJoin('resellers as o', 'o.id', 'pa.member_id').select(COLUMNS);

export function filtered(db: Tx, actor: AuthUser, f: P2pFilters, now: number, resellerId?: number) {
  let q = visibleP2pAccounts(db, actor);
  if (f.id !== undefined) q = q.where('pa.id', '=', f.id);
  if (f.username) {
    const prefix = f.username.toLowerCase();
    const upper = afterPrefix(prefix);
    q = q
      .where(sql`lower(pa.username)`, '>=', prefix)
      .$if(upper !== undefined, (b) => b.where(sql`lower(pa.username)`, '<', upper as string))
      .where(sql`lower(pa.username)`, 'like', sql`${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (resellerId !== undefined) q = q.where('pa.member_id', '=', resellerId);
  if (f.type_user) q = q.where('pa.is_trial', '=', f.type_user === 'trial' ? 1 : 0);
  if (f.status === 1) q = q.where('pa.status', '=', 1).where('pa.expires_at', '>', now);
  if (f.status === 0 || f.status === -1) q = q.where('pa.status', '=', f.status);
  if (f.status === 3) q = q.where('pa.expires_at', '<=', now);
  return q;
}

export function pageAccounts(db: Tx, q: ReturnType<typeof visibleP2pAccounts>, paging: { page?: number; per?: number; order: Order; cursor?: PageCursor }) {
  return paginate<P2pRow>(q, (b) => withOwner(b as typeof q) as never, { ...paging, db, tiebreak: 'pa.id' });
}

export async function findVisible(db: Tx, actor: AuthUser, id: number): Promise<P2pRow | undefined> {
  return (await withOwner(visibleP2pAccounts(db, actor)).where('pa.id', '=', id).executeTakeFirst()) as P2pRow | undefined;
}

/** The stored row (for changes), or undefined. */
export const findRow = (db: Tx, id: number): Promise<P2pAccount | undefined> => db.selectFrom('p2p_accounts').selectAll().where('id', '=', id).executeTakeFirst();

/** On PostgreSQL, locks an account's row so concurrent changes to it queue (SQLite serialises writers already). */
export async function lockAccount(db: Tx, dialect: Dialect, id: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('p2p_accounts').select('id').where('id', '=', id).forUpdate().execute();
}

/** Is the username or the login taken, by any account (deleted ones keep theirs) or a line of that name? */
export async function loginTaken(db: Tx, username: string, email: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('p2p_accounts')
    .select('id')
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', username.toLowerCase()), eb(sql`lower(email)`, '=', email.toLowerCase())]));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) return true;
  return (await db.selectFrom('lines').select('id').where('username', '=', email).executeTakeFirst()) !== undefined;
}

/** Of these logins (lower case), those an account or a line already holds. */
export async function takenAmong(db: Tx, emails: string[], usernames: string[]) {
  const taken = { emails: new Set<string>(), usernames: new Set<string>() };
  for (let i = 0; i < emails.length; i += 500) {
    const part = emails.slice(i, i + 500);
    const accounts = await db.selectFrom('p2p_accounts').select(sql<string>`lower(email)`.as('e')).where(sql`lower(email)`, 'in', part).execute();
    const lines = await db.selectFrom('lines').select(sql<string>`lower(username)`.as('e')).where(sql`lower(username)`, 'in', part).execute();
    for (const r of [...accounts, ...lines]) taken.emails.add(r.e);
  }
  for (let i = 0; i < usernames.length; i += 500) {
    const part = usernames.slice(i, i + 500);
    const rows = await db.selectFrom('p2p_accounts').select(sql<string>`lower(username)`.as('u')).where(sql`lower(username)`, 'in', part).execute();
    for (const r of rows) taken.usernames.add(r.u);
  }
  return taken;
}

export async function insertAccount(db: Tx, values: Insertable<P2pAccountsTable>): Promise<number> {
  const { id } = await db.insertInto('p2p_accounts').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export type AccountChanges = Partial<Pick<P2pAccount, 'name' | 'username' | 'email' | 'password' | 'expires_at' | 'status' | 'is_trial' | 'deleted_at'>>;

export async function updateAccount(db: Tx, id: number, changes: AccountChanges): Promise<void> {
  await db.updateTable('p2p_accounts').set(changes).where('id', '=', id).execute();
}

export function searchVisible(db: Tx, actor: AuthUser, search: string) {
  return visibleP2pAccounts(db, actor)
    .select(['pa.id', 'pa.username', 'pa.email'])
    .where(sql`lower(pa.username)`, 'like', sql`${`${escapeLike(search.toLowerCase())}%`} escape '\\'`)
    .orderBy('pa.username')
    .limit(20)
    .execute();
}

/** Of these P2P logins, those the caller may see: its accounts' emails and its P2P lines' usernames. */
export async function visibleLogins(db: Tx, actor: AuthUser, logins: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < logins.length; i += 500) {
    const part = logins.slice(i, i + 500);
    const lower = part.map((l) => l.toLowerCase());
    const accounts = await visibleP2pAccounts(db, actor).select('pa.email as login').where(sql`lower(pa.email)`, 'in', lower).execute();
    const lines = await visibleLines(db, actor).select('ln.username as login').where('ln.username', 'in', part).where('ln.system', 'in', [2, 3]).execute();
    for (const r of accounts) seen.add(r.login.toLowerCase());
    for (const r of lines) seen.add(r.login);
  }
  return seen;
}

/** Gives every account of `fromId` to `toId` (a reseller's removal). */
export async function moveAccounts(db: Tx, fromId: number, toId: number): Promise<void> {
  await db.updateTable('p2p_accounts').set({ member_id: toId }).where('member_id', '=', fromId).execute();
}
