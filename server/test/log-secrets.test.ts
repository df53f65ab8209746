import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, freezeClock, nowMs, resetClock } from '../src/lib/clock.ts';
import { createLogger, requestIdGenerator, scrub } from '../src/lib/logger.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';

// The log contract (docs/configuration.md, "Logs"): one JSON object a line, request lines with their
// request id, and no secret at any level. The app logs at trace (everything Fastify and the panel can
// log) with every request logged, into a stream this test reads; it signs in, uses the player API with
// the line's password in the query, an API key, two-factor codes, a customer session, a download link,
// and sets the Mercado Pago token and webhook secret, a WhatsApp key and a webhook endpoint. None of
// the values may appear in the log.

const PASS = 'Log-secret-reseller-4417';
const LINE_PASSWORD = 'linepw7781zz';
const MP_TOKEN = 'APP_USR-8812345678-log-secret';
const MP_SECRET = 'mp-webhook-log-secret-5521';
const EVOLUTION_KEY = 'evolution-log-secret-9034';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: nowMs() });

describe(`the log holds no secret and is JSON lines with request ids (${ENGINE})`, () => {
  let t: TestContext;
  const lines: string[] = [];
  /** what the panel was given or answered, by kind: never in the log */
  const secrets: { kind: string; value: string }[] = [];
  const keep = (kind: string, value: unknown) => {
    expect(typeof value === 'string' && value.length >= 6, `${kind} is a string`).toBe(true);
    secrets.push({ kind, value: value as string });
    return value as string;
  };
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    freezeClock();
    t = await createTestContext({ logRequests: true, publicUrl: 'https://painel.example' }, { logger: createLogger('trace', sink) });
    keep('admin password', ADMIN_PASSWORD);
    keep('line password', LINE_PASSWORD);
    const admin = keep('session token', await t.login('admin'));
    const { groups, pkg } = await adminWithPackage(t);
    const reseller = await createSignedInReseller(t, admin, { username: 'log_res', password: keep('reseller password', PASS), type: 'reseller', credits: 20, groups });
    keep('session token', reseller.token);

    // a line, its player API and playlist with the password in the query, a stream path, its short link
    const line = await createLine(t, reseller.token, { package_id: pkg, username: 'log_line', password: LINE_PASSWORD });
    const q = new URLSearchParams({ username: 'log_line', password: LINE_PASSWORD });
    expect((await t.app.inject({ method: 'GET', url: `/player_api.php?${q}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/player_api.php?${q}&action=get_live_streams` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/get.php?${q}&type=m3u_plus` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/player_api.php?username=log_line&password=wrong-${LINE_PASSWORD}` })).statusCode).toBeLessThan(500);
    await t.app.inject({ method: 'GET', url: `/live/log_line/${LINE_PASSWORD}/1.ts` });
    await t.app.inject({ method: 'GET', url: '/gateway/auth', headers: { 'x-edge-key': keep('edge key', 'edge-key-not-registered-31'), 'x-original-uri': `/live/log_line/${LINE_PASSWORD}/1.m3u8` } });
    const shortened = await t.call(reseller.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: line.id, type: 'm3u8' } });
    expect(shortened.statusCode, shortened.body).toBe(200);
    const short = new URL(shortened.json().url).pathname;
    keep('short link code', short.split('/').pop());
    expect((await t.app.inject({ method: 'GET', url: short })).statusCode).toBe(302);

    // an API key, used
    const created = await t.call(reseller.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'Bot', scopes: ['lines:read'] } });
    expect(created.statusCode, created.body).toBe(201);
    const key = keep('API key', created.json().key);
    expect((await t.app.inject({ method: 'GET', url: '/api/users', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);

    // two-factor sign-in: the secret, the enrolment code, recovery codes, a sign-in code
    const setup = await t.call(reseller.token, { method: 'POST', url: '/api/profile/2fa/setup' });
    const secret = keep('2FA secret', setup.json().secret);
    const enabled = await t.call(reseller.token, { method: 'POST', url: '/api/profile/2fa/enable', payload: { code: keep('2FA code', totp(secret)) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    for (const code of enabled.json().recovery_codes) keep('recovery code', code);
    advanceClock(30_000);
    const challenge = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'log_res', password: PASS } });
    keep('2FA challenge', challenge.json().challenge);
    const second = await t.call(null, { method: 'POST', url: '/api/auth/sign-in/2fa', payload: { challenge: challenge.json().challenge, code: keep('2FA code', totp(secret)) } });
    expect(second.statusCode, second.body).toBe(200);
    keep('session token', second.json().token);
    const wrong = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'log_res', password: `not-${PASS}` } });
    expect(wrong.statusCode).toBe(401);

    // Mercado Pago's token and webhook secret, the WhatsApp gateway's key, a webhook endpoint's secret
    const pix = await t.call(reseller.token, { method: 'PUT', url: '/api/payments/settings', payload: { mercadopago_access_token: keep('Mercado Pago token', MP_TOKEN), mercadopago_webhook_secret: keep('Mercado Pago webhook secret', MP_SECRET), prices: [{ package_id: pkg, price_cents: 2000 }], enabled: true } });
    expect(pix.statusCode, pix.body).toBe(200);
    const evo = await t.call(reseller.token, { method: 'PUT', url: '/api/reminders/settings', payload: { channels: { whatsapp: { base_url: 'https://evolution.example.com', instance: 'loja', api_key: keep('Evolution API key', EVOLUTION_KEY) } } } });
    expect(evo.statusCode, evo.body).toBe(200);
    const hook = await t.call(reseller.token, { method: 'POST', url: '/api/webhooks', payload: { url: 'https://hooks.example.com/panel', events: ['line.created'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    keep('webhook secret', hook.json().secret);
    await t.app.inject({ method: 'POST', url: `/api/payments/mercadopago/webhook?reseller=${reseller.id}&data.id=1`, headers: { 'x-signature': `ts=1,v1=${'ab'.repeat(32)}`, 'x-request-id': 'mp-1' }, payload: { type: 'payment', data: { id: '1' } } });

    // a customer's session (the line's password), a one-time download link
    const customer = await t.call(null, { method: 'POST', url: '/api/customer/sign-in', payload: { username: 'log_line', password: LINE_PASSWORD } });
    expect(customer.statusCode, customer.body).toBe(200);
    const cs = keep('customer token', customer.json().token);
    expect((await t.app.inject({ method: 'GET', url: '/api/customer/line', headers: { authorization: `Bearer ${cs}` } })).statusCode).toBe(200);
    const link = await t.call(reseller.token, { method: 'POST', url: '/api/exports/token', payload: { path: '/api/users/export.csv' } });
    expect(link.statusCode, link.body).toBe(201);
    keep('download token', new URL(link.json().url, 'http://x').searchParams.get('download_token'));
    expect((await t.app.inject({ method: 'GET', url: link.json().url })).statusCode).toBe(200);
    await t.call(reseller.token, { method: 'DELETE', url: '/api/auth/sign-out' });

    // over a socket: a malformed request whose first line holds a password (Fastify logs client errors at trace)
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET /player_api.php?username=log_line&password=${LINE_PASSWORD} HTTP/1.1\r\nHost: x\r\nBad header line\r\n\r\n`));
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    const res = await fetch(`http://127.0.0.1:${port}/get.php?${q}`, { headers: { authorization: `Bearer ${reseller.token}`, cookie: `session=${reseller.token}` } });
    await res.arrayBuffer();
  }, 60_000);

  afterAll(async () => {
    resetClock();
    await t?.close();
  });

  it('writes no password, token, key or secret it was given or answered, at any level', () => {
    expect(lines.length).toBeGreaterThan(50);
    const found: string[] = [];
    lines.forEach((line, i) => {
      for (const s of secrets) if (line.includes(s.value)) found.push(`${s.kind} in log line ${i + 1}`);
    });
    expect(found).toEqual([]);
  });

  it('is one JSON object a line; every request line has its request id', () => {
    const parsed = lines.map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`log line ${i + 1} is not JSON`);
      }
    });
    const requestLines = parsed.filter((l) => 'req' in l || 'res' in l);
    expect(requestLines.length).toBeGreaterThan(20);
    for (const l of requestLines) expect(typeof l.reqId === 'string' && l.reqId.length > 0, String(l.msg)).toBe(true);
    // the player's request line keeps its shape, without the password
    const urls = requestLines.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain('/player_api.php?username=log_line&password=[REDACTED]&action=get_live_streams');
    expect(urls).toContain('/live/log_line/[REDACTED]/1.ts');
    expect(urls).toContain('/s/[REDACTED]');
  });

  it('answers the request id in X-Request-Id: a UUID, or a trusted proxy\'s plain one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { 'x-request-id': 'from-a-client-1' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/); // without TRUST_PROXY the client's is ignored
    expect(lines.some((l) => l.includes(`"reqId":"${res.headers['x-request-id']}"`))).toBe(true);
    const behindProxy = requestIdGenerator(true);
    const raw = (id: string) => ({ headers: { 'x-request-id': id } }) as never;
    expect(behindProxy(raw('nginx-abc.123'))).toBe('nginx-abc.123');
    expect(behindProxy(raw('has space\n{"forged":1}'))).toMatch(/^[0-9a-f-]{36}$/);
    expect(behindProxy(raw('x'.repeat(200)))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('scrubs secrets from URLs and free text, keeping their shape', () => {
    expect(scrub('/get.php?username=ana&password=p%40ss&type=m3u')).toBe('/get.php?username=ana&password=[REDACTED]&type=m3u');
    expect(scrub('/movie/ana/pw1/9.mp4')).toBe('/movie/ana/[REDACTED]/9.mp4');
    expect(scrub('/minha-conta?t=12.99.abc')).toBe('/minha-conta?t=[REDACTED]');
    expect(scrub('smtps://user:pa55@smtp.example.com:465')).toBe('smtps://[REDACTED]@smtp.example.com:465');
    expect(scrub('fetch https://api.example.com/x?access_token=abc&page=2 failed')).toBe('fetch https://api.example.com/x?access_token=[REDACTED]&page=2 failed');
    expect(scrub('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [REDACTED]');
    expect(scrub('/api/users?per=10&sort=username')).toBe('/api/users?per=10&sort=username');
    expect(scrub('POST https://api.telegram.org/bot7000001:AAH-abcdefghijklmnopqrstuvwxyz01234/sendMessage')).toBe('POST https://api.telegram.org/bot7000001:[REDACTED]/sendMessage');
    expect(scrub('token 7000001:AAH_abcdefghijklmnopqrstuvwxyz01234 refused')).toBe('token 7000001:[REDACTED] refused');
    expect(scrub('at 12:30:45 on 2026-11-28')).toBe('at 12:30:45 on 2026-11-28');
  });
});
