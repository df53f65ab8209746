import { randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { OutboundError, safeFetch } from '../../lib/ssrf/safe-fetch.ts';
import { openSecret } from '../twofactor/service.ts';
import { GIVE_UP_AFTER_SECONDS, RETRY_CAP_SECONDS } from './events.ts';
import { expiryTick } from './expiry.ts';
import * as repo from './repo.ts';
import { startTicker } from '../../lib/ticker.ts';
import { takeLease } from '../../repos/scheduler-leases-repo.ts';
import { signature } from './sign.ts';

// The webhook worker, one per server process (main.ts). Each round takes the deliveries that are
// due and first in line for their endpoint, leases each for WEBHOOK_LEASE_SECONDS (one statement: of two
// processes one wins), sends them (different endpoints side by side), and records the outcome:
// delivered, or failed with the next attempt after a backoff (1, 2, 4 ... s, capped at 5 minutes),
// or given up 24 hours after the event. An endpoint's next event waits for the one before it: in
// order, one at a time. A process killed mid-send leaves its lease to run out; the delivery is then
// sent again (receivers dedupe on Webhook-Id). No lock is held while a request is in flight.

const BATCH = 20;
const PRUNE_EVERY_MS = 3_600_000;
const KEEP_SECONDS = 30 * 86_400;
/** the expiry scan: once a minute, by the one process holding the lease */
const EXPIRY_EVERY_MS = 60_000;

export interface WebhookWorker {
  stop(): Promise<void>;
}

export function startWebhookWorker(deps: Deps, opts: { pollMs?: number; retryBaseMs?: number; expiryEveryMs?: number; log?: (msg: string, err?: unknown) => void } = {}): WebhookWorker {
  const pollMs = opts.pollMs ?? 1000;
  const expiryEveryMs = opts.expiryEveryMs ?? EXPIRY_EVERY_MS;
  let lastExpiry = 0;
  const retryBaseMs = opts.retryBaseMs ?? deps.config.webhookRetryBaseMs;
  // a lease outlives the longest send, so a lease runs out only when its process is gone
  const leaseSeconds = Math.max(deps.config.webhookLeaseSeconds, Math.ceil(deps.config.integrationTimeoutMs / 1000) + 5);
  const token = randomBytes(12).toString('hex');
  const log = opts.log ?? ((msg, err) => console.error(`webhooks: ${msg}`, err ?? ''));
  const id = randomBytes(4).toString('hex');
  let lastPrune = 0;

  async function deliver(d: repo.DueDelivery): Promise<void> {
    const db = deps.database.db;
    const now = nowSec();
    let status: number | null = null;
    let answer = '';
    try {
      const secret = await openSecret(deps, d.reseller_id, d.secret_sealed, 'webhook');
      if (secret === null) throw new Error('the signing secret cannot be opened (the server key changed)');
      const t = nowSec();
      const res = await safeFetch(d.url, {
        method: 'POST',
        body: d.body,
        headers: { 'content-type': 'application/json', 'webhook-id': d.event_id, 'webhook-signature': signature(secret, t, d.body) },
        allow: deps.config.outboundAllowNetworks,
        timeoutMs: deps.config.integrationTimeoutMs,
        maxBytes: 64 * 1024,
      });
      await repo.recordDelivered(db, d.id, token, nowSec(), res.status);
      return;
    } catch (err) {
      status = err instanceof OutboundError ? (err.status ?? null) : null;
      answer = (err as Error).message || String(err);
    }
    const attempts = d.attempts + 1;
    const waitMs = Math.min(RETRY_CAP_SECONDS * 1000, retryBaseMs * 2 ** (attempts - 1));
    const next = now - d.created_at >= GIVE_UP_AFTER_SECONDS ? 'give_up' : Math.ceil((nowMs() + waitMs) / 1000);
    await repo.recordFailed(db, d.id, token, nowSec(), status, answer, next);
  }

  async function runRound(): Promise<void> {
    const db = deps.database.db;
    const now = nowSec();
    const due = await repo.dueDeliveries(db, now, BATCH);
    const taken: repo.DueDelivery[] = [];
    for (const d of due) if (await repo.lease(db, d.id, now, leaseSeconds, token)) taken.push(d);
    await Promise.all(taken.map((d) => deliver(d).catch((err) => log(`delivery ${d.id} not recorded`, err))));
    if (nowMs() - lastExpiry >= expiryEveryMs) {
      lastExpiry = nowMs();
      // one process at a time: the lease outlives a tick, and its holder keeps it while alive
      if (await takeLease(db, 'webhook-expiry', id, now, Math.ceil((expiryEveryMs * 2) / 1000))) await expiryTick(deps, now);
    }
    if (nowMs() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = nowMs();
      await repo.pruneDeliveries(db, now - KEEP_SECONDS, now);
    }
  }

  return startTicker(runRound, { everyMs: pollMs, onError: (err) => log(`round failed (worker ${id})`, err) });
}
