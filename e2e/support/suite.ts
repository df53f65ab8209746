import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { Api } from './api.ts';
import { launchBrowser, type NewPageOptions, newPage } from './browser.ts';
import { type RunningServer, type StartServerOptions, startServer } from './server.ts';

export interface E2eSuite {
  server: RunningServer;
  browser: Browser;
  /** API client signed in as the first admin. */
  admin: Api;
  /** newPage bound to this server (relative `page.goto('/x')` works); pt-BR unless told. */
  page: (opts?: Omit<NewPageOptions, 'baseUrl'>) => Promise<Page>;
}

/**
 * Call at the top of a test file: beforeAll starts the real server on a fresh database,
 * launches Chromium and signs the admin in through the API; afterAll closes both.
 * The returned object's fields are filled once beforeAll has run (use them inside tests).
 */
export function useE2eSuite(options: StartServerOptions = {}): E2eSuite {
  const suite = {} as E2eSuite;
  beforeAll(async () => {
    const [server, browser] = await Promise.allSettled([startServer(options), launchBrowser()]);
    if (server.status === 'fulfilled') suite.server = server.value;
    if (browser.status === 'fulfilled') suite.browser = browser.value;
    if (server.status === 'rejected') throw server.reason;
    if (browser.status === 'rejected') throw browser.reason;
    const { baseUrl, adminUsername, adminPassword } = suite.server;
    suite.admin = await Api.signIn(baseUrl, adminUsername, adminPassword);
    suite.page = (opts = {}) => newPage(suite.browser, { ...opts, baseUrl });
  });
  afterAll(async () => {
    await suite.browser?.close().catch(() => undefined);
    await suite.server?.stop();
  });
  return suite;
}
