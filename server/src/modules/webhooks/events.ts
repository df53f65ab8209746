// The events an endpoint may subscribe to (docs/api.md, "Webhooks"). `webhook.test` is sent by the
// "send a test" button only.
export const EVENT_TYPES = ['line.created', 'line.renewed', 'line.blocked', 'line.expiring', 'line.expired', 'credits.low', 'payment.approved', 'payment.failed', 'credits.purchase_waiting', 'credits.purchased'] as const;
export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

/** An endpoint's retries wait 1, 2, 4 ... seconds, at most 5 minutes; after 24 hours it gives up. */
export const RETRY_CAP_SECONDS = 300;
export const GIVE_UP_AFTER_SECONDS = 86_400;
/** endpoints an account may hold */
export const MAX_ENDPOINTS = 10;

/** line.expiring fires once a line is this close to its expiry; line.expired for expiries this recent */
export const EXPIRING_SECONDS = 3 * 86_400;
export const EXPIRED_LOOKBACK_SECONDS = 7 * 86_400;
