
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { Api, byTestId, type Reseller, type ResellerDetail, type ResellerPage, rowWithText, signInWithToken, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

const POLL = { timeout: 10_000, interval: 100 };

const rt = tr;

/** Clicks a row action: inline icon when shown, otherwise through the row's action menu. */
async function rowAction(page: Page, action: string, id: number): Promise<void> {
  const item = byTestId(page, `reseller-${action}-${id}`);
  if (!(await item.isVisible())) await byTestId(page, `reseller-actions-${id}`).click();
  await item.click();
}

/** Picks `label` in a Mantine Select (typing first when `type` is given, e.g. an async search). */
async function pickOption(page: Page, testId: string, label: string, type?: string): Promise<void> {
  await byTestId(page, testId).click();
  if (type !== undefined) await byTestId(page, testId).pressSequentially(type);
  await page.getByRole('option', { name: label, exact: true }).click();
}

async function findRow(api: Api, username: string): Promise<Reseller> {
  const res = await api.get<ResellerPage>(`/resellers?username=${encodeURIComponent(username)}`);
  const row = res.data.find((r) => r.username === username);
  if (!row) throw new Error(`reseller ${username} not listed`);
  return row;
}

describe('resellers: list, credits, block, filters, deactivation', () => {
  const s = useE2eSuite();

  test('a master creates a sub-reseller, gives it credits, blocks/unblocks it and filters the list', async () => {
    const master = await s.admin.createReseller({ type: 'master', credits: 500 });
    const masterApi = await Api.signIn(s.server.baseUrl, master.username, master.password);
    // A blocked sibling that the status filter must hide.
    const other = await masterApi.createReseller({ username: uniqueName('zz') });
    await masterApi.post(`/resellers/${other.id}/block`);

    const page = await s.page();
    await signInWithToken(page, masterApi.token, '/resellers/add');
    const credits = byTestId(page, 'topbar-credits');
    await expect.poll(() => visibleText(credits), POLL).toBe('500');

    // Create through the form; success goes to the list.
    const username = uniqueName('sub');
    await byTestId(page, 'reseller-form-username').fill(username);
    await byTestId(page, 'reseller-form-password').fill('Sub-Reseller-Pass-42');
    await byTestId(page, 'reseller-form-email').fill(`${username}@example.com`);
    await byTestId(page, 'reseller-form-save').click();
    await waitForPath(page, '/resellers');
    await page.getByText(rt('pt-BR', 'resellers.form.created')).first().waitFor();
    await rowWithText(page, username).waitFor();
    const sub = await findRow(masterApi, username);
    expect(sub.credits).toBe(0);

    // Credit modal: preview, add, top-bar balance and row refresh.
    await rowAction(page, 'credits', sub.id);
    await expect.poll(() => visibleText(byTestId(page, 'credit-current')), POLL).toBe('0');
    expect(await byTestId(page, 'credit-add').isDisabled()).toBe(true);
    expect(await byTestId(page, 'credit-remove').count()).toBe(0); // masters cannot remove
    await byTestId(page, 'credit-amount').fill('120');
    await expect.poll(() => visibleText(byTestId(page, 'credit-new')), POLL).toBe('120');
    await byTestId(page, 'credit-add').click();
    await expect.poll(() => visibleText(credits), POLL).toBe('380');
    await expect.poll(() => visibleText(byTestId(page, `reseller-credits-value-${sub.id}`)), POLL).toBe('120');
    await expect.poll(() => byTestId(page, 'credit-amount').count(), POLL).toBe(0);
    expect((await findRow(masterApi, username)).credits).toBe(120);
    expect((await masterApi.profile()).credits).toBe(380);

    // Block and unblock, each through the confirm dialog.
    const status = byTestId(page, `reseller-status-${sub.id}`);
    await expect.poll(() => visibleText(status), POLL).toBe(rt('pt-BR', 'resellers.status.active').toUpperCase());
    await rowAction(page, 'block', sub.id);
    await byTestId(page, 'confirm-yes').click();
    await expect.poll(() => visibleText(status), POLL).toBe(rt('pt-BR', 'resellers.status.blocked').toUpperCase());
    expect((await findRow(masterApi, username)).status).toBe(0);

    await rowAction(page, 'unblock', sub.id);
    await byTestId(page, 'confirm-no').click(); // cancelling changes nothing
    expect((await findRow(masterApi, username)).status).toBe(0);
    await rowAction(page, 'unblock', sub.id);
    await byTestId(page, 'confirm-yes').click();
    await expect.poll(() => visibleText(status), POLL).toBe(rt('pt-BR', 'resellers.status.active').toUpperCase());
    expect((await findRow(masterApi, username)).status).toBe(1);

    // Filters: status from the dropdown, username from the box; chips and the URL survive a reload.
    await rowWithText(page, other.username).waitFor();
    await byTestId(page, 'reseller-filter-button').click();
    await pickOption(page, 'reseller-filter-status', rt('pt-BR', 'resellers.status.active'));
    await byTestId(page, 'reseller-filter-apply').click();
    await byTestId(page, 'filter-chip-status').waitFor();
    await expect.poll(() => rowWithText(page, other.username).count(), POLL).toBe(0);

    await byTestId(page, 'reseller-filter-username').fill(username.slice(0, 8));
    await byTestId(page, 'filter-chip-username').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBe(username.slice(0, 8));
    expect(new URL(page.url()).searchParams.get('status')).toBe('1');

    await page.reload();
    await byTestId(page, 'filter-chip-status').waitFor();
    await byTestId(page, 'filter-chip-username').waitFor();
    await rowWithText(page, username).waitFor();
    expect(await byTestId(page, 'reseller-filter-username').inputValue()).toBe(username.slice(0, 8));
    expect(await rowWithText(page, other.username).count()).toBe(0);

    // Removing both chips brings the blocked sibling back.
    await byTestId(page, 'filter-chip-username').locator('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('username'), POLL).toBeNull();
    await byTestId(page, 'filter-chip-status').locator('button').click();
    await expect.poll(() => new URL(page.url()).search, POLL).toBe('');
    await rowWithText(page, other.username).waitFor();
  });

  test('an admin deactivates a reseller, transferring everything to another reseller', async () => {
    const doomed = await s.admin.createReseller({ type: 'reseller', credits: 40 });
    const target = await s.admin.createReseller({ type: 'master', credits: 5 });

    const page = await s.page();
    await signInWithToken(page, s.admin.token, `/resellers?id=${doomed.id}`);
    await rowWithText(page, doomed.username).waitFor();

    await rowAction(page, 'deactivate', doomed.id);
    await expect.poll(() => visibleText(byTestId(page, 'deactivate-username')), POLL).toBe(doomed.username);
    expect(await visibleText(byTestId(page, 'deactivate-sub-count'))).toBe('0');
    expect(await visibleText(byTestId(page, 'deactivate-client-count'))).toBe('0');
    const confirm = byTestId(page, 'deactivate-confirm');
    expect(await confirm.isDisabled()).toBe(true);

    await byTestId(page, 'deactivate-transfer-all').check();
    expect(await confirm.isDisabled()).toBe(true); // option chosen, no target yet
    await pickOption(page, 'deactivate-target', target.username, target.username);
    await expect.poll(() => confirm.isDisabled(), POLL).toBe(false);
    await confirm.click();

    await expect.poll(() => rowWithText(page, doomed.username).count(), POLL).toBe(0);
    const after = await s.admin.get<ResellerDetail>(`/resellers/${target.id}`);
    expect(after.credits).toBe(45);
    await expect(s.admin.get(`/resellers/${doomed.id}`)).rejects.toMatchObject({ status: 404 });
  });

  test('domains page: empty state, bad host refused, a URL added', async () => {
    const reseller = await s.admin.createReseller({ type: 'reseller' });
    const page = await s.page({ locale: 'en-US' });
    await signInWithToken(page, s.admin.token, `/resellers/${reseller.id}/add_domains`);
    await page.getByText(rt('en-US', 'resellers.domains.empty')).waitFor();

    await byTestId(page, 'domain-input').fill('not a host');
    await byTestId(page, 'domain-add').click();
    await page.getByText(rt('en-US', 'resellers.domains.invalid')).waitFor();

    await byTestId(page, 'domain-input').fill('https://tv.example.com/path');
    await byTestId(page, 'domain-add').click();
    await rowWithText(byTestId(page, 'domains-table'), 'https://tv.example.com').waitFor();
    expect(await byTestId(page, 'domain-input').inputValue()).toBe('');
  });
});
