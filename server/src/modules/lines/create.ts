import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/connection.ts';
import { withTx } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { emitLineEvent } from '../webhooks/emit.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { type TrialTable, trialsSince } from '../../repos/trials-repo.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { chargeable, currentBalance, lockResellers } from '../credits/ledger.ts';
import { runIdempotent } from '../credits/idempotency.ts';
import { invalidateFor } from '../dashboard/cache.ts';
import { writeLog } from '../logs/write.ts';
import { findPackage } from '../packages/service.ts';
import { intSetting } from '../settings/service.ts';
import { charge } from './change.ts';
import { DAY, addDuration, randomCredential } from './rules.ts';
import { insertLine } from './write-repo.ts';

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
 * The one line insert of paid lines and trials: the caller's, enabled, on the HTTP system, with the
 * username and password given, else generated ones. A username given and taken is a 409; a
 * generated one taken is drawn again. The insert itself finds out (its unique key), so a creation
 * sends no lookup before it.
 */
async function insertNewLine(
  trx: Transaction<DB>,
  actor: AuthUser,
  input: TrialInput,
  line: { package_id: number; created_at: number; exp_date: number; is_trial: 0 | 1; max_connections: number; bouquet: string[] },
) {
  const given = input.username?.trim();
  const values = {
    ...line,
    member_id: actor.id,
    password: input.password?.trim() || randomCredential(),
    enabled: 1,
    bouquet: JSON.stringify(line.bouquet),
    reseller_notes: input.reseller_notes?.trim() || null,
    whatsapp: input.whatsapp?.trim() || null,
    email: input.email?.trim() || null,
    opt_out_reminders: input.opt_out_reminders ? 1 : 0,
    system: 1,
  };
  for (;;) {
    // the caller owns it: its username is the line's master_username
    const row = await insertLine(trx, { ...values, username: given || randomCredential() }, actor.username);
    if (row) return row;
    if (given) throw appError('USERNAME_TAKEN');
  }
}

/**
 * What a paid creation from package `packageId` costs and gives (lines and P2P accounts alike):
 * screens x official_credits for official_duration from `from`. A package of 2+ screens fixes
 * them; otherwise the caller picks 1..user_limit_screen.
 */
export async function paidTerms(trx: Kysely<DB>, packageId: number, requestedScreens: number | undefined, from: number) {
  const pkg = await findPackage(trx, packageId);
  if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package');
  const screens = pkg.max_connections >= 2 ? pkg.max_connections : (requestedScreens ?? 1);
  // One screen is always allowed: the limit is read only when more are asked for.
  if (pkg.max_connections < 2 && screens !== 1) {
    const limit = Math.max(1, await intSetting(trx, 'user_limit_screen'));
    if (!Number.isInteger(screens) || screens < 1 || screens > limit) throw validation('max_connections', `must be between 1 and ${limit}`);
  }
  return { pkg, screens, cost: screens * pkg.official_credits, expiresAt: addDuration(from, pkg.official_duration, pkg.official_duration_in) };
}

/** A free trial from a trial package: its screens and its trial duration from `from`. */
export async function trialTerms(trx: Kysely<DB>, packageId: number, from: number) {
  const pkg = await findPackage(trx, packageId);
  if (pkg?.is_trial !== 1 || pkg.is_official !== 0) throw validation('package_id', 'choose an existing trial package');
  return { pkg, screens: Math.max(1, pkg.max_connections), expiresAt: addDuration(from, pkg.trial_duration, pkg.trial_duration_in) };
}

/**
 * The daily trial limit (`trial_limit_per_day`, rolling 24 hours, admins exempt), counted over the
 * caller's trials kept in `table`. The caller's row is locked first so a count and the insert after
 * it cannot race another trial.
 */
export async function assertTrialAllowed(trx: Kysely<DB>, dialect: Dialect, actor: AuthUser, now: number, table: TrialTable) {
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
    // A creation the balance cannot pay is refused before it writes anything: a reseller at 0
    // credits sending creations in a loop would otherwise insert a line (and its search-index rows)
    // to undo it each time, and on SQLite hold the one write lock meanwhile (the starvation test:
    // another reseller kept 0.31 of its rate on SQLite, and 3.5 times its p99 on PostgreSQL). The
    // guarded debit below still decides when the balance is enough.
    if (chargeable(actor, cost) > (await currentBalance(trx, actor.id))) throw appError('INSUFFICIENT_CREDITS');
    const chosenBouquet = input.bouquet && (await assertBouquetIds(trx, input.bouquet, 'bouquet'));
    const line = await insertNewLine(trx, actor, input, { package_id: pkg.id, created_at: t, exp_date: expiresAt, is_trial: 0, max_connections: screens, bouquet: chosenBouquet || pkg.bouquets });
    // On PostgreSQL the guarded debit locks the caller's balance row and the cache stamp the
    // admins' cache rows, shared by every spend, until COMMIT: they come last, the stamp at the end.
    await writeLog(trx, { type_log: 'user', action: 'user_create', actor_id: actor.id, reseller_id: actor.id, target_user: line.username, value: pkg.package_name, value_int: chargeable(actor, cost) });
    await emitLineEvent(trx, actor.id, 'line.created', line);
    await charge(trx, actor, cost, 'line_create', line.id, key);
    await invalidateFor(trx, actor.id);
    return line;
  });
  return outcome.body;
}

export async function createTrial(deps: Deps, actor: AuthUser, input: TrialInput) {
  const line = await withTx(deps.database, async (trx) => {
    const t = nowSec();
    const { pkg, screens, expiresAt } = await trialTerms(trx, input.package_id, t);
    await assertTrialAllowed(trx, deps.database.dialect, actor, t, 'lines');
    const line = await insertNewLine(trx, actor, input, {
      package_id: pkg.id,
      created_at: t,
      exp_date: expiresAt,
      is_trial: 1,
      max_connections: screens,
      bouquet: pkg.bouquets,
    });
    await writeLog(trx, { type_log: 'user', action: 'trial_create', actor_id: actor.id, reseller_id: actor.id, target_user: line.username, value: pkg.package_name });
    await emitLineEvent(trx, actor.id, 'line.created', line);
    await invalidateFor(trx, actor.id); // last: see create
    return line;
  });
  return line;
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
    const line = await insertNewLine(trx, actor, { username: input.username, password: input.password, package_id: pkg.id }, {
      package_id: pkg.id,
      created_at: nowSec(),
      exp_date: input.exp_date,
      is_trial: 0,
      max_connections: screens,
      bouquet: pkg.bouquets,
    });
    await emitLineEvent(trx, actor.id, 'line.created', line);
    const cost = await charge(trx, actor, screens * pkg.official_credits, 'line_migrate', line.id, key);
    await writeLog(trx, { type_log: 'user', action: 'user_migrate', actor_id: actor.id, reseller_id: actor.id, target_user: line.username, value: `${pkg.package_name}; ${note}`.slice(0, 250), value_int: cost });
    await invalidateFor(trx, actor.id); // last: see create
    return line;
  });
  return outcome.body;
}
