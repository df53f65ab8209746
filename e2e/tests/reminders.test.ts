import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { Api, byTestId, clickMenuEntry, signInUi, toast, tr, uniqueName, useE2eSuite, visibleText, waitForPath } from '../support/index.ts';

// A reseller on a phone turns expiry reminders on from the menu, tests the WhatsApp gateway, and sees
// the history fill as a trial line made on the page gets its "on the day" message, once.

const POLL = { timeout: 15_000, interval: 200 };
const KEY = 'evolution-e2e-key';

/** The reminders' time zone where it is about noon now: the default sending hours (08:00-21:00) hold all test long. */
function noonZone(): string {
  const ahead = 12 - new Date().getUTCHours(); // hours the zone is ahead of UTC
  return ahead === 0 ? 'Etc/GMT' : `Etc/GMT${ahead > 0 ? '-' : '+'}${Math.abs(ahead)}`;
}

/** An Evolution API instance: POST /message/sendText/{instance} with `apikey`, answering 201 {key: {id}}. */
const got: { instance: string; number: string; text: string }[] = [];
const gateway = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const m = /^\/message\/sendText\/([^/]+)$/.exec(req.url ?? '');
    if (!m || req.headers.apikey !== KEY) return res.writeHead(401).end();
    const body = JSON.parse(Buffer.concat(parts).toString()) as { number: string; text: string };
    got.push({ instance: m[1]!, ...body });
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ key: { id: `MSG${got.length}` } }));
  });
});
const listening = new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
afterAll(() => new Promise<void>((r) => gateway.close(() => r())));

async function pickOption(page: Page, inputTestId: string, label: string): Promise<void> {
  await byTestId(page, inputTestId).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe('expiry reminders', () => {
  const s = useE2eSuite({ env: { OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32', REMINDERS_TICK_SECONDS: '1', REMINDERS_TIME_ZONE: noonZone() } });

  test('a reseller on a phone turns reminders on, tests the gateway, and the history shows the message sent once', async () => {
    await listening;
    const gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const trial = await s.admin.createPackage({ package_name: uniqueName('Teste 2h '), bouquets: [String(bouquet.id)], is_trial: 1, is_official: 0, trial_duration: 2, trial_duration_in: 'hours' });
    const r = await s.admin.createReseller({ type: 'reseller', credits: 5 });
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);

    // a trial for a customer with WhatsApp and e-mail: it expires in 2 hours, today
    await clickMenuEntry(page, '/users/add_trial');
    const username = uniqueName('cli').slice(0, 12);
    await byTestId(page, 'user-username').fill(username);
    await byTestId(page, 'user-generate-password').click();
    await pickOption(page, 'user-package', trial.package_name);
    await byTestId(page, 'user-whatsapp').fill('11 91234-0001');
    await byTestId(page, 'line-email').fill('cliente@example.com');
    await byTestId(page, 'user-submit').click();
    await byTestId(byTestId(page, 'user-created-dialog'), 'created-username').waitFor();
    await page.keyboard.press('Escape');

    // the reminders page, from the menu: the gateway, then on
    await clickMenuEntry(page, '/reminders');
    await byTestId(page, 'reminders-base-url').fill(gatewayUrl);
    await byTestId(page, 'reminders-instance').fill('loja');
    await byTestId(page, 'reminders-api-key').fill(KEY);
    await byTestId(page, 'reminders-enabled').check();
    await byTestId(page, 'reminders-save').click();
    await toast(page, tr('pt-BR', 'reminders.saved'));
    // the key is never shown again, only that one is stored
    await expect.poll(() => byTestId(page, 'reminders-api-key').inputValue(), POLL).toBe('');
    expect(await page.content()).not.toContain(KEY);

    // a test message through the saved gateway
    await byTestId(page, 'reminders-test-whatsapp-to').fill('11 98888-0000');
    await byTestId(page, 'reminders-test-whatsapp').click();
    await toast(page, tr('pt-BR', 'reminders.testSent'));
    expect(got.find((m) => m.number === '5511988880000')?.instance).toBe('loja');

    // the "on the day" reminder goes out by itself, once, naming the line
    await expect.poll(() => got.filter((m) => m.number === '5511912340001').length, POLL).toBe(1);
    expect(got.find((m) => m.number === '5511912340001')!.text).toContain(username);

    // the preview renders a stage's text with that real line
    await pickOption(page, 'reminders-template-stage', tr('pt-BR', 'reminders.stageNames.day'));
    await byTestId(page, 'reminders-preview').click();
    await expect.poll(() => visibleText(byTestId(page, 'reminders-preview-text')), POLL).toContain(username);

    // the history, from the page's button: sent, on WhatsApp, on the day
    await byTestId(page, 'reminders-history-link').click();
    await waitForPath(page, '/reminders/history');
    const history = byTestId(page, 'reminders-history');
    await expect.poll(() => visibleText(history), POLL).toContain(username);
    const text = (await visibleText(history)).toLowerCase();
    expect(text).toContain(tr('pt-BR', 'reminders.statuses.sent').toLowerCase());
    expect(text).toContain(tr('pt-BR', 'reminders.stageNames.day').toLowerCase());

    // the dashboard counts it
    await clickMenuEntry(page, '/');
    await expect.poll(() => visibleText(byTestId(page, 'reminders-today-sent')), POLL).toBe('1');
    // later rounds send nothing more for it: a second trial made now gets its message in a round
    // that also walked the first line, which is still at one message
    const reseller = await Api.signIn(s.server.baseUrl, r.username, r.password);
    await reseller.post('/trial_users', { username: uniqueName('mrk').slice(0, 12), package_id: trial.id, whatsapp: '11 91234-0002' });
    await expect.poll(() => got.filter((m) => m.number === '5511912340002').length, POLL).toBe(1);
    expect(got.filter((m) => m.number === '5511912340001')).toHaveLength(1);

    // on a desktop the history is a table with the gateway's answer; a filter narrows it
    const desk = await s.page({ viewport: { width: 1280, height: 800 } });
    await signInUi(desk, r.username, r.password);
    await clickMenuEntry(desk, '/reminders');
    await byTestId(desk, 'reminders-history-link').click();
    await waitForPath(desk, '/reminders/history');
    const table = byTestId(desk, 'reminders-history');
    await expect.poll(() => visibleText(table), POLL).toMatch(/201 · MSG\d+/);
    await pickOption(desk, 'reminders-filter-status', tr('pt-BR', 'reminders.statuses.failed'));
    await expect.poll(() => visibleText(table), POLL).toContain(tr('pt-BR', 'reminders.empty'));
  });
});
