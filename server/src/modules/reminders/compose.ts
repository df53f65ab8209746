import type { Deps } from '../../deps.ts';
import { daysBetween } from '../../lib/calendar.ts';
import { renewalLink } from './renewal-link.ts';
import type { ReminderLine } from './repo.ts';
import { type Variables, render } from './stages.ts';
import { whatsappNumber } from './whatsapp.ts';

// A reminder's text for one line: the template with the line's values.

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(ts: number, tz: string): string {
  let f = dateFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('pt-BR', { timeZone: tz, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
    dateFormats.set(tz, f);
  }
  return f.format(new Date(ts * 1000));
}

export interface Account {
  username: string;
  whatsapp: string | null;
  /** the account takes PIX payments: {link_renovacao} leads to a page where the customer can renew */
  payments_open: boolean;
}

export async function variablesFor(deps: Deps, line: ReminderLine, account: Account, now: number): Promise<Variables> {
  const tz = deps.config.timeZone;
  const number = whatsappNumber(account.whatsapp);
  return {
    nome: line.username,
    usuario: line.username,
    vencimento: formatDate(line.exp_date, tz),
    dias: String(Math.abs(daysBetween(now, line.exp_date, tz))),
    pacote: line.package_name ?? '',
    link_renovacao: account.payments_open ? await renewalLink(deps, line.id, now) : '',
    whatsapp_revenda: number ? `https://wa.me/${number}` : '',
  };
}

export async function compose(deps: Deps, template: string, line: ReminderLine, account: Account, now: number): Promise<string> {
  return render(template, await variablesFor(deps, line, account, now));
}
