import { createHmac, timingSafeEqual } from 'node:crypto';
import { appError } from '../../http/errors.ts';
import { callUpstream } from '../../http/outbound.ts';

// Mercado Pago's payments API, with each account's own access token (docs/payments.md).

const SYSTEM = 'Mercado Pago';

export interface PixCharge {
  id: string;
  status: string;
  qr_code: string | null;
  qr_code_base64: string | null;
  ticket_url: string | null;
}

export interface MpPayment {
  id: string;
  status: string;
  external_reference: string | null;
  transaction_amount: number;
  currency_id: string;
}

export interface NewCharge {
  /** our payment row's id: X-Idempotency-Key and external_reference */
  reference: string;
  amountCents: number;
  description: string;
  payerEmail: string;
  notificationUrl: string;
  expiresAt: number;
}

const iso = (sec: number) => new Date(sec * 1000).toISOString().replace('Z', '-00:00');

export async function createPixCharge(apiUrl: string, token: string, c: NewCharge): Promise<PixCharge> {
  const res = await callUpstream({
    system: SYSTEM,
    url: `${apiUrl}/v1/payments`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': c.reference },
    json: {
      transaction_amount: c.amountCents / 100,
      description: c.description,
      payment_method_id: 'pix',
      payer: { email: c.payerEmail },
      external_reference: c.reference,
      notification_url: c.notificationUrl,
      date_of_expiration: iso(c.expiresAt),
    },
  });
  const body = res.body as { id?: unknown; status?: unknown; point_of_interaction?: { transaction_data?: { qr_code?: string; qr_code_base64?: string; ticket_url?: string } } } | undefined;
  if (res.status < 200 || res.status >= 300 || body?.id === undefined) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `answered ${res.status}` } });
  const data = body.point_of_interaction?.transaction_data;
  return { id: String(body.id), status: String(body.status ?? 'pending'), qr_code: data?.qr_code ?? null, qr_code_base64: data?.qr_code_base64 ?? null, ticket_url: data?.ticket_url ?? null };
}

/** GET /v1/payments/{id}: the payment as Mercado Pago has it (never the webhook's body). */
export async function fetchPayment(apiUrl: string, token: string, id: string): Promise<MpPayment | undefined> {
  const res = await callUpstream({ system: SYSTEM, url: `${apiUrl}/v1/payments/${encodeURIComponent(id)}`, method: 'GET', headers: { authorization: `Bearer ${token}` } });
  if (res.status === 404) return undefined;
  const b = res.body as Partial<MpPayment> & { id?: unknown } | undefined;
  if (res.status !== 200 || b?.id === undefined) throw appError('UPSTREAM_ERROR', { params: { system: SYSTEM, detail: `answered ${res.status}` } });
  return { id: String(b.id), status: String(b.status), external_reference: b.external_reference ?? null, transaction_amount: Number(b.transaction_amount), currency_id: String(b.currency_id) };
}

/** How old a notification's `ts` may be (a replayed one is refused). */
export const SIGNATURE_TOLERANCE_SECONDS = 15 * 60;

/**
 * Checks `x-signature: ts=<ts>,v1=<hex>`: v1 = HMAC-SHA256(secret,
 * `id:<data.id, lower-cased if alphanumeric>;request-id:<x-request-id>;ts:<ts>;`), and ts recent.
 */
export function validSignature(secret: string, header: string | undefined, requestId: string | undefined, dataId: string, now: number): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const ts = parts.ts;
  const v1 = parts.v1;
  if (!ts || !v1 || !/^\d{1,16}$/.test(ts) || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  const seconds = ts.length > 11 ? Math.floor(Number(ts) / 1000) : Number(ts); // Mercado Pago has sent both
  if (Math.abs(now - seconds) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  const manifest = `id:${id};request-id:${requestId ?? ''};ts:${ts};`;
  const expected = createHmac('sha256', secret).update(manifest).digest();
  return timingSafeEqual(expected, Buffer.from(v1.toLowerCase(), 'hex'));
}
