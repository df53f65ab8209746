import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { Locale } from './browser.ts';
import { REPO_ROOT } from './paths.ts';

/** localStorage keys of the web app (session token store and language choice). */
export const SESSION_KEY = 'panel.session';
export const LANG_KEY = 'panel.lang';

/** `[data-testid="…"]` locator. */
export function byTestId(page: Page | Locator, id: string): Locator {
  return page.locator(`[data-testid="${id}"]`);
}

/** Current pathname of the page. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the page's pathname equals `pathname` (or matches the RegExp / predicate). */
export async function waitForPath(page: Page, pathname: string | RegExp | ((p: string) => boolean), timeout = 10_000): Promise<void> {
  const ok = (p: string) => (typeof pathname === 'string' ? p === pathname : pathname instanceof RegExp ? pathname.test(p) : pathname(p));
  await page.waitForURL((u) => ok(u.pathname), { timeout, waitUntil: 'commit' });
}

/** Signs in through the form at /auth/sign-in and waits for the dashboard (/). */
export async function signInUi(page: Page, username: string, password: string, opts: { remember?: boolean } = {}): Promise<void> {
  await page.goto('/auth/sign-in');
  await fillSignIn(page, username, password, opts);
  await waitForPath(page, '/');
  await byTestId(page, 'user-menu').waitFor();
}

/** Fills and submits the sign-in form (no waiting for the outcome). */
export async function fillSignIn(page: Page, username: string, password: string, opts: { remember?: boolean } = {}): Promise<void> {
  await byTestId(page, 'signin-username').fill(username);
  await byTestId(page, 'signin-password').fill(password);
  if (opts.remember) await byTestId(page, 'signin-remember').check();
  await byTestId(page, 'signin-submit').click();
}

/**
 * Starts the page signed in with an API token (skips the sign-in form): the token is written to
 * localStorage `panel.session` before the app's first script runs, once per tab, then `to` is opened.
 */
export async function signInWithToken(page: Page, token: string, to = '/'): Promise<void> {
  await page.context().addInitScript(
    ({ key, value }) => {
      if (!sessionStorage.getItem('e2e.seeded')) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('e2e.seeded', '1');
      }
    },
    { key: SESSION_KEY, value: JSON.stringify({ t: token }) },
  );
  await page.goto(to);
}

/** localStorage value of the page's origin. */
export function storageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/** Opens the user menu and clicks logout; waits for /auth/sign-in. */
export async function signOutUi(page: Page): Promise<void> {
  await byTestId(page, 'user-menu').click();
  await byTestId(page, 'logout').click();
  await waitForPath(page, '/auth/sign-in');
}

/** Picks a language in the top-bar/sign-in switch (options `lang-ptBr` / `lang-enUs`). */
export async function switchLanguage(page: Page, lang: Locale): Promise<void> {
  const option = byTestId(byTestId(page, 'lang-switch').first(), lang === 'en-US' ? 'lang-enUs' : 'lang-ptBr');
  await option.click();
}

const dictionaries = new Map<Locale, Record<string, unknown>>();

/**
 * Text of an i18n key as the web app shows it, read from web/src/i18n/<lang>.json, e.g.
 * `tr('en-US', 'auth.submit')`; `{{name}}` placeholders are filled from `vars`.
 */
export function tr(lang: Locale, key: string, vars: Record<string, string | number> = {}): string {
  let dict = dictionaries.get(lang);
  if (!dict) {
    dict = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'web', 'src', 'i18n', `${lang}.json`), 'utf8')) as Record<string, unknown>;
    dictionaries.set(lang, dict);
  }
  let node: unknown = dict;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'string') throw new Error(`i18n key ${key} missing in ${lang}.json`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** Table row (`tr`) containing the given text, inside an optional container. */
export function rowWithText(scope: Page | Locator, text: string): Locator {
  return scope.locator('tbody tr', { hasText: text });
}

/** Rendered (visible) text of the first match, trimmed; waits for it to be attached. */
export async function visibleText(locator: Locator): Promise<string> {
  return (await locator.first().innerText()).trim();
}

/** Opens a line's row menu on /users and clicks one of its actions (`action-<name>`). */
export async function lineAction(page: Page, lineId: number, action: string): Promise<void> {
  await byTestId(page, `user-actions-${lineId}`).click();
  await byTestId(byTestId(page, `user-actions-menu-${lineId}`), `action-${action}`).click();
}

/** A Mantine notification containing this text is on screen. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.mantine-Notification-description', { hasText: text }).first().waitFor();
}

/** The sidebar entry's test id for a path (`nav-users-add`, `nav-dashboard`; see menu.ts navTestId). */
export const navTestIdOf = (path: string) => `nav-${path.replace(/^\/+/, '').replace(/\//g, '-') || 'dashboard'}`;

/** Opens the sidebar when it is behind the burger (phones), then clicks the entry and waits for its path. */
export async function clickMenuEntry(page: Page, path: string, testId = navTestIdOf(path)): Promise<void> {
  const burger = byTestId(page, 'nav-burger');
  if (await burger.isVisible()) await burger.click();
  await byTestId(page, testId).click();
  await waitForPath(page, path);
}

/** Clicks a sidebar entry (`nav-…`, see menu.ts) and waits for its path. */
export async function clickMenu(page: Page, testId: string, pathname: string): Promise<void> {
  await byTestId(page, testId).first().click();
  await waitForPath(page, pathname);
}
