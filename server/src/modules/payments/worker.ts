import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { type Ticker, startTicker } from '../../lib/ticker.ts';
import { takeLease } from '../../repos/scheduler-leases-repo.ts';
import { applyAwaitingSales } from '../creditsales/service.ts';
import { applyAwaiting } from './apply.ts';
import { checkPending } from './notifications.ts';
import * as repo from './repo.ts';

// The payments worker, in every process; the holder of the `payments` lease works: pending charges
// Mercado Pago never told us about are asked about, and paid ones waiting for credits are applied
// once the balance allows. Applying is safe from anywhere (payments/apply.ts): the lease only keeps
// two processes from asking Mercado Pago the same question.

/**
 * The lease outlives a round by this much: a process killed mid-round hands over within a tick
 * plus this. A round that runs longer only lets another process ask Mercado Pago the same question.
 */
const LEASE_GRACE_SECONDS = 15;

export function startPaymentsWorker(deps: Deps, opts: { tickMs?: number; log?: (msg: string, err?: unknown) => void } = {}): Ticker {
  const tickMs = opts.tickMs ?? deps.config.paymentsTickSeconds * 1000;
  const holder = randomBytes(8).toString('hex');
  const log = opts.log ?? ((msg, err) => console.error(`payments: ${msg}`, err ?? ''));
  async function runRound() {
    const now = nowSec();
    if (!(await takeLease(deps.database.db, 'payments', holder, now, Math.ceil(tickMs / 1000) + LEASE_GRACE_SECONDS))) return;
    await checkPending(deps, now);
    await applyAwaiting(deps);
    await applyAwaitingSales(deps);
    await repo.pruneCustomerSessions(deps.database.db, now);
  }
  return startTicker(runRound, { everyMs: tickMs, firstInMs: Math.min(tickMs, 1000), onError: (err) => log('round failed', err) });
}
