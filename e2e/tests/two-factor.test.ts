import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiRequest,
  byTestId,
  fillSignIn,
  signInUi,
  type SignedIn,
  signInWithToken,
  signOutUi,
  type TwoFactorChallenge,
  tr,
  useE2eSuite,
  visibleText,
  waitForPath,
} from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

/** The code an authenticator app shows, `steps` periods of 30 s from now. */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** The status badge's text (the badge shows it in capitals). */
async function badgeText(page: Page): Promise<string | undefined> {
  return (await byTestId(page, 'twofactor-status').textContent())?.trim();
}

async function submitCode(page: Page, code: string): Promise<void> {
  await byTestId(page, 'signin-2fa-code').fill(code);
  await byTestId(page, 'signin-2fa-submit').click();
}

describe('two-factor sign-in', () => {
  const s = useE2eSuite();

  test('enrol from the user menu, then sign in with a code, a recovery code, and after an admin reset with the password alone', async () => {
    const r = await s.admin.createReseller({ type: 'reseller' });
    const page = await s.page();
    await signInUi(page, r.username, r.password);
    // The same account open on another device (its own browser), signed in with the password alone.
    const otherDevice = await s.page();
    await signInUi(otherDevice, r.username, r.password);

    // Security page through the user menu, as a person would.
    await byTestId(page, 'user-menu').click();
    await byTestId(page, 'menu-security').click();
    await waitForPath(page, '/profile/security');
    expect(await badgeText(page)).toBe(tr('pt-BR', 'twoFactor.off'));

    await byTestId(page, 'twofactor-start').click();
    const secret = (await visibleText(byTestId(page, 'twofactor-secret'))).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const qr = byTestId(page, 'twofactor-qr');
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), POLL).toBe(true);

    // A wrong first code is refused on the page; the right one turns 2FA on and shows 10 recovery codes.
    await byTestId(page, 'twofactor-code').fill(String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0'));
    await byTestId(page, 'twofactor-confirm').click();
    await expect.poll(() => visibleText(byTestId(page, 'twofactor-error')), POLL).toBe(tr('pt-BR', 'errors.INVALID_2FA_CODE'));
    await byTestId(page, 'twofactor-code').fill(totpCode(secret));
    await byTestId(page, 'twofactor-confirm').click();
    const codesBox = byTestId(page, 'twofactor-recovery-codes');
    await codesBox.waitFor();
    const recoveryCodes = (await codesBox.innerText()).split(/\s+/).filter(Boolean);
    expect(recoveryCodes).toHaveLength(10);
    await byTestId(page, 'twofactor-recovery-done').click();
    await expect.poll(() => badgeText(page), POLL).toBe(tr('pt-BR', 'twoFactor.on'));

    // Turning 2FA on ended the other device's session: its next click lands on the sign-in page.
    await otherDevice.getByRole('link', { name: tr('pt-BR', 'nav.users') }).first().click();
    await waitForPath(otherDevice, '/auth/sign-in');
    // this device's session goes on
    await page.getByRole('link', { name: tr('pt-BR', 'nav.users') }).first().click();
    await waitForPath(page, '/users');
    await byTestId(page, 'user-menu').click();
    await byTestId(page, 'menu-security').click();
    await waitForPath(page, '/profile/security');
    await expect.poll(() => visibleText(byTestId(page, 'twofactor-codes-left')), POLL).toBe(tr('pt-BR', 'twoFactor.codesLeft_other', { count: 10 }));

    // Signing in now takes a second step; the enrolment's code is spent, so use the next step's.
    await signOutUi(page);
    await fillSignIn(page, r.username, r.password);
    await byTestId(page, 'signin-2fa-code').waitFor();
    await submitCode(page, '000000');
    await expect.poll(() => visibleText(byTestId(page, 'signin-error')), POLL).toBe(tr('pt-BR', 'errors.INVALID_2FA_CODE'));
    await submitCode(page, totpCode(secret, 1));
    await waitForPath(page, '/');
    await expect.poll(() => visibleText(byTestId(page, 'user-menu')), POLL).toContain(r.username);

    // "Use a recovery code" works too, once.
    await signOutUi(page);
    await fillSignIn(page, r.username, r.password);
    await byTestId(page, 'signin-2fa-toggle').click();
    await submitCode(page, String(recoveryCodes[0]));
    await waitForPath(page, '/');
    await byTestId(page, 'user-menu').waitFor();

    // The admin resets it from the resellers list (with a confirm); the password alone works again.
    const adminPage = await s.page();
    await signInWithToken(adminPage, s.admin.token, '/resellers');
    await adminPage.locator('tbody tr', { hasText: r.username }).waitFor();
    const item = byTestId(adminPage, `reseller-reset-two-factor-${r.id}`);
    if (!(await item.isVisible())) await byTestId(adminPage, `reseller-actions-${r.id}`).click();
    await item.click();
    await byTestId(adminPage, 'confirm-yes').click();
    await adminPage.getByText(tr('pt-BR', 'twoFactor.reset.done', { username: r.username })).waitFor();
    const signIn = await apiRequest<SignedIn | TwoFactorChallenge>(s.server.baseUrl, 'POST', '/auth/sign-in', {
      body: { username: r.username, password: r.password },
    });
    expect(signIn).not.toHaveProperty('two_factor_required');
    expect('token' in signIn && typeof signIn.token).toBe('string');
  });
});

describe('REQUIRE_ADMIN_2FA=1', () => {
  const s = useE2eSuite({ env: { REQUIRE_ADMIN_2FA: '1' } });

  test('an admin without 2FA is kept on the Security page until enrolled, then the panel opens', async () => {
    const page = await s.page();
    await page.goto('/auth/sign-in');
    await fillSignIn(page, s.server.adminUsername, s.server.adminPassword);
    await waitForPath(page, '/profile/security');
    await byTestId(page, 'twofactor-required').waitFor();

    // The menu cannot take the admin elsewhere yet.
    await page.getByRole('link', { name: tr('pt-BR', 'nav.packages') }).click();
    await waitForPath(page, '/profile/security');

    await byTestId(page, 'twofactor-start').click();
    const secret = (await visibleText(byTestId(page, 'twofactor-secret'))).replace(/\s/g, '');
    await byTestId(page, 'twofactor-code').fill(totpCode(secret));
    await byTestId(page, 'twofactor-confirm').click();
    await byTestId(page, 'twofactor-recovery-codes').waitFor();
    await byTestId(page, 'twofactor-recovery-done').click();

    await page.getByRole('link', { name: tr('pt-BR', 'nav.packages') }).click();
    await waitForPath(page, '/packages');
  });
});
