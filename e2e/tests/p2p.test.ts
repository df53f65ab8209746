import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type OldPanelStandin, sampleClients, startOldPanelStandin } from '../../standins/old-panel.ts';
import { type P2pStandin, startP2pStandin } from '../../standins/p2p-server.ts';
import {
  Api,
  builtAppLeaks,
  byTestId,
  DEFAULT_PASSWORD,
  type Line,
  lineAction,
  type P2pUser,
  type P2pUserPage,
  type Package,
  rowWithText,
  signInUi,
  toast,
  tr,
  uniqueName,
  useE2eSuite,
  visibleText,
  waitForPath,
} from '../support/index.ts';

// P2P in the browser, against stand-ins of the P2P server and the old P2P panel on real sockets:
// create, renew, block, the online list and card, the line resync action, and both old-panel imports.

const POLL = { timeout: 15_000, interval: 150 };
const P2P_KEY = 'e2e-p2p-server-key-7f3a9c';
const pt = (key: string, vars?: Record<string, string | number>) => tr('pt-BR', key, vars);

const env: Record<string, string> = {};
let p2p: P2pStandin;
let old: OldPanelStandin;
const OLD = { username: uniqueName('velho'), password: 'senhaVelha1', credits: 7 };

async function clickMenu(page: Page, testId: string, pathname: string): Promise<void> {
  await byTestId(page, testId).first().click();
  await waitForPath(page, pathname);
}

async function p2pAction(page: Page, id: number, action: string): Promise<void> {
  await byTestId(page, `p2p-actions-${id}`).click();
  await byTestId(byTestId(page, `p2p-actions-menu-${id}`), `p2p-action-${action}`).click();
}

