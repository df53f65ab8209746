import { COUNT_COLUMNS } from '../../db/migrations/039_reports.ts';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { localDay, monthOfDay } from '../../lib/calendar.ts';
import { addCounts } from './repo.ts';

// What a change adds to the reports' kept counts (report_days, report_months: 039_reports), in the
// change's own transaction. The one place that says what counts as what:
//  - a new line or P2P account: lines_created (paid) or trials_created, for its owner; a creation
//    undone (removed with `undone`: a self-service trial whose message failed) takes it off again;
//  - a renewal (an event line.renewed, a P2P renewal): renewals for the owner; a trial renewed into
//    a paid line counts as a paid line created instead (it was not a paid term before);
//  - credits: what the payer was charged, less what it got back (credits_spent, net of refunds);
//  - an applied PIX payment: pix_payments and pix_received_cents for the line's owner;
//  - expired: a line is counted on the day its expiry falls, from the moment that expiry is set; a
//    renewal moves it (off the old day, onto the new one), a removal before the expiry takes it off.
//    The reader counts only expiries already past (service.ts), so a day's figure is the lines
//    whose expiry fell on it and that were not renewed since.
// Each count goes to the account's own scope, each of its ancestors' (reseller_tree, itself
// included) and 0 (everything, the admins').

export type CountColumn = (typeof COUNT_COLUMNS)[number];
export type Counts = Record<CountColumn, number>;

export interface TallyEntry {
  /** the account the counts belong to (a line's owner, a payer) */
  account: number;
  /** the instant whose local day they fall on */
  at: number;
  counts: Partial<Counts>;
}

/** A line or P2P account before and after a change, as far as the reports care. */
export interface TalliedChange {
  owner: number;
  payer: number;
  now: number;
  /** undefined: created by this change */
  before?: { expires: number; trial: boolean };
  /** undefined: removed by this change */
  after?: { expires: number; trial: boolean };
  renewed?: boolean;
  /** credits the payer was charged, less credits given back */
  netCredits?: number;
  pixCents?: number;
  /** the removal undoes the creation (a self-service trial whose message failed): its creation is taken off */
  undone?: boolean;
}

/** The entries a change to a line or P2P account adds (the rules at the top of this file). */
export function entriesOf(c: TalliedChange): TallyEntry[] {
  const owner: Partial<Counts> = {};
  if (!c.before && c.after) owner[c.after.trial ? 'trials_created' : 'lines_created'] = 1;
  if (c.renewed && c.before) owner[c.before.trial ? 'lines_created' : 'renewals'] = 1;
  if (c.undone && c.before && !c.after) owner[c.before.trial ? 'trials_created' : 'lines_created'] = -1;
  if (c.pixCents !== undefined) Object.assign(owner, { pix_payments: 1, pix_received_cents: c.pixCents });
  const entries: TallyEntry[] = [{ account: c.owner, at: c.now, counts: owner }];
  if (c.netCredits) entries.push({ account: c.payer, at: c.now, counts: { credits_spent: c.netCredits } });
  const was = c.before?.expires;
  const will = c.after?.expires;
  if (was !== undefined && was !== will && (will !== undefined || was > c.now)) entries.push({ account: c.owner, at: was, counts: { expired: -1 } });
  if (will !== undefined && was !== will) entries.push({ account: c.owner, at: will, counts: { expired: 1 } });
  return entries;
}

const isZero = (counts: Partial<Counts>) => COUNT_COLUMNS.every((c) => !counts[c]);

/**
 * Adds `entries` to the kept counts (by account and local day of the panel's time zone), in the
 * caller's transaction (repo.ts addCounts). Call it late in the transaction: every change shares
 * the everything-scope's row of the day.
 */
export async function tally({ config, database }: Pick<Deps, 'config' | 'database'>, trx: Tx, entries: TallyEntry[]): Promise<void> {
  const byKey = new Map<string, { account: number; day: number; month: number; counts: Counts }>();
  for (const e of entries) {
    if (isZero(e.counts)) continue;
    const day = localDay(e.at, config.timeZone);
    const key = `${e.account}:${day}`;
    const row = byKey.get(key) ?? { account: e.account, day, month: monthOfDay(day), counts: Object.fromEntries(COUNT_COLUMNS.map((c) => [c, 0])) as Counts };
    byKey.set(key, row);
    for (const c of COUNT_COLUMNS) row.counts[c] += e.counts[c] ?? 0;
  }
  if (byKey.size > 0) await addCounts(trx, database.dialect, [...byKey.values()]);
}
