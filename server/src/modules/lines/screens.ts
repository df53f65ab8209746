import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { intSetting } from '../settings/service.ts';
import { charge, logChange, mutate } from './change.ts';
import { monthsRemaining } from './rules.ts';
import { updateLine } from './write-repo.ts';

/** Adds (paid: per month remaining) or removes screens, within the user_limit_screen setting. */
export function screens(deps: Deps, actor: AuthUser, id: number, amount: number, key?: string) {
  if (amount === 0) throw validation('amount', 'must not be 0');
  return mutate(
    deps,
    actor,
    id,
    async (trx, line) => {
      if (line.is_trial === 1) throw appError('TRIAL_NOT_ALLOWED');
      const limit = Math.max(1, await intSetting(trx, 'user_limit_screen'));
      const next = line.max_connections + amount;
      if (next < 1 || next > limit) throw validation('amount', `screens must stay between 1 and ${limit}`);
      const cost = amount > 0 ? await charge(trx, actor, amount * monthsRemaining(line.exp_date, nowSec()), 'line_screens', line.id, key) : 0;
      await updateLine(trx, line.id, { max_connections: next });
      await logChange(trx, actor, line, 'user_screens', `${line.max_connections}->${next}`, cost);
    },
    key,
    ['screens', amount],
  );
}
