import type { Kysely } from 'kysely';
import { withTx } from '../../db/tx.ts';
import type { DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { AppError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../auth/service.ts';
import { assertBouquetIds } from '../bouquets/service.ts';
import { lockResellers } from '../credits/ledger.ts';
import { runIdempotent } from '../credits/idempotency.ts';
import { invalidateFor } from '../dashboard/cache.ts';
import { writeLog } from '../logs/write.ts';
import { findPackage } from '../packages/service.ts';
import { intSetting } from '../settings/service.ts';
import { charge, now } from './change.ts';
import * as repo from './repo.ts';
import { DAY, addDuration, randomCredential } from './rules.ts';
import { insertLine } from './write-repo.ts';

export interface CreateLineInput {
  username?: string;
  password?: string;
  package_id: number;
  max_connections?: number;
  whatsapp?: string;
  reseller_notes?: string;
  bouquet?: string[];
}

type TrialInput = Omit<CreateLineInput, 'max_connections' | 'bouquet'>;

async function credentials(trx: Kysely<DB>, input: { username?: string; password?: string }) {
  let username = input.username?.trim();
  if (username) {
    if (await repo.usernameExists(trx, username)) throw new AppError(409, 'USERNAME_TAKEN', 'This username is already taken', 'username');
  } else {
    do username = randomCredential();
    while (await repo.usernameExists(trx, username));
  }
  return { username, password: input.password?.trim() || randomCredential() };
}

/** The one line insert of paid lines and trials: the caller's, enabled, on the HTTP system, with its credentials. */
async function insertNewLine(
  trx: Kysely<DB>,
  actor: AuthUser,
  input: TrialInput,
  line: { package_id: number; created_at: number; exp_date: number; is_trial: 0 | 1; max_connections: number; bouquet: string[] },
) {
  const { username, password } = await credentials(trx, input);
  const id = await insertLine(trx, {
    ...line,
    member_id: actor.id,
    username,
    password,
    enabled: 1,
    bouquet: JSON.stringify(line.bouquet),
    reseller_notes: input.reseller_notes?.trim() || null,
    whatsapp: input.whatsapp?.trim() || null,
    system: 1,
  });
  return { id, username };
}

export async function create(deps: Deps, actor: AuthUser, input: CreateLineInput, key?: string) {
  const outcome = await runIdempotent(deps.database, { actorId: actor.id, key, fingerprint: ['create-line', input] }, 201, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package');
    const limit = await intSetting(trx, 'user_limit_screen');
    const screens = pkg.max_connections >= 2 ? pkg.max_connections : (input.max_connections ?? 1);
    if (pkg.max_connections < 2 && (screens < 1 || screens > Math.max(1, limit))) {
      throw validation('max_connections', `must be between 1 and ${Math.max(1, limit)}`);
    }
    const bouquet = input.bouquet ? await assertBouquetIds(trx, input.bouquet, 'bouquet') : pkg.bouquets;
    const t = now();
    const { id, username } = await insertNewLine(trx, actor, input, {
      package_id: pkg.id,
      created_at: t,
      exp_date: addDuration(t, pkg.official_duration, pkg.official_duration_in),
      is_trial: 0,
      max_connections: screens,
      bouquet,
    });
    const cost = await charge(trx, actor, screens * pkg.official_credits, 'line_create', id, key);
    await writeLog(trx, { type_log: 'user', action: 'user_create', actor_id: actor.id, reseller_id: actor.id, target_user: username, value: pkg.package_name, value_int: cost });
    return (await repo.findVisibleLine(trx, actor, id))!;
  });
  await invalidateFor(deps.database.db, actor.id);
  return outcome.body;
}

export async function createTrial(deps: Deps, actor: AuthUser, input: TrialInput) {
  const line = await withTx(deps.database, async (trx) => {
    const pkg = await findPackage(trx, input.package_id);
    if (pkg?.is_trial !== 1 || pkg.is_official !== 0) throw validation('package_id', 'choose an existing trial package');
    const t = now();
    if (actor.type !== 'admin') {
      await lockResellers(trx, deps.database.dialect, [actor.id]); // count-then-insert must not race
      const limit = await intSetting(trx, 'trial_limit_per_day');
      if ((await repo.trialsSince(trx, actor.id, t - DAY)) >= limit) {
        throw new AppError(409, 'TRIAL_LIMIT_REACHED', `Trial limit reached: ${limit} per day`);
      }
    }
    const { id, username } = await insertNewLine(trx, actor, input, {
      package_id: pkg.id,
      created_at: t,
      exp_date: addDuration(t, pkg.trial_duration, pkg.trial_duration_in),
      is_trial: 1,
      max_connections: Math.max(1, pkg.max_connections),
      bouquet: pkg.bouquets,
    });
    await writeLog(trx, { type_log: 'user', action: 'trial_create', actor_id: actor.id, reseller_id: actor.id, target_user: username, value: pkg.package_name });
    return (await repo.findVisibleLine(trx, actor, id))!;
  });
  await invalidateFor(deps.database.db, actor.id);
  return line;
}
