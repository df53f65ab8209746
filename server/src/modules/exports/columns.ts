import type { LedgerRow } from '../credits/service.ts';
import type { LineRow } from '../lines/service.ts';
import type { LogRow } from '../logs/service.ts';
import type { ListedPayment } from '../payments/service.ts';
import type { ResellerRow } from '../resellers/service.ts';

export type Lang = 'pt-BR' | 'en-US';

/** How one export renders its cells: language, the caller's time zone, the moment it started. */
export interface Render {
  lang: Lang;
  /** minutes east of UTC, as the lists' `tz_offset` */
  tzOffset: number;
  now: number;
}

export type Cell = string | number | Date | null;

export interface Column<R> {
  header: { 'pt-BR': string; 'en-US': string };
  /** `date` cells are epoch seconds, shown in the caller's time zone; `money` cells are cents */
  kind?: 'date' | 'number' | 'money';
  width?: number;
  value: (row: R, r: Render) => string | number | null;
}

const both = (pt: string, en: string) => ({ 'pt-BR': pt, 'en-US': en });
const words = {
  active: both('Ativo', 'Active'),
  blocked: both('Bloqueado', 'Blocked'),
  expired: both('Expirado', 'Expired'),
  yes: both('Sim', 'Yes'),
  no: both('Não', 'No'),
};
const say = (w: keyof typeof words, r: Render) => words[w][r.lang];
const SYSTEMS: Record<number, string> = { 1: 'HTTP', 2: 'P2P' };

export const lineColumns: Column<LineRow>[] = [
  { header: both('ID', 'ID'), kind: 'number', width: 10, value: (l) => l.id },
  { header: both('Usuário', 'Username'), width: 18, value: (l) => l.username },
  { header: both('Senha', 'Password'), width: 14, value: (l) => l.password },
  { header: both('Criado em', 'Created'), kind: 'date', width: 20, value: (l) => l.created_at },
  { header: both('Expira em', 'Expires'), kind: 'date', width: 20, value: (l) => l.exp_date },
  { header: both('Revendedor', 'Reseller'), width: 16, value: (l) => l.master_username },
  { header: both('Observações', 'Notes'), width: 30, value: (l) => l.reseller_notes },
  { header: both('WhatsApp', 'WhatsApp'), width: 16, value: (l) => l.whatsapp },
  { header: both('Telas', 'Screens'), kind: 'number', width: 8, value: (l) => l.max_connections },
  { header: both('Status', 'Status'), width: 12, value: (l, r) => say(l.enabled !== 1 ? 'blocked' : l.exp_date <= r.now ? 'expired' : 'active', r) },
  { header: both('Teste', 'Trial'), width: 8, value: (l, r) => say(l.is_trial === 1 ? 'yes' : 'no', r) },
  { header: both('Sistema', 'System'), width: 10, value: (l) => SYSTEMS[l.system] ?? 'P2P BR' },
  { header: both('Pacote', 'Package'), kind: 'number', width: 8, value: (l) => l.package_id },
  { header: both('Bouquets', 'Bouquets'), width: 20, value: (l) => l.bouquet.join(',') },
  { header: both('E-mail', 'E-mail'), width: 24, value: (l) => l.email },
  { header: both('Lembretes', 'Reminders'), width: 10, value: (l, r) => say(l.opt_out_reminders === 1 ? 'no' : 'yes', r) },
];

export const resellerColumns: Column<ResellerRow>[] = [
  { header: both('ID', 'ID'), kind: 'number', width: 10, value: (x) => x.id },
  { header: both('Usuário', 'Username'), width: 18, value: (x) => x.username },
  { header: both('Créditos', 'Credits'), kind: 'number', width: 10, value: (x) => x.credits },
  { header: both('Master', 'Master'), width: 16, value: (x) => x.master_username },
  { header: both('Último acesso', 'Last sign-in'), kind: 'date', width: 20, value: (x) => x.last_login },
  { header: both('Grupo', 'Group'), width: 18, value: (x) => x.group_name },
  { header: both('Sub-revendas', 'Sub-resellers'), kind: 'number', width: 12, value: (x) => x.sub_resellers_count },
  { header: both('Clientes', 'Clients'), kind: 'number', width: 10, value: (x) => x.clients_count },
  { header: both('Status', 'Status'), width: 12, value: (x, r) => say(x.status === 1 ? 'active' : 'blocked', r) },
];

