import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { RESULTS_DIR } from './paths.ts';
import { recordAnswered, recordAuthorization, recordSent } from './secrets.ts';

export { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

export type Locale = 'pt-BR' | 'en-US';

/**
 * Connects to the Chromium the global setup launched for the whole run (one browser process
 * instead of one per file); closing the returned Browser only drops this file's connection.
 */
export function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/** A download's bytes (its path() is not available over a browser connection). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface NewPageOptions {
  /** Browser language (navigator.language); default 'pt-BR'. */
  locale?: Locale;
  /** Lets `page.goto('/packages')` use relative paths. */
  baseUrl?: string;
  /** Default 1280x800 (desktop: sidebar and username visible). */
  viewport?: { width: number; height: number };
  /**
   * When called inside a test (default true): on failure save a screenshot + browser log to
   * e2e/test-results/, then close the context when the test ends.
   */
  autoClose?: boolean;
  /** The panel's service worker: blocked unless a test is about it (it would precache the whole app per context). */
  serviceWorkers?: 'allow' | 'block';
}

/** Console errors, page errors and failed requests of a page, kept for failure reports. */
const pageLogs = new WeakMap<Page, string[]>();
/** Content Security Policy violations a page reported; any one fails the test that opened it. */
const cspViolations = new WeakMap<Page, string[]>();

/** CSP violations seen so far on this page (securitypolicyviolation events and console reports). */
export function cspViolationsOf(page: Page): string[] {
  return cspViolations.get(page) ?? [];
}

/** Browser-side log lines collected so far for this page. */
export function pageLog(page: Page): string[] {
  return pageLogs.get(page) ?? [];
}

function watch(page: Page): void {
  const lines: string[] = [];
  pageLogs.set(page, lines);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') lines.push(`[console.${m.type()}] ${m.text()}`);
    if (m.text().includes('Content Security Policy')) cspViolationsOf(page).push(`[console] ${m.text()}`);
  });
  page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
  page.on('requestfailed', (r) => lines.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) lines.push(`[http ${r.status()}] ${r.request().method()} ${r.url()}`);
  });
  recordPageSecrets(page);
}

/**
 * What the page sends to and gets from the API (passwords typed into forms, 2FA codes, session
 * tokens, keys shown once), for the run's log check (support/secrets.ts).
 */
function recordPageSecrets(page: Page): void {
  page.on('request', (r) => {
    if (!r.url().includes('/api/')) return;
    recordAuthorization(r.headers().authorization);
    const body = r.postData();
    if (!body) return;
    try {
      recordSent(JSON.parse(body));
    } catch {
      // not JSON (an upload): nothing the panel reads as a secret
    }
  });
  page.on('response', (r) => {
    const method = r.request().method();
    if (!r.url().includes('/api/') || method === 'GET' || !(r.headers()['content-type'] ?? '').includes('json')) return;
    r.json().then(
      (body: unknown) => recordAnswered(body, method),
      () => undefined, // the page or its context closed first
    );
  });
}

/**
 * New isolated context (own localStorage) and page, locale pt-BR by default. Inside a test it
 * registers screenshot-on-failure and closes the context when the test ends.
 */
export async function newPage(browser: Browser, opts: NewPageOptions = {}): Promise<Page> {
  const locale = opts.locale ?? 'pt-BR';
  const context: BrowserContext = await browser.newContext({
    locale,
    baseURL: opts.baseUrl,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    timezoneId: 'America/Sao_Paulo',
    serviceWorkers: opts.serviceWorkers ?? 'block',
  });
  await watchCsp(context);
  const page = await context.newPage();
  cspViolations.set(page, []);
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(15_000);
  watch(page);
  if (opts.autoClose !== false) {
    try {
      onTestFinished(async ({ task }) => {
        const violations = cspViolationsOf(page);
        if (task.result?.state === 'fail' || violations.length > 0) await saveFailureArtifacts(page, task.name);
        await context.close().catch(() => undefined);
        if (violations.length > 0) throw new Error(`Content Security Policy violations:\n${violations.join('\n')}`);
      });
    } catch {
      // Not inside a test (beforeAll): the caller closes the context.
    }
  }
  return page;
}

/** Reports every `securitypolicyviolation` event of the context's pages to cspViolations. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__panelCspViolation', ({ page }, text: string) => {
    cspViolationsOf(page).push(`[csp] ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as { __panelCspViolation: (t: string) => void }).__panelCspViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || location.href}:${e.lineNumber}`);
      },
      true,
    );
  });
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 100) || 'test';
}

/** Writes e2e/test-results/<name>.png and <name>.log (URL + browser log). Never throws. */
export async function saveFailureArtifacts(page: Page, name: string): Promise<string | undefined> {
  try {
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const base = path.join(RESULTS_DIR, `${safeName(name)}-${Date.now()}`);
    const log = [`url: ${page.url()}`, ...pageLog(page)].join('\n');
    fs.writeFileSync(`${base}.log`, `${log}\n`);
    if (!page.isClosed()) await page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 5_000 });
    console.error(`[e2e] failure artifacts: ${base}.png / .log`);
    return `${base}.png`;
  } catch (e) {
    console.error(`[e2e] could not save failure artifacts: ${(e as Error).message}`);
    return undefined;
  }
}

/** Registers screenshot-on-failure for a page created without newPage (call inside the test). */
export function screenshotOnFailure(page: Page): void {
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') await saveFailureArtifacts(page, task.name);
  });
}
