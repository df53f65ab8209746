import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// A line's password guessed by a burst of parallel requests from one address, over real sockets:
// once the limit of wrong passwords is reached, every later attempt gets 429, the right password
// included, wherever it sits in the burst. Checked all at once, the right one used to be the one
// answer that was not a 429. (The right password sits well past the limit in each burst: requests
// sent at once over many sockets can reach the server a few places out of order.)

const PASS = 'Kq7.vX2p_Rz9@tLm';

describe(`parallel guesses of a line password (${ENGINE})`, () => {
  let t: TestContext;
  let base: string;
  let edgeKey: string;
  let limit: number;
  const line = { username: 'burst_line', password: 'burst-right-pw9' };
  let streamPath: string;
  let ipSeq = 0;
  /** a fresh client address for each burst (the panel trusts the loopback proxy here) */
  const nextIp = () => `198.18.${Math.floor(++ipSeq / 200)}.${(ipSeq % 200) + 1}`;

  beforeAll(async () => {
    t = await createTestContext({ trustProxy: ['loopback'] });
    limit = t.deps.config.loginMaxFailures;
    const admin = await t.login('admin');
    const bq = await createBouquet(t, admin, 'Burst');
    const pkg = await createPackage(t, admin, 'Burst monthly', bq);
    const groups = await groupIds(t, admin);
    const reseller = await createSignedInReseller(t, admin, { username: 'burst_res', password: PASS, type: 'reseller', credits: 5, groups });
    await createLine(t, reseller.token, { package_id: pkg, ...line });
    const server = await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'burst-edge', url: 'http://edge.example' } });
    edgeKey = server.json().key;
    streamPath = `/live/${line.username}/%PW%/1.m3u8`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  const guesses = (size: number, rightAt: number) => Array.from({ length: size }, (_, i) => (i + 1 === rightAt ? line.password : `wrong-${i}`));

  /** GET /player_api.php for each password at once; the answers in the order sent. */
  async function playerBurst(passwords: string[], ip: string) {
    return Promise.all(
      passwords.map(async (password) => {
        const res = await fetch(`${base}/player_api.php?${new URLSearchParams({ username: line.username, password })}`, { headers: { 'x-forwarded-for': ip } });
        const body = await res.text();
        if (res.status === 429) return '429';
        return JSON.parse(body).user_info?.auth === 1 ? 'auth:1' : 'auth:0';
      }),
    );
  }

  /** GET /gateway/auth as an edge asks for each password at once. */
  async function edgeBurst(passwords: string[], ip: string) {
    return Promise.all(
      passwords.map(async (password) => {
        const res = await fetch(`${base}/gateway/auth`, {
          headers: { 'x-edge-key': edgeKey, 'x-original-uri': streamPath.replace('%PW%', encodeURIComponent(password)), 'x-real-ip': ip, 'user-agent': 'Burst/1.0' },
        });
        await res.arrayBuffer();
        return res.status === 403 && res.headers.get('x-refused-reason')?.startsWith('too many') ? 'limited' : String(res.status);
      }),
    );
  }

  const count = (answers: string[], what: string) => answers.filter((a) => a === what).length;

  for (const [size, rightAt] of [
    [250, 240],
    [250, 60],
    [100, 50],
  ]) {
    it(`player API: ${size} parallel guesses, the right one #${rightAt}: only the first LOGIN_MAX_FAILURES are checked, the right one gets 429`, async () => {
      const ip = nextIp();
      const answers = await playerBurst(guesses(size, rightAt), ip);
      expect(answers[rightAt - 1]).toBe('429');
      expect(count(answers, 'auth:1')).toBe(0);
      expect(count(answers, 'auth:0')).toBe(limit);
      expect(count(answers, '429')).toBe(size - limit);
      // and after the burst, the right password from there is still refused
      expect(await playerBurst([line.password], ip)).toEqual(['429']);
    });
  }

  for (const [size, rightAt] of [
    [100, 50],
    [100, 99],
    [250, 125],
  ]) {
    it(`edge gateway: ${size} parallel guesses, the right one #${rightAt}: never allowed`, async () => {
      const ip = nextIp();
      const answers = await edgeBurst(guesses(size, rightAt), ip);
      expect(answers[rightAt - 1]).toBe('limited');
      expect(count(answers, '204')).toBe(0);
      expect(count(answers, 'limited')).toBe(size - limit);
      expect(await edgeBurst([line.password], ip)).toEqual(['limited']);
    });
  }

  it('parallel requests with the right password are all answered (a player opening several lists at once)', async () => {
    const answers = await playerBurst(Array.from({ length: 30 }, () => line.password), nextIp());
    expect(answers).toEqual(Array.from({ length: 30 }, () => 'auth:1'));
  });
});
