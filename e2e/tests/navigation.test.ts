import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { byTestId, type Line, lineAction, rowWithText, signInUi, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };
const pt = (key: string) => tr('pt-BR', key);

/**
 * People sign in once and move by the menu: every page then reads queries other pages cached.
 * (The dashboard once cached news as `{ data }` and the users page read the same key as an array:
 * the short-link modal threw a TypeError, which loading /users directly never showed.)
 */
describe('moving between pages by the menu, in one signed-in session', () => {
  const s = useE2eSuite();
  let line: Line;
  let resellerName: string;
  const notice = { title: uniqueName('Aviso '), link: uniqueName('Links ') };

  beforeAll(async () => {
    const bouquet = await s.admin.createBouquet();
    const pkg = await s.admin.createPackage({ bouquets: [String(bouquet.id)] });
    const reseller = await s.admin.createReseller({ credits: 5 });
    resellerName = reseller.username;
    const asReseller = await s.admin.createAndSignIn({ username: uniqueName('nav'), credits: 5 });
    line = await asReseller.post<Line>('/users', { package_id: pkg.id });
    await s.admin.put('/news/1', { title: notice.title, body: 'Aviso do painel', level: 1, status: 1 });
    await s.admin.put('/news/2', { title: notice.link, body: 'Aviso dos links', level: 1, status: 1 });
  });

  /** Clicks a menu entry and waits for its path (no reload: the app keeps its query cache). */
  async function goByMenu(page: Page, testId: string, path: string): Promise<void> {
    await byTestId(page, testId).click();
    await waitForPath(page, path);
  }

  async function expectDashboard(page: Page): Promise<void> {
    await byTestId(page, 'dashboard-cards').waitFor();
    await expect.poll(() => visibleText(byTestId(page, 'dashboard-news-title')), POLL).toBe(notice.title);
  }

  /** Opens the line's short-link modal, checks the links and the link notice, shortens one, closes it. */
  async function useShortLinkModal(page: Page): Promise<void> {
    await rowWithText(page, line.username).waitFor();
    await lineAction(page, line.id, 'links');
    const shortField = byTestId(page, 'link-short');
    await shortField.waitFor();
    await expect.poll(() => byTestId(page, 'link-original-m3u8').inputValue(), POLL).toContain(`username=${line.username}`);
    await expect.poll(() => visibleText(byTestId(page, 'links-news')), POLL).toContain(notice.link);
    await byTestId(page, 'link-shorten-m3u8').click();
    await expect.poll(() => shortField.inputValue(), POLL).toMatch(/\/s\/[A-Za-z0-9_-]{16}$/);
    await page.keyboard.press('Escape');
    await shortField.waitFor({ state: 'hidden' });
  }

  test('dashboard -> users (short-link modal) -> resellers -> logs -> reports -> news editor -> dashboard -> users: no page error, the right content each time', async () => {
    const page = await s.page();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(`${err.name}: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    const noErrors = (step: string) => {
      expect(pageErrors, `page errors at ${step}`).toEqual([]);
      // A render error caught by the route's error boundary is only logged: it counts too.
      expect(consoleErrors.filter((m) => /TypeError|ReferenceError|Uncaught|React/.test(m)), `console errors at ${step}`).toEqual([]);
    };
    /** Runs one step; when its content does not show, the page's errors are reported first. */
    const step = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        noErrors(name);
        throw err;
      }
      noErrors(name);
    };

    await step('sign-in', async () => {
      await signInUi(page, s.server.adminUsername, s.server.adminPassword);
      await expectDashboard(page);
    });
    await step('users and the short-link modal', async () => {
      await goByMenu(page, 'nav-users', '/users');
      await useShortLinkModal(page);
    });
    await step('resellers', async () => {
      await goByMenu(page, 'nav-resellers', '/resellers');
      await rowWithText(page, resellerName).waitFor();
    });
    await step('logs', async () => {
      await goByMenu(page, 'nav-logs', '/logs');
      await byTestId(page, 'logs-table').waitFor();
      await expect.poll(() => byTestId(page, 'log-action').count(), POLL).toBeGreaterThan(0);
    });
    await step('reports', async () => {
      await goByMenu(page, 'nav-reports', '/reports');
      await byTestId(page, 'report-total-lines_created').waitFor();
      await byTestId(page, 'report-charts').waitFor();
    });
    await step('news editor', async () => {
      await goByMenu(page, 'nav-edit_news', '/edit_news');
      await expect.poll(() => byTestId(page, 'news-title').inputValue(), POLL).toBe(notice.title);
    });
    await step('dashboard again', async () => {
      await goByMenu(page, 'nav-dashboard', '/');
      await expectDashboard(page);
    });
    await step('users again', async () => {
      await goByMenu(page, 'nav-users', '/users');
      await useShortLinkModal(page);
    });
    await step('back to the dashboard', async () => {
      await goByMenu(page, 'nav-dashboard', '/');
      await expectDashboard(page);
      expect(await page.getByText(pt('nav.users')).count()).toBeGreaterThan(0);
    });
  });
});
