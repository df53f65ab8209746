import dayjs from 'dayjs';

const creditsFormat = new Intl.NumberFormat('pt-BR');

/** Credits in the pt-BR number format (1.500), as the top bar shows them. */
export function formatCredits(n: number | null | undefined): string {
  return creditsFormat.format(n ?? 0);
}

/** Signed credits: +1.500 / −20. */
export function formatDelta(n: number): string {
  return n > 0 ? `+${creditsFormat.format(n)}` : n < 0 ? `−${creditsFormat.format(-n)}` : '0';
}

/** Unix seconds as DD-MM-YYYY HH:mm; empty text for null/0. */
export function formatEpoch(seconds: number | null | undefined): string {
  return seconds ? dayjs.unix(seconds).format('DD-MM-YYYY HH:mm') : '';
}
