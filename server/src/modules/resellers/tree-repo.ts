import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

// The reseller_tree closure table: one row per (ancestor, descendant) pair, depth 0 for oneself.

/** Is `id` strictly below `ancestorId` in the tree? */
export async function isBelow(db: Tx, id: number, ancestorId: number): Promise<boolean> {
  const row = await db
    .selectFrom('reseller_tree')
    .select('depth')
    .where('ancestor_id', '=', ancestorId)
    .where('descendant_id', '=', id)
    .where('depth', '>=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Re-hangs every reseller below `fromId` under `toId`, keeping the closure table exact. */
export async function moveChildren(db: Tx, fromId: number, toId: number): Promise<void> {
  const below = await db.selectFrom('reseller_tree').select(['descendant_id', 'depth']).where('ancestor_id', '=', fromId).where('depth', '>=', 1).execute();
  if (below.length === 0) return;
  const aboveTarget = await db.selectFrom('reseller_tree').select(['ancestor_id', 'depth']).where('descendant_id', '=', toId).execute();
  const aboveFrom = await db.selectFrom('reseller_tree').select('ancestor_id').where('descendant_id', '=', fromId).execute();
  const belowIds = below.map((b) => b.descendant_id);
  for (let i = 0; i < belowIds.length; i += 500) {
    await db
      .deleteFrom('reseller_tree')
      .where('descendant_id', 'in', belowIds.slice(i, i + 500))
      .where('ancestor_id', 'in', aboveFrom.map((a) => a.ancestor_id))
      .execute();
  }
  const rows = aboveTarget.flatMap((a) => below.map((b) => ({ ancestor_id: a.ancestor_id, descendant_id: b.descendant_id, depth: a.depth + b.depth })));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('reseller_tree').values(rows.slice(i, i + 500)).execute();
  await db.updateTable('resellers').set({ owner_id: toId }).where('owner_id', '=', fromId).execute();
  for (let i = 0; i < belowIds.length; i += 500) await refreshTops(db, belowIds.slice(i, i + 500));
}

/**
 * The moved resellers' top-level reseller may have changed (under another master, or right under
 * the admin): their lines' `top_reseller_id` (migration 019) and their log rows' top columns
 * (migration 023) follow, in the same transaction. The triggers only set them on insert and on an
 * owner change of a line, and the top-level master's lists and log pages read them.
 */
async function refreshTops(db: Tx, ids: number[]): Promise<void> {
  await db.updateTable('lines').set({ top_reseller_id: topOf('lines.member_id') }).where('member_id', 'in', ids).execute();
  await db.updateTable('logs').set({ top_reseller_id: topOf('logs.reseller_id') }).where('reseller_id', 'in', ids).execute();
  await db.updateTable('logs').set({ target_top_reseller_id: topOf('logs.target_reseller_id') }).where('target_reseller_id', 'in', ids).execute();
}

/** The ancestor right under the root admin of the reseller in `column`, or that reseller itself (as in migrations 019 and 023). */
const topOf = (column: string) =>
  sql<number>`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${sql.ref(column)}
    and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${sql.ref(column)}) - 1), ${sql.ref(column)})`;
