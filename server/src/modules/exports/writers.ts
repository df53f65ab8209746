import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { type Column, type Render, formatDate, headerOf } from './columns.ts';

/**
 * CSV for Excel as our users have it (pt-BR): UTF-8 with a BOM (accents), `;` between fields
 * (Brazilian Excel reads `,` as the decimal mark), CRLF. Text that a spreadsheet would run as a
 * formula (= + - @ at the start) gets a leading apostrophe.
 */
export function csvStream<R>(rows: AsyncIterable<R>, columns: Column<R>[], r: Render): Readable {
  const options = { delimiter: ';', record_delimiter: 'windows' } as const;
  // Rows are turned into text 500 at a time: one stream chunk per row would cost more than the query.
  async function* chunks() {
    yield stringify([columns.map((c) => headerOf(c, r))], { ...options, bom: true });
    let batch: (string | number)[][] = [];
    for await (const row of rows) {
      batch.push(columns.map((c) => csvCell(c, row, r)));
      if (batch.length === 500) {
        yield stringify(batch, options);
        batch = [];
      }
    }
    if (batch.length) yield stringify(batch, options);
  }
  // A Readable pulls the next chunk only when the socket has taken the previous ones (backpressure
  // reaches the query loop), and when a client hangs up Fastify destroys it, which ends the row
  // iterator and so the queries.
  return Readable.from(chunks(), { objectMode: false });
}

function csvCell<R>(c: Column<R>, row: R, r: Render): string | number {
  const v = c.value(row, r);
  if (v === null) return '';
  if (c.kind === 'date') return formatDate(Number(v), r);
  // "35,50" for a pt-BR spreadsheet (its decimal mark), "35.50" in English
  if (c.kind === 'money') return (Number(v) / 100).toFixed(2).replace('.', r.lang === 'pt-BR' ? ',' : '.');
  if (typeof v === 'number') return v;
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/**
 * exceljs loads ~670 CommonJS files (0.4-0.8 s): loaded on the first XLSX export, not at every
 * start-up (start-up time).
 */
let excel: Promise<typeof import('exceljs')> | undefined;
const loadExcel = () => {
  excel ??= import('exceljs').then((m) => m.default);
  return excel;
};

/** A one-sheet XLSX written as the rows arrive (exceljs' streaming writer: rows are not kept). */
export function xlsxStream<R>(rows: AsyncIterable<R>, columns: Column<R>[], r: Render, sheetName: string): Readable {
  const out = new PassThrough();
  const write = async () => {
    const iterator = rows[Symbol.asyncIterator]();
    try {
      const ExcelJS = await loadExcel();
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
      const sheet = book.addWorksheet(sheetName);
      sheet.columns = columns.map((c, i) => ({
        key: String(i),
        header: headerOf(c, r),
        width: c.width ?? 14,
        ...(c.kind === 'date' ? { style: { numFmt: r.lang === 'pt-BR' ? 'dd/mm/yyyy hh:mm:ss' : 'yyyy-mm-dd hh:mm:ss' } } : {}),
        ...(c.kind === 'money' ? { style: { numFmt: '#,##0.00' } } : {}),
      }));
      let n = 0;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (out.destroyed) return;
        sheet.addRow(columns.map((c) => xlsxCell(c, next.value, r))).commit();
        // exceljs does not wait for the reader: stop adding rows while the client is behind.
        if (++n % 200 === 0 && out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      }
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    } finally {
      await iterator.return?.();
    }
  };
  void write();
  return out;
}

function xlsxCell<R>(c: Column<R>, row: R, r: Render): string | number | Date | null {
  const v = c.value(row, r);
  if (v === null) return v;
  if (c.kind === 'money') return Number(v) / 100;
  if (c.kind !== 'date') return v;
  // Excel has no time zones: the cell holds the caller's wall-clock time.
  return new Date((Number(v) + r.tzOffset * 60) * 1000);
}
