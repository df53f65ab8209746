import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { ServerProcess, freePort } from './security/server-process.ts';

const WRONG = 'wrong-password-1';

interface Attempt {
  username?: string;
  password?: string;
  ip?: string;
  device_token?: string;
}

function signIn(app: FastifyInstance, a: Attempt = {}) {
  const { username = 'admin', password = WRONG, ip = '127.0.0.1', device_token } = a;
  return app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: ip, payload: { username, password, ...(device_token ? { device_token } : {}) } });
}

/** A device token as the web keeps it: from a successful sign-in. */
async function deviceToken(app: FastifyInstance, ip: string, username = 'admin', password = ADMIN_PASSWORD) {
  const res = await signIn(app, { username, password, ip });
  expect(res.statusCode).toBe(200);
  return res.json().device_token as string;
}

const countLogs = async (t: TestContext, action: string) =>
  (await t.database.db.selectFrom('logs').select('id').where('action', '=', action).execute()).length;

/** Moves the throttle's clock back by `seconds` for every key: the same as waiting that long. */
async function wait(t: TestContext, seconds: number) {
  const rows = await t.database.db.selectFrom('login_throttle').select(['key', 'blocked_until', 'last_at']).execute();
  for (const r of rows) {
    await t.database.db
      .updateTable('login_throttle')
      .set({ blocked_until: r.blocked_until - seconds, last_at: r.last_at - seconds })
      .where('key', '=', r.key)
      .execute();
  }
}

function tally(codes: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const c of codes) counts[c] = (counts[c] ?? 0) + 1;
  return counts;
}

