import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { assertWebBuilt, buildServer, type RunningServer, startServer } from './server.ts';

/** What the global setup hands every test file (vitest's provide/inject). */
export interface E2eRun {
  /** The compiled server every server of this run starts from: main.js in the run's own build folder of server/ (.dist-e2e-PID). */
  serverMain: string;
  /** The run's one Chromium (chromium.launchServer); files connect to it. */
  wsEndpoint: string;
  /** The server shared by the files that need no environment or database of their own. */
  sharedBaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eRun;
  }
}

/**
 * Once per run: compiles the server, launches Chromium and starts the shared server, so files do
 * not pay for a TypeScript compile, a browser launch and a migrated database each.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertWebBuilt();
  assertChromium();
  const build = buildServer();
  let browser: Awaited<ReturnType<typeof chromium.launchServer>> | undefined;
  let server: RunningServer | undefined;
  const teardown = async () => {
    await server?.stop();
    await browser?.close().catch(() => undefined);
    build.remove();
  };
  try {
    [browser, server] = await Promise.all([chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }), startServer({ main: build.main })]);
  } catch (err) {
    await teardown();
    throw err;
  }
  project.provide('e2e', { serverMain: build.main, wsEndpoint: browser.wsEndpoint(), sharedBaseUrl: server.baseUrl });
  return teardown;
}
