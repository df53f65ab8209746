import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Api, byTestId, downloadBytes, type Line, signInWithToken, uniqueName, useE2eSuite } from '../support/index.ts';

/** Clicks Exportar -> format and returns the browser's download. */
async function exportAs(page: Page, menu: string, format: 'csv' | 'xlsx'): Promise<Download> {
  await byTestId(page, menu).click();
  const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, `${menu}-${format}`).click()]);
  return download;
}

/** Rows of our CSV: UTF-8 BOM, `;` between fields, CRLF (no quoted separators in this data). */
async function csvRows(download: Download): Promise<string[][]> {
  const text = (await downloadBytes(download)).toString('utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return text
    .slice(1)
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => l.split(';'));
}

describe('export: the lists download with the filters on screen', () => {
  const s = useE2eSuite();
  let master: Api;
  const lines: Line[] = [];
  const line = (i: number) => lines[i] as Line;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const pkg = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets: [String(bouquet.id)] });
    master = await s.admin.createAndSignIn({ type: 'master', credits: 20 });
    for (let i = 0; i < 4; i++) lines.push(await master.post<Line>('/users', { package_id: pkg.id, username: uniqueName(`exp${i}`), reseller_notes: 'Observação ç' }));
    await master.post(`/users/${line(1).id}/block`);
    await master.post(`/users/${line(3).id}/block`);
    // another master's line never shows up
    const other = await s.admin.createAndSignIn({ type: 'master', credits: 5 });
    await other.post('/users', { package_id: pkg.id, username: uniqueName('other') });
  });

  test('/users filtered on blocked lines: the CSV has exactly those rows, passwords included; the XLSX downloads too', async () => {
    const page = await s.page();
    await signInWithToken(page, master.token, '/users?status=0');
    await byTestId(page, `user-row-${line(3).id}`).waitFor();
    expect(await byTestId(page, `user-row-${line(0).id}`).count()).toBe(0);

    const csv = await exportAs(page, 'users-export', 'csv');
    expect(csv.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = await csvRows(csv);
    expect(header?.slice(0, 4)).toEqual(['ID', 'Usuário', 'Senha', 'Criado em (UTC-03:00)']);
    const blocked = [line(1), line(3)];
    expect(rows.map((r) => [Number(r[0]), r[1], r[2]])).toEqual(blocked.map((l) => [l.id, l.username, l.password]));
    expect(rows.every((r) => r[6] === 'Observação ç' && r[9] === 'Bloqueado')).toBe(true);

    const xlsx = await exportAs(page, 'users-export', 'xlsx');
    expect(xlsx.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const bytes = await downloadBytes(xlsx);
    expect(bytes.subarray(0, 2).toString()).toBe('PK'); // a zip: the XLSX container
    // the page stayed where it was
    expect(new URL(page.url()).pathname).toBe('/users');
  });

  test('/resellers with a name filter, and a reseller\'s credit history', async () => {
    const prefix = uniqueName('sub');
    const subs = [await master.createReseller({ username: `${prefix}a`, credits: 3 }), await master.createReseller({ username: `${prefix}b` })];
    await master.createReseller({ username: uniqueName('elsewhere') });
    const page = await s.page();
    await signInWithToken(page, master.token, `/resellers?username=${prefix}`);
    await byTestId(page, `reseller-row-${subs[1]?.id}`).waitFor();
    const [header, ...rows] = await csvRows(await exportAs(page, 'resellers-export', 'csv'));
    expect(header?.slice(0, 3)).toEqual(['ID', 'Usuário', 'Créditos']);
    expect(rows.map((r) => [r[1], r[2]])).toEqual([
      [`${prefix}a`, '3'],
      [`${prefix}b`, '0'],
    ]);

    await page.goto(`/resellers/${subs[0]?.id}`);
    const [, ...ledger] = await csvRows(await exportAs(page, 'ledger-export', 'csv'));
    expect(ledger.map((r) => [r[2], r[3], r[4], r[5]])).toEqual([['3', '3', 'transfer_in', master.user.username]]);
  });

  test('/logs exports what its filters show', async () => {
    const page = await s.page();
    await signInWithToken(page, master.token, '/logs?type=user&actions=user_block');
    await byTestId(page, 'logs-export').waitFor();
    const [, ...rows] = await csvRows(await exportAs(page, 'logs-export', 'csv'));
    expect(rows.map((r) => [r[3], r[7]]).sort()).toEqual([line(1), line(3)].map((l) => ['user_block', l.username]).sort());
  });
});
