import { countVisibleLines } from '../../repos/scope-repo.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import * as repo from './repo.ts';

const n = (v: unknown) => Number(v ?? 0);

/** The dashboard's line cards (cached, see cache.ts), scoped to the caller's subtree (everything for admins). */
export async function counters({ database }: Deps, actor: AuthUser) {
  const db = database.db;
  const now = Math.floor(Date.now() / 1000);
  const [lines, res, users] = await Promise.all([repo.lineCounts(db, actor, now, now - 7 * 86_400), repo.resellerCount(db, actor), countVisibleLines(db, actor)]);
  return {
    resellers: n(res?.n),
    users,
    users_active: n(lines?.users_active),
    users_activep2p: n(lines?.users_activep2p),
    users_activehttp: n(lines?.users_activehttp),
    users_new: n(lines?.users_new),
    users_trial: n(lines?.users_trial),
    users_trialp2p: n(lines?.users_trialp2p),
  };
}

/**
 * The online cards, counted fresh on every call (a connection appears or ends within seconds; a
 * cached answer would lag by the cache's 30 s): open connections of the caller's lines.
 */
export async function online({ config, database }: Deps, actor: AuthUser) {
  const on = await repo.onlineCounts(database.db, actor, Math.floor(Date.now() / 1000) - config.onlineWindowSeconds);
  return { users_online_of_resellers: n(on?.users_online_of_resellers), users_online: n(on?.users_online), conections_online: n(on?.connections) };
}

/**
 * New lines and credits spent per day over the last `days` days, in the caller's time zone
 * (offset in minutes east of UTC, as the browser reports it negated).
 */
export async function activity({ database }: Deps, actor: AuthUser, tzOffsetMinutes: number, days = 30) {
  const db = database.db;
  const offset = tzOffsetMinutes * 60;
  const now = Math.floor(Date.now() / 1000);
  const today = Math.floor((now + offset) / 86_400);
  const perDay = { dialect: database.dialect, offset, since: (today - days + 1) * 86_400 - offset };
  const [lines, credits] = await Promise.all([repo.newLinesPerDay(db, actor, perDay), repo.creditsSpentPerDay(db, actor, perDay)]);

  const byDay = (rows: { day: number; n: number }[]) => new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  const l = byDay(lines);
  const c = byDay(credits);
  return {
    data: Array.from({ length: days }, (_, i) => {
      const d = today - days + 1 + i;
      return { date: new Date(d * 86_400_000).toISOString().slice(0, 10), new_lines: l.get(d) ?? 0, credits_spent: c.get(d) ?? 0 };
    }),
  };
}
