import { type Kysely, type SqlBool, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * lines.top_reseller_id: the owner's ancestor right under the root admin (the owner itself for a
 * top-level reseller or an admin). A top-level master's subtree is then one range of
 * lines_top_id in id order, instead of ~100 owners whose 100k lines are merged and sorted per page.
 * Triggers keep it in the same transaction as every insert and ownership change; a deactivation that
 * re-hangs a subtree elsewhere recomputes it for the moved resellers' lines (resellers/tree-repo.ts).
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('lines').addColumn('top_reseller_id', 'integer').execute();
  const top = (member: string) =>
    sql.raw(`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${member}
      and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${member}) - 1), ${member})`);
  await sql`update lines set top_reseller_id = ${top('lines.member_id')}`.execute(db);
  if (dialect === 'postgres') {
    await sql`
      CREATE FUNCTION lines_top_trg() RETURNS trigger AS $$
      BEGIN
        NEW.top_reseller_id := ${top('NEW.member_id')};
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER lines_top BEFORE INSERT OR UPDATE OF member_id ON lines
      FOR EACH ROW EXECUTE FUNCTION lines_top_trg()`.execute(db);
  } else {
    await sql`CREATE TRIGGER lines_top_insert AFTER INSERT ON lines
      BEGIN UPDATE lines SET top_reseller_id = ${top('NEW.member_id')} WHERE id = NEW.id; END`.execute(db);
    await sql`CREATE TRIGGER lines_top_update AFTER UPDATE OF member_id ON lines
      BEGIN UPDATE lines SET top_reseller_id = ${top('NEW.member_id')} WHERE id = NEW.id; END`.execute(db);
  }
  // A top master's pages in id order, testing the list's flags inside the index (see 018).
  await db.schema
    .createIndex('lines_top_id')
    .on('lines')
    .columns(['top_reseller_id', 'id', 'member_id', 'enabled', 'is_trial', 'exp_date', 'created_at', 'deleted_at'])
    .where(sql<SqlBool>`deleted_at is null`)
    .execute();
  // The admin's unfiltered total sums every reseller's counter on each page view: over this
  // index instead of the wide reseller rows (1.5-2 ms at 10,000 resellers on SQLite).
  await db.schema.createIndex('resellers_lines_count').on('resellers').column('lines_count').execute();
}
