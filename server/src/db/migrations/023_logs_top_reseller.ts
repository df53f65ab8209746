import { type Kysely, type SqlBool, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * logs.top_reseller_id / target_top_reseller_id: the top-level reseller (right under the root
 * admin, as lines.top_reseller_id in 019) of the row's reseller and of its target. A top-level
 * master sees the rows whose reseller or target is in its subtree, which is exactly the rows
 * carrying its id in one of the two: its page is then two ranges walked newest first, instead of
 * the whole log walked newest first while testing ~200 owner ids per row (a quiet subtree among
 * busy ones read tens of thousands of rows per page: 71-90 ms on PostgreSQL at 1M log rows).
 * Triggers set them when the row is written, whoever writes it; a deactivation that re-hangs a
 * subtree elsewhere recomputes them for the moved resellers' rows (resellers/tree-repo.ts).
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('logs').addColumn('top_reseller_id', 'integer').execute();
  await db.schema.alterTable('logs').addColumn('target_top_reseller_id', 'integer').execute();
  // The same expression as 019: the ancestor one level under the root, or the reseller itself.
  const top = (reseller: string) =>
    sql.raw(`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${reseller}
      and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${reseller}) - 1), ${reseller})`);
  await sql`update logs set top_reseller_id = ${top('logs.reseller_id')}, target_top_reseller_id = ${top('logs.target_reseller_id')}
    where reseller_id is not null or target_reseller_id is not null`.execute(db);
  if (dialect === 'postgres') {
    await sql`
      CREATE FUNCTION logs_top_trg() RETURNS trigger AS $$
      BEGIN
        NEW.top_reseller_id := ${top('NEW.reseller_id')};
        NEW.target_top_reseller_id := ${top('NEW.target_reseller_id')};
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER logs_top BEFORE INSERT ON logs FOR EACH ROW EXECUTE FUNCTION logs_top_trg()`.execute(db);
  } else {
    await sql`CREATE TRIGGER logs_top_insert AFTER INSERT ON logs
      WHEN NEW.reseller_id IS NOT NULL OR NEW.target_reseller_id IS NOT NULL
      BEGIN UPDATE logs SET top_reseller_id = ${top('NEW.reseller_id')}, target_top_reseller_id = ${top('NEW.target_reseller_id')} WHERE id = NEW.id; END`.execute(db);
  }
  // Each walked newest first with the list's type and action filters tested inside the index; a
  // row done inside the subtree to someone inside it is found by the first (the second skips it).
  await db.schema.createIndex('logs_top_created').on('logs').columns(['top_reseller_id', 'created_at', 'id', 'type_log', 'action']).execute();
  await db.schema
    .createIndex('logs_target_top_created')
    .on('logs')
    .columns(['target_top_reseller_id', 'created_at', 'id', 'top_reseller_id', 'type_log', 'action'])
    .where(sql<SqlBool>`target_top_reseller_id is not null`)
    .execute();
}
