import { randomBytes } from 'node:crypto';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { outboundUrl } from '../../lib/ssrf/outbound-url.ts';
import { sealSecret } from '../twofactor/service.ts';
import { eventBody } from './emit.ts';
import { EVENT_TYPES, MAX_ENDPOINTS } from './events.ts';
import * as repo from './repo.ts';

// An account's webhook endpoints (docs/api.md, "Webhooks"): created with a signing secret shown
// once (kept sealed), listed, removed; their last deliveries, a resend, a test event.

export interface NewEndpoint {
  url: string;
  events: string[];
  include_credentials?: boolean;
  credits_low_threshold?: number | null;
}

const shown = (e: Awaited<ReturnType<typeof repo.liveEndpoints>>[number]) => ({
  ...e,
  events: JSON.parse(e.events) as string[],
  include_credentials: e.include_credentials === 1,
});

export async function create(deps: Deps, user: AuthUser, body: NewEndpoint) {
  const url = await outboundUrl(deps.config.outboundAllowNetworks, body.url, 'url');
  const events = EVENT_TYPES.filter((t) => body.events.includes(t));
  if (events.includes('credits.low') && (body.credits_low_threshold ?? null) === null) throw validation('credits_low_threshold', 'credits.low needs a threshold', 'REQUIRED');
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const sealed = await sealSecret(deps, user.id, secret, 'webhook');
  const now = nowSec();
  const id = await withTx(deps.database, async (trx) => {
    if ((await repo.countEndpoints(trx, user.id)) >= MAX_ENDPOINTS) throw appError('WEBHOOK_LIMIT', { params: { max: MAX_ENDPOINTS } });
    return repo.insertEndpoint(trx, {
      reseller_id: user.id,
      url,
      events: JSON.stringify(events),
      secret_sealed: sealed,
      include_credentials: body.include_credentials ? 1 : 0,
      credits_low_threshold: body.credits_low_threshold ?? null,
      created_at: now,
    });
  });
  return { id, url, events, include_credentials: Boolean(body.include_credentials), credits_low_threshold: body.credits_low_threshold ?? null, created_at: now, secret };
}

export async function list(deps: Deps, user: AuthUser) {
  return { data: (await repo.liveEndpoints(deps.database.db, user.id)).map(shown) };
}

async function own(deps: Deps, user: AuthUser, id: number) {
  const endpoint = await repo.ownEndpoint(deps.database.db, user.id, id);
  if (!endpoint) throw appError('NOT_FOUND', { params: { what: 'Webhook' } });
  return endpoint;
}

export async function remove(deps: Deps, user: AuthUser, id: number): Promise<void> {
  await own(deps, user, id);
  await withTx(deps.database, (trx) => repo.deleteEndpoint(trx, id, nowSec()));
}

export async function deliveries(deps: Deps, user: AuthUser, id: number) {
  await own(deps, user, id);
  return { data: await repo.lastDeliveries(deps.database.db, id) };
}

/** Queues a delivery's event again, at the end of the endpoint's line (the same Webhook-Id). */
export async function resend(deps: Deps, user: AuthUser, id: number, deliveryId: number) {
  return withTx(deps.database, async (trx) => {
    if (!(await repo.ownEndpoint(trx, user.id, id))) throw appError('NOT_FOUND', { params: { what: 'Webhook' } });
    const d = await repo.deliveryOf(trx, id, deliveryId);
    if (!d) throw appError('NOT_FOUND', { params: { what: 'Delivery' } });
    return repo.insertDelivery(trx, { endpoint_id: id, event_id: d.event_id, type: d.type, body: d.body, created_at: nowSec() });
  });
}

/** A `webhook.test` event for this endpoint alone. */
export async function sendTest(deps: Deps, user: AuthUser, id: number) {
  const eventId = `evt_${randomBytes(16).toString('hex')}`;
  const at = nowSec();
  const body = eventBody(eventId, 'webhook.test', at, { message: 'A test event from the panel', account: user.username });
  return withTx(deps.database, async (trx) => {
    if (!(await repo.ownEndpoint(trx, user.id, id))) throw appError('NOT_FOUND', { params: { what: 'Webhook' } });
    return repo.insertDelivery(trx, { endpoint_id: id, event_id: eventId, type: 'webhook.test', body, created_at: at });
  });
}
export { emitCreditPurchaseEvent, emitCreditsLow, emitLineEvent, emitPaymentEvent } from './emit.ts';
