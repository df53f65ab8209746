import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Indexes for the lists at a million lines (figures in docs/performance.md, guarded by
 * test/list-plans.test.ts). Live lines only (`deleted_at is null`), each ending with the sort key or
 * covering what a walk in sort order checks, so a page stops after a few index entries and a capped
 * count never reads the table:
 * - lines_live_id: pages in id order walk it and test scope and filters inside the index;
 * - lines_blocked, lines_trial: the sparse filters (4-5 % of lines), in id order;
 * - lines_live_created, lines_live_exp: created range and expiry sorts, with the owner for the scope;
 * - lines_renewable_exp: the expirations list (non-trial, enabled) in expiry order;
 * - lines_member_id, lines_member_exp, lines_member_created: one owner's lines (owner filter, a
 *   reseller's own list, a master's capped counts, which add up the ranges of its resellers);
 * - p2p_live_id: the P2P list in id order;
 * - logs_action_created: the action filter of the log, newest first;
 * - logs_created_scope: a master's log page walks time order and tests both owners in the index
 *   (it replaces logs_created).
 * The flags in partial predicates are literals in the queries too (the choice never hangs on a bound value);
 * the flag columns are repeated in the keys because SQLite only counts an index as covering when it
 * holds every column the query names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const live = sql<SqlBool>`deleted_at is null`;
  const idx = (name: string, table: string, columns: string[], where?: RawBuilder<SqlBool>) => {
    // deleted_at ends each partial index too: SQLite only counts an index as covering when it holds
    // every column the query names, the partial predicate's included.
    const q = db.schema.createIndex(name).on(table).columns(where ? [...columns, 'deleted_at'] : columns);
    return (where ? q.where(where) : q).execute();
  };
  await idx('lines_live_id', 'lines', ['id', 'member_id', 'enabled', 'is_trial', 'exp_date', 'created_at'], live);
  await idx('lines_blocked', 'lines', ['id', 'member_id', 'enabled'], sql<SqlBool>`deleted_at is null and enabled = 0`);
  await idx('lines_trial', 'lines', ['id', 'member_id', 'is_trial'], sql<SqlBool>`deleted_at is null and is_trial = 1`);
  await idx('lines_live_created', 'lines', ['created_at', 'id', 'member_id'], live);
  await idx('lines_live_exp', 'lines', ['exp_date', 'id', 'member_id', 'enabled'], live);
  await idx('lines_renewable_exp', 'lines', ['exp_date', 'id', 'member_id', 'is_trial', 'enabled'], sql<SqlBool>`deleted_at is null and is_trial = 0 and enabled = 1`);
  await idx('lines_member_id', 'lines', ['member_id', 'id'], live);
  // An owner's expiry and creation ranges, covering what the capped counts test (no table reads).
  await db.schema.dropIndex('lines_member_exp').execute();
  await db.schema.dropIndex('lines_member_created').execute();
  await idx('lines_member_exp', 'lines', ['member_id', 'exp_date', 'enabled', 'is_trial', 'deleted_at']);
  await idx('lines_member_created', 'lines', ['member_id', 'created_at', 'deleted_at']);
  // The live versions above replace these (every list and the dashboard read live lines only).
  await db.schema.dropIndex('lines_exp').execute();
  await db.schema.dropIndex('lines_created').execute();
  await idx('p2p_live_id', 'p2p_accounts', ['id', 'member_id'], sql<SqlBool>`deleted_at is null`);
  await idx('logs_action_created', 'logs', ['action', 'created_at']);
  await idx('logs_created_scope', 'logs', ['created_at', 'reseller_id', 'target_reseller_id']);
  await db.schema.dropIndex('logs_created').execute();
}
