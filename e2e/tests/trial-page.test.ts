import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { describeViolations, headingOnes, runAxe } from '../support/axe.ts';
import { Api, byTestId, clickMenuEntry, signInUi, toast, tr, uniqueName, useE2eSuite, visibleText } from '../support/index.ts';

// A reseller on a phone turns its trial page on from the menu; a customer on a phone opens
// /teste/<slug>, asks for a trial with its WhatsApp number, gets the credentials on WhatsApp only
// (an Evolution API stand-in on a socket), opens its account from the message's link, and a second
// ask from the same number is refused.

const POLL = { timeout: 15_000, interval: 200 };
const KEY = 'evolution-e2e-trial-key';

/** An Evolution API instance: POST /message/sendText/{instance} with `apikey`, answering 201 {key: {id}}. */
const got: { number: string; text: string }[] = [];
const gateway = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    if (!/^\/message\/sendText\/[^/]+$/.test(req.url ?? '') || req.headers.apikey !== KEY) return res.writeHead(401).end();
    got.push(JSON.parse(Buffer.concat(parts).toString()) as { number: string; text: string });
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ key: { id: `MSG${got.length}` } }));
  });
});
const listening = new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
afterAll(() => new Promise<void>((r) => gateway.close(() => r())));

describe('self-service trial page', () => {
  const s = useE2eSuite({ env: { OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32', PUBLIC_URL: 'http://painel.example' } });

  test('a reseller turns its trial page on; a customer on a phone gets a trial by WhatsApp once', async () => {
    await listening;
    const bouquet = await s.admin.createBouquet(uniqueName('Bq '));
    const trial = await s.admin.createPackage({ package_name: uniqueName('Teste 4h '), bouquets: [String(bouquet.id)], is_trial: 1, is_official: 0, trial_duration: 4, trial_duration_in: 'hours' });
    const r = await s.admin.createReseller({ type: 'reseller', credits: 5, whatsapp: '11 97777-0000' });
    // the reseller's WhatsApp gateway (the reminders' Evolution API instance)
    const reseller = await Api.signIn(s.server.baseUrl, r.username, r.password);
    await reseller.put('/reminders/settings', { channels: { whatsapp: { base_url: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`, instance: 'loja', api_key: KEY } } });

    // the reseller, on a phone: Página de teste from the menu, an address, the trial package, on
    const page = await s.page({ viewport: { width: 375, height: 740 } });
    await signInUi(page, r.username, r.password);
    await clickMenuEntry(page, '/trial-page');
    const slug = uniqueName('loja-').toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40);
    await byTestId(page, 'trialpage-slug').fill(slug);
    await byTestId(page, 'trialpage-package').click();
    await page.getByRole('option', { name: trial.package_name, exact: true }).click();
    await byTestId(page, 'trialpage-message').fill('Teste grátis da Loja');
    await byTestId(page, 'trialpage-enabled').check();
    await byTestId(page, 'trialpage-save').click();
    await toast(page, tr('pt-BR', 'trialPage.saved'));
    await expect.poll(() => visibleText(byTestId(page, 'trialpage-public-url')), POLL).toContain(`/teste/${slug}`);

    // the customer, on a phone, signed out: the page names the reseller and the trial
    const phone = await s.page({ viewport: { width: 375, height: 740 } });
    await phone.goto(`${s.server.baseUrl}/teste/${slug}`);
    await expect.poll(() => visibleText(byTestId(phone, 'trial-reseller')), POLL).toBe(r.username);
    expect(await visibleText(byTestId(phone, 'trial-message'))).toBe('Teste grátis da Loja');
    expect(await visibleText(byTestId(phone, 'trial-package'))).toBe(trial.package_name);
    // accessible on a phone: no serious or critical axe finding, one h1
    const blocking = (await runAxe(phone)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(describeViolations('trial page 375px', blocking)).toEqual([]);
    expect(await headingOnes(phone)).toEqual([r.username]);
    await byTestId(phone, 'trial-whatsapp').fill('(11) 98765-4321');
    await byTestId(phone, 'trial-submit').click();
    await expect.poll(() => visibleText(byTestId(phone, 'trial-sent')), POLL).toBe(tr('pt-BR', 'trialOffer.sent'));
    expect(await byTestId(phone, 'trial-talk').getAttribute('href')).toBe('https://wa.me/5511977770000');

    // the credentials went by WhatsApp only, with the account's link
    expect(got.map((m) => m.number)).toEqual(['5511987654321']);
    const text = got[0]!.text;
    const username = /Usuário: (\S+)/.exec(text)?.[1];
    expect(username).toBeTruthy();
    expect(text).toMatch(/Senha: \S+/);
    expect(await phone.content()).not.toContain(username!);
    const link = /http:\/\/painel\.example(\/minha-conta\?t=\S+)/.exec(text)?.[1];
    expect(link).toBeTruthy();

    // the customer's account, from the message's link: the trial line
    await phone.goto(`${s.server.baseUrl}${link}`);
    await expect.poll(() => visibleText(byTestId(phone, 'customer-line-username')), POLL).toBe(username);

    // the reseller's lines list has it, as a trial with that WhatsApp
    const lines = await reseller.get<{ data: { username: string; is_trial: number; whatsapp: string | null }[] }>(`/users?text_search=${username}`);
    expect(lines.data.map((l) => [l.username, l.is_trial, l.whatsapp])).toEqual([[username, 1, '5511987654321']]);

    // the same number again, written another way: refused, nothing sent
    const again = await s.page({ viewport: { width: 375, height: 740 } });
    await again.goto(`${s.server.baseUrl}/teste/${slug}`);
    await byTestId(again, 'trial-whatsapp').fill('+55 11 98765-4321');
    await byTestId(again, 'trial-submit').click();
    await expect.poll(() => visibleText(byTestId(again, 'trial-error')), POLL).toBe(tr('pt-BR', 'trialOffer.errors.TRIAL_ALREADY_USED'));
    expect(got).toHaveLength(1);
  });
});
