import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nowMs, nowSec } from '../src/lib/clock.ts';
import { migratedExpiry } from '../src/modules/migration/service.ts';
import { createBouquet, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { startXtreamProvider } from './standins/xtream-provider.ts';

const PASS = 'Str0ng-pass!';
const DAY = 86_400;
const LOOPBACK = ['127.0.0.1/32'];

describe(`migrate a line from another provider's playlist URL (${ENGINE})`, () => {
  let t: TestContext;
  let provider: Awaited<ReturnType<typeof startXtreamProvider>>;
  let admin: string;
  let reseller: { id: number; token: string };
  let other: string;
  let adult: number;
  let noAdult: number;
  let plain: number;

  const line = (username: string, days: number | null, extra: { is_trial?: boolean; password?: string } = {}) => {
    const l = { username, password: extra.password ?? 'srcPass1', exp_date: days === null ? null : nowSec() + days * DAY, created_at: nowSec() - 40 * DAY, is_trial: extra.is_trial ?? false };
    provider.lines.push(l);
    return l;
  };

  beforeAll(async () => {
    provider = await startXtreamProvider();
    t = await createTestContext({ outboundAllowNetworks: LOOPBACK, integrationTimeoutMs: 400 });
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    const bouquet = await createBouquet(t, admin, 'Migrados');
    adult = await createPackage(t, admin, 'Migração +18', bouquet, { official_credits: 2 });
    noAdult = await createPackage(t, admin, 'Migração', bouquet);
    plain = await createPackage(t, admin, 'Outro', bouquet);
    await t.database.db.updateTable('settings').set({ value: String(adult) }).where('key', '=', 'migration_package_adult').execute();
    await t.database.db.updateTable('settings').set({ value: String(noAdult) }).where('key', '=', 'migration_package_no_adult').execute();
    const make = (username: string) => createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits: 50, groups });
    const { id, token } = await make('migowner');
    reseller = { id, token };
    other = (await make('migother')).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });
  beforeEach(() => {
    provider.mode = 'ok';
    provider.received.length = 0;
    t.deps.config.outboundAllowNetworks = LOOPBACK;
  });

  const lookup = (url: string, token = reseller.token) => t.call(token, { method: 'POST', url: '/api/users/fetch-url-data', payload: { url } });
  const migrate = (payload: Record<string, unknown>, token = reseller.token, key?: string) =>
    t.call(token, { method: 'POST', url: '/api/users/migrate', payload, headers: key ? { 'idempotency-key': key } : {} });
  const balance = async () => (await t.call(reseller.token, { method: 'GET', url: '/api/profile' })).json().credits as number;
  const linesNamed = (username: string) => t.database.db.selectFrom('lines').select(['id', 'member_id', 'password', 'exp_date', 'package_id', 'is_trial']).where('username', '=', username).execute();

  it('looks the line up with the provider\'s player API and answers what it found', async () => {
    const src = line('src_found', 20);
    const res = await lookup(provider.playlistUrl(src));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ username: 'src_found', password: 'srcPass1', exp_date: src.exp_date, created_at: src.created_at, is_trial: false });
    expect(provider.received.map((r) => r.url)).toEqual(['/player_api.php?username=src_found&password=srcPass1']);
  });

  it('migrates: the line under the caller with its credentials and expiry, charged like a creation, logged; a retried key charges once', async () => {
    const src = line('src_move', 20);
    expect((await lookup(provider.playlistUrl(src))).statusCode).toBe(200);
    const before = await balance();
    const body = { username: src.username, password: src.password, exp_date: src.exp_date, package_id: adult };
    const res = await migrate(body, reseller.token, 'mig-key-1');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ capped: false, exp_date: src.exp_date, line: { username: 'src_move', password: 'srcPass1', exp_date: src.exp_date } });
    const again = await migrate(body, reseller.token, 'mig-key-1');
    expect(again.statusCode).toBe(201);
    expect(again.json().line.id).toBe(res.json().line.id);
    expect(await balance()).toBe(before - 2);
    expect(await linesNamed('src_move')).toEqual([{ id: res.json().line.id, member_id: reseller.id, password: 'srcPass1', exp_date: src.exp_date, package_id: adult, is_trial: 0 }]);
    const ledger = await t.database.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('line_id', '=', res.json().line.id).execute();
    expect(ledger).toEqual([{ delta: -2, reason: 'line_migrate' }]);
    const log = await t.database.db.selectFrom('logs').select(['action', 'value_int', 'actor_id']).where('target_user', '=', 'src_move').execute();
    expect(log).toEqual([{ action: 'user_migrate', value_int: 2, actor_id: reseller.id }]);
  });

  it('caps an expiry more than 30 days ahead to 30 days from now, and says so', async () => {
    const src = line('src_long', 200);
    expect((await lookup(provider.playlistUrl(src))).statusCode).toBe(200);
    const res = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: noAdult });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().capped).toBe(true);
    expect(Math.abs(res.json().exp_date - (nowSec() + 30 * DAY))).toBeLessThan(60);
    expect(res.json().line.exp_date).toBe(res.json().exp_date);
  });

  it('the rules, one by one: trials, fewer than 5 days, a taken username, another package; nothing created or charged', async () => {
    const before = await balance();
    const trial = line('src_trial', 20, { is_trial: true });
    const short = line('src_short', 4);
    const taken = line('src_taken', 20);
    const created = await t.call(admin, { method: 'POST', url: '/api/users', payload: { package_id: plain, username: 'src_taken', password: 'x12345' } });
    expect(created.statusCode, created.body).toBe(201);
    const cases: [typeof trial, number, number, string][] = [
      [trial, adult, 409, 'MIGRATION_TRIAL'],
      [short, adult, 409, 'MIGRATION_TOO_SHORT'],
      [taken, adult, 409, 'USERNAME_TAKEN'],
    ];
    for (const [src, pkg, status, code] of cases) {
      const found = await lookup(provider.playlistUrl(src));
      expect(found.statusCode).toBe(200);
      expect(found.json().is_trial).toBe(src.is_trial);
      const res = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: pkg });
      expect([res.statusCode, res.json().code], src.username).toEqual([status, code]);
    }
    const src = line('src_otherpkg', 20);
    await lookup(provider.playlistUrl(src));
    const wrongPackage = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: plain });
    expect([wrongPackage.statusCode, wrongPackage.json().field]).toEqual([400, 'package_id']);
    expect(await balance()).toBe(before);
    for (const name of ['src_trial', 'src_short', 'src_otherpkg']) expect(await linesNamed(name)).toEqual([]);
    expect(await linesNamed('src_taken')).toHaveLength(1);
    expect(migratedExpiry({ is_trial: false, exp_date: 1000 + 5 * DAY }, 1000)).toEqual({ exp_date: 1000 + 5 * DAY, capped: false });
  });

  it('uses what the provider answered: a forged expiry, a line never looked up or looked up by someone else is refused', async () => {
    const src = line('src_forge', 10);
    expect((await lookup(provider.playlistUrl(src))).statusCode).toBe(200);
    const forged = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date! + 20 * DAY, package_id: adult });
    expect([forged.statusCode, forged.json().code]).toEqual([409, 'MIGRATION_NOT_LOOKED_UP']);
    const wrongPassword = await migrate({ username: src.username, password: 'another1', exp_date: src.exp_date, package_id: adult });
    expect(wrongPassword.json().code).toBe('MIGRATION_NOT_LOOKED_UP');
    const byOther = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: adult }, other);
    expect(byOther.json().code).toBe('MIGRATION_NOT_LOOKED_UP');
    const never = await migrate({ username: 'never_seen', password: 'abc123', exp_date: nowSec() + 20 * DAY, package_id: adult });
    expect(never.json().code).toBe('MIGRATION_NOT_LOOKED_UP');
    expect(await linesNamed('src_forge')).toEqual([]);
  });

  it('keeps the lookup in the database (any server process finds it) for 30 minutes, without the password; old rows go', async () => {
    const src = line('src_kept', 20, { password: 'keptPass9' });
    expect((await lookup(provider.playlistUrl(src))).statusCode).toBe(200);
    const kept = await t.database.db.selectFrom('migration_lookups').selectAll().where('username', '=', 'src_kept').execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ reseller_id: reseller.id, exp_date: src.exp_date, is_trial: 0 });
    expect(JSON.stringify(kept)).not.toContain('keptPass9');
    // 31 minutes old: refused, and gone at the next lookup (by anyone)
    const old = nowMs() - 31 * 60_000;
    await t.database.db.updateTable('migration_lookups').set({ looked_up_at: old }).where('username', '=', 'src_kept').execute();
    const late = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: adult });
    expect([late.statusCode, late.json().code]).toEqual([409, 'MIGRATION_NOT_LOOKED_UP']);
    const next = line('src_next', 20);
    expect((await lookup(provider.playlistUrl(next), other)).statusCode).toBe(200);
    const left = await t.database.db.selectFrom('migration_lookups').select('username').where('looked_up_at', '<=', old).execute();
    expect(left).toEqual([]);
    // looked up again: migrates, with the password the client sent (the provider's)
    expect((await lookup(provider.playlistUrl(src))).statusCode).toBe(200);
    const res = await migrate({ username: src.username, password: src.password, exp_date: src.exp_date, package_id: adult });
    expect(res.statusCode, res.body).toBe(201);
    expect(await linesNamed('src_kept')).toMatchObject([{ member_id: reseller.id, password: 'keptPass9', exp_date: src.exp_date }]);
  });

  it('refuses shortened and other non-original links without fetching them', async () => {
    for (const url of ['https://bit.ly/3xYz', `${provider.url}/s/AbC123`, `${provider.url}/get.php?username=a`, `${provider.url}/live/a/b/1.ts`, 'ftp://example.com/get.php?username=a&password=b']) {
      const res = await lookup(url);
      expect([res.statusCode, res.json().code], url).toEqual([400, url.startsWith('ftp') ? 'URL_NOT_ALLOWED' : 'URL_NOT_ORIGINAL']);
    }
    expect(provider.received).toEqual([]);
  });

  it('the provider refusing, failing, hanging, flooding or answering nonsense: a clear 4xx/502, never a 500', async () => {
    const src = line('src_err', 20);
    const unknown = await lookup(provider.playlistUrl({ username: 'nobody', password: 'nothing' }));
    expect([unknown.statusCode, unknown.json().code]).toEqual([422, 'SOURCE_REFUSED']);
    for (const mode of ['error', 'hang', 'oversize', 'garbage'] as const) {
      provider.mode = mode;
      const res = await lookup(provider.playlistUrl(src));
      expect([res.statusCode, res.json().code], mode).toEqual([502, 'UPSTREAM_ERROR']);
    }
  });

  it('SSRF: loopback, private, link-local, IPv6-mapped and decimal-encoded hosts are refused before any connection', async () => {
    t.deps.config.outboundAllowNetworks = [];
    const port = new URL(provider.url).port;
    const path = '/get.php?username=src_found&password=srcPass1';
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `2130706433:${port}`, `0x7f.1:${port}`, `127.1:${port}`, `[::1]:${port}`, `[::ffff:127.0.0.1]:${port}`, `[::ffff:7f00:1]:${port}`,
      '10.0.0.1', '172.16.5.4', '192.168.0.10', '169.254.169.254', '100.64.0.1', '[fe80::1]', '[fc00::1]', '0.0.0.0', '3232235521'];
    for (const host of hosts) {
      const res = await lookup(`http://${host}${path}`);
      expect([res.statusCode, res.json().code], host).toEqual([400, 'URL_NOT_ALLOWED']);
    }
    expect(provider.received).toEqual([]);
  });

  it('SSRF: a redirect is never followed, wherever it points', async () => {
    const hits: string[] = [];
    const redirector = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(302, { location: `${provider.url}/player_api.php?username=src_found&password=srcPass1` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const res = await lookup(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/get.php?username=a&password=b`);
      expect([res.statusCode, res.json().code]).toEqual([502, 'UPSTREAM_ERROR']);
      expect(hits).toHaveLength(1);
      expect(provider.received).toEqual([]);
    } finally {
      redirector.close();
    }
  });

  it('bad input on both routes: 400 and nothing changed', async () => {
    const before = await balance();
    const bad: [string, unknown][] = [
      ['/api/users/fetch-url-data', {}],
      ['/api/users/fetch-url-data', { url: 'abc' }],
      ['/api/users/fetch-url-data', { url: 5 }],
      ['/api/users/migrate', {}],
      ['/api/users/migrate', { username: 'a b', password: 'x', exp_date: nowSec() + 20 * DAY, package_id: adult }],
      ['/api/users/migrate', { username: 'ab', password: '', exp_date: nowSec() + 20 * DAY, package_id: adult }],
      ['/api/users/migrate', { username: 'ab', password: 'cd', exp_date: 'soon', package_id: adult }],
      ['/api/users/migrate', { username: 'ab', password: 'cd', exp_date: nowSec(), package_id: 0 }],
    ];
    for (const [url, payload] of bad) {
      const res = await t.call(reseller.token, { method: 'POST', url, payload: payload as object });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    expect(await balance()).toBe(before);
    expect(provider.received).toEqual([]);
  });
});
