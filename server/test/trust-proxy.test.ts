import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxy } from '../src/config.ts';
import { ADMIN_PASSWORD, createTestContext, ENGINE, type TestContext } from './helpers.ts';

describe('TRUST_PROXY setting', () => {
  it('takes the proxies\' addresses, never "trust everything"', () => {
    expect(trustProxy(undefined)).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('loopback')).toEqual(['loopback']);
    expect(trustProxy('10.0.0.5, 10.0.1.0/24, ::1')).toEqual(['10.0.0.5', '10.0.1.0/24', '::1']);
    for (const bad of ['1', 'true', 'yes', '1.5', 'nginx', '10.0.0.0/33', '10.0.0.0/8/1']) expect(() => trustProxy(bad)).toThrow(/TRUST_PROXY/);
  });
});

describe(`behind our proxy (TRUST_PROXY=loopback), a forged X-Forwarded-For does not pick the client's IP (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ trustProxy: ['loopback'], loginMaxFailures: 5 });
  });
  afterAll(async () => t?.close());

  // Our proxy (127.0.0.1) appends the address it saw; everything to its left came from the client.
  const viaProxy = (clientWrote: string, realClient: string, password = 'wrong-password-1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': `${clientWrote}, ${realClient}` },
      payload: { username: 'admin', password },
    });

  it('a client rotating the left-most entry is still one client: 5 x 401, then 429', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await viaProxy(`10.1.${i}.7`, '203.0.113.9')).statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.slice(5).every((c) => c === 429)).toBe(true);
    const logged = await t.database.db.selectFrom('logs').select('ip').where('action', '=', 'sign_in_rate_limited').execute();
    expect(new Set(logged.map((r) => r.ip))).toEqual(new Set(['203.0.113.9']));
  });

  it('another real client behind the same proxy is counted apart and signs in', async () => {
    const res = await viaProxy('203.0.113.9', '198.51.100.20', ADMIN_PASSWORD);
    // and two proxies of ours in a row: the first address they did not write is the client
    const twoHops = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.21, 127.0.0.1' },
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(twoHops.statusCode, twoHops.body).toBe(200);
    expect(res.statusCode, res.body).toBe(200);
  });
});
