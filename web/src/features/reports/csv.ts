import type { SalesReport } from '../../api/types';
import type { Lang } from '../../i18n/lang';
import { FIGURES, type Figure, isMoney } from './figures';

/**
 * The series as CSV, the way the server's exports are (server/src/modules/exports/writers.ts), so a
 * Brazilian Excel opens it as it opens them: UTF-8 with a BOM, `;` between fields (that Excel reads
 * `,` as the decimal mark), CRLF; in pt-BR days as DD/MM/YYYY and reais as 35,50, in English
 * YYYY-MM-DD and 35.50. One row per bar (its first day), a header row first; no totals row.
 * `name` words the columns (the page's texts).
 */
export function salesCsv(report: SalesReport, name: (column: 'start' | Figure) => string, lang: Lang): string {
  const pt = lang === 'pt-BR';
  const day = (iso: string) => (pt ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : iso);
  const money = (cents: number) => (cents / 100).toFixed(2).replace('.', pt ? ',' : '.');
  const header = [name('start'), ...FIGURES.map((f) => (isMoney(f) ? `${name(f)} (R$)` : name(f)))];
  const rows = report.series.map((b) => [day(b.start), ...FIGURES.map((f) => (isMoney(f) ? money(b[f]) : String(b[f])))]);
  return `\ufeff${[header, ...rows].map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`;
}

/** Quoted when it holds the separator, a quote or a line break (the headers are texts). */
function cell(v: string): string {
  return /[;"\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** relatorio-2025-01-01-a-2025-01-31.csv: the file's name says its period. */
export function csvFileName(prefix: string, report: Pick<SalesReport, 'from' | 'to'>): string {
  return `${prefix}-${report.from}-${report.to}.csv`;
}

/** Saves a text as a file (a link to a Blob: the answer is already in memory, a few hundred rows at most). */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // after the click has started the download
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
