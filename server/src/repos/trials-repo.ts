import type { Tx } from '../db/tx.ts';

/** Where trials of each kind are kept: lines and P2P accounts share the one daily trial limit. */
export type TrialTable = 'lines' | 'p2p_accounts';

/** The trials of one kind a reseller created since `since`; deleted ones count too, so deleting a trial never frees the limit. */
export async function trialsSince(db: Tx, table: TrialTable, memberId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('is_trial', '=', 1)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
