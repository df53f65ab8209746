import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { foldChanges } from './line-counts-repo.ts';

const FOLD_BATCH = 50_000;

/** One fold of up to FOLD_BATCH changes, in its own transaction; returns how many it moved. */
export function foldBatch({ database }: Pick<Deps, 'database'>): Promise<number> {
  return withTx(database, (trx) => foldChanges(trx, database.dialect, FOLD_BATCH));
}

/** Folds until the changes table is empty (or another process is folding). */
export async function foldLineCounts(deps: Pick<Deps, 'database'>): Promise<void> {
  while ((await foldBatch(deps)) >= FOLD_BATCH);
}

/**
 * Folds every `everyMs` in the background (main.ts). Every process of a cluster runs one; on
 * PostgreSQL an advisory lock lets one fold at a time. Readers are exact with or without it: it
 * only keeps line_count_changes short.
 */
export function startLineCountFolder(deps: Pick<Deps, 'database'>, log: (err: unknown) => void, everyMs = 2_000): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    foldLineCounts(deps)
      .catch(log)
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
