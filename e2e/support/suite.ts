import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { Api } from './api.ts';
import { connectBrowser, type NewPageOptions, newPage } from './browser.ts';
import { ADMIN_PASSWORD, ADMIN_USERNAME, type RunningServer, type StartServerOptions, startServer } from './server.ts';

/** The server a file talks to: its own, or the run's shared one. */
export type SuiteServer = Pick<RunningServer, 'baseUrl' | 'adminUsername' | 'adminPassword'>;

export interface E2eSuite {
  server: SuiteServer;
  browser: Browser;
  /** API client signed in as the first admin. */
  admin: Api;
  /** newPage bound to this server (relative `page.goto('/x')` works); pt-BR unless told. */
  page: (opts?: Omit<NewPageOptions, 'baseUrl'>) => Promise<Page>;
}

export interface E2eSuiteOptions extends Omit<StartServerOptions, 'main'> {
  /**
   * A server of its own on a fresh database even without `env`: for files that need the first-run
   * state or change what every file sees (a global setting, the seeded notice).
   */
  ownServer?: boolean;
}

/**
 * Call at the top of a test file. Without options the file uses the run's shared server (one
 * database for all such files: create your own accounts with unique names, assume nothing about
 * what else is there). With `env` or `ownServer`, beforeAll starts a server of its own on a fresh
 * database (afterAll stops it). Either way it connects to the run's Chromium and signs the admin in
 * through the API. The returned object's fields are filled once beforeAll has run.
 */
export function useE2eSuite(options: E2eSuiteOptions = {}): E2eSuite {
  const suite = {} as E2eSuite;
  let own: RunningServer | undefined;
  beforeAll(async () => {
    const run = inject('e2e');
    const { ownServer, ...start } = options;
    const [server, browser] = await Promise.allSettled([
      ownServer || start.env ? startServer({ ...start, main: run.serverMain, logDir: run.logCheckDir }) : Promise.resolve(undefined),
      connectBrowser(run.wsEndpoint),
    ]);
    if (server.status === 'fulfilled') own = server.value;
    if (browser.status === 'fulfilled') suite.browser = browser.value;
    if (server.status === 'rejected') throw server.reason;
    if (browser.status === 'rejected') throw browser.reason;
    suite.server = own ?? { baseUrl: run.sharedBaseUrl, adminUsername: ADMIN_USERNAME, adminPassword: ADMIN_PASSWORD };
    const { baseUrl, adminUsername, adminPassword } = suite.server;
    suite.admin = await Api.signIn(baseUrl, adminUsername, adminPassword);
    suite.page = (opts = {}) => newPage(suite.browser, { ...opts, baseUrl });
  });
  afterAll(async () => {
    await suite.browser?.close().catch(() => undefined);
    await own?.stop();
  });
  return suite;
}
