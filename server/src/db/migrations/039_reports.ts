import { type Kysely, sql } from 'kysely';
import { nowSec } from '../../lib/clock.ts';
import { panelTimeZone, zoneOffset } from '../../lib/calendar.ts';
import type { Dialect } from '../connection.ts';
import type { MigrationContext } from './index.ts';

/**
 * The reports' kept counts (modules/reports): per scope and calendar day (report_days) and month
 * (report_months) of the panel's time zone, what the business did. A scope is an account's whole
 * subtree (its own id) or everything (0, the admins'). Written by each change in its own
 * transaction (modules/reports/tally.ts), for the account and each of its ancestors.
 *
 * Filled here once from what is on record: lines and P2P accounts (created, and their expiries),
 * the log (renewals; its times are milliseconds), the ledger (credits spent on lines and P2P accounts, net of refunds) and the
 * applied PIX payments. The fill reads days at the time zone's current offset from UTC (exact for
 * zones without daylight saving, such as America/Sao_Paulo since 2019).
 */
export const COUNT_COLUMNS = ['lines_created', 'trials_created', 'renewals', 'credits_spent', 'pix_payments', 'pix_received_cents', 'expired'] as const;

export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  for (const [table, period] of [['report_days', 'day'], ['report_months', 'month']] as const) {
    let t = db.schema.createTable(table).addColumn('scope_id', 'integer', (c) => c.notNull()).addColumn(period, 'integer', (c) => c.notNull());
    for (const col of COUNT_COLUMNS) t = t.addColumn(col, col === 'credits_spent' || col === 'pix_received_cents' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0));
    await t.addPrimaryKeyConstraint(`${table}_pk`, ['scope_id', period]).execute();
  }
  // SQLite's migrations are not wrapped in a transaction (PostgreSQL's are): the fill is all or nothing
  if (dialect === 'sqlite') await db.transaction().execute((trx) => fillReports(trx, dialect, zoneOffset(nowSec(), panelTimeZone(process.env))));
  else await fillReports(db, dialect, zoneOffset(nowSec(), panelTimeZone(process.env)));
}

/**
 * Fills both tables from what is on record (see the top of this file), replacing what they held.
 * `offset`: seconds east of UTC. Also used by seed:bench after its bulk inserts.
 */
export async function fillReports(db: Kysely<any>, dialect: Dialect, offset: number): Promise<void> {
  const day = (col: string) => `CAST((${col} + ${Math.trunc(offset)}) / 86400 AS integer)`;
  const row = (account: string, at: string, counts: Partial<Record<(typeof COUNT_COLUMNS)[number], string>>, from: string) =>
    `SELECT ${account} AS account, ${day(at)} AS day, ${COUNT_COLUMNS.map((c) => `${counts[c] ?? '0'} AS ${c}`).join(', ')} FROM ${from}`;
  const base = [
    row('member_id', 'created_at', { lines_created: 'CASE WHEN is_trial = 0 THEN 1 ELSE 0 END', trials_created: 'is_trial' }, 'lines'),
    row('member_id', 'exp_date', { expired: '1' }, 'lines WHERE deleted_at IS NULL OR deleted_at >= exp_date'),
    row('member_id', 'created_at', { lines_created: 'CASE WHEN is_trial = 0 THEN 1 ELSE 0 END', trials_created: 'is_trial' }, 'p2p_accounts'),
    row('member_id', 'expires_at', { expired: '1' }, 'p2p_accounts WHERE deleted_at IS NULL OR deleted_at >= expires_at'),
    row('reseller_id', 'created_at / 1000', { renewals: '1' }, "logs WHERE action IN ('user_renew', 'user_flash_renew', 'p2p_renew') AND reseller_id IS NOT NULL"),
    row('reseller_id', 'created_at', { credits_spent: '-delta' }, 'credit_ledger WHERE line_id IS NOT NULL OR p2p_account_id IS NOT NULL'),
    row('reseller_id', 'applied_at', { pix_payments: '1', pix_received_cents: 'amount_cents' }, "payments WHERE status = 'applied' AND applied_at IS NOT NULL"),
  ].join('\nUNION ALL ');
  const sums = COUNT_COLUMNS.map((c) => `sum(b.${c})`).join(', ');
  const cols = COUNT_COLUMNS.join(', ');
  await sql`DELETE FROM report_days`.execute(db);
  await sql`DELETE FROM report_months`.execute(db);
  await sql
    .raw(`
      WITH b AS (SELECT account, day, ${COUNT_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM (${base}) x GROUP BY account, day)
      INSERT INTO report_days (scope_id, day, ${cols})
      SELECT t.ancestor_id, b.day, ${sums} FROM b JOIN reseller_tree t ON t.descendant_id = b.account GROUP BY t.ancestor_id, b.day
      UNION ALL SELECT 0, b.day, ${sums} FROM b GROUP BY b.day`)
    .execute(db);
  const month =
    dialect === 'postgres'
      ? `CAST(extract(year FROM to_timestamp(day * 86400) AT TIME ZONE 'UTC') AS integer) * 12 + CAST(extract(month FROM to_timestamp(day * 86400) AT TIME ZONE 'UTC') AS integer) - 1`
      : `CAST(strftime('%Y', day * 86400, 'unixepoch') AS integer) * 12 + CAST(strftime('%m', day * 86400, 'unixepoch') AS integer) - 1`;
  await sql
    .raw(`INSERT INTO report_months (scope_id, month, ${cols}) SELECT scope_id, ${month}, ${COUNT_COLUMNS.map((c) => `sum(${c})`).join(', ')} FROM report_days GROUP BY scope_id, ${month}`)
    .execute(db);
}
