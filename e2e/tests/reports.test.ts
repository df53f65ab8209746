import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Api, byTestId, clickMenuEntry, downloadBytes, type Line, type SalesReport, signInWithToken, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// The reports page on a phone, in Portuguese: a master's figures for the period (its network's
// sales, trials and renewals), the bars by day, by month, the CSV of the bars, its best
// sub-reseller and the sub-reseller filter; a plain reseller's page without them. And the
// dashboard's chart, on the first screens of a phone, with the renewals.

const POLL = { timeout: 15_000, interval: 200 };
const PHONE = { width: 375, height: 740 };
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);
const ptNumber = new Intl.NumberFormat('pt-BR');

/** Picks an option of a Mantine Select by its visible label (typing `search` first when given). */
async function pickOption(page: Page, inputTestId: string, label: string, search?: string): Promise<void> {
  const input = byTestId(page, inputTestId);
  await input.click();
  if (search !== undefined) await input.fill(search);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Today in São Paulo (the browser's and the panel's time zone here), YYYY-MM-DD, `days` earlier. */
function spDay(days = 0): string {
  return new Date(Date.now() - 3 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);
}

describe('reports', () => {
  const s = useE2eSuite();
  let master: Api;
  let sub: Api;
  let report: SalesReport;

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const bouquets = [String(bouquet.id)];
    const monthly = await s.admin.createPackage({ package_name: uniqueName('Mensal '), bouquets });
    const trial = await s.admin.createPackage({ package_name: uniqueName('Teste '), bouquets, is_trial: 1, is_official: 0, trial_duration: 4, trial_duration_in: 'hours' });
    master = await s.admin.createAndSignIn({ type: 'master', credits: 100 });
    sub = await master.createAndSignIn({ type: 'reseller', credits: 20 });
    // the master's network: 5 paid lines (3 its own, 2 of its sub-reseller), 2 trials, 1 renewal
    const own: Line[] = [];
    for (let i = 0; i < 3; i++) own.push(await master.post<Line>('/users', { package_id: monthly.id }));
    for (let i = 0; i < 2; i++) await sub.post<Line>('/users', { package_id: monthly.id });
    await master.post('/trial_users', { package_id: trial.id });
    await sub.post('/trial_users', { package_id: trial.id });
    await master.post(`/users/${own[0]?.id}/renew`, { months: 1 });
    report = await master.get<SalesReport>('/reports/sales');
    expect(report.totals).toMatchObject({ lines_created: 5, trials_created: 2, renewals: 1 });
  });

  test('375 px, a master: the dashboard chart early with the renewals; then the reports by the menu, periods, CSV, top sub-resellers, the filter', async () => {
    const page = await s.page({ viewport: PHONE });
    const asked: URL[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/reports/sales') asked.push(u);
    });
    await signInWithToken(page, master.token, '/');

    // The dashboard: the chart right after the cards, within the first 1 500 px, new lines and renewals.
    const chart = byTestId(page, 'activity-chart');
    await chart.waitFor();
    const chartTop = await chart.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    expect(chartTop).toBeLessThan(1500);
    await expect.poll(() => visibleText(byTestId(page, 'activity-new-lines-total')), POLL).toBe('7');
    expect(await visibleText(byTestId(page, 'activity-renewals-total'))).toBe('1');
    expect(await visibleText(chart)).toContain(pt('dashboard.activity.renewals'));
    expect(await byTestId(page, 'activity-reports-link').getAttribute('href')).toBe('/reports');

    // Reports, from the menu: the last 30 days by day.
    await clickMenuEntry(page, '/reports');
    await expect.poll(() => visibleText(page.locator('h1')), POLL).toBe(pt('reports.title'));
    const total = (f: string) => visibleText(byTestId(page, `report-total-${f}`));
    await expect.poll(() => total('lines_created'), POLL).toBe('5');
    expect(await total('trials_created')).toBe('2');
    expect(await total('renewals')).toBe('1');
    expect(await total('credits_spent')).toBe(ptNumber.format(report.totals.credits_spent));
    expect((await total('pix_received_cents')).replace(/\s/g, ' ')).toBe('R$ 0,00');
    expect(await total('expired')).toBe('0');
    const lastAsked = () => asked.at(-1)?.searchParams;
    expect(lastAsked()?.get('bucket')).toBe('day');
    expect(lastAsked()?.get('from')).toBe(spDay(29));
    expect(lastAsked()?.get('to')).toBe(spDay());
    const rows = () => byTestId(page, 'report-table-sales').locator('tbody tr').count();
    await expect.poll(rows, POLL).toBe(30);
    expect(await byTestId(page, 'report-chart-sales').getAttribute('data-bars')).toBe('30');
    // today's bars are drawn (the chart is hidden from screen readers: its table is read instead)
    await expect.poll(() => byTestId(page, 'report-chart-sales').locator('.recharts-bar-rectangle').count(), POLL).toBeGreaterThan(0);
    expect(await byTestId(page, 'report-chart-sales').locator('[aria-hidden="true"] .recharts-wrapper').count()).toBe(1);
    expect(await visibleText(byTestId(page, 'report-chart-sales'))).toContain(pt('reports.figures.renewals'));

    // 7 days: 7 bars by day.
    await pickOption(page, 'reports-period', pt('reports.periods.7d'));
    await expect.poll(() => new URL(page.url()).searchParams.get('period'), POLL).toBe('7d');
    await expect.poll(rows, POLL).toBe(7);
    expect(lastAsked()?.get('from')).toBe(spDay(6));
    expect(lastAsked()?.get('bucket')).toBe('day');
    const dayTicks = await byTestId(page, 'report-chart-sales').locator('.recharts-cartesian-axis-tick-value').allTextContents();

    // 12 months: 12 bars by month, each from the first of its month, the ticks month names.
    await pickOption(page, 'reports-period', pt('reports.periods.12m'));
    await expect.poll(() => new URL(page.url()).searchParams.get('period'), POLL).toBe('12m');
    await expect.poll(rows, POLL).toBe(12);
    expect(lastAsked()?.get('bucket')).toBe('month');
    const starts = await byTestId(page, 'report-table-sales').locator('tbody th').allTextContents();
    expect(starts.every((d) => d.startsWith('01/'))).toBe(true);
    await expect.poll(async () => (await byTestId(page, 'report-chart-sales').locator('.recharts-cartesian-axis-tick-value').allTextContents()).join(' '), POLL).not.toBe(dayTicks.join(' '));
    expect(await total('lines_created')).toBe('5');
    await expect.poll(() => visibleText(byTestId(page, 'reports-range')), POLL).toContain(pt('reports.buckets.month'));

    // The CSV of the bars: a header row, one row per month, the sales add up.
    const [download] = await Promise.all([page.waitForEvent('download'), byTestId(page, 'reports-export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^relatorio-vendas-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await downloadBytes(download)).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const csv = text
      .slice(1)
      .split('\r\n')
      .filter((l) => l !== '')
      .map((l) => l.split(';'));
    expect(csv[0]).toEqual([
      pt('reports.start'),
      pt('reports.figures.lines_created'),
      pt('reports.figures.trials_created'),
      pt('reports.figures.renewals'),
      pt('reports.figures.credits_spent'),
      pt('reports.figures.pix_payments'),
      `${pt('reports.figures.pix_received_cents')} (R$)`,
      pt('reports.figures.expired'),
    ]);
    expect(csv).toHaveLength(13);
    expect(csv.slice(1).every((r) => /^01\/\d{2}\/\d{4}$/.test(r[0] ?? ''))).toBe(true);
    expect(csv.slice(1).reduce((sum, r) => sum + Number(r[1]), 0)).toBe(5);
    expect(csv.at(-1)?.[6]).toBe('0,00');

    // The best sub-reseller: its two lines and their credits.
    const top = byTestId(page, `top-row-${sub.user.id}`);
    await top.waitFor();
    expect(await visibleText(top)).toContain(`1º ${sub.user.username}`);
    expect(await visibleText(top)).toMatch(new RegExp(`${pt('reports.figures.credits_spent')}\\s+2`));

    // One sub-reseller's figures: its 2 lines and 1 trial.
    await pickOption(page, 'reports-reseller', sub.user.username, sub.user.username.slice(0, 6));
    await expect.poll(() => new URL(page.url()).searchParams.get('reseller'), POLL).toBe(String(sub.user.id));
    await expect.poll(() => total('lines_created'), POLL).toBe('2');
    expect(await total('trials_created')).toBe('1');
    expect(await total('renewals')).toBe('0');
    expect(lastAsked()?.get('reseller_id')).toBe(String(sub.user.id));
    expect(lastAsked()?.get('bucket')).toBe('month');
  });

  test('375 px, a plain reseller: its own figures, no sub-reseller filter, no top list', async () => {
    const page = await s.page({ viewport: PHONE });
    await signInWithToken(page, sub.token, '/users');
    await byTestId(page, 'nav-burger').waitFor();
    await clickMenuEntry(page, '/reports');
    await expect.poll(() => visibleText(byTestId(page, 'report-total-lines_created')), POLL).toBe('2');
    expect(await visibleText(byTestId(page, 'report-total-trials_created'))).toBe('1');
    await byTestId(page, 'report-charts').waitFor();
    expect(await byTestId(page, 'reports-reseller').count()).toBe(0);
    expect(await byTestId(page, 'reports-top').count()).toBe(0);
  });
});
