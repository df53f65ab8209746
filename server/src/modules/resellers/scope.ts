import type { Tx } from '../../db/tx.ts';

/**
 * The ids a caller may reach, as a subquery (never loaded into memory). Admins reach everyone;
 * masters their subtree; `includeSelf` adds the caller (reads of one's own record and history).
 */
export function subtreeIds(db: Tx, ancestorId: number, includeSelf: boolean) {
  return db
    .selectFrom('reseller_tree')
    .select('reseller_tree.descendant_id')
    .where('reseller_tree.ancestor_id', '=', ancestorId)
    .where('reseller_tree.depth', '>=', includeSelf ? 0 : 1);
}

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
