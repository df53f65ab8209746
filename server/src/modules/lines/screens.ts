import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { intSetting } from '../settings/service.ts';
import { changeLine } from './line-change.ts';
import { monthsRemaining } from './rules.ts';

/** Adds (paid: per month remaining) or removes screens, within the user_limit_screen setting. */
export function screens(deps: Deps, actor: AuthUser, id: number, amount: number, key?: string) {
  if (amount === 0) throw validation('amount', 'must not be 0');
  return changeLine(
    deps,
    actor,
    id,
    async (trx, line) => {
      if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
      const limit = Math.max(1, await intSetting(trx, 'user_limit_screen'));
      const next = line.max_connections + amount;
      if (next < 1 || next > limit) throw validation('amount', `screens must stay between 1 and ${limit}`, 'OUT_OF_RANGE', { min: 1, max: limit });
      return {
        set: { max_connections: next },
        // removing screens is free; the log's value_int is then 0
        charge: { amount: amount > 0 ? amount * monthsRemaining(line.exp_date, nowSec()) : 0, reason: 'line_screens', key },
        log: { action: 'user_screens', value: `${line.max_connections}->${next}` },
      };
    },
    { key, fingerprint: ['screens', amount] },
  );
}
