import { nowSec } from '../../lib/clock.ts';
import { isTopLevel } from '../../repos/scope-repo.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { cached } from './cache.ts';
import { type CountScope, type LineFigures, keptLineFigures } from './line-counts-repo.ts';
import * as repo from './repo.ts';

const n = (v: unknown) => Number(v ?? 0);

/**
 * The dashboard's line cards, scoped to the caller's subtree (everything for admins). Admins and
 * top-level resellers, whose scopes reach a million lines, read kept counts (line-counts-repo.ts),
 * exact and fresh on every call; a nested master's smaller subtree is counted by one scan and
 * that answer is cached (cache.ts).
 */
export async function lineCards(deps: Deps, actor: AuthUser) {
  const now = nowSec();
  const scope = await keptScope(deps, actor);
  if (scope === undefined) return cached(deps, actor.id, () => counters(deps, actor, now));
  return { ...(await counters(deps, actor, now, scope)), computed_at: now };
}

/** Every enabled live line not yet expired, normal and trial, HTTP and P2P: from the kept counts (metrics). */
export async function activeLineCount({ database }: Deps): Promise<number> {
  const now = nowSec();
  const { active } = await keptLineFigures(database.db, 0, now, now);
  return active.reduce((sum, k) => sum + k, 0);
}

async function keptScope({ database }: Deps, actor: AuthUser): Promise<CountScope | undefined> {
  if (actor.type === 'admin') return 0;
  return (await isTopLevel(database.db, actor)) ? actor.id : undefined;
}

async function counters({ database }: Deps, actor: AuthUser, now: number, scope?: CountScope) {
  const db = database.db;
  const newSince = now - 7 * 86_400;
  const [lines, res] = await Promise.all([
    scope === undefined ? scannedFigures(db, actor, now, newSince) : keptLineFigures(db, scope, now, newSince),
    repo.resellerCount(db, actor),
  ]);
  const [normalHttp, normalP2p, trialHttp, trialP2p] = lines.active;
  return {
    resellers: n(res?.n),
    users: lines.total,
    users_active: normalHttp + normalP2p,
    users_activep2p: normalP2p,
    users_activehttp: normalHttp,
    users_new: lines.created,
    users_trial: trialHttp,
    users_trialp2p: trialP2p,
  };
}

async function scannedFigures(db: Deps['database']['db'], actor: AuthUser, now: number, newSince: number): Promise<LineFigures> {
  const r = await repo.lineCounts(db, actor, now, newSince);
  return {
    total: n(r?.users),
    created: n(r?.users_new),
    active: [n(r?.normal_http), n(r?.normal_p2p), n(r?.trial_http), n(r?.trial_p2p)],
  };
}

/**
 * The online cards, counted fresh on every call (a connection appears or ends within seconds; a
 * cached answer would lag by the cache's 30 s): open connections of the caller's lines.
 */
export async function online({ config, database }: Deps, actor: AuthUser) {
  const on = await repo.onlineCounts(database.db, actor, nowSec() - config.onlineWindowSeconds);
  return { users_online_of_resellers: n(on?.users_online_of_resellers), users_online: n(on?.users_online), conections_online: n(on?.connections) };
}

export { invalidateFor } from './cache.ts';
