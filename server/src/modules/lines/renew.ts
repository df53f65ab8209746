import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { findPackage } from '../packages/service.ts';
import { type LineUpdate, changeLine } from './line-change.ts';
import type { LineRow } from './repo.ts';
import { DAY, addDuration, renewalBase } from './rules.ts';

// Renewals (flash and by package) and extra days. What each implies (ledger, log, event, P2P,
// dashboard) is applyLineChange's (line-change.ts).

export function renew(deps: Deps, actor: AuthUser, id: number, body: { package_id?: number; months?: number }, key?: string) {
  return changeLine(
    deps,
    actor,
    id,
    async (trx, line) => {
      if (body.package_id !== undefined) return renewalByPackage(trx, line, body.package_id, key);
      // Flash renew: one month at max_connections credits.
      if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
      return {
        set: { exp_date: addDuration(renewalBase(line.exp_date, nowSec()), 1, 'months') },
        charge: { amount: line.max_connections, reason: 'line_flash_renew', key },
        log: { action: 'user_flash_renew', value: '1 month' },
        event: 'line.renewed',
      };
    },
    { key, fingerprint: ['renew', body] },
  );
}

/**
 * A line's renewal by a package, as the panel's renewal does it: the package's term from the later
 * of now and the expiry, screens x official credits charged (a 2+ screen package fixes the
 * screens), a trial becoming a paid line. PIX payments renew through this too.
 */
export async function renewalByPackage(trx: Tx, line: LineRow, packageId: number, key?: string): Promise<Omit<LineUpdate, 'line'> & { set: { exp_date: number } }> {
  const pkg = await findPackage(trx, packageId);
  if (!pkg || pkg.is_trial === 1) throw validation('package_id', 'choose an existing non-trial package', 'UNKNOWN_CHOICE');
  const screens = pkg.max_connections >= 2 ? pkg.max_connections : line.max_connections;
  const now = nowSec();
  return {
    set: {
      // a trial's remaining hours are not added to the paid term: it starts now
      exp_date: addDuration(renewalBase(line.exp_date, now, line.is_trial === 1), pkg.official_duration, pkg.official_duration_in),
      package_id: pkg.id,
      is_trial: 0, // a renewed trial becomes a paid line
      max_connections: screens,
      ...(pkg.id !== line.package_id ? { bouquet: JSON.stringify(pkg.bouquets) } : {}),
    },
    charge: { amount: screens * pkg.official_credits, reason: 'line_renew', key },
    log: { action: 'user_renew', value: pkg.package_name },
    event: 'line.renewed',
  };
}

export function extendDays(deps: Deps, actor: AuthUser, id: number, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > 3) {
    throw appError('VALIDATION', { field: 'days', params: { message: 'Please enter the days correctly (between 1 and 3).' } });
  }
  return changeLine(deps, actor, id, async (_trx, line) => {
    if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
    const t = nowSec();
    if (line.last_extended_at !== null && line.last_extended_at > t - 30 * DAY) {
      throw appError('EXTEND_LIMIT_REACHED');
    }
    return { set: { exp_date: renewalBase(line.exp_date, t) + days * DAY, last_extended_at: t }, log: { action: 'user_extend', value: `${days} days`, value_int: days } };
  });
}
