// `npm run lighthouse`: Lighthouse 12 (desktop preset) on the signed-in dashboard of the built
// app, served by the real server on a fresh database. Prints performance, TBT and CLS; exits 1
// below MIN_SCORE or at CLS >= MAX_CLS. Slow, so not part of `npm test`.
// Build first (npm run build, or E2E_WEB_DIST=<dir> for a build of one's own).
import fs from 'node:fs';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { Api, apiRequest } from '../support/api.ts';
import { CHROMIUM_PATH } from '../support/browser.ts';
import { RESULTS_DIR } from '../support/paths.ts';
import { startServer } from '../support/server.ts';
import { SESSION_KEY } from '../support/ui.ts';

const MIN_SCORE = 90;
const MAX_CLS = 0.1;
// pt-BR like our users (an English browser also fetches the en-US texts chunk first).
const FLAGS = ['--lang=pt-BR', '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const server = await startServer();
const browser = await puppeteer.launch({ executablePath: process.env.CHROME_PATH || CHROMIUM_PATH, args: FLAGS });
let failed = true;
try {
  const admin = await Api.signIn(server.baseUrl, server.adminUsername, server.adminPassword);
  // An active notice: it sits at the top of the dashboard, the worst case for layout shift.
  const notice = { title: 'Aviso', body: 'Manutenção programada no domingo às 3h.\nOs clientes podem ficar 10 minutos sem sinal.', level: 0, status: 1 };
  await apiRequest(server.baseUrl, 'PUT', '/news/1', { token: admin.token, body: notice });
  const page = await browser.newPage();
  // The session goes into localStorage from a page that loads no script, so the measured load starts cold.
  await page.goto(`${server.baseUrl}/api/docs/json`);
  await page.evaluate((key, value) => localStorage.setItem(key, value), SESSION_KEY, JSON.stringify({ t: admin.token }));
  const result = await lighthouse(
    `${server.baseUrl}/`,
    { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true },
    desktopConfig,
    page,
  );
  if (!result) throw new Error('lighthouse returned nothing');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'lighthouse.json'), JSON.stringify(result.lhr));
  const { categories, audits, finalDisplayedUrl } = result.lhr;
  const score = Math.round((categories.performance?.score ?? 0) * 100);
  const tbt = audits['total-blocking-time']?.numericValue ?? Number.NaN;
  const cls = audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;
  const ms = (id: string) => `${Math.round(audits[id]?.numericValue ?? 0)} ms`;
  console.log(`lighthouse desktop ${finalDisplayedUrl} (report: e2e/test-results/lighthouse.json)`);
  console.log(`performance ${score}  TBT ${Math.round(tbt)} ms  CLS ${cls.toFixed(3)}  FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  SI ${ms('speed-index')}`);
  if (!finalDisplayedUrl.endsWith('/') || finalDisplayedUrl.includes('sign-in')) throw new Error(`not the dashboard: ${finalDisplayedUrl}`);
  failed = score < MIN_SCORE || !(cls < MAX_CLS);
  if (failed) console.log(`FAILED: needs performance >= ${MIN_SCORE} and CLS < ${MAX_CLS}`);
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
