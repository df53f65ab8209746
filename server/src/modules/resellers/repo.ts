import { type ExpressionBuilder, sql } from 'kysely';
import { keysetRows, mapRows } from '../../db/keyset.ts';
import { nowSec } from '../../lib/clock.ts';
import { escapeLike, isInSubtree, subtreeIds } from '../../repos/scope-repo.ts';
import type { Tx } from '../../db/tx.ts';
import type { DB, Reseller } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

export interface ResellerFilters {
  id?: number;
  username?: string;
  reseller?: string;
  group?: number;
  status?: number;
}

type RowsEB = ExpressionBuilder<DB & { r: DB['resellers']; g: DB['groups']; o: DB['resellers'] }, 'r' | 'g' | 'o'>;

/** A reseller row with its group and its owner, as the list's columns and sorts need them. */
const joined = (db: Tx) => db.selectFrom('resellers as r').innerJoin('groups as g', 'g.group_id', 'r.member_group_id').leftJoin('resellers as o', 'o.id', 'r.owner_id');

/** The reseller rows a caller may see: its subtree (everything for admins), never itself or deleted ones. */
function visible(db: Tx, actor: AuthUser) {
  let q = joined(db)
    .where('r.deleted_at', 'is', null)
    .where('r.id', '!=', actor.id);
  if (actor.type !== 'admin') q = q.where('r.id', 'in', subtreeIds(db, actor.id, false));
  return q;
}

const rowColumns = (eb: RowsEB) => [
  'r.id' as const,
  'r.username' as const,
  'r.credits' as const,
  'o.username as master_username' as const,
  'r.owner_id' as const,
  'r.last_login' as const,
  'g.group_name' as const,
  'g.type as group_type' as const,
  'r.member_group_id' as const,
  'r.status' as const,
  eb
    .selectFrom('resellers as c')
    .select(eb.fn.countAll<number>().as('n'))
    .whereRef('c.owner_id', '=', 'r.id')
    .where('c.deleted_at', 'is', null)
    .as('sub_resellers_count'),
  'r.lines_count as clients_count' as const,
];

export type ResellerRow = {
  id: number;
  username: string;
  credits: number;
  master_username: string | null;
  owner_id: number | null;
  last_login: number | null;
  group_name: string;
  group_type: string;
  member_group_id: number;
  status: number;
  sub_resellers_count: number;
  clients_count: number;
};

const normalise = (r: ResellerRow): ResellerRow => ({
  ...r,
  sub_resellers_count: Number(r.sub_resellers_count),
  clients_count: Number(r.clients_count),
});

/** The reseller list's filters, shared by the paged list and the export. */
function filtered(db: Tx, actor: AuthUser, f: ResellerFilters) {
  let q = visible(db, actor);
  if (f.id !== undefined) q = q.where('r.id', '=', f.id);
  if (f.username) q = q.where(sql`lower(r.username)`, 'like', sql`${`%${escapeLike(f.username.toLowerCase())}%`} escape '\\'`);
  if (f.reseller) q = q.where(sql`lower(o.username)`, '=', f.reseller.toLowerCase());
  if (f.group !== undefined) q = q.where('r.member_group_id', '=', f.group);
  if (f.status !== undefined) q = q.where('r.status', '=', f.status);
  return q;
}

export async function pageResellers(db: Tx, actor: AuthUser, f: ResellerFilters, paging: { page?: number; per?: number; order: Order; cursor?: PageCursor }) {
  const q = filtered(db, actor, f);
  // The page's ids are sorted on the rows alone; only its rows get their sub-reseller counts (the
  // admin's deep pages counted them for all 10,000 resellers before sorting: 15 ms on SQLite).
  const rows = (keys: unknown) =>
    joined(db)
      .where('r.id', 'in', keys as never)
      .select((eb) => rowColumns(eb as RowsEB));
  const res = await paginate<ResellerRow>(q, (b) => b.select((eb) => rowColumns(eb as RowsEB)) as never, { ...paging, db, tiebreak: 'r.id', deferred: rows as never });
  return { ...res, data: res.data.map(normalise) };
}

/** Every filtered reseller in id order, a batch at a time (exports). */
export function iterateResellers(db: Tx, actor: AuthUser, f: ResellerFilters, batch = 1000): AsyncGenerator<ResellerRow> {
  return mapRows(
    keysetRows(
      (last, limit) =>
        filtered(db, actor, f)
          .where('r.id', '>', last)
          .select((eb) => rowColumns(eb as RowsEB))
          .orderBy('r.id')
          .limit(limit)
          .execute() as Promise<ResellerRow[]>,
      batch,
    ),
    normalise,
  );
}

