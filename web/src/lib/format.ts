import dayjs from 'dayjs';

/** pt-BR number and date formats, whatever the UI language (our users are in Brazil; docs/decisions.md). */
const numberFormat = new Intl.NumberFormat('pt-BR');

/** Integer in pt-BR format: 1.234.567. */
export function formatNumber(n: number | null | undefined): string {
  return numberFormat.format(n ?? 0);
}

const moneyFormat = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Cents as reais: 123450 -> R$ 1.234,50. */
export function formatMoney(cents: number): string {
  return moneyFormat.format(cents / 100);
}

/** Signed amount: +1.500 / −20 / 0. */
export function formatDelta(n: number): string {
  return n > 0 ? `+${numberFormat.format(n)}` : n < 0 ? `−${numberFormat.format(-n)}` : '0';
}

/** Epoch seconds as DD/MM/YYYY HH:mm in the browser's time zone; '-' without a date. */
export function formatDateTime(epochSeconds: number | null | undefined): string {
  return epochSeconds ? dayjs.unix(epochSeconds).format('DD/MM/YYYY HH:mm') : '-';
}

/** A YYYY-MM-DD day as DD/MM/YYYY (a day of the API's reports: no time zone to apply). */
export function formatDay(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** Cuts a text at `max` characters with an ellipsis; null/empty -> ''. */
export function cut(text: string | null | undefined, max = 25): string {
  const s = (text ?? '').trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Seconds as hh:mm:ss (P2P and online lists' elapsed time); past a day, `Nd hh:mm:ss`. */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hms = [Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return days > 0 ? `${days}d ${hms}` : hms;
}
