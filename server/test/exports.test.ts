import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, FAST_TIER, type TestContext, createTestContext } from './helpers.ts';
import { waitFor } from './wait.ts';

const PASS = 'Export-pass-2024';
const BOM = '\uFEFF';

/** CSV text -> rows of cells (our files: `;`, CRLF, quotes doubled). */
function parseCsv(text: string): string[][] {
  expect(text.startsWith(BOM)).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted && ch === '"' && body[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ';') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\r' && body[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

describe(`exports: CSV and XLSX streamed with the lists' filters and scope (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const id: Record<string, number> = {};
  const tok: Record<string, string> = {};
  let packageId: number;

  const get = (token: string | null, url: string) => t.call(token, { method: 'GET', url });
  const csvOf = async (token: string | null, url: string) => {
    const res = await get(token, url);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return parseCsv(res.body);
  };
  const exportLogs = () =>
    t.database.db.selectFrom('logs').selectAll().where('action', '=', 'data_export').orderBy('id', 'desc').execute();

  async function reseller(token: string, username: string, type: 'master' | 'reseller', credits: number, groups: Record<string, number>) {
    const made = await createSignedInReseller(t, token, { username, password: PASS, type, credits, groups });
    id[username] = made.id;
    tok[username] = made.token;
  }
  async function line(token: string, username: string, extra: Record<string, unknown> = {}) {
    id[username] = (await createLine(t, token, { username, password: `pw${username}`, package_id: packageId, ...extra })).id;
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    packageId = await createPackage(t, admin, 'Mensal', await createBouquet(t, admin, 'Canais'));
    await reseller(admin, 'exmastera', 'master', 100, groups);
    await reseller(admin, 'exmasterb', 'master', 10, groups);
    await reseller(tok.exmastera, 'exresa', 'reseller', 10, groups);
    await line(tok.exmastera, 'lineone', { reseller_notes: 'Ação; "aspas"' });
    await line(tok.exmastera, 'linetwo', { reseller_notes: '=HYPERLINK("http://x")', whatsapp: '+55 11 99999-0000' });
    await line(tok.exmastera, 'lineblocked');
    expect((await t.call(tok.exmastera, { method: 'POST', url: `/api/users/${id.lineblocked}/block` })).statusCode).toBe(200);
    await line(tok.exresa, 'lineofresa');
    await line(tok.exmasterb, 'lineofb');
  }, 60_000);
  afterAll(() => t?.close());

  it('lines as CSV: attachment headers, BOM, `;`, translated header, passwords, formula-safe text, dates in the caller zone', async () => {
    const res = await get(tok.exmastera, '/api/users/export.csv?tz_offset=-180');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    expect(header.slice(0, 5)).toEqual(['ID', 'Usuário', 'Senha', 'Criado em (UTC-03:00)', 'Expira em (UTC-03:00)']);
    // the master's own lines and its reseller's, in id order; never another master's
    expect(rows.map((r) => r[1])).toEqual(['lineone', 'linetwo', 'lineblocked', 'lineofresa']);
    expect(rows[0][2]).toBe('pwlineone');
    expect(rows[0][6]).toBe('Ação; "aspas"');
    expect(rows[1][6]).toBe(`'=HYPERLINK("http://x")`);
    expect(rows[1][7]).toBe(`'+55 11 99999-0000`);
    expect(rows[2][9]).toBe('Bloqueado');
    expect(rows[0][3]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    const created = await t.database.db.selectFrom('lines').select('created_at').where('id', '=', id.lineone).executeTakeFirstOrThrow();
    const local = new Date((created.created_at - 180 * 60) * 1000);
    expect(rows[0][3].slice(11, 13)).toBe(String(local.getUTCHours()).padStart(2, '0'));
    expect(res.body).not.toContain('lineofb');
    const english = parseCsv((await get(tok.exmastera, '/api/users/export.csv?lang=en-US')).body);
    expect(english[0].slice(0, 4)).toEqual(['ID', 'Username', 'Password', 'Created (UTC+00:00)']);
    expect(english[1][3]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("applies the list's filters", async () => {
    const names = async (q: string) => (await csvOf(tok.exmastera, `/api/users/export.csv?${q}`)).slice(1).map((r) => r[1]);
    expect(await names('status=0')).toEqual(['lineblocked']);
    expect(await names('status=1')).toEqual(['lineone', 'linetwo', 'lineofresa']);
    expect(await names('username=LINET')).toEqual(['linetwo']);
    expect(await names('reseller=exresa')).toEqual(['lineofresa']);
    expect(await names('reseller=exmasterb')).toEqual([]); // another subtree's owner matches nothing
    expect(await names(`text_search=hyperlink`)).toEqual(['linetwo']);
    expect((await get(tok.exmastera, '/api/users/export.csv?created=2020-13-45')).statusCode).toBe(400);
  });

  it('resellers: managers only, own subtree, filters', async () => {
    const rows = await csvOf(tok.exmastera, '/api/resellers/export.csv');
    expect(rows[0].slice(0, 3)).toEqual(['ID', 'Usuário', 'Créditos']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['exresa']);
    const all = await csvOf(admin, '/api/resellers/export.csv?username=exmaster');
    expect(all.slice(1).map((r) => r[1])).toEqual(['exmastera', 'exmasterb']);
    expect((await get(tok.exresa, '/api/resellers/export.csv')).statusCode).toBe(403);
    const anonymous = await get(null, '/api/resellers/export.csv');
    expect([anonymous.statusCode, anonymous.json().message]).toEqual([401, 'Sign in to continue']);
  });

  it('credit ledger: its reseller and those above it; anyone else 404', async () => {
    const rows = await csvOf(tok.exresa, `/api/resellers/${id.exresa}/ledger/export.csv`);
    expect(rows[0]).toEqual(['ID', 'Data (UTC+00:00)', 'Créditos', 'Saldo após', 'Motivo', 'Contraparte', 'Feito por', 'Usuário (ID)', 'Usuário P2P (ID)']);
    // received 10 from its master, then paid 1 for its line
    expect(rows.slice(1).map((r) => [r[2], r[3], r[4]])).toEqual([
      ['10', '10', 'transfer_in'],
      ['-1', '9', 'line_create'],
    ]);
    expect((await get(tok.exmastera, `/api/resellers/${id.exresa}/ledger/export.csv`)).statusCode).toBe(200);
    expect((await get(tok.exmastera, `/api/resellers/${id.exmasterb}/ledger/export.csv`)).statusCode).toBe(404);
    expect((await get(tok.exresa, `/api/resellers/${id.exmastera}/ledger/export.csv`)).statusCode).toBe(404);
  });

  it('logs: scoped and filtered like the list; every export leaves an action row with its filters and row count', async () => {
    const rows = await csvOf(tok.exmastera, '/api/logs/export.csv?type=user&actions=user_block');
    expect(rows.slice(1).map((r) => [r[3], r[7]])).toEqual([['user_block', 'lineblocked']]);
    const mine = (await csvOf(tok.exmastera, '/api/logs/export.csv?type=user')).slice(1).map((r) => r[7]);
    expect(mine).toContain('lineofresa');
    expect(mine).not.toContain('lineofb');
    // the action row is written as the stream ends, after the answer's last byte
    const logged = await waitFor(async () => (await exportLogs()).find((l) => l.value === 'logs.csv?type=user&actions=user_block'), { what: 'the export log row' });
    expect(logged).toMatchObject({ type_log: 'export', actor_id: id.exmastera, reseller_id: id.exmastera, value_int: 1 });
  });

  it('lines as XLSX read back with exceljs: header, rows, typed cells', async () => {
    const res = await get(tok.exmastera, '/api/users/export.xlsx?status=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/filename="users-\d{4}-\d{2}-\d{2}\.xlsx"/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(1).getCell(2).value).toBe('Usuário');
    expect([2, 3, 4].map((n) => sheet.getRow(n).getCell(2).value)).toEqual(['lineone', 'linetwo', 'lineofresa']);
    expect(sheet.getRow(2).getCell(1).value).toBe(id.lineone);
    expect(sheet.getRow(2).getCell(4).value).toBeInstanceOf(Date);
    expect(sheet.getRow(3).getCell(6 + 1).value).toBe('=HYPERLINK("http://x")'); // a text cell: never a formula
  });

  it('one-time download links: bound to the session and the exact URL, 60 s, single use', async () => {
    const path = '/api/users/export.csv?status=0&lang=en-US';
    const link = await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path } });
    expect(link.statusCode, link.body).toBe(201);
    const { url } = link.json();
    expect(url).toMatch(/^\/api\/users\/export\.csv\?status=0&lang=en-US&download_token=[\w-]{43}$/);
    const first = await get(null, url);
    expect(first.statusCode).toBe(200);
    expect(parseCsv(first.body).slice(1).map((r) => r[1])).toEqual(['lineblocked']);
    expect((await get(null, url)).statusCode).toBe(401); // used up

    const other = (await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path } })).json().url as string;
    expect((await get(null, other.replace('status=0', 'status=1'))).statusCode).toBe(401); // another URL
    expect((await get(null, other)).statusCode).toBe(401); // ...and the failed try used it up

    const late = (await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path } })).json().url as string;
    await t.database.db.updateTable('download_tokens').set({ expires_at: nowSec() - 1 }).execute();
    expect((await get(null, late)).statusCode).toBe(401);

    // a link only opens exports, and only with the role and scope of its session
    expect((await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path: '/api/users' } })).statusCode).toBe(400);
    expect((await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path: 'https://evil.example/api/users/export.csv' } })).statusCode).toBe(400);
    const forbidden = (await t.call(tok.exresa, { method: 'POST', url: '/api/exports/token', payload: { path: '/api/resellers/export.csv' } })).json().url as string;
    expect((await get(null, forbidden)).statusCode).toBe(403);
    const hidden = (await t.call(tok.exmastera, { method: 'POST', url: '/api/exports/token', payload: { path: `/api/resellers/${id.exmasterb}/ledger/export.csv` } })).json().url as string;
    expect((await get(null, hidden)).statusCode).toBe(404);
    expect((await get(null, '/api/users/1?download_token=x')).statusCode).toBe(401); // other routes never take one

    // signing out ends the session's links
    const session = await t.login('exresa', PASS);
    const pending = (await t.call(session, { method: 'POST', url: '/api/exports/token', payload: { path: '/api/users/export.csv' } })).json().url as string;
    expect((await t.call(session, { method: 'DELETE', url: '/api/auth/sign-out' })).statusCode).toBe(204);
    expect((await get(null, pending)).statusCode).toBe(401);
  });

  describe('50,000 lines', { skip: FAST_TIER }, () => {
    const COUNT = 50_000;
    let base: string;

    beforeAll(async () => {
      const now = nowSec();
      const db = t.database.db;
      for (let i = 0; i < COUNT; i += 1000) {
        const rows = Array.from({ length: 1000 }, (_, k) => ({
          member_id: id.exresa,
          username: `bulk${String(i + k).padStart(6, '0')}`,
          password: `pass${i + k}`,
          exp_date: now + 86_400 * 30,
          created_at: now - k,
          enabled: 1,
          is_trial: 0,
          max_connections: 1,
          package_id: packageId,
          bouquet: '["1"]',
          // long rows: the few MB that socket buffers take before a hang-up is seen stay a small part of the file
          reseller_notes: `bulk line ${'with notes that make the row longer '.repeat(8)}`,
          whatsapp: '5511999990000',
          system: 1,
        }));
        await db.insertInto('lines').values(rows).execute();
      }
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }, 120_000);

    /** GET over a real socket; `onChunk` may stop reading by destroying the request. */
    function stream(path: string, token: string, onChunk: (chunk: Buffer, req: http.ClientRequest) => void) {
      return new Promise<number>((resolve, reject) => {
        const req = http.get(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          expect(res.statusCode).toBe(200);
          res.on('data', (c: Buffer) => onChunk(c, req));
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('close', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', (e) => (req.destroyed ? resolve(0) : reject(e)));
      });
    }

    it('streams every row with a small, flat heap', { timeout: 120_000 }, async () => {
      // What the export holds, not garbage waiting for a collection: the heap after a full GC,
      // taken every 2 MB of the download.
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      gc();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      let newlines = 0;
      let bytes = 0;
      let nextSample = 0;
      await stream('/api/users/export.csv?reseller=exresa', tok.exmastera, (c) => {
        bytes += c.length;
        for (const b of c) if (b === 10) newlines++;
        if (bytes >= nextSample) {
          nextSample += 2 * 1024 * 1024;
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }
      });
      const grew = (peak - before) / 1024 / 1024;
      console.log(`export of ${COUNT + 1} lines (${ENGINE}): ${(bytes / 1024 / 1024).toFixed(1)} MB, live heap grew at most ${grew.toFixed(1)} MB`);
      expect(newlines).toBe(COUNT + 2); // header + the reseller's own line + the bulk
      expect(bytes).toBeGreaterThan(15 * 1024 * 1024);
      expect(grew).toBeLessThan(15); // the file is 19 MB: holding it, or its rows, would not fit
    });

    it('XLSX of the same rows streams too, and reads back complete', { timeout: 120_000 }, async () => {
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      gc();
      const before = process.memoryUsage().heapUsed;
      let peak = before;
      let nextSample = 0;
      const file = path.join(os.tmpdir(), `export-${process.pid}-${Date.now()}.xlsx`);
      const out = fs.createWriteStream(file);
      let bytes = 0;
      await stream('/api/users/export.xlsx?reseller=exresa', tok.exmastera, (c) => {
        out.write(c);
        bytes += c.length;
        if (bytes >= nextSample) {
          nextSample += 1024 * 1024;
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }
      });
      await new Promise((r) => out.end(r));
      const grew = (peak - before) / 1024 / 1024;
      console.log(`XLSX of ${COUNT + 1} lines (${ENGINE}): ${(bytes / 1024 / 1024).toFixed(1)} MB, live heap grew at most ${grew.toFixed(1)} MB`);
      expect(grew).toBeLessThan(15);
      let rows = 0;
      for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(file, {})) for await (const _ of sheet) rows++;
      fs.rmSync(file);
      expect(rows).toBe(COUNT + 2);
    });

    it('a client that hangs up stops the query loop', { timeout: 60_000 }, async () => {
      await stream('/api/users/export.csv?reseller=exresa&status=1', tok.exmastera, (_c, req) => req.destroy());
      const row = await waitFor(async () => (await exportLogs()).find((l) => l.value?.startsWith('users.csv?reseller=*&status=1')), { what: 'the interrupted export log row' });
      expect(row?.value).toBe('users.csv?reseller=*&status=1 (interrupted)');
      expect(row?.value_int).toBeLessThan(COUNT / 2);
    });
  });
});
