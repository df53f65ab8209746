import type { Dialect } from '../../db/connection.ts';
import { type Tx, withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { type TrialTable, trialsSince } from '../../repos/trials-repo.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { lockResellers, runIdempotent } from '../credits/service.ts';
import { findPackage } from '../packages/service.ts';
import { intSetting } from '../settings/service.ts';
import { type LineCreation, applyLineChange } from './line-change.ts';
import type { LineRow } from './repo.ts';
import { DAY, addDuration, randomCredential } from './rules.ts';

// New lines: paid creations, trials and lines migrated from another provider. What a creation
// implies (ledger, log, event, dashboard) is applyLineChange's (line-change.ts).

export interface CreateLineInput {
  username?: string;
  password?: string;
  package_id: number;
  max_connections?: number;
  whatsapp?: string;
  email?: string;
  opt_out_reminders?: boolean;
  reseller_notes?: string;
  bouquet?: string[];
}

type TrialInput = Omit<CreateLineInput, 'max_connections' | 'bouquet'>;

/**
 * The row of a new paid line or trial: enabled, on the HTTP system, with the username and password
 * given, else generated ones (applyLineChange draws the username; a given one taken is a 409).
 */
function newLineValues(
  input: TrialInput,
  line: { package_id: number; created_at: number; exp_date: number; is_trial: 0 | 1; max_connections: number; bouquet: string[] },
): LineCreation['create'] {
  return {
    ...line,
    username: input.username?.trim() || undefined,
    password: input.password?.trim() || randomCredential(),
    enabled: 1,
    bouquet: JSON.stringify(line.bouquet),
    reseller_notes: input.reseller_notes?.trim() || null,
    whatsapp: input.whatsapp?.trim() || null,
    email: input.email?.trim() || null,
    opt_out_reminders: input.opt_out_reminders ? 1 : 0,
    system: 1,
  };
}

/**
 * What a paid creation from package `packageId` costs and gives (lines and P2P accounts alike):
 * screens x official_credits for official_duration from `from`. A package of 2+ screens fixes
 * them; otherwise the caller picks 1..user_limit_screen.
 */
export async function paidTerms(trx: Tx, packageId: number, requestedScreens: number | undefined, from: number) {
  const pkg = await findPackage(trx, packageId);
  if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package', 'UNKNOWN_CHOICE');
  const screens = pkg.max_connections >= 2 ? pkg.max_connections : (requestedScreens ?? 1);
  // One screen is always allowed: the limit is read only when more are asked for.
  if (pkg.max_connections < 2 && screens !== 1) {
    const limit = Math.max(1, await intSetting(trx, 'user_limit_screen'));
    if (!Number.isInteger(screens) || screens < 1 || screens > limit) throw validation('max_connections', `must be between 1 and ${limit}`, 'OUT_OF_RANGE', { min: 1, max: limit });
  }
  return { pkg, screens, cost: screens * pkg.official_credits, expiresAt: addDuration(from, pkg.official_duration, pkg.official_duration_in) };
}

/** A free trial from a trial package: its screens and its trial duration from `from`. */
export async function trialTerms(trx: Tx, packageId: number, from: number) {
  const pkg = await findPackage(trx, packageId);
  if (pkg?.is_trial !== 1 || pkg.is_official !== 0) throw validation('package_id', 'choose an existing trial package', 'UNKNOWN_CHOICE');
  return { pkg, screens: Math.max(1, pkg.max_connections), expiresAt: addDuration(from, pkg.trial_duration, pkg.trial_duration_in) };
}

/**
 * The daily trial limit (`trial_limit_per_day`, rolling 24 hours, admins exempt), counted over the
 * caller's trials kept in `table`. The caller's row is locked first so a count and the insert after
 * it cannot race another trial.
 */
export async function assertTrialAllowed(trx: Tx, dialect: Dialect, actor: AuthUser, now: number, table: TrialTable) {
  if (actor.type === 'admin') return;
  await lockResellers(trx, dialect, [actor.id]);
  const limit = await intSetting(trx, 'trial_limit_per_day');
  if ((await trialsSince(trx, table, actor.id, now - DAY)) >= limit) throw appError('TRIAL_LIMIT_REACHED', { params: { limit } });
}

/**
 * A paid line: its reads take no lock, and its writes are guarded by their own statements (the
 * guarded debit, the unique username and idempotency key), all in one transaction.
 */
export async function create(deps: Deps, actor: AuthUser, input: CreateLineInput, key?: string) {
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['create-line', input] }, 201, async (trx) => {
    const t = nowSec();
    const { pkg, screens, cost, expiresAt } = await paidTerms(trx, input.package_id, input.max_connections, t);
    const chosenBouquet = input.bouquet && (await assertBouquetIds(trx, input.bouquet, 'bouquet'));
    const { line } = await applyLineChange(deps, trx, actor, {
      create: newLineValues(input, { package_id: pkg.id, created_at: t, exp_date: expiresAt, is_trial: 0, max_connections: screens, bouquet: chosenBouquet || pkg.bouquets }),
      charge: { amount: cost, reason: 'line_create', key },
      log: { action: 'user_create', value: pkg.package_name },
      event: 'line.created',
    });
    return line as LineRow;
  });
  return outcome.body;
}

