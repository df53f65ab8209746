import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The product's inserts of lines and log rows now compute their top-level reseller inside the
 * INSERT (db/top-reseller.ts). The insert triggers of 019 and 023 stay for any other writer,
 * but only fire when the row comes without it: on SQLite each was an UPDATE of the row just
 * inserted, re-writing it and its index entries (the log insert was the dearest statement of a
 * line creation, issue 13).
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  const top = (reseller: string) =>
    sql.raw(`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${reseller}
      and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${reseller}) - 1), ${reseller})`);
  const logMissing = sql.raw(
    '(NEW.reseller_id IS NOT NULL AND NEW.top_reseller_id IS NULL) OR (NEW.target_reseller_id IS NOT NULL AND NEW.target_top_reseller_id IS NULL)',
  );
  if (dialect === 'postgres') {
    await sql`DROP TRIGGER logs_top ON logs`.execute(db);
    await sql`CREATE TRIGGER logs_top BEFORE INSERT ON logs FOR EACH ROW WHEN (${logMissing}) EXECUTE FUNCTION logs_top_trg()`.execute(db);
    await sql`DROP TRIGGER lines_top ON lines`.execute(db);
    await sql`CREATE TRIGGER lines_top_insert BEFORE INSERT ON lines FOR EACH ROW WHEN (NEW.top_reseller_id IS NULL) EXECUTE FUNCTION lines_top_trg()`.execute(db);
    await sql`CREATE TRIGGER lines_top_update BEFORE UPDATE OF member_id ON lines FOR EACH ROW EXECUTE FUNCTION lines_top_trg()`.execute(db);
    return;
  }
  await sql`DROP TRIGGER logs_top_insert`.execute(db);
  await sql`CREATE TRIGGER logs_top_insert AFTER INSERT ON logs WHEN ${logMissing}
    BEGIN UPDATE logs SET top_reseller_id = ${top('NEW.reseller_id')}, target_top_reseller_id = ${top('NEW.target_reseller_id')} WHERE id = NEW.id; END`.execute(db);
  await sql`DROP TRIGGER lines_top_insert`.execute(db);
  await sql`CREATE TRIGGER lines_top_insert AFTER INSERT ON lines WHEN NEW.top_reseller_id IS NULL
    BEGIN UPDATE lines SET top_reseller_id = ${top('NEW.member_id')} WHERE id = NEW.id; END`.execute(db);
}
