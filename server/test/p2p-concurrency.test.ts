import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mint } from './fixtures.ts';
import { ENGINE } from './helpers.ts';
import { type P2pAccount, type P2pWorld, p2pWorld } from './p2p-fixtures.ts';

// Concurrent P2P creations and renewals against one balance spend exactly what is there: no
// balance below zero, every balance equal to its ledger, no account without its charge.

type Response = Awaited<ReturnType<P2pWorld['t']['call']>>;

describe(`P2P accounts: concurrent spends against one balance (${ENGINE})`, () => {
  let w: P2pWorld;
  const db = () => w.t.database.db;

  beforeAll(async () => {
    w = await p2pWorld(); // configured (creations and renewals need it); no worker runs: deliveries stay queued
  });
  afterAll(() => w?.close());

  function tally(label: string, results: Response[], ms: number, okStatus: number) {
    const ok = results.filter((r) => r.statusCode === okStatus).length;
    const refused = results.filter((r) => r.statusCode === 409 && r.json().code === 'INSUFFICIENT_CREDITS').length;
    console.log(`[${ENGINE}] ${label}: fired ${results.length}, succeeded ${ok}, refused ${refused}, ${ms} ms`);
    expect(results.filter((r) => r.statusCode >= 500).map((r) => r.body), 'no 5xx').toEqual([]);
    return { ok, refused };
  }

  it('100 concurrent creations at 1 credit with 30 credits: exactly 30 accounts', async () => {
    const r = await w.reseller('conc_p2p_create', 'reseller', 30);
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => w.t.call(r.token, { method: 'POST', url: '/api/p2p/users', payload: { name: '', package_id: w.cheap } })),
    );
    const { ok, refused } = tally('P2P creations', results, Date.now() - started, 201);
    expect(ok).toBe(30);
    expect(refused).toBe(70);
    expect(await w.balance(r.id)).toBe(0);
    expect(await w.ledgerSum(r.id)).toBe(0);
    const accounts = await db().selectFrom('p2p_accounts').select('id').where('member_id', '=', r.id).execute();
    expect(accounts).toHaveLength(30);
    const charges = await db().selectFrom('credit_ledger').select(['p2p_account_id', 'delta']).where('reseller_id', '=', r.id).where('reason', '=', 'p2p_create').execute();
    expect(charges.every((c) => c.delta === -1)).toBe(true);
    expect(charges.map((c) => c.p2p_account_id).sort()).toEqual(accounts.map((a) => a.id).sort());
    // each account has its one delivery waiting
    const outbox = await db().selectFrom('outbox').select('subject_id').where('subject_kind', '=', 'account').where('subject_id', 'in', accounts.map((a) => a.id)).execute();
    expect(outbox).toHaveLength(30);
  });

  it('100 concurrent renewals of 1..3 months on 4 accounts with 60 credits: every credit becomes a month, none lost', async () => {
    const r = await w.reseller('conc_p2p_renew', 'reseller', 4);
    const accounts: P2pAccount[] = [];
    for (let i = 0; i < 4; i++) accounts.push(await w.account(r.token, { username: `conc_renew_${i}` }));
    await mint(w.t, w.admin, r.id, 60);
    const months = Array.from({ length: 100 }, (_, i) => 1 + (i % 3));
    const started = Date.now();
    const results = await Promise.all(
      months.map((m, i) => w.t.call(r.token, { method: 'POST', url: `/api/p2p/users/${accounts[i % 4].id}/renew`, payload: { months: m } })),
    );
    const { ok, refused } = tally('P2P renewals', results, Date.now() - started, 200);
    expect(ok + refused).toBe(100);
    const paid = months.filter((_, i) => results[i].statusCode === 200).reduce((a, b) => a + b, 0);
    const balance = await w.balance(r.id);
    expect(paid + balance).toBe(60);
    expect(balance).toBeLessThan(3); // a refusal means the balance was below its months (<= 3) then, and it only fell since
    expect(await w.ledgerSum(r.id)).toBe(balance);
    const renewals = await db().selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('delta').as('s')).where('reseller_id', '=', r.id).where('reason', '=', 'p2p_renew').executeTakeFirstOrThrow();
    expect(-Number(renewals.s)).toBe(paid);
    // every paid month is on the account it was paid for: the months per account add up
    for (const [i, a] of accounts.entries()) {
      const own = months.filter((_, j) => j % 4 === i && results[j].statusCode === 200).reduce((x, y) => x + y, 0);
      const row = await db().selectFrom('p2p_accounts').select('expires_at').where('id', '=', a.id).executeTakeFirstOrThrow();
      const expected = new Date(a.expiracao * 1000);
      expected.setUTCMonth(expected.getUTCMonth() + own);
      expect(Math.abs(row.expires_at - expected.getTime() / 1000), `account ${i}: ${own} months`).toBeLessThanOrEqual(3 * 86_400);
    }
  });

  it('creations and renewals mixed against one balance never go below zero', async () => {
    const r = await w.reseller('conc_p2p_mixed', 'reseller', 41);
    const a = await w.account(r.token, { username: 'conc_mixed' });
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        i % 2 === 0
          ? w.t.call(r.token, { method: 'POST', url: '/api/p2p/users', payload: { name: '', package_id: w.family } }) // 6 credits
          : w.t.call(r.token, { method: 'POST', url: `/api/p2p/users/${a.id}/renew`, payload: { months: 1 } }),
      ),
    );
    expect(results.filter((x) => x.statusCode >= 500)).toEqual([]);
    const created = results.filter((x, i) => i % 2 === 0 && x.statusCode === 201).length;
    const renewed = results.filter((x, i) => i % 2 === 1 && x.statusCode === 200).length;
    const balance = await w.balance(r.id);
    expect(created * 6 + renewed + balance).toBe(40);
    expect(balance).toBe(0); // 40 renewals of 1 credit could take all 40: a refused one found 0
    expect(await w.ledgerSum(r.id)).toBe(0);
  });
});
