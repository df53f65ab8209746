import { formatDateTime } from './format';
import type { Line } from '../api/types';

// The wa.me link itself is in ./waLink (the light pages use it without this file's dayjs).
export { whatsappNumber, whatsappUrl } from './waLink';

/** "Aviso de vencimento" yes -> `warning` (renewal reminder, no password); no -> `data` (the access data). */
export type WhatsAppMessageKind = 'data' | 'warning';

/** What a message needs of a line. */
export type WhatsAppLine = Pick<Line, 'id' | 'username' | 'password' | 'exp_date' | 'whatsapp'>;

type Translate = (key: string, vars: Record<string, string>) => string;

export interface MessageExtras {
  /** the customer's renewal page (/minha-conta), given only while the line's owner takes PIX payments */
  renewal?: string | null;
  /** seconds; the warning says "venceu" for a line already past its expiry */
  now?: number;
}

/**
 * The customer message, in the panel's words (i18n `whatsapp.dataMessage`, `whatsapp.warningMessage`,
 * or `whatsapp.expiredMessage` for a warning about a line already expired), ending with the renewal
 * link when there is one.
 */
export function whatsappMessage(kind: WhatsAppMessageKind, line: WhatsAppLine, playlist: string, t: Translate, extras: MessageExtras = {}): string {
  const vars = { username: line.username, password: line.password, expiry: formatDateTime(line.exp_date), link: playlist || '-' };
  const expired = line.exp_date <= (extras.now ?? Math.floor(Date.now() / 1000));
  const key = kind === 'data' ? 'whatsapp.dataMessage' : expired ? 'whatsapp.expiredMessage' : 'whatsapp.warningMessage';
  const text = t(key, vars);
  return extras.renewal ? `${text}\n\n${t('whatsapp.renewalLine', { url: extras.renewal })}` : text;
}
