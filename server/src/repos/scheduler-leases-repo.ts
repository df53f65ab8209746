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

/**
 * Claims the named slot when it is due (its `until` passed, whoever held it) for `seconds`: of the
 * processes asking at once, one gets it. A slot that never existed is due.
 */
export async function claimDueSlot(db: Tx, name: string, holder: string, now: number, seconds: number): Promise<boolean> {
  const row = await db
    .insertInto('scheduler_leases')
    .values({ name, holder, until: now + seconds })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, until: now + seconds }).where('scheduler_leases.until', '<', now))
    .returning('holder')
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets when the named slot is next due, if `holder` still holds it. */
export async function setSlotDue(db: Tx, name: string, holder: string, until: number): Promise<void> {
  await db.updateTable('scheduler_leases').set({ until }).where('name', '=', name).where('holder', '=', holder).execute();
}
