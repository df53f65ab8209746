import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { proportionalCharge } from '../src/modules/lazyplayer/service.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { formFields, type Standin } from './standins/http-standin.ts';
import { startLazyPlayer } from './standins/lazy-player.ts';

const PASS = 'Str0ng-pass!';
const DAY = 86_400;

describe(`Lazy Player activation against its stand-in (${ENGINE})`, () => {
  let t: TestContext;
  let service: Standin;
  let admin: string;
  let reseller: { id: number; token: string };
  let other: { token: string };
  let pkg: number;
  let seq = 0;

  beforeAll(async () => {
    service = await startLazyPlayer();
    t = await createTestContext({ lazyPlayerUrl: service.url, integrationTimeoutMs: 400 });
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'Lazy', await createBouquet(t, admin, 'Canais'));
    const make = (username: string) => createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits: 100, groups });
    const { id, token } = await make('lazyowner');
    reseller = { id, token };
    other = { token: (await make('lazyother')).token };
    await t.database.db.updateTable('settings').set({ value: '3' }).where('key', '=', 'lazy_player_monthly_credits').execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });
  beforeEach(() => {
    service.mode = 'ok';
    service.received.length = 0;
    t.deps.config.lazyPlayerUrl = service.url;
  });

  async function newLine() {
    return (await createLine(t, reseller.token, { package_id: pkg, username: `lazy${++seq}x`, password: 'pw12345x' })) as { id: number; username: string; exp_date: number };
  }
  const balance = async () => (await t.call(reseller.token, { method: 'GET', url: '/api/profile' })).json().credits as number;
  const activate = (lineId: number, mac: unknown, token = reseller.token, key?: string) =>
    t.call(token, { method: 'POST', url: `/api/users/${lineId}/activesmart`, payload: { mac }, headers: key ? { 'idempotency-key': key } : {} });
  const ledger = (lineId: number) =>
    t.database.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('line_id', '=', lineId).where('reason', 'like', 'lazy%').orderBy('id').execute();

  it('charges the remaining time in months times the monthly price, rounded up', () => {
    const at = 1_000_000;
    expect(proportionalCharge(at + 30 * DAY, at, 3)).toBe(3);
    expect(proportionalCharge(at + 31 * DAY, at, 3)).toBe(4);
    expect(proportionalCharge(at + 1, at, 1)).toBe(1);
    expect(proportionalCharge(at + 10 * DAY, at, 0)).toBe(0);
  });

  it('activates: debits the proportional charge, sends the form, answers total_charged', async () => {
    const line = await newLine();
    const before = await balance();
    const res = await activate(line.id, 'aa-bb-cc-dd-ee-0f');
    expect(res.statusCode, res.body).toBe(200);
    const expected = proportionalCharge(line.exp_date, nowSec(), 3);
    expect(res.json()).toEqual({ total_charged: expected, mac: 'AA:BB:CC:DD:EE:0F' });
    expect(await balance()).toBe(before - expected);
    expect(service.received).toHaveLength(1);
    expect(String(service.received[0]?.headers['content-type'])).toMatch(/^multipart\/form-data/);
    const form = await formFields(service.received[0]!);
    expect(form).toMatchObject({ name: line.username, mac: 'AA:BB:CC:DD:EE:0F', is_protected: 'false' });
    expect(form.url).toMatch(new RegExp(`/get\\.php\\?username=${line.username}&password=pw12345x&type=m3u_plus&output=mpegts$`));
    expect(await ledger(line.id)).toEqual([{ delta: -expected, reason: 'lazy_player' }]);
    const log = await t.database.db.selectFrom('logs').select(['action', 'value_int']).where('target_user', '=', line.username).where('action', '=', 'user_lazy_player').execute();
    expect(log).toEqual([{ action: 'user_lazy_player', value_int: expected }]);
  });

  it.each([
    ['refuse', 'LAZY_PLAYER_REFUSED'],
    ['error', 'LAZY_PLAYER_REFUSED'],
    ['hang', 'LAZY_PLAYER_FAILED'],
  ] as const)('the service %s: refunded, balance and net ledger as before (%s)', async (mode, code) => {
    const line = await newLine();
    const before = await balance();
    service.mode = mode;
    const res = await activate(line.id, '00:1A:2B:3C:4D:5E');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe(code);
    expect(await balance()).toBe(before);
    const rows = await ledger(line.id);
    expect(rows.map((r) => r.reason)).toEqual(['lazy_player', 'lazy_player_refund']);
    expect(rows.reduce((s, r) => s + r.delta, 0)).toBe(0);
    const activation = await t.database.db.selectFrom('lazy_player_activations').select(['status', 'error']).where('line_id', '=', line.id).executeTakeFirstOrThrow();
    expect(activation.status).toBe('failed');
  });

  it('one Idempotency-Key: one call to the service, one charge, the same answer', async () => {
    const line = await newLine();
    const before = await balance();
    const [a, b] = await Promise.all([activate(line.id, '00:1A:2B:3C:4D:5E', reseller.token, 'lazy-key-1'), activate(line.id, '00:1A:2B:3C:4D:5E', reseller.token, 'lazy-key-1')]);
    const ok = [a, b].filter((r) => r.statusCode === 200);
    expect(ok.length, `${a.body} ${b.body}`).toBeGreaterThanOrEqual(1);
    // the loser of the race may still see the winner running
    for (const r of [a, b]) if (r.statusCode !== 200) expect(r.json().code).toBe('IN_PROGRESS');
    const again = await activate(line.id, '00:1A:2B:3C:4D:5E', reseller.token, 'lazy-key-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(ok[0]!.json());
    expect(service.received).toHaveLength(1);
    expect(await balance()).toBe(before - (again.json().total_charged as number));
  });

  it('refuses with the fixed messages and charges nothing', async () => {
    const line = await newLine();
    const before = await balance();
    const missing = await activate(line.id, '  ');
    expect([missing.statusCode, missing.json().code, missing.json().field]).toEqual([400, 'MAC_REQUIRED', 'mac']);
    const bad = await activate(line.id, '00:1A:2B:3C:4D');
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'mac']);
    const noBody = await t.call(reseller.token, { method: 'POST', url: `/api/users/${line.id}/activesmart`, payload: {} });
    expect(noBody.statusCode).toBe(400);

    await t.database.db.updateTable('lines').set({ system: 2 }).where('id', '=', line.id).execute();
    const wrongSystem = await activate(line.id, '00:1A:2B:3C:4D:5E');
    expect([wrongSystem.statusCode, wrongSystem.json().code]).toEqual([409, 'LAZY_PLAYER_WRONG_SYSTEM']);
    await t.database.db.updateTable('lines').set({ system: 1, exp_date: nowSec() - 60 }).where('id', '=', line.id).execute();
    const expired = await activate(line.id, '00:1A:2B:3C:4D:5E');
    expect([expired.statusCode, expired.json().code]).toEqual([409, 'LINE_EXPIRED']);

    const foreign = await activate(line.id, '00:1A:2B:3C:4D:5E', other.token);
    expect(foreign.statusCode).toBe(404);
    expect(await balance()).toBe(before);
    expect(service.received).toHaveLength(0);
  });

  it('without LAZY_PLAYER_URL: NOT_CONFIGURED, nothing charged', async () => {
    const line = await newLine();
    const before = await balance();
    t.deps.config.lazyPlayerUrl = undefined;
    const res = await activate(line.id, '00:1A:2B:3C:4D:5E');
    expect([res.statusCode, res.json().code]).toEqual([503, 'NOT_CONFIGURED']);
    expect(await balance()).toBe(before);
  });
});
