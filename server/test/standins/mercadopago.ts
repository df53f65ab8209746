import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { nowSec } from '../../src/lib/clock.ts';

// Mercado Pago's payments API on a real socket: PIX charges (idempotent on X-Idempotency-Key), a
// payment's state, and the notifications it would send, signed as Mercado Pago signs them.

export interface MpStandinPayment {
  id: number;
  status: string;
  external_reference: string;
  transaction_amount: number;
  currency_id: string;
  notification_url: string;
  date_of_expiration: string;
}

export interface Notification {
  /** path and query of the notification URL (the panel's PUBLIC_URL dropped), data.id and type appended */
  path: string;
  headers: Record<string, string>;
  body: { action: string; type: string; data: { id: string } };
}

export async function startMercadoPago(token: string) {
  const payments = new Map<number, MpStandinPayment>();
  const byKey = new Map<string, number>();
  let creates = 0;
  /** While set, a charge is answered with this status (and made or not: an answer lost after the charge was made). */
  let failing: { status: number; made: boolean } | undefined;
  let nextId = 91_000_000_001;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${token}`) return json(401, { message: 'invalid access token' });
      if (req.method === 'POST' && req.url === '/v1/payments') {
        creates++;
        const key = String(req.headers['x-idempotency-key'] ?? '');
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Omit<MpStandinPayment, 'id' | 'status' | 'currency_id'> & { payment_method_id: string };
        if (body.payment_method_id !== 'pix' || !key) return json(400, { message: 'bad request' });
        if (failing && !failing.made) return json(failing.status, { message: 'stand-in refusal' });
        let id = byKey.get(key);
        if (id === undefined) {
          id = nextId++;
          byKey.set(key, id);
          payments.set(id, { id, status: 'pending', external_reference: body.external_reference, transaction_amount: body.transaction_amount, currency_id: 'BRL', notification_url: body.notification_url, date_of_expiration: body.date_of_expiration });
        }
        if (failing) return json(failing.status, { message: 'stand-in failure' });
        const p = payments.get(id)!;
        return json(201, { ...p, point_of_interaction: { transaction_data: { qr_code: `00020126PIX${id}`, qr_code_base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', ticket_url: `https://mp.example/pix/${id}` } } });
      }
      const m = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const p = payments.get(Number(m[1]));
        return p ? json(200, p) : json(404, { message: 'not found' });
      }
      json(404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    payments,
    creates: () => creates,
    /** Charges answer `status` from now on (`made`: the charge is made all the same), until called with no status. */
    failCreates(status?: number, opts: { made?: boolean } = {}) {
      failing = status === undefined ? undefined : { status, made: opts.made ?? false };
    },
    set(id: number, change: Partial<MpStandinPayment>) {
      Object.assign(payments.get(id)!, change);
    },
    /** The notification Mercado Pago would send for payment `id`, signed with `secret` (or forged / stale). */
    notification(id: number, secret: string, opts: { ts?: number; forge?: boolean } = {}): Notification {
      const p = payments.get(id)!;
      const url = new URL(p.notification_url);
      url.searchParams.set('data.id', String(id));
      url.searchParams.set('type', 'payment');
      const requestId = randomUUID();
      const ts = String(opts.ts ?? nowSec());
      const v1 = createHmac('sha256', opts.forge ? 'not-the-secret' : secret).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
      return { path: `${url.pathname}${url.search}`, headers: { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId }, body: { action: 'payment.updated', type: 'payment', data: { id: String(id) } } };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
