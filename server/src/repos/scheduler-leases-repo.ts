import type { Tx } from '../db/tx.ts';

// Named leases (scheduler_leases): one process at a time runs a scheduler (the webhook expiry scan,
// the reminders), across WORKERS processes and replicas; a dead holder's lease runs out.

/** Takes or keeps the named lease for `seconds`; false while another holder's lease runs. */
export async function takeLease(db: Tx, name: string, holder: string, now: number, seconds: number): Promise<boolean> {
  const row = await db
    .insertInto('scheduler_leases')
    .values({ name, holder, until: now + seconds })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, until: now + seconds })
        .where((eb) => eb.or([eb('scheduler_leases.until', '<', now), eb('scheduler_leases.holder', '=', holder)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row !== undefined;
}
