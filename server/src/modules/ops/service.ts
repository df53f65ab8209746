import type { Deps } from '../../deps.ts';
import { hasThisBuildsMigrations } from '../../db/migrations/index.ts';
import { activeLineCount } from '../dashboard/service.ts';
import * as repo from './repo.ts';

/** How long readiness waits for the database: a load balancer asks every few seconds, and a hung database is as gone as a refused one. */
const READY_TIMEOUT_MS = 2_000;
/** A backlog is counted up to this many rows: past it the figure only says "a lot" and costs a longer index walk. */
export const BACKLOG_CAP = 10_000;

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Ready when the database answers within READY_TIMEOUT_MS and has every migration of this build.
 * A newer release's migrations do not make an older host unready: migrations only add, so old and
 * new hosts serve side by side during a rolling upgrade (README, "Upgrades").
 */
export async function readiness({ database }: Deps): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve({ ready: false, reason: 'database did not answer in time' }), READY_TIMEOUT_MS);
  });
  const check = hasThisBuildsMigrations(database.db).then(
    (migrated): Readiness => (migrated ? { ready: true } : { ready: false, reason: 'database migrations are not current' }),
    (): Readiness => ({ ready: false, reason: 'database unreachable' }),
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The business figures /metrics shows, each from a kept count or an index walk bounded by BACKLOG_CAP. */
export async function businessFigures(deps: Deps) {
  const [linesActive, backlogs] = await Promise.all([activeLineCount(deps), repo.backlogs(deps.database.db, BACKLOG_CAP)]);
  return { linesActive, ...backlogs };
}
