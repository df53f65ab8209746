import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { foldChanges, pruneHours } from './line-counts-repo.ts';

const FOLD_BATCH = 50_000;
const PRUNE_EVERY_MS = 3_600_000;

/** One fold of up to FOLD_BATCH changes, in its own transaction; returns how many it moved. */
export function foldBatch({ database }: Pick<Deps, 'database'>): Promise<number> {
  return withTx(database, (trx) => foldChanges(trx, database.dialect, FOLD_BATCH));
}

/** Folds until the changes table is empty (or another process is folding). */
export async function foldLineCounts(deps: Pick<Deps, 'database'>): Promise<void> {
  while ((await foldBatch(deps)) >= FOLD_BATCH);
}

/** Drops the by-hour counts no reader asks for (pruneHours). */
export function pruneLineCounts({ database }: Pick<Deps, 'database'>): Promise<void> {
  return withTx(database, (trx) => pruneHours(trx, database.dialect, nowSec()));
}

/**
 * Folds every `everyMs` in the background (main.ts). Every process of a cluster runs one; on
 * PostgreSQL an advisory lock lets one fold at a time. Readers are exact with or without it: it
 * only keeps line_count_changes short.
 */
export function startLineCountFolder(deps: Pick<Deps, 'database'>, log: (err: unknown) => void, everyMs = 2_000): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let lastPrune = 0;
  const timer = setInterval(() => {
    if (running) return;
    const prune = nowMs() - lastPrune > PRUNE_EVERY_MS;
    if (prune) lastPrune = nowMs();
    running = foldLineCounts(deps)
      .then(() => (prune ? pruneLineCounts(deps) : undefined))
      .catch(log)
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  // (stop waits for a fold under way, so the database is not closed under it)
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
