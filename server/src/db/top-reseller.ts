import { type RawBuilder, sql } from 'kysely';

/**
 * The top-level reseller of a reseller: its ancestor right under the root admin, or the reseller
 * itself (the expression of migrations 019 and 023). Lines and log rows carry it so a top-level
 * master's pages are one index range.
 */
const topOfRef = (reseller: RawBuilder<unknown>) =>
  sql<number>`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${reseller}
    and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${reseller}) - 1), ${reseller})`;

/** Of the reseller in `column` (an update recomputing stored rows). */
export const topOfColumn = (column: string) => topOfRef(sql.ref(column));

/**
 * Of reseller `id`, computed inside the statement that inserts the row: the insert triggers then
 * leave the row alone instead of updating it again (migration 025). Null for no reseller.
 */
export const topOfReseller = (id: number | null | undefined) => (id == null ? null : topOfRef(sql.val(id)));
