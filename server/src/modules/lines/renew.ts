import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { findPackage } from '../packages/service.ts';
import { charge, logChange, mutate } from './change.ts';
import { DAY, addDuration, renewalBase } from './rules.ts';
import type { LineRow } from './repo.ts';
import { updateLine } from './write-repo.ts';

export function renew(deps: Deps, actor: AuthUser, id: number, body: { package_id?: number; months?: number }, key?: string) {
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      const t = nowSec();
      if (body.package_id === undefined) {
        // Flash renew: one month at max_connections credits.
        if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
        const cost = await charge(trx, actor, line.max_connections, 'line_flash_renew', line.id, key);
        await updateLine(trx, line.id, { exp_date: addDuration(renewalBase(line.exp_date, t), 1, 'months') });
        await logChange(trx, actor, line, 'user_flash_renew', '1 month', cost);
        return;
      }
      await renewByPackage(trx, actor, line, body.package_id, key);
    },
    key,
    ['renew', body],
    { event: 'line.renewed' },
  );
}

/**
 * Renews a line by a package inside the caller's transaction, as the panel's renewal does: the
 * package's term from the later of now and the expiry, screens x official credits charged to the
 * actor (ledger row), the log row. PIX payments renew through this too (payments/apply.ts).
 */
export async function renewByPackage(trx: Kysely<DB>, actor: AuthUser, line: LineRow, packageId: number, key?: string) {
  const t = nowSec();
  const pkg = await findPackage(trx, packageId);
  if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package');
  const screens = pkg.max_connections >= 2 ? pkg.max_connections : line.max_connections;
  const cost = await charge(trx, actor, screens * pkg.official_credits, 'line_renew', line.id, key);
  const expDate = addDuration(renewalBase(line.exp_date, t), pkg.official_duration, pkg.official_duration_in);
  await updateLine(trx, line.id, {
    exp_date: expDate,
    package_id: pkg.id,
    is_trial: 0, // a renewed trial becomes a paid line
    max_connections: screens,
    ...(pkg.id !== line.package_id ? { bouquet: JSON.stringify(pkg.bouquets) } : {}),
  });
  await logChange(trx, actor, line, 'user_renew', pkg.package_name, cost);
  return { expDate, cost };
}

export function extendDays(deps: Deps, actor: AuthUser, id: number, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > 3) {
    throw appError('VALIDATION', { field: 'days', params: { message: 'Please enter the days correctly (between 1 and 3).' } });
  }
  return mutate(deps, actor, id, async (trx, line) => {
    if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
    const t = nowSec();
    if (line.last_extended_at !== null && line.last_extended_at > t - 30 * DAY) {
      throw appError('EXTEND_LIMIT_REACHED');
    }
    await updateLine(trx, line.id, { exp_date: renewalBase(line.exp_date, t) + days * DAY, last_extended_at: t });
    await logChange(trx, actor, line, 'user_extend', `${days} days`, days);
  });
}