const resellerById = (db: Tx, id: number) =>
  db
    .selectFrom('resellers as r')
    .innerJoin('groups as g', 'g.group_id', 'r.member_group_id')
    .leftJoin('resellers as o', 'o.id', 'r.owner_id')
    .where('r.deleted_at', 'is', null)
    .where('r.id', '=', id)
    .select((eb) => [...rowColumns(eb as RowsEB), 'r.email', 'r.whatsapp', 'r.telegram', 'r.notes']);

export async function findVisible(db: Tx, actor: AuthUser, id: number, includeSelf = false) {
  if (!includeSelf && id === actor.id) return undefined;
  if (actor.type !== 'admin' && !(await isInSubtree(db, actor.id, id, includeSelf))) return undefined;
  const row = await resellerById(db, id).executeTakeFirst();
  return row && { ...normalise(row as unknown as ResellerRow), email: row.email, whatsapp: row.whatsapp, telegram: row.telegram, notes: row.notes };
}

export function searchVisible(db: Tx, actor: AuthUser, search: string, includeSelf: boolean) {
  let q = db
    .selectFrom('resellers as r')
    .select(['r.id', 'r.username'])
    .where('r.deleted_at', 'is', null)
    .where(sql`lower(r.username)`, 'like', sql`${`%${escapeLike(search.toLowerCase())}%`} escape '\\'`)
    .orderBy('r.username')
    .limit(20);
  if (actor.type !== 'admin') q = q.where('r.id', 'in', subtreeIds(db, actor.id, includeSelf));
  else if (!includeSelf) q = q.where('r.id', '!=', actor.id);
  return q.execute();
}

export async function usernameTaken(db: Tx, username: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('resellers').select('id').where(sql`lower(username)`, '=', username.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Inserts a reseller under `ownerId` together with its closure rows. */
export async function insertReseller(
  db: Tx,
  values: { username: string; password_hash: string; email: string | null; whatsapp: string | null; telegram: string | null; notes: string | null; member_group_id: number; owner_id: number },
): Promise<number> {
  const { id } = await db
    .insertInto('resellers')
    .values({ ...values, credits: 0, status: 1, created_at: nowSec() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('reseller_tree')
    .columns(['ancestor_id', 'descendant_id', 'depth'])
    .expression((eb) =>
      eb
        .selectFrom('reseller_tree')
        .select(['ancestor_id', eb.val(id).as('descendant_id'), sql<number>`depth + 1`.as('depth')])
        .where('descendant_id', '=', values.owner_id),
    )
    .execute();
  await db.insertInto('reseller_tree').values({ ancestor_id: id, descendant_id: id, depth: 0 }).execute();
  return id;
}

/** Is there any reseller at all (an empty database gets its first admin at start-up)? */
export async function anyResellerExists(db: Tx): Promise<boolean> {
  return (await db.selectFrom('resellers').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The first admin of an empty database: in the admin group, its own root in the tree. */
export async function insertFirstAdmin(db: Tx, values: { username: string; password_hash: string; created_at: number }): Promise<number> {
  const group = await db.selectFrom('groups').select('group_id').where('type', '=', 'admin').orderBy('group_id').executeTakeFirstOrThrow();
  const admin = await db
    .insertInto('resellers')
    .values({ ...values, member_group_id: group.group_id, credits: 0, status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('reseller_tree').values({ ancestor_id: admin.id, descendant_id: admin.id, depth: 0 }).execute();
  return admin.id;
}

export type ResellerChanges = Partial<Pick<Reseller, 'username' | 'password_hash' | 'email' | 'whatsapp' | 'telegram' | 'notes' | 'status' | 'member_group_id'>>;

export async function updateReseller(db: Tx, id: number, changes: ResellerChanges): Promise<void> {
  await db.updateTable('resellers').set(changes).where('id', '=', id).execute();
}

/** A removed reseller stays as a row (the ledger and the log name it), blocked and marked deleted. */
export async function markDeactivated(db: Tx, id: number, at: number): Promise<void> {
  await db.updateTable('resellers').set({ deleted_at: at, status: 0 }).where('id', '=', id).execute();
}
