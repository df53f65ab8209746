import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { openSecret } from '../twofactor/service.ts';
import { sendEmail } from './email.ts';
import type { Effective } from './settings.ts';
import { type Channel, EMAIL_SUBJECT } from './stages.ts';
import { type CheckOutcome, type SendOutcome, checkWhatsApp, sendWhatsApp } from './whatsapp.ts';

// One message out through one of an account's channels. A channel that is not set up is
// NOT_CONFIGURED (503), never a pretended send.

export interface Sender {
  id: number;
  username: string;
  email: string | null;
}

export const KEY_PURPOSE = 'evolution';

export async function sendThrough(deps: Deps, channel: Channel, settings: Effective, account: Sender, to: string, text: string): Promise<SendOutcome> {
  if (channel === 'whatsapp') {
    const { base_url, instance, key_sealed } = settings.whatsapp;
    if (!base_url || !instance || !key_sealed) throw appError('NOT_CONFIGURED', { params: { what: 'The WhatsApp gateway (Evolution API)' } });
    const apiKey = await openSecret(deps, account.id, key_sealed, KEY_PURPOSE);
    if (apiKey === null) return { ok: false, retry: false, answer: 'the gateway key cannot be opened (the server key changed): enter it again', status: null, reason: 'key_lost' };
    return sendWhatsApp({ baseUrl: base_url, instance, apiKey }, to, text, { allow: deps.config.outboundAllowNetworks, timeoutMs: deps.config.integrationTimeoutMs });
  }
  if (!deps.config.smtpUrl || !deps.config.smtpFrom) throw appError('NOT_CONFIGURED', { params: { what: 'E-mail (SMTP_URL and SMTP_FROM)' } });
  if (!settings.email_enabled) throw appError('NOT_CONFIGURED', { params: { what: 'E-mail reminders' } });
  return sendEmail(
    { url: deps.config.smtpUrl, from: deps.config.smtpFrom, timeoutMs: deps.config.integrationTimeoutMs },
    { to, subject: EMAIL_SUBJECT[settings.language], text, fromName: account.username, replyTo: account.email },
  );
}

/** Asks the account's WhatsApp gateway whether it answers (on demand: the page's badge and its button). */
export async function checkWhatsAppOf(deps: Deps, settings: Effective, accountId: number): Promise<CheckOutcome> {
  const { base_url, instance, key_sealed } = settings.whatsapp;
  // asking about a gateway not set up is answered, not refused: it does not answer (the badge's question)
  if (!base_url || !instance || !key_sealed) return { ok: false, reason: 'not_configured', status: null };
  const apiKey = await openSecret(deps, accountId, key_sealed, KEY_PURPOSE);
  if (apiKey === null) return { ok: false, reason: 'key_lost', status: null };
  return checkWhatsApp({ baseUrl: base_url, instance, apiKey }, { allow: deps.config.outboundAllowNetworks, timeoutMs: deps.config.integrationTimeoutMs });
}
