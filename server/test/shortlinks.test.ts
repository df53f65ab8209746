import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { MAX_MISSES, MISS_WINDOW_SECONDS } from '../src/modules/shortlinks/service.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Line } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';

describe(`short links: resolved from the line's current data (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let reseller: { id: number; token: string };
  let pkg: number;
  let ipSeq = 0;
  /** a fresh client IP per test, so the per-IP miss counter of one test never touches another */
  const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'Short links', await createBouquet(t, admin, 'Canais'));
    const { id, token } = await createSignedInReseller(t, admin, { username: 'shortowner', password: PASS, type: 'reseller', credits: 50, groups });
    reseller = { id, token };
  }, 60_000);
  afterAll(async () => t?.close());

  async function line(username: string, password: string) {
    return (await createLine(t, reseller.token, { package_id: pkg, username, password })) as Line;
  }

  async function shorten(lineId: number, type = 'm3u8') {
    const res = await t.call(reseller.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: lineId, type } });
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json().url).pathname;
  }

  const open = (path: string, ip = freshIp(), accept = '*/*') => t.app.inject({ method: 'GET', url: path, remoteAddress: ip, headers: { accept } });

  it('a password change gives the new password at once; a new domain too', async () => {
    const l = await line('slpwchange', 'OldSecret1');
    const path = await shorten(l.id);
    const before = await open(path);
    expect(before.statusCode).toBe(302);
    expect(before.headers.location).toContain('password=OldSecret1');
    expect(before.headers['cache-control']).toBe('no-store');

    const put = await t.call(reseller.token, { method: 'PUT', url: `/api/users/${l.id}`, payload: { password: 'NewSecret2' } });
    expect(put.statusCode, put.body).toBe(200);
    const after = await open(path);
    expect(after.statusCode).toBe(302);
    expect(after.headers.location).toContain('password=NewSecret2');
    expect(after.headers.location).not.toContain('OldSecret1');

    const dom = await t.call(admin, { method: 'PUT', url: `/api/resellers/${reseller.id}/add_domain`, payload: { dns_reseller: 'tv.fresh-domain.example' } });
    expect(dom.statusCode, dom.body).toBe(201);
    expect((await open(path)).headers.location).toBe('http://tv.fresh-domain.example/get.php?username=slpwchange&password=NewSecret2&type=m3u_plus&output=m3u8');
  });

  it('a deleted line answers 404', async () => {
    const l = await line('sldeleted', 'DelSecret1');
    const path = await shorten(l.id, 'ssiptv');
    expect((await open(path)).statusCode).toBe(302);
    const del = await t.call(reseller.token, { method: 'DELETE', url: `/api/users/${l.id}` });
    expect(del.statusCode, del.body).toBeLessThan(300);
    const res = await open(path);
    expect(res.statusCode).toBe(404);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain('DelSecret1');
  });

  it('blocked and expired lines say so in Portuguese, without credentials or a redirect', async () => {
    const blocked = await line('slblocked', 'BlkSecret1');
    const blockedPath = await shorten(blocked.id);
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${blocked.id}/block` })).statusCode).toBe(200);
    const expired = await line('slexpired', 'ExpSecret1');
    const expiredPath = await shorten(expired.id, 'hls');
    await db().updateTable('lines').set({ exp_date: nowSec() - 60 }).where('id', '=', expired.id).execute();

    for (const [path, code, secret, username] of [
      [blockedPath, 'LINE_BLOCKED', 'BlkSecret1', 'slblocked'],
      [expiredPath, 'LINE_EXPIRED', 'ExpSecret1', 'slexpired'],
    ]) {
      const json = await open(path);
      expect(json.statusCode).toBe(403);
      expect(json.headers.location).toBeUndefined();
      expect(json.json()).toMatchObject({ statusCode: 403, code });
      const html = await open(path, freshIp(), 'text/html,application/xhtml+xml');
      expect(html.statusCode).toBe(403);
      expect(html.headers['content-type']).toContain('text/html');
      expect(html.body).toMatch(code === 'LINE_BLOCKED' ? /bloqueada/ : /venceu/);
      for (const res of [json, html]) {
        expect(res.headers.location).toBeUndefined();
        expect(res.body).not.toContain(secret);
        expect(res.body).not.toContain(username);
      }
    }
    // unblocked, the same link works again with the current data
    expect((await t.call(reseller.token, { method: 'POST', url: `/api/users/${blocked.id}/unblock` })).statusCode).toBe(200);
    expect((await open(blockedPath)).headers.location).toContain('password=BlkSecret1');
  });

  it('codes are 16 base64url characters (96 random bits) and nothing stored holds a credential', async () => {
    const l = await line('slentropy', 'EntSecret1');
    const codes = new Set<string>();
    for (let i = 0; i < 40; i++) codes.add((await shorten(l.id, ['mpgets', 'm3u8', 'hls', 'ssiptv'][i % 4])).slice(3));
    expect(codes.size).toBe(40);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // the 40 codes together use most of the alphabet (random, not a counter or a timestamp)
    expect(new Set([...codes].join('')).size).toBeGreaterThan(50);
    const rows = await db().selectFrom('short_links').selectAll().where('line_id', '=', l.id).execute();
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['code', 'created_at', 'created_by', 'hits', 'id', 'line_id', 'type']);
      expect(JSON.stringify(row)).not.toContain('EntSecret1');
    }
  });

  it('an old 8-character code (48 bits) no longer resolves', async () => {
    const l = await line('sloldcode', 'OldCode12');
    await db().insertInto('short_links').values({ code: 'AbCdEf12', line_id: l.id, type: 'm3u8', created_by: reseller.id, hits: 0, created_at: 1 }).execute();
    expect((await open('/s/AbCdEf12')).statusCode).toBe(404);
  });

  it(`after ${MAX_MISSES} misses an IP gets 429 with Retry-After, even for a good code; hits never count`, async () => {
    const l = await line('slratelimit', 'RateSecret1');
    const good = await shorten(l.id);
    const ip = freshIp();
    for (let i = 0; i < 3 * MAX_MISSES; i++) expect((await open(good, ip)).statusCode).toBe(302);
    for (let i = 0; i < MAX_MISSES; i++) expect((await open(`/s/${'x'.repeat(15)}${i % 10}`, ip)).statusCode).toBe(404);
    const refused = await open('/s/AAAAAAAAAAAAAAAA', ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(MISS_WINDOW_SECONDS);
    const goodRefused = await open(good, ip);
    expect(goodRefused.statusCode).toBe(429);
    expect(goodRefused.headers.location).toBeUndefined();
    // another IP is not affected
    expect((await open(good)).statusCode).toBe(302);
    // counted in the database (so it holds across processes)
    const row = await db().selectFrom('short_link_misses').selectAll().where('ip', '=', ip).executeTakeFirstOrThrow();
    expect(Number(row.misses)).toBeGreaterThan(MAX_MISSES);
    // the window ends: the IP may look up again
    await db().updateTable('short_link_misses').set({ window_start: nowSec() - MISS_WINDOW_SECONDS - 1 }).where('ip', '=', ip).execute();
    expect((await open(good, ip)).statusCode).toBe(302);
  });

  it('concurrent misses from one IP cannot pass the limit together', async () => {
    const ip = freshIp();
    const results = await Promise.all(Array.from({ length: 3 * MAX_MISSES }, (_, i) => open(`/s/${String(i).padStart(16, 'q')}`, ip)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 404)).toHaveLength(MAX_MISSES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * MAX_MISSES);
  });

  it('IPv6 clients are counted by their /64: rotating addresses inside it does not reset the count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAX_MISSES + 5; i++) statuses.push((await open(`/s/${String(i).padStart(16, 'v')}`, `2001:db8:77:1::${(i + 1).toString(16)}`)).statusCode);
    expect(statuses.filter((s) => s === 404)).toHaveLength(MAX_MISSES);
    expect(statuses.slice(MAX_MISSES).every((s) => s === 429)).toBe(true);
  });
});
