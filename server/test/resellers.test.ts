import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, groupIds, ledgerSumOf, createReseller as postReseller } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { ResellerDetail } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';

describe(`resellers and credits (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const groups: Record<string, number> = {};

  const createReseller = async (token: string, username: string, type: 'master' | 'reseller', credits = 0) =>
    (await postReseller(t, token, { username, password: PASS, type, credits, groups })).body as ResellerDetail;
  const balance = (id: number) => balanceOf(t.database.db, id);
  const ledgerSum = (id: number) => ledgerSumOf(t.database.db, id);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    Object.assign(groups, await groupIds(t, admin));
  });
  afterAll(() => t.close());

  it('admin mints into a new master; the master transfers to its sub-reseller; ledgers match balances', async () => {
    const m = await createReseller(admin, 'master1', 'master', 100);
    expect(m.credits).toBe(100);
    const mt = await t.login('master1', PASS);
    const r = await createReseller(mt, 'sub1', 'reseller', 30);
    expect(r.credits).toBe(30);
    expect(await balance(m.id)).toBe(70);
    const give = await t.call(mt, { method: 'POST', url: `/api/resellers/${r.id}/credits`, payload: { value: 20 } });
    expect(give.statusCode, give.body).toBe(200);
    expect(give.json().credits).toBe(50);
    // the answer (the row read before the transfer, with its new balance) is the row as it now reads
    expect(give.json()).toEqual((await t.call(mt, { method: 'GET', url: `/api/resellers/${r.id}` })).json());
    expect(await balance(m.id)).toBe(50);
    for (const id of [m.id, r.id]) expect(await ledgerSum(id)).toBe(await balance(id));
    const profile = (await t.call(mt, { method: 'GET', url: '/api/profile' })).json();
    expect(profile.credits).toBe(50);
    const ledger = (await t.call(mt, { method: 'GET', url: `/api/resellers/${m.id}/ledger` })).json();
    expect(ledger.meta.total).toBe(3);
    expect(ledger.data[0]).toMatchObject({ delta: -20, balance_after: 50 });
  });

  it('refuses a transfer beyond the balance and changes nothing', async () => {
    const mt = await t.login('master1', PASS);
    const list = (await t.call(mt, { method: 'GET', url: '/api/resellers' })).json();
    const sub = list.data.find((x: { username: string }) => x.username === 'sub1');
    const res = await t.call(mt, { method: 'POST', url: `/api/resellers/${sub.id}/credits`, payload: { value: 51 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('INSUFFICIENT_CREDITS');
    expect(await balance(sub.id)).toBe(50);
  });

  it('concurrent transfers from one balance: exactly the affordable number succeed', async () => {
    const m = await createReseller(admin, 'racer', 'master', 50);
    const mt = await t.login('racer', PASS);
    const subs = await Promise.all([0, 1, 2, 3].map((i) => createReseller(mt, `racesub${i}`, 'reseller')));
    const fired = 200;
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: fired }, (_, i) =>
        t.call(mt, { method: 'POST', url: `/api/resellers/${subs[i % 4].id}/credits`, payload: { value: 1 } }),
      ),
    );
    const ms = Date.now() - started;
    const ok = results.filter((r) => r.statusCode === 200).length;
    const refused = results.filter((r) => r.statusCode === 409 && r.json().code === 'INSUFFICIENT_CREDITS').length;
    console.log(`[${ENGINE}] concurrency: fired ${fired}, succeeded ${ok}, refused ${refused}, ${ms} ms`);
    expect(results.every((r) => r.statusCode < 500)).toBe(true);
    expect(ok).toBe(50);
    expect(refused).toBe(fired - 50);
    expect(await balance(m.id)).toBe(0);
    for (const id of [m.id, ...subs.map((s) => s.id)]) expect(await ledgerSum(id)).toBe(await balance(id));
  });

  it('concurrent retries with one Idempotency-Key move credits once', async () => {
    const m = await createReseller(admin, 'idem', 'master', 10);
    const mt = await t.login('idem', PASS);
    const sub = await createReseller(mt, 'idemsub', 'reseller');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call(mt, { method: 'POST', url: `/api/resellers/${sub.id}/credits`, payload: { value: 3 }, headers: { 'idempotency-key': 'k-1' } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(await balance(sub.id)).toBe(3);
    expect(await balance(m.id)).toBe(7);
    const other = await t.call(mt, { method: 'POST', url: `/api/resellers/${sub.id}/credits`, payload: { value: 4 }, headers: { 'idempotency-key': 'k-1' } });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_CONFLICT');
  });
});
