import { sql } from 'kysely';
import { type PageCursor, paginate } from '../../db/paginate.ts';
import type { Tx } from '../../db/tx.ts';
import type { ReminderSettingsTable, ReminderStatus } from '../../db/types.ts';
import { nowSec } from '../../lib/clock.ts';

// Reminder settings, the lines due a reminder, and the message rows that make each send happen once.

export type SettingsRow = ReminderSettingsTable;

export const ownSettings = (db: Tx, resellerId: number) => db.selectFrom('reminder_settings').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

/** The settings rows of an account's masters, nearest first (what it inherits). */
export const ancestorSettings = (db: Tx, resellerId: number) =>
  db
    .selectFrom('reseller_tree as t')
    .innerJoin('reminder_settings as s', 's.reseller_id', 't.ancestor_id')
    .selectAll('s')
    .where('t.descendant_id', '=', resellerId)
    .where('t.depth', '>', 0)
    .orderBy('t.depth')
    .execute();

export async function saveSettings(db: Tx, row: SettingsRow) {
  const { reseller_id, ...rest } = row;
  await db
    .insertInto('reminder_settings')
    .values(row)
    .onConflict((oc) => oc.column('reseller_id').doUpdateSet(rest))
    .execute();
}

/** Accounts that turned reminders on, a page at a time by id. */
export async function enabledAccounts(db: Tx, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('reminder_settings as s')
    .innerJoin('resellers as r', 'r.id', 's.reseller_id')
    .select('s.reseller_id')
    .where('s.enabled', '=', 1)
    .where('s.reseller_id', '>', afterId)
    .where('r.deleted_at', 'is', null)
    .orderBy('s.reseller_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.reseller_id);
}

export const accountContact = (db: Tx, id: number) => db.selectFrom('resellers').select(['id', 'username', 'email', 'whatsapp']).where('id', '=', id).executeTakeFirst();

const REMINDER_LINE = ['l.id', 'l.username', 'l.exp_date', 'l.whatsapp', 'l.email', 'l.member_id', 'p.package_name'] as const;
export type ReminderLine = { id: number; username: string; exp_date: number; whatsapp: string | null; email: string | null; member_id: number; package_name: string | null };

/** The conditions under which a line may be reminded of the expiry `exp` (checked again at every send). */
const eligible = (exp: ReturnType<typeof sql.ref> | number) =>
  sql<boolean>`l.exp_date = ${exp} and l.enabled = 1 and l.deleted_at is null and l.opt_out_reminders = 0`;

/**
 * An owner's lines expiring in [from, to) with a `channel` address and no message for `stage` on
 * that channel yet, soonest first, a page at a time (the owner's expiry index, lines_member_exp).
 */
export function dueLines(db: Tx, ownerId: number, from: number, to: number, stage: string, channel: 'whatsapp' | 'email', limit: number): Promise<ReminderLine[]> {
  return db
    .selectFrom('lines as l')
    .leftJoin('packages as p', 'p.id', 'l.package_id')
    .select(REMINDER_LINE)
    .where('l.member_id', '=', ownerId)
    .where('l.exp_date', '>=', from)
    .where('l.exp_date', '<', to)
    .where('l.enabled', '=', 1)
    .where('l.deleted_at', 'is', null)
    .where('l.opt_out_reminders', '=', 0)
    .where(`l.${channel}`, 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reminder_messages as m')
            .select('m.id')
            .whereRef('m.line_id', '=', 'l.id')
            .where('m.stage', '=', stage)
            .whereRef('m.exp_date', '=', 'l.exp_date')
            .where('m.channel', '=', channel),
        ),
      ),
    )
    .orderBy('l.exp_date')
    .orderBy('l.id')
    .limit(limit)
    .execute() as Promise<ReminderLine[]>;
}

/** A line for a preview: the given one of the owner's, else its soonest to expire. */
export function previewLine(db: Tx, ownerId: number, lineId: number | undefined): Promise<ReminderLine | undefined> {
  let q = db.selectFrom('lines as l').leftJoin('packages as p', 'p.id', 'l.package_id').select(REMINDER_LINE).where('l.member_id', '=', ownerId).where('l.deleted_at', 'is', null);
  q = lineId ? q.where('l.id', '=', lineId) : q.where('l.exp_date', '>=', nowSec()).orderBy('l.exp_date').orderBy('l.id');
  return q.limit(1).executeTakeFirst() as Promise<ReminderLine | undefined>;
}

export interface NewMessage {
  reseller_id: number;
  line_id: number;
  stage: string;
  exp_date: number;
  channel: string;
  recipient: string;
  created_at: number;
  /** the send's lease: a process that dies mid-send leaves the row to be taken again after this */
  lease_until: number;
}

/**
 * Records a send before it happens, only while the line is still due that reminder (its expiry
 * unchanged, enabled, not deleted or opted out); the unique (line, stage, expiry, channel) makes
 * one of two schedulers the sender. The row's id, or undefined when there is nothing to send.
 */
