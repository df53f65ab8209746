import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { checkLog, sourceSecrets } from './log-check.ts';
import { E2E_ROOT } from './paths.ts';
import { readRecordedSecrets, setSecretsDir } from './secrets.ts';
import { ADMIN_PASSWORD, assertWebBuilt, buildServer, type RunningServer, startServer } from './server.ts';

/** What the global setup hands every test file (vitest's provide/inject). */
export interface E2eRun {
  /** The compiled server every server of this run starts from: main.js in the run's own build folder of server/ (.dist-e2e-PID). */
  serverMain: string;
  /** The run's one Chromium (chromium.launchServer); files connect to it. */
  wsEndpoint: string;
  /** The server shared by the files that need no environment or database of their own. */
  sharedBaseUrl: string;
  /** Where every server's log and the secrets the run used are collected for the log check (support/log-check.ts). */
  logCheckDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eRun;
  }
}

/** Where the servers' logs are kept after the run (gitignored), to read when the log check fails. */
const LOGS_DIR = path.join(E2E_ROOT, 'artifacts', 'server-logs');

/**
 * Once per run: compiles the server, launches Chromium and starts the shared server, so files do
 * not pay for a TypeScript compile, a browser launch and a migrated database each. At the end it
 * checks every server's log (debug level, every request): JSON lines, request ids, and none of the
 * passwords, tokens, keys and secrets the run used; any finding fails the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertWebBuilt();
  assertChromium();
  const logCheckDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-e2e-logs-'));
  setSecretsDir(logCheckDir);
  const build = buildServer();
  let browser: Awaited<ReturnType<typeof chromium.launchServer>> | undefined;
  let server: RunningServer | undefined;
  const stopAll = async () => {
    await server?.stop();
    await browser?.close().catch(() => undefined);
    build.remove();
  };
  try {
    [browser, server] = await Promise.all([chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }), startServer({ main: build.main, logDir: logCheckDir })]);
  } catch (err) {
    await stopAll();
    fs.rmSync(logCheckDir, { recursive: true, force: true });
    throw err;
  }
  project.provide('e2e', { serverMain: build.main, wsEndpoint: browser.wsEndpoint(), sharedBaseUrl: server.baseUrl, logCheckDir });
  return async () => {
    await stopAll();
    try {
      checkLogs(logCheckDir);
    } finally {
      fs.rmSync(logCheckDir, { recursive: true, force: true });
    }
  };
}

/** The log check over every server's log of the run; throws listing each problem (never a secret). */
function checkLogs(dir: string): void {
  const secrets = [{ kind: 'admin password', value: ADMIN_PASSWORD }, ...sourceSecrets(), ...readRecordedSecrets(dir)];
  fs.rmSync(LOGS_DIR, { recursive: true, force: true });
  fs.mkdirSync(LOGS_DIR, { recursive: true });
  const problems: string[] = [];
  const logs = fs.readdirSync(dir).filter((f) => f.endsWith('.log'));
  for (const file of logs) {
    const output = fs.readFileSync(path.join(dir, file), 'utf8');
    fs.writeFileSync(path.join(LOGS_DIR, file), output);
    problems.push(...checkLog(file, output, secrets));
  }
  if (logs.length === 0) problems.push('no server log to check');
  console.log(`[e2e] log check: ${logs.length} server logs, ${new Set(secrets.map((s) => s.value)).size} secrets, ${problems.length} problems (logs kept in ${LOGS_DIR})`);
  if (problems.length > 0) {
    // vitest reports a teardown's error without failing the run: the exit code says it
    process.exitCode = 1;
    const shown = problems.slice(0, 50);
    throw new Error(`The servers' logs break the log contract (docs/configuration.md, "Logs"):\n${shown.join('\n')}${problems.length > shown.length ? `\n... and ${problems.length - shown.length} more` : ''}`);
  }
}
