import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1x1 PNG: the QR image a charge answers. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

interface Charge {
  id: number;
  status: string;
  external_reference: string;
  transaction_amount: number;
  currency_id: string;
  notification_url: string;
}

export interface MercadoPagoStandIn {
  /** MERCADOPAGO_API_URL for the server under test */
  url: string;
  /** a charge as Mercado Pago holds it */
  charge(id: number): Charge | undefined;
  /** Mercado Pago approves the charge and notifies the panel at `baseUrl` (its PUBLIC_URL is not this server: the path is); the answer's status. */
  approveAndNotify(baseUrl: string, id: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Mercado Pago's payments API on a socket, for one account's `token` and webhook `secret`: PIX
 * charges (`POST /v1/payments`, the copy-paste code `00020126<codePrefix><id>`), a payment's state
 * (`GET /v1/payments/{id}`), and its signed notification.
 */
export async function startMercadoPago(opts: { token: string; secret: string; codePrefix: string; firstId: number }): Promise<MercadoPagoStandIn> {
  const charges = new Map<number, Charge>();
  let nextId = opts.firstId;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${opts.token}`) return json(401, {});
      if (req.method === 'POST' && req.url === '/v1/payments') {
        const b = JSON.parse(Buffer.concat(parts).toString());
        const p = { id: nextId++, status: 'pending', external_reference: b.external_reference, transaction_amount: b.transaction_amount, currency_id: 'BRL', notification_url: b.notification_url };
        charges.set(p.id, p);
        return json(201, { ...p, point_of_interaction: { transaction_data: { qr_code: `00020126${opts.codePrefix}${p.id}`, qr_code_base64: PNG } } });
      }
      const m = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '');
      const p = m ? charges.get(Number(m[1])) : undefined;
      return p ? json(200, p) : json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    charge: (id) => charges.get(id),
    async approveAndNotify(baseUrl, id) {
      const p = charges.get(id);
      if (!p) throw new Error(`no charge ${id}`);
      p.status = 'approved';
      const url = new URL(p.notification_url);
      url.searchParams.set('data.id', String(id));
      url.searchParams.set('type', 'payment');
      const requestId = randomUUID();
      const ts = String(Math.floor(Date.now() / 1000));
      const v1 = createHmac('sha256', opts.secret).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
      const res = await fetch(`${baseUrl}${url.pathname}${url.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
        body: JSON.stringify({ action: 'payment.updated', type: 'payment', data: { id: String(id) } }),
      });
      return res.status;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
