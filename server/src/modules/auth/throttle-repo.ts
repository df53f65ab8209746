import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';

export interface ThrottleRule {
  /** attempts counted before delays start */
  limit: number;
  /** the first delay; doubles with each further attempt, up to maxDelaySeconds */
  delaySeconds: number;
  maxDelaySeconds: number;
  /** a counter not touched for this long starts over */
  windowSeconds: number;
}

const col = (name: string) => sql.ref(`login_throttle.${name}`);

/** The keys refused right now, with when each opens again. */
export function findBlocked(db: Tx, keys: string[], now: number) {
  return db.selectFrom('login_throttle').select(['key', 'blocked_until']).where('key', 'in', keys).where('blocked_until', '>', now).execute();
}

/**
 * One atomic statement per key (an upsert, so parallel requests and other processes queue on the
 * row): a blocked key refuses the attempt without counting it; otherwise the attempt is counted
 * and, from the limit on, the key is blocked for a delay that doubles with every attempt.
 */
export async function countAttempt(db: Tx, key: string, rule: ThrottleRule, now: number) {
  const n = (v: number) => sql.lit(Math.floor(v));
  const cap = Math.max(rule.maxDelaySeconds, rule.delaySeconds);
  const blocked = sql`${col('blocked_until')} > ${n(now)}`;
  const stale = sql`${col('last_at')} <= ${n(now - rule.windowSeconds)}`;
  const count = sql`(case when ${stale} then 1 else ${col('failures')} + 1 end)`;
  const doubled = sql`(case when ${stale} then 0 else ${col('delay_seconds')} * 2 end)`;
  const delay = sql`(case when ${count} < ${n(rule.limit)} then 0 when ${doubled} < ${n(rule.delaySeconds)} then ${n(rule.delaySeconds)} when ${doubled} > ${n(cap)} then ${n(cap)} else ${doubled} end)`;
  const firstDelay = rule.limit <= 1 ? rule.delaySeconds : 0;
  const row = await db
    .insertInto('login_throttle')
    .values({ key, failures: 1, delay_seconds: firstDelay, blocked_until: now + firstDelay, last_at: now, refused: 0 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when ${blocked} then ${col('failures')} else ${count} end`,
        delay_seconds: sql`case when ${blocked} then ${col('delay_seconds')} else ${delay} end`,
        blocked_until: sql`case when ${blocked} then ${col('blocked_until')} else ${n(now)} + ${delay} end`,
        last_at: sql`case when ${blocked} then ${col('last_at')} else ${n(now)} end`,
        refused: sql`case when ${blocked} then ${col('refused')} + 1 else 0 end`,
      }),
    )
    .returning(['refused', 'blocked_until'])
    .executeTakeFirstOrThrow();
  return { refused: row.refused > 0, blockedUntil: row.blocked_until };
}

/** Takes one counted attempt back (it succeeded, or another key refused it); below the limit the key opens. */
export async function takeBackAttempt(db: Tx, key: string, limit: number): Promise<void> {
  const below = sql`${col('failures')} - 1 < ${sql.lit(Math.floor(limit))}`;
  await db
    .updateTable('login_throttle')
    .set({
      failures: sql`case when ${col('failures')} > 0 then ${col('failures')} - 1 else 0 end`,
      delay_seconds: sql`case when ${below} then 0 else ${col('delay_seconds')} end`,
      blocked_until: sql`case when ${below} then 0 else ${col('blocked_until')} end`,
    })
    .where('key', '=', key)
    .execute();
}

export async function clearThrottle(db: Tx, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** Forgets counters that are past their window and not blocking anything. */
export async function pruneThrottle(db: Tx, staleBefore: number, now: number): Promise<void> {
  await db.deleteFrom('login_throttle').where('last_at', '<', staleBefore).where('blocked_until', '<=', now).execute();
}

export function findKnownDevice(db: Tx, tokenHash: string, now: number) {
  return db
    .selectFrom('known_devices')
    .innerJoin('resellers', 'resellers.id', 'known_devices.reseller_id')
    .select(['known_devices.id', 'known_devices.reseller_id', 'resellers.username'])
    .where('known_devices.token_hash', '=', tokenHash)
    .where('known_devices.expires_at', '>', now)
    .executeTakeFirst();
}

export async function extendKnownDevice(db: Tx, id: number, now: number, expiresAt: number): Promise<void> {
  await db.updateTable('known_devices').set({ last_used_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Adds a device and keeps only the reseller's newest `keep` unexpired ones. */
export async function addKnownDevice(
  db: Tx,
  row: { reseller_id: number; token_hash: string; created_at: number; expires_at: number },
  keep: number,
): Promise<void> {
  await db
    .insertInto('known_devices')
    .values({ ...row, last_used_at: row.created_at })
    .execute();
  const newest = db
    .selectFrom('known_devices')
    .select('id')
    .where('reseller_id', '=', row.reseller_id)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  await db
    .deleteFrom('known_devices')
    .where('reseller_id', '=', row.reseller_id)
    .where((eb) => eb.or([eb('expires_at', '<=', row.created_at), eb('id', 'not in', newest)]))
    .execute();
}
