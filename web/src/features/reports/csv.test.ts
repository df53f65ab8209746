import { describe, expect, it } from 'vitest';
import type { SalesReport } from '../../api/types';
import { csvFileName, salesCsv } from './csv';

const zero = { lines_created: 0, trials_created: 0, renewals: 0, credits_spent: 0, pix_payments: 0, pix_received_cents: 0, expired: 0 };
const report: SalesReport = {
  from: '2025-03-01',
  to: '2025-03-02',
  bucket: 'day',
  time_zone: 'America/Sao_Paulo',
  series: [
    { start: '2025-03-01', ...zero, lines_created: 3, trials_created: 1, renewals: 2, credits_spent: 5, pix_payments: 1, pix_received_cents: 3550, expired: 1 },
    { start: '2025-03-02', ...zero },
  ],
  totals: { ...zero, lines_created: 3, trials_created: 1, renewals: 2, credits_spent: 5, pix_payments: 1, pix_received_cents: 3550, expired: 1 },
};
const name = (c: string) => ({ start: 'Início', lines_created: 'Vendas', pix_received_cents: 'PIX recebido' })[c] ?? c;

describe('the CSV of the bars', () => {
  it('is what a Brazilian Excel opens: BOM, `;`, CRLF, DD/MM/YYYY and 35,50; a header row, one row per bar', () => {
    const csv = salesCsv(report, name, 'pt-BR');
    expect(csv.startsWith('\ufeff')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Início;Vendas;trials_created;renewals;credits_spent;pix_payments;PIX recebido (R$);expired',
      '01/03/2025;3;1;2;5;1;35,50;1',
      '02/03/2025;0;0;0;0;0;0,00;0',
      '',
    ]);
  });

  it('in English: ISO days and 35.50; a header with the separator is quoted', () => {
    const csv = salesCsv(report, (c) => (c === 'start' ? 'Start; day' : c), 'en-US');
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]?.startsWith('"Start; day";lines_created')).toBe(true);
    expect(lines[1]).toBe('2025-03-01;3;1;2;5;1;35.50;1');
  });

  it("names the file after its period", () => {
    expect(csvFileName('relatorio-vendas', report)).toBe('relatorio-vendas-2025-03-01-2025-03-02.csv');
  });
});
