import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { createMigrated } from '../lines/service.ts';

import { intSetting } from '../settings/service.ts';
import * as repo from './repo.ts';
import { type SourceLine, fetchSourceLine } from './xtream.ts';

const DAY = 86_400;
export const MIN_DAYS_LEFT = 5;
export const MAX_DAYS = 30;
/** how long a looked-up line can be migrated without looking it up again */
export const LOOKUP_TTL_MS = 30 * 60_000;

/**
 * What the other provider said is kept per caller and username (table migration_lookups): the
 * migration uses these values (trial or not, expiry), never the ones a client could send, so its
 * rules hold whatever the client does. In the database, so every server process (WORKERS) finds
 * the lookup another one answered; expired rows go at the next lookup.
 */
export async function fetchUrlData(deps: Deps, actor: AuthUser, url: string): Promise<SourceLine> {
  const line = await fetchSourceLine(url, deps.config.outboundAllowNetworks, deps.config.integrationTimeoutMs);
  const at = nowMs();
  await repo.keepLookup(deps.database.db, actor.id, line, at, at - LOOKUP_TTL_MS);
  return line;
}

export interface MigrateInput {
  username: string;
  password: string;
  exp_date: number;
  package_id: number;
}

/** The migration rules (docs/rules.md, "Migration from another provider"), on what the provider answered. */
export function migratedExpiry(source: Pick<SourceLine, 'is_trial' | 'exp_date'>, at: number): { exp_date: number; capped: boolean } {
  if (source.is_trial) throw appError('MIGRATION_TRIAL');
  const cap = at + MAX_DAYS * DAY;
  if (source.exp_date === null) return { exp_date: cap, capped: true };
  if (source.exp_date - at < MIN_DAYS_LEFT * DAY) throw appError('MIGRATION_TOO_SHORT', { params: { days: MIN_DAYS_LEFT } });
  return source.exp_date > cap ? { exp_date: cap, capped: true } : { exp_date: source.exp_date, capped: false };
}

export async function migrate(deps: Deps, actor: AuthUser, input: MigrateInput, key?: string) {
  const username = input.username.trim();
  const password = input.password.trim();
  const source = await repo.findLookup(deps.database.db, actor.id, username);
  if (!source || nowMs() - source.at > LOOKUP_TTL_MS || source.password_sha256 !== repo.passwordSha256(password)) {
    throw appError('MIGRATION_NOT_LOOKED_UP');
  }
  if (source.exp_date !== null && input.exp_date !== source.exp_date) {
    throw appError('MIGRATION_NOT_LOOKED_UP');
  }
  const allowed = [await intSetting(deps.database.db, 'migration_package_adult'), await intSetting(deps.database.db, 'migration_package_no_adult')];
  if (!allowed.includes(input.package_id)) throw validation('package_id', 'choose one of the two migration packages');
  const { exp_date, capped } = migratedExpiry(source, nowSec());
  const note = capped ? `expiry capped to ${MAX_DAYS} days` : 'expiry kept';
  const line = await createMigrated(deps, actor, { username, password, package_id: input.package_id, exp_date }, note, key);
  return { line, exp_date: line.exp_date ?? exp_date, capped };
}