export const ledgerColumns: Column<LedgerRow>[] = [
  { header: both('ID', 'ID'), kind: 'number', width: 10, value: (x) => x.id },
  { header: both('Data', 'Date'), kind: 'date', width: 20, value: (x) => x.created_at },
  { header: both('Créditos', 'Credits'), kind: 'number', width: 10, value: (x) => x.delta },
  { header: both('Saldo após', 'Balance after'), kind: 'number', width: 12, value: (x) => x.balance_after },
  { header: both('Motivo', 'Reason'), width: 18, value: (x) => x.reason },
  { header: both('Contraparte', 'Counterparty'), width: 16, value: (x) => x.counterparty },
  { header: both('Feito por', 'Done by'), width: 16, value: (x) => x.actor },
  { header: both('Usuário (ID)', 'Line (ID)'), kind: 'number', width: 12, value: (x) => x.line_id },
  { header: both('Usuário P2P (ID)', 'P2P user (ID)'), kind: 'number', width: 14, value: (x) => x.p2p_account_id },
];

export const logColumns: Column<LogRow>[] = [
  { header: both('ID', 'ID'), kind: 'number', width: 10, value: (x) => x.id },
  // log times are epoch milliseconds
  { header: both('Data', 'Date'), kind: 'date', width: 20, value: (x) => Math.floor(x.created_at / 1000) },
  { header: both('Tipo', 'Type'), width: 10, value: (x) => x.type_log },
  { header: both('Ação', 'Action'), width: 18, value: (x) => x.action },
  { header: both('Feito por', 'Done by'), width: 16, value: (x) => x.user },
  { header: both('Revendedor', 'Reseller'), width: 16, value: (x) => x.reseller },
  { header: both('Para revendedor', 'To reseller'), width: 16, value: (x) => x.toreseller },
  { header: both('Usuário', 'Line'), width: 16, value: (x) => x.target_user },
  { header: both('Valor', 'Value'), width: 20, value: (x) => x.value },
  { header: both('Valor numérico', 'Amount'), kind: 'number', width: 12, value: (x) => x.value_int },
];

/** "UTC-03:00" for a header. */
export function zoneName(tzOffset: number): string {
  const sign = tzOffset < 0 ? '-' : '+';
  const abs = Math.abs(tzOffset);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export function headerOf<R>(c: Column<R>, r: Render): string {
  const text = c.header[r.lang];
  return c.kind === 'date' ? `${text} (${zoneName(r.tzOffset)})` : text;
}

/** Epoch seconds as the caller's wall-clock time: "31/01/2026 14:05:00" (pt-BR) or "2026-01-31 14:05:00". */
export function formatDate(epochSeconds: number, r: Render): string {
  const d = new Date((epochSeconds + r.tzOffset * 60) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  const [y, m, day] = [d.getUTCFullYear(), p(d.getUTCMonth() + 1), p(d.getUTCDate())];
  return r.lang === 'pt-BR' ? `${day}/${m}/${y} ${time}` : `${y}-${m}-${day} ${time}`;
}

const PAYMENT_STATUSES: Record<string, { 'pt-BR': string; 'en-US': string }> = {
  pending: both('Aguardando pagamento', 'Awaiting payment'),
  applied: both('Renovado', 'Renewed'),
  paid_awaiting_credits: both('Pago, aguardando créditos', 'Paid, awaiting credits'),
  expired: both('Expirado', 'Expired'),
  rejected: both('Recusado', 'Rejected'),
  failed: both('Falhou', 'Failed'),
};

export const paymentColumns: Column<ListedPayment>[] = [
  { header: both('ID', 'ID'), kind: 'number', width: 10, value: (x) => x.id },
  { header: both('Usuário', 'Line'), width: 18, value: (x) => x.username },
  { header: both('Pacote', 'Package'), width: 18, value: (x) => x.package_name },
  { header: both('Valor (R$)', 'Amount (BRL)'), kind: 'money', width: 12, value: (x) => x.amount_cents },
  { header: both('Status', 'Status'), width: 24, value: (x, r) => PAYMENT_STATUSES[x.status]?.[r.lang] ?? x.status },
  { header: both('Criado em', 'Created'), kind: 'date', width: 20, value: (x) => x.created_at },
  { header: both('Pago em', 'Paid'), kind: 'date', width: 20, value: (x) => x.paid_at },
  { header: both('Aplicado em', 'Applied'), kind: 'date', width: 20, value: (x) => x.applied_at },
  { header: both('Renovado até', 'Renewed until'), kind: 'date', width: 20, value: (x) => x.exp_after },
  { header: both('Pagamento Mercado Pago', 'Mercado Pago payment'), width: 20, value: (x) => x.mp_payment_id },
  { header: both('Erro', 'Error'), width: 30, value: (x) => x.last_error },
];
