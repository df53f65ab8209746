import { describe, expect, test } from 'vitest';
import { byTestId, cspViolationsOf, signInWithToken, useE2eSuite } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

// Every page opened through newPage fails its test on a Content Security Policy violation; these
// cover what the other files do not open (the API docs) and prove the check itself can fail.
describe('content security policy', () => {
  const s = useE2eSuite();

  test('the API docs render every operation under the CSP', async () => {
    const page = await s.page();
    const res = await page.goto('/api/docs');
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
  });

  test('the signed-in app loads with the policy sent on its HTML', async () => {
    const page = await s.page();
    await signInWithToken(page, s.admin.token, '/');
    const res = await page.reload();
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    await byTestId(page, 'user-menu').waitFor();
  });

  test('an inline script is blocked and reported, so a violation would fail the test', async () => {
    const page = await s.page();
    await page.goto('/auth/sign-in');
    const ran = await page.evaluate(() => {
      const el = document.createElement('script');
      el.textContent = 'window.__inlineRan = true';
      document.body.append(el);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    // both channels report it: the securitypolicyviolation event and Chromium's console message
    const seen = () => cspViolationsOf(page).join('\n');
    await expect.poll(seen, POLL).toMatch(/\[csp\] script-src/);
    await expect.poll(seen, POLL).toMatch(/\[console\].*Content Security Policy/);
    cspViolationsOf(page).length = 0; // seen on purpose: this test must not fail on it
  });
});
