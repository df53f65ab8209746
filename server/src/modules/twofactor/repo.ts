import type { Tx } from '../../db/tx.ts';

const changed = (res: { numUpdatedRows: bigint }) => Number(res.numUpdatedRows) > 0;

/** A key the server made for itself, created once (the first writer wins across processes). */
export async function serverKey(db: Tx, name: string, make: () => string): Promise<string> {
  await db
    .insertInto('server_keys')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_keys').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

export function findTwoFactor(db: Tx, resellerId: number) {
  return db.selectFrom('two_factor').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();
}

export async function isEnabled(db: Tx, resellerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor')
    .select('reseller_id')
    .where('reseller_id', '=', resellerId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Starts (or restarts) an enrolment; an enabled one is left alone. Returns false when 2FA is already on. */
export async function savePending(db: Tx, resellerId: number, secretEnc: string, now: number): Promise<boolean> {
  const res = await db
    .insertInto('two_factor')
    .values({ reseller_id: resellerId, secret_enc: secretEnc, enabled_at: null, last_step: null, created_at: now })
    .onConflict((oc) =>
      oc
        .column('reseller_id')
        .doUpdateSet({ secret_enc: secretEnc, last_step: null, created_at: now })
        .where('two_factor.enabled_at', 'is', null),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function enable(db: Tx, resellerId: number, step: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor')
    .set({ enabled_at: now, last_step: step })
    .where('reseller_id', '=', resellerId)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return changed(res);
}

/** Records `step` as used; false when this step (or a later one) was already accepted: a replayed code. */
export async function claimStep(db: Tx, resellerId: number, step: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('reseller_id', '=', resellerId)
    .where('enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return changed(res);
}

export async function replaceRecoveryCodes(db: Tx, resellerId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('reseller_id', '=', resellerId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ reseller_id: resellerId, code_hash, used_at: null })))
    .execute();
}

/** Spends one recovery code; false when it is unknown or already used. */
export async function useRecoveryCode(db: Tx, resellerId: number, codeHash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('reseller_id', '=', resellerId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return changed(res);
}

export async function recoveryCodesLeft(db: Tx, resellerId: number): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('reseller_id', '=', resellerId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the secret, the recovery codes and open challenges. Returns whether there was a secret. */
export async function removeTwoFactor(db: Tx, resellerId: number): Promise<boolean> {
  await db.deleteFrom('two_factor_recovery_codes').where('reseller_id', '=', resellerId).execute();
  await db.deleteFrom('two_factor_challenges').where('reseller_id', '=', resellerId).execute();
  const res = await db.deleteFrom('two_factor').where('reseller_id', '=', resellerId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function createChallenge(
  db: Tx,
  row: { token_hash: string; reseller_id: number; remember_me: number; expires_at: number; created_at: number },
): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<', row.created_at - 3600).execute();
  await db.insertInto('two_factor_challenges').values(row).execute();
}

export function findChallenge(db: Tx, tokenHash: string) {
  return db.selectFrom('two_factor_challenges').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Counts one code attempt on a live challenge before the code is checked; false when none is left. */
export async function takeChallengeAttempt(db: Tx, id: number, maxAttempts: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('two_factor_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return changed(res);
}

/** Ends a challenge; false when another request already used it. */
export async function useChallenge(db: Tx, id: number, now: number): Promise<boolean> {
  const res = await db.updateTable('two_factor_challenges').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return changed(res);
}

export async function passwordHash(db: Tx, resellerId: number): Promise<string | undefined> {
  const row = await db.selectFrom('resellers').select('password_hash').where('id', '=', resellerId).executeTakeFirst();
  return row?.password_hash;
}

/** The reseller a challenge belongs to, when it may still sign in. */
export function activeReseller(db: Tx, resellerId: number) {
  return db
    .selectFrom('resellers')
    .innerJoin('groups', 'groups.group_id', 'resellers.member_group_id')
    .select(['resellers.id', 'resellers.username', 'groups.type'])
    .where('resellers.id', '=', resellerId)
    .where('resellers.status', '=', 1)
    .where('resellers.deleted_at', 'is', null)
    .executeTakeFirst();
}
