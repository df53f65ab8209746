import type { Tx } from '../db/tx.ts';

/** Where trials of each kind are kept: lines and P2P accounts share the one daily trial limit. */
export type TrialTable = 'lines' | 'p2p_accounts';

/**
 * The trials of one kind a reseller created since `since`; deleted ones count too, so deleting a
 * trial never frees the limit. Lines given by the account's public trial page (a trial_requests
 * row names them) are not counted: the page has its own daily limit (modules/trialpage).
 */
export async function trialsSince(db: Tx, table: TrialTable, memberId: number, since: number): Promise<number> {
  const row =
    table === 'lines'
      ? await db
          .selectFrom('lines')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('member_id', '=', memberId)
          .where('is_trial', '=', 1)
          .where('created_at', '>=', since)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('trial_requests as tr').select('tr.id').whereRef('tr.line_id', '=', 'lines.id'))))
          .executeTakeFirst()
      : await db
          .selectFrom('p2p_accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('member_id', '=', memberId)
          .where('is_trial', '=', 1)
          .where('created_at', '>=', since)
          .executeTakeFirst();
  return Number(row?.n ?? 0);
}
