import cluster, { type Worker } from 'node:cluster';
import { nowMs } from './lib/clock.ts';

// WORKERS > 1 (PostgreSQL only, see config.ts): the primary process has migrated the database and
// made the first admin; it then forks the workers, which each open their own pool and listen on
// the same port (node:cluster hands the connections out round-robin), and it only supervises them.

/** a worker dying this soon after its start is restarted after RESTART_DELAY_MS, not at once */
const QUICK_DEATH_MS = 10_000;
const RESTART_DELAY_MS = 1000;

export const isWorker = () => cluster.isWorker;

/**
 * Forks `count` workers and keeps that many alive: a worker that dies unexpectedly is replaced.
 * SIGTERM/SIGINT are passed to every worker, which shuts down gracefully (main.ts); resolves with
 * the exit code once all have exited: 0 when all exited cleanly, 1 otherwise. A worker that dies
 * before it ever listened (port taken, database unreachable) is not replaced: the others are
 * stopped and the primary exits 1, instead of restarting workers that cannot start in a loop.
 */
export function superviseWorkers(count: number, log: (msg: string) => void = console.error): Promise<number> {
  const alive = new Map<Worker, number>(); // worker -> its fork time
  let stopping = false;
  let failed = false;
  let done: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });

  const listened = new WeakSet<Worker>();
  const fork = () => {
    if (stopping) return;
    alive.set(cluster.fork(), nowMs());
  };
  const stop = (sig: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (alive.size === 0) done(failed ? 1 : 0);
    for (const worker of alive.keys()) worker.process.kill(sig);
  };
  cluster.on('listening', (worker) => listened.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    const lived = nowMs() - (alive.get(worker) ?? 0);
    alive.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      if (alive.size === 0) done(failed ? 1 : 0);
      return;
    }
    const how = signal ?? `code ${code}`;
    if (!listened.has(worker)) {
      log(`worker ${worker.process.pid} could not start (${how}): stopping`);
      failed = true;
      stop('SIGTERM');
      return;
    }
    log(`worker ${worker.process.pid} exited unexpectedly (${how}): starting another`);
    setTimeout(fork, lived < QUICK_DEATH_MS ? RESTART_DELAY_MS : 0);
  });
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => stop(sig));
  for (let i = 0; i < count; i++) fork();
  return finished;
}
