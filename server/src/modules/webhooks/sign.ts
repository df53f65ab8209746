import { createHmac } from 'node:crypto';

/** `Webhook-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` (the scheme Stripe uses). */
export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}