describe('P2P in the browser', () => {
  beforeAll(async () => {
    p2p = await startP2pStandin({ key: P2P_KEY });
    old = await startOldPanelStandin({ accounts: [{ ...OLD, clients: sampleClients(uniqueName('cli'), 3) }] });
    Object.assign(env, { P2P_API_URL: p2p.url, P2P_API_KEY: P2P_KEY, OLD_P2P_URL: old.url, P2P_RETRY_BASE_MS: '100', P2P_RETRY_MAX_SECONDS: '1' });
    return async () => {
      await Promise.all([p2p?.close(), old?.close()]);
    };
  });

  describe('against the real server', () => {
    const s = useE2eSuite({ env });
    let reseller: Api & { username: string };
    let pkg: Package;

    beforeAll(async () => {
      const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
      pkg = await s.admin.createPackage({ package_name: uniqueName('P2P mensal '), bouquets: [String(bouquet.id)] });
      const r = await s.admin.createReseller({ credits: 20 });
      reseller = Object.assign(await Api.signIn(s.server.baseUrl, r.username, r.password), { username: r.username });
    });

    test('a reseller creates, renews and blocks a P2P user; the P2P server gets each change; the online list and card count it', async () => {
      const page = await s.page();
      await signInUi(page, reseller.username, DEFAULT_PASSWORD);
      await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('20');

      // create: same form as a line, plus the name; the dialog shows the login (e-mail) and password
      const username = uniqueName('p2p').toLowerCase();
      await clickMenu(page, 'nav-p2p_users-add', '/p2p_users/add');
      await byTestId(page, 'user-name').fill('Cliente P2P Um');
      await byTestId(page, 'user-username').fill(username);
      await byTestId(page, 'user-password').fill('senhaP2p1');
      await byTestId(page, 'user-package').click();
      await page.getByRole('option', { name: pkg.package_name }).click();
      await expect.poll(() => visibleText(byTestId(page, 'user-cost')), POLL).toContain(pt('users.form.cost_one', { count: 1 }));
      await byTestId(page, 'user-submit').click();
      await toast(page, pt('p2p.created.success'));
      const email = await byTestId(page, 'created-username').inputValue();
      expect(email.startsWith(`${username}@`)).toBe(true);
      await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('19');
      const account = (await reseller.get<P2pUserPage>(`/p2p/users?username=${username}`)).data[0] as P2pUser;
      await expect.poll(() => p2p.accounts.get(email)?.status, POLL).toBe(1);

      // the list (by the dialog's button): the row, its status and, once delivered, "synced"
      await byTestId(page, 'created-to-list').click();
      await waitForPath(page, '/p2p_users');
      await rowWithText(page, email).waitFor();
      await expect
        .poll(async () => {
          await clickMenu(page, 'nav-p2p_users', '/p2p_users');
          return byTestId(page, `p2p-sync-${account.id}`).getAttribute('data-sync');
        }, POLL)
        .toBe('synced');

      // renew: 0 months cannot be sent, 1 credit per month, the balance drops by 2
      await p2pAction(page, account.id, 'renew');
      expect(await visibleText(byTestId(page, 'p2p-renew-dialog'))).toContain(pt('p2p.renew.perMonth'));
      expect(await byTestId(page, 'p2p-renew-submit').isDisabled()).toBe(true);
      await byTestId(page, 'p2p-renew-months').fill('2');
      await expect.poll(() => visibleText(byTestId(page, 'p2p-renew-cost')), POLL).toBe(pt('users.form.cost_other', { count: 2 }));
      await byTestId(page, 'p2p-renew-submit').click();
      await toast(page, pt('p2p.renew.success'));
      await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe('17');
      const renewed = await reseller.get<P2pUser>(`/p2p/users/${account.id}`);
      expect(renewed.expiracao).toBeGreaterThan(account.expiracao);
      await expect.poll(() => p2p.accounts.get(email)?.expires_at, POLL).toBe(renewed.expiracao);

      // block with confirmation: the badge changes and the P2P server disables the account
      await p2pAction(page, account.id, 'block');
      await byTestId(page, 'confirm-yes').click();
      await toast(page, pt('users.block.success'));
      await expect.poll(() => byTestId(page, `p2p-status-${account.id}`).getAttribute('data-status'), POLL).toBe('0');
      await expect.poll(() => p2p.accounts.get(email)?.status, POLL).toBe(0);

      // online: the P2P server's list (the server keeps it 10 s), time as hh:mm:ss; the dashboard card counts it
      p2p.online = [{ username: email, channel_name: 'Canal Teste HD', duration: 3725, external_ip: '203.0.113.9', app_version: '2.1.0', app_name: 'P2P Player' }];
      await clickMenu(page, 'nav-p2p_users-connections', '/p2p_users/connections');
      const row = byTestId(page, `p2p-online-${email}`);
      await expect
        .poll(async () => {
          await byTestId(page, 'p2p-online-refresh').click();
          return row.count();
        }, { timeout: 25_000, interval: 2_000 })
        .toBe(1);
      expect(await visibleText(row)).toContain('01:02:05');
      expect(await visibleText(row)).toContain('Canal Teste HD');
      await clickMenu(page, 'nav-dashboard', '/');
      await expect.poll(() => visibleText(byTestId(page, 'card-users_onlinep2p-value')), POLL).toBe('1');
    });

    test('the resync action on a P2P line sends it to the P2P server again', async () => {
      const line = await reseller.post<Line>('/users', { package_id: pkg.id, max_connections: 1 });
      await reseller.post<Line>(`/users/${line.id}/change_system`, { system_id: 2 });
      const before = p2p.received.length;
      const page = await s.page();
      await signInUi(page, reseller.username, DEFAULT_PASSWORD);
      await clickMenu(page, 'nav-users', '/users');
      await rowWithText(page, line.username).waitFor();
      await lineAction(page, line.id, 'resync');
      await toast(page, pt('p2p.resync.success'));
      await expect.poll(() => p2p.received.slice(before).filter((r) => r.method === 'PUT' && r.login?.startsWith(line.username)).length, POLL).toBeGreaterThan(0);
    });

    test('a reseller migrates the old panel credits once, then imports its clients', async () => {
      const page = await s.page();
      await signInUi(page, reseller.username, DEFAULT_PASSWORD);
      const start = Number(await visibleText(byTestId(page, 'topbar-credits')));

      // credits: a 3-character username is refused in the page with the fixed message
      await clickMenu(page, 'nav-p2p_migrate', '/p2p_migrate');
      await byTestId(page, 'p2p-migrate-username').fill('abc');
      await byTestId(page, 'p2p-migrate-password').fill('x');
      await byTestId(page, 'p2p-migrate-submit').click();
      await expect.poll(() => visibleText(page.locator('.mantine-TextInput-error')), POLL).toBe(pt('p2p.old.badFormat'));
      await byTestId(page, 'p2p-migrate-username').fill(OLD.username);
      await byTestId(page, 'p2p-migrate-password').fill(OLD.password);
      await byTestId(page, 'p2p-migrate-submit').click();
      await byTestId(page, 'p2p-migrate-done').waitFor();
      await expect.poll(() => visibleText(byTestId(page, 'topbar-credits')), POLL).toBe(String(start + OLD.credits));
      // a second time is refused and changes nothing
      await byTestId(page, 'p2p-migrate-username').fill(OLD.username);
      await byTestId(page, 'p2p-migrate-password').fill(OLD.password);
      await byTestId(page, 'p2p-migrate-submit').click();
      await toast(page, pt('p2p.errors.ALREADY_IMPORTED'));
      expect((await reseller.profile()).credits).toBe(start + OLD.credits);

      // clients: login form, then the table and MIGRATE CLIENTS; they land in the P2P list
      await clickMenu(page, 'nav-p2p_migrate_users', '/p2p_migrate_users');
      await byTestId(page, 'p2p-import-login-username').fill(OLD.username);
      await byTestId(page, 'p2p-import-login-password').fill(OLD.password);
      await byTestId(page, 'p2p-import-login-submit').click();
      await byTestId(page, 'p2p-import-table').waitFor();
      const clients = old.accounts[0]!.clients;
      for (const c of clients) await rowWithText(page, c.email).waitFor();
      await byTestId(page, 'p2p-import-submit').click();
      await byTestId(page, 'confirm-yes').click();
      await byTestId(page, 'p2p-import-done').waitFor();
      // imported: the same clients now conflict (they exist), so the button is gone
      await byTestId(page, 'p2p-import-conflicts').waitFor();
      await clickMenu(page, 'nav-p2p_users', '/p2p_users');
      for (const c of clients) await rowWithText(page, c.email).waitFor();
      await expect.poll(() => clients.every((c) => p2p.accounts.has(c.email)), POLL).toBe(true);
    });

    test('no P2P or old-panel secret is in the built web app', () => {
      expect(builtAppLeaks([P2P_KEY, OLD.password])).toEqual([]);
    });
  });
});