export async function claimNew(db: Tx, m: NewMessage): Promise<number | undefined> {
  const row = await db
    .insertInto('reminder_messages')
    .columns(['reseller_id', 'line_id', 'stage', 'exp_date', 'channel', 'recipient', 'status', 'attempts', 'created_at', 'next_attempt_at'])
    .expression((eb) =>
      eb
        .selectFrom('lines as l')
        .select([
          sql.lit(m.reseller_id).as('reseller_id'),
          'l.id',
          sql<string>`${m.stage}`.as('stage'),
          'l.exp_date',
          sql<string>`${m.channel}`.as('channel'),
          sql<string>`${m.recipient}`.as('recipient'),
          sql<string>`'sending'`.as('status'),
          sql.lit(1).as('attempts'),
          sql<number>`${m.created_at}`.as('created_at'),
          sql<number>`${m.lease_until}`.as('next_attempt_at'),
        ])
        .where('l.id', '=', m.line_id)
        .where(eligible(m.exp_date)),
    )
    .onConflict((oc) => oc.columns(['line_id', 'stage', 'exp_date', 'channel']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export interface DueMessage {
  id: number;
  reseller_id: number;
  line_id: number;
  stage: string;
  exp_date: number;
  channel: string;
  recipient: string;
  attempts: number;
  created_at: number;
  status: ReminderStatus;
}

/**
 * Messages to try again: failed ones whose backoff is over, and sends a dead process left behind
 * (`sending` past its lease: next_attempt_at holds the lease's end).
 */
export const dueAgain = (db: Tx, now: number, limit: number) =>
  db
    .selectFrom('reminder_messages')
    .select(['id', 'reseller_id', 'line_id', 'stage', 'exp_date', 'channel', 'recipient', 'attempts', 'created_at', 'status'])
    .where('status', 'in', ['retry', 'sending'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute() as Promise<DueMessage[]>;

/** Takes a message again for one more send (one statement: of two schedulers, one gets it), while its line is still due it. */
export async function claimAgain(db: Tx, m: DueMessage, now: number, leaseUntil: number): Promise<boolean> {
  const res = await db
    .updateTable('reminder_messages')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil }))
    .where('id', '=', m.id)
    .where('status', '=', m.status)
    .where('next_attempt_at', '<=', now)
    .where(({ exists, selectFrom }) => exists(selectFrom('lines as l').select('l.id').where('l.id', '=', m.line_id).where(eligible(m.exp_date))))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function recordOutcome(
  db: Tx,
  id: number,
  o: { status: Exclude<ReminderStatus, 'sending'>; now: number; httpStatus: number | null; answer: string; next?: number },
) {
  await db
    .updateTable('reminder_messages')
    .set({
      status: o.status,
      last_status: o.httpStatus,
      answer: o.answer.slice(0, 300),
      next_attempt_at: o.status === 'retry' ? (o.next ?? o.now) : null,
      sent_at: o.status === 'sent' ? o.now : null,
    })
    .where('id', '=', id)
    .execute();
}

/** Messages an account started since `since` (its per-minute limit). */
export async function startedSince(db: Tx, resellerId: number, since: number): Promise<number> {
  const row = await db.selectFrom('reminder_messages').select(sql<number>`count(*)`.as('n')).where('reseller_id', '=', resellerId).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An account's messages since `since`, by status (the dashboard card). */
export async function countsSince(db: Tx, resellerId: number, since: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('reminder_messages')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('reseller_id', '=', resellerId)
    .where('created_at', '>=', since)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export interface HistoryFilters {
  line?: string;
  stage?: string;
  status?: string;
  channel?: string;
}

export const HISTORY_COLUMNS = ['m.id', 'm.line_id', 'l.username', 'm.stage', 'm.exp_date', 'm.channel', 'm.recipient', 'm.status', 'm.attempts', 'm.created_at', 'm.sent_at', 'm.last_status', 'm.answer'] as const;

/** An account's messages, newest first, filtered and paged in SQL. */
export function history(db: Tx, resellerId: number, f: HistoryFilters, page: number, per: number, cursor?: PageCursor) {
  let base = db.selectFrom('reminder_messages as m').where('m.reseller_id', '=', resellerId);
  if (f.status) base = base.where('m.status', '=', f.status as ReminderStatus);
  if (f.stage) base = base.where('m.stage', '=', f.stage);
  if (f.channel) base = base.where('m.channel', '=', f.channel);
  if (f.line) {
    const line = f.line;
    base = base.where('m.line_id', 'in', (eb) => eb.selectFrom('lines').select('id').where('member_id', '=', resellerId).where('username', '=', line));
  }
  return paginate(base, (q) => q.innerJoin('lines as l', 'l.id', 'm.line_id').select(HISTORY_COLUMNS), {
    db,
    page,
    per,
    cursor,
    order: { column: 'm.id', direction: 'desc' },
    tiebreak: 'm.id',
  });
}

/** History older than `before` goes (the unique rows of past expiries are no longer needed). */
export async function prune(db: Tx, before: number) {
  await db.deleteFrom('reminder_messages').where('created_at', '<', before).where('status', 'in', ['sent', 'failed', 'cancelled']).execute();
}

/** One line as a reminder needs it. */
export const reminderLine = (db: Tx, id: number) =>
  db.selectFrom('lines as l').leftJoin('packages as p', 'p.id', 'l.package_id').select(REMINDER_LINE).where('l.id', '=', id).executeTakeFirst() as Promise<ReminderLine | undefined>;

/** The channels through which an account has a message waiting out its backoff (its gateway is failing). */
export async function channelsBackingOff(db: Tx, resellerId: number, now: number): Promise<string[]> {
  const rows = await db
    .selectFrom('reminder_messages')
    .select('channel')
    .distinct()
    .where('reseller_id', '=', resellerId)
    .where('status', '=', 'retry')
    .where('next_attempt_at', '>', now)
    .execute();
  return rows.map((r) => r.channel);
}