describe(`sign-in brute force (${ENGINE})`, () => {
  const open: TestContext[] = [];
  const context = async (overrides: Partial<Config> = {}) => {
    const t = await createTestContext(overrides);
    open.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  afterAll(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('60 parallel wrong passwords over real sockets: exactly the limit reach the password check, the rest get 429 and are logged', async () => {
    const t = await context();
    const limit = t.deps.config.loginMaxFailures;
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        fetch(`${address}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: WRONG }),
        }),
      ),
    );
    const codes = answers.map((a) => a.status);
    expect(tally(codes)).toEqual({ 401: limit, 429: 60 - limit });
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await a.json()).code).toBe('RATE_LIMITED');
    }
    // Counted before the password check: only `limit` passwords were checked at all.
    expect(await countLogs(t, 'sign_in_failed')).toBe(limit);
    expect(await countLogs(t, 'sign_in_rate_limited')).toBe(60 - limit);

    // The same pair is refused even with the right password; the owner elsewhere is not.
    expect((await signIn(t.app, { password: ADMIN_PASSWORD })).statusCode).toBe(429);
    const owner = await signIn(t.app, { password: ADMIN_PASSWORD, ip: '198.51.100.20' });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().device_token).toEqual(expect.any(String));
  });

  it('another server process on the same database shares the counter', async () => {
    const t = await context();
    const limit = t.deps.config.loginMaxFailures;
    const other = new ServerProcess(await freePort(), { DATABASE_URL: t.deps.config.databaseUrl, LOGIN_MAX_FAILURES: String(limit) });
    try {
      await other.start();
      const viaOther = () =>
        fetch(`${other.base}/api/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: WRONG }),
        }).then((r) => r.status);
      // Both processes see the client as 127.0.0.1: one username+IP pair, two processes.
      const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? viaOther() : signIn(t.app).then((r) => r.statusCode))));
      expect(tally(codes)).toEqual({ 401: limit, 429: 40 - limit });
      expect(await countLogs(t, 'sign_in_failed')).toBe(limit);
    } finally {
      await other.stop('SIGTERM');
    }
  });

  it('a success clears the pair, and successes never add up on the IP', async () => {
    const t = await context({ loginMaxFailures: 3, loginIpMaxFailures: 6 });
    for (let i = 0; i < 2; i++) expect((await signIn(t.app)).statusCode).toBe(401);
    expect((await signIn(t.app, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signIn(t.app)).statusCode).toBe(401);
    expect((await signIn(t.app)).statusCode).toBe(429);

    // An office signing in all day from one address: 20 successes, then a typo is still just a 401.
    for (let i = 0; i < 20; i++) expect((await signIn(t.app, { password: ADMIN_PASSWORD, ip: '192.0.2.50' })).statusCode).toBe(200);
    expect((await signIn(t.app, { ip: '192.0.2.50' })).statusCode).toBe(401);
  });

  it('spraying many usernames from one IP ends in 429 for that IP, but a known device still signs in', async () => {
    const t = await context({ loginIpMaxFailures: 8 });
    const sprayer = '203.0.113.66';
    const known = await deviceToken(t.app, sprayer);
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await signIn(t.app, { username: `user${i}`, ip: sprayer })).statusCode);
    expect(codes).toEqual([...Array(8).fill(401), ...Array(4).fill(429)]);
    // Every username from that IP, the admin's right password included, waits...
    expect((await signIn(t.app, { username: 'admin', password: ADMIN_PASSWORD, ip: sprayer })).statusCode).toBe(429);
    // ...except from a browser that signed in to that account before; and other IPs are untouched.
    const again = await signIn(t.app, { username: 'admin', password: ADMIN_PASSWORD, ip: sprayer, device_token: known });
    expect(again.statusCode).toBe(200);
    expect(again.json().device_token).toBe(known);
    expect((await signIn(t.app, { username: 'admin', password: ADMIN_PASSWORD, ip: '198.51.100.1' })).statusCode).toBe(200);
    expect(await countLogs(t, 'sign_in_rate_limited')).toBe(5);
  });

  it('IPv6 addresses are counted by their /64 network', async () => {
    const t = await context({ loginIpMaxFailures: 3 });
    const codes: number[] = [];
    for (const host of ['a', 'b', 'c', 'd']) codes.push((await signIn(t.app, { username: `user_${host}`, ip: `2001:db8:0:1::${host}` })).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    expect((await signIn(t.app, { username: 'user_e', ip: '2001:db8:0:2::e' })).statusCode).toBe(401);
  });

  it('the per-account cap across many IPs refuses unknown devices but lets a known device in', async () => {
    const t = await context({ loginAccountMaxFailures: 10 });
    const known = await deviceToken(t.app, '198.51.100.7');
    const codes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signIn(t.app, { ip: `10.0.${i}.1` }).then((r) => r.statusCode)),
    );
    expect(tally(codes)).toEqual({ 401: 10, 429: 20 });
    // A fresh IP with the right password but no known device: refused while the account is under attack.
    const fresh = await signIn(t.app, { password: ADMIN_PASSWORD, ip: '10.9.9.9' });
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    // A device token of another account, or a made-up one, is no key.
    const other = await signIn(t.app, { username: 'ghost', ip: '10.9.9.8', device_token: known });
    expect(other.statusCode).toBe(401);
    expect((await signIn(t.app, { password: ADMIN_PASSWORD, ip: '10.9.9.9', device_token: 'made-up' })).statusCode).toBe(429);
    // The owner's browser gets in, from anywhere.
    expect((await signIn(t.app, { password: ADMIN_PASSWORD, ip: '10.9.9.9', device_token: known })).statusCode).toBe(200);
    // The device has its own limit: guessing with a stolen device token is throttled too.
    const guesses: number[] = [];
    for (let i = 0; i < 7; i++) guesses.push((await signIn(t.app, { ip: '10.9.9.10', device_token: known })).statusCode);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Only the device token's hash is stored.
    const stored = await t.database.db.selectFrom('known_devices').select('token_hash').execute();
    expect(stored.some((s) => s.token_hash === known)).toBe(false);
  });

  it('delays grow 1, 2, 4 minutes up to the cap, and a quiet window starts the count over', async () => {
    const t = await context({ loginMaxFailures: 2, loginDelaySeconds: 60, loginMaxDelaySeconds: 240, loginWindowSeconds: 3600 });
    const ip = '203.0.113.5';
    const retryAfter = async () => {
      const res = await signIn(t.app, { ip });
      expect(res.statusCode).toBe(429);
      return Number(res.headers['retry-after']);
    };
    expect((await signIn(t.app, { ip })).statusCode).toBe(401);
    expect((await signIn(t.app, { ip })).statusCode).toBe(401);
    const delays = [await retryAfter()];
    for (let i = 0; i < 3; i++) {
      await wait(t, delays[delays.length - 1]);
      expect((await signIn(t.app, { ip })).statusCode).toBe(401);
      delays.push(await retryAfter());
    }
    // Retry-After is rounded down to whole seconds at most one second early.
    expect(delays.map((d) => Math.round(d / 60))).toEqual([1, 2, 4, 4]);
    expect(await countLogs(t, 'sign_in_rate_limited')).toBe(4);

    // An hour without attempts after the lock: two free attempts again.
    await wait(t, 240 + 3600);
    expect((await signIn(t.app, { ip })).statusCode).toBe(401);
    expect((await signIn(t.app, { ip })).statusCode).toBe(401);
    expect(await retryAfter()).toBeGreaterThan(50);
  });
});
