import { OutboundError, safeFetch } from '../../lib/ssrf/safe-fetch.ts';
import { type FailureReason, reasonOfFetch } from './failure.ts';

// WhatsApp through the account's own Evolution API instance: POST {base}/message/sendText/{instance}
// with its key in `apikey`; a 200/201 JSON answer holding key.id is a sent message.

export interface EvolutionGateway {
  baseUrl: string;
  instance: string;
  apiKey: string;
}

/** The outcome of one send: `retry` when the gateway could not be reached or failed on its side. */
export type SendOutcome = { ok: true; answer: string; status: number } | { ok: false; retry: boolean; answer: string; status: number | null; reason: FailureReason };

const COUNTRY = '55';

/** Digits for the gateway: a 'ddd+número' gets 55 in front; trunk zeros go. Undefined without a usable number. */
export function whatsappNumber(raw: string | null | undefined): string | undefined {
  const digits = (raw ?? '').replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length < 8) return undefined;
  if (digits.startsWith(COUNTRY) && digits.length >= 12) return digits;
  return `${COUNTRY}${digits}`;
}

/** Server-side trouble or none at all is worth another try; a refusal of this message is not. */
export const retryable = (status: number | null) => status === null || status === 429 || status >= 500;

export async function sendWhatsApp(gw: EvolutionGateway, number: string, text: string, opts: { allow: readonly string[]; timeoutMs: number }): Promise<SendOutcome> {
  const url = `${gw.baseUrl.replace(/\/+$/, '')}/message/sendText/${encodeURIComponent(gw.instance)}`;
  try {
    const res = await safeFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: gw.apiKey },
      body: JSON.stringify({ number, text }),
      allow: opts.allow,
      timeoutMs: opts.timeoutMs,
      maxBytes: 64 * 1024,
    });
    let id: unknown;
    try {
      id = (JSON.parse(res.body.toString('utf8')) as { key?: { id?: unknown } })?.key?.id;
    } catch {
      id = undefined;
    }
    if ((res.status === 200 || res.status === 201) && typeof id === 'string' && id) return { ok: true, answer: id, status: res.status };
    // it answered, so the message may be out: never tried again
    return { ok: false, retry: false, answer: `the gateway answered ${res.status} without key.id`, status: res.status, reason: 'unexpected' };
  } catch (err) {
    const status = err instanceof OutboundError ? (err.status ?? null) : null;
    return { ok: false, retry: retryable(status), answer: (err as Error).message || String(err), status, reason: reasonOfFetch(err) };
  }
}

export type CheckOutcome = { ok: true } | { ok: false; reason: FailureReason; status: number | null };

/**
 * Does the gateway answer for this instance, with WhatsApp connected? GET
 * {base}/instance/connectionState/{instance} answers {instance: {state: 'open' | 'close' | 'connecting'}}.
 */
export async function checkWhatsApp(gw: EvolutionGateway, opts: { allow: readonly string[]; timeoutMs: number }): Promise<CheckOutcome> {
  const url = `${gw.baseUrl.replace(/\/+$/, '')}/instance/connectionState/${encodeURIComponent(gw.instance)}`;
  try {
    const res = await safeFetch(url, { headers: { apikey: gw.apiKey }, allow: opts.allow, timeoutMs: opts.timeoutMs, maxBytes: 64 * 1024 });
    let state: unknown;
    try {
      state = (JSON.parse(res.body.toString('utf8')) as { instance?: { state?: unknown } })?.instance?.state;
    } catch {
      return { ok: false, reason: 'unexpected', status: res.status };
    }
    if (state === 'open') return { ok: true };
    return { ok: false, reason: state === undefined ? 'unexpected' : 'not_connected', status: res.status };
  } catch (err) {
    return { ok: false, reason: reasonOfFetch(err), status: err instanceof OutboundError ? (err.status ?? null) : null };
  }
}
