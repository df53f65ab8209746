import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * resellers.lines_count: live (not deleted) lines per owner, kept exact by triggers so that
 * unfiltered list totals, the reseller list's clients count and the dashboard's user total are
 * a sum over resellers instead of a count over millions of lines.
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('resellers').addColumn('lines_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE resellers SET lines_count = (SELECT count(*) FROM lines WHERE lines.member_id = resellers.id AND lines.deleted_at IS NULL)`.execute(db);
  if (dialect === 'postgres') {
    await sql`
      CREATE FUNCTION lines_count_trg() RETURNS trigger AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
          UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
          UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id;
        END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER lines_count AFTER INSERT OR DELETE OR UPDATE OF member_id, deleted_at ON lines
      FOR EACH ROW EXECUTE FUNCTION lines_count_trg()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER lines_count_insert AFTER INSERT ON lines WHEN NEW.deleted_at IS NULL
    BEGIN UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id; END`.execute(db);
  await sql`CREATE TRIGGER lines_count_update AFTER UPDATE OF member_id, deleted_at ON lines
    BEGIN
      UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id AND OLD.deleted_at IS NULL;
      UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id AND NEW.deleted_at IS NULL;
    END`.execute(db);
  await sql`CREATE TRIGGER lines_count_delete AFTER DELETE ON lines WHEN OLD.deleted_at IS NULL
    BEGIN UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id; END`.execute(db);
}