export async function createTrial(deps: Deps, actor: AuthUser, input: TrialInput) {
  return withTx(deps.database, async (trx) => (await createTrialIn(deps, trx, actor, input)).line);
}

/**
 * A trial line in the caller's transaction. `dailyLimit: false` leaves the panel's
 * `trial_limit_per_day` to the caller, which counts its own (the public trial page's `per_day`).
 * `charged` is what the creation took from the actor (a trial is free: 0), for an undo's refund.
 */
export async function createTrialIn(deps: Deps, trx: Tx, actor: AuthUser, input: TrialInput, opts: { dailyLimit?: boolean; logAction?: string; via?: 'trial_page' | 'telegram' } = {}) {
  const t = nowSec();
  const { pkg, screens, expiresAt } = await trialTerms(trx, input.package_id, t);
  if (opts.dailyLimit !== false) await assertTrialAllowed(trx, deps.database.dialect, actor, t, 'lines');
  const { line, charged } = await applyLineChange(deps, trx, actor, {
    create: newLineValues(input, { package_id: pkg.id, created_at: t, exp_date: expiresAt, is_trial: 1, max_connections: screens, bouquet: pkg.bouquets }),
    log: { action: opts.logAction ?? 'trial_create', value: pkg.package_name },
    event: 'line.created',
    via: opts.via,
  });
  return { line: line as LineRow, charged, pkg };
}

export interface MigratedLineInput {
  username: string;
  password: string;
  package_id: number;
  /** already checked and capped by the migration rules (modules/migration) */
  exp_date: number;
}

/**
 * A line moved from another provider: created like a paid line with the migration package (its
 * screens and price), but with the credentials and the expiry it had there.
 */
export async function createMigrated(deps: Deps, actor: AuthUser, input: MigratedLineInput, note: string, key?: string) {
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['migrate-line', input] }, 201, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose one of the migration packages');
    const screens = Math.max(1, pkg.max_connections);
    const { line } = await applyLineChange(deps, trx, actor, {
      create: newLineValues(
        { username: input.username, password: input.password, package_id: pkg.id },
        { package_id: pkg.id, created_at: nowSec(), exp_date: input.exp_date, is_trial: 0, max_connections: screens, bouquet: pkg.bouquets },
      ),
      charge: { amount: screens * pkg.official_credits, reason: 'line_migrate', key },
      log: { action: 'user_migrate', value: `${pkg.package_name}; ${note}`.slice(0, 250) },
      event: 'line.created',
    });
    return line as LineRow;
  });
  return outcome.body;
}
