import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleClients } from '../../standins/old-panel.ts';
import { ENGINE } from './helpers.ts';
import { type Actor, type P2pAccount, type P2pWorld, p2pWorld } from './p2p-fixtures.ts';

// P2P with P2P_API_URL unset: every operation that spends credits or makes an account
// that could only work with the P2P server (create, trial, renew, client import) is refused with
// 503 NOT_CONFIGURED before anything is charged or written; edits, blocks and deletions of
// accounts made earlier are kept pending in the outbox (nothing lost); every signed-in role reads
// `p2p_configured` from /api/datacomplements.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe(`P2P accounts with P2P_API_URL unset (${ENGINE})`, () => {
  let w: P2pWorld;
  let M: Actor;
  let R: Actor;
  /** an account made while P2P_API_URL was still set (the admin unset it afterwards) */
  let earlier: P2pAccount;
  const db = () => w.t.database.db;
  const call = (token: string, method: Method, url: string, payload?: object, headers?: Record<string, string>) =>
    w.t.call(token, { method, url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });

  /** What a refused call must leave untouched for one reseller. */
  async function snapshot(id: number) {
    const count = async (table: 'p2p_accounts' | 'outbox' | 'logs' | 'credit_ledger' | 'idempotency_keys') =>
      Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return {
      balance: await w.balance(id),
      ledgerSum: await w.ledgerSum(id),
      accounts: await count('p2p_accounts'),
      outbox: await count('outbox'),
      logs: await count('logs'),
      ledgerRows: await count('credit_ledger'),
      idempotency: await count('idempotency_keys'),
      earlier: await db().selectFrom('p2p_accounts').selectAll().where('id', '=', earlier.id).executeTakeFirstOrThrow(),
    };
  }

  beforeAll(async () => {
    w = await p2pWorld({ configured: false });
    M = await w.reseller('nc_master', 'master', 20);
    R = await w.reseller('nc_res', 'reseller', 10, M.token);
    // The account existed before P2P_API_URL was unset (deps.config is the app's own object).
    w.t.deps.config.p2pApiUrl = w.p2p.url;
    earlier = await w.account(R.token, { username: 'made_before' });
    w.t.deps.config.p2pApiUrl = undefined;
    // The old panel stays configured and attached: only the P2P server is missing.
    w.t.deps.config.oldP2pUrl = w.old.url;
    w.old.accounts.push({ username: 'antigo_nc', password: 'senha-antiga', credits: 3, clients: sampleClients('nc', 2) });
    const attached = await call(R.token, 'POST', '/api/p2p/attach_login', { username: 'antigo_nc', password: 'senha-antiga' });
    expect(attached.json()).toMatchObject({ login: true });
  });
  afterAll(() => w?.close());

  it('every signed-in role reads p2p_configured: false from /api/datacomplements', async () => {
    for (const token of [w.admin, M.token, R.token]) {
      const res = await call(token, 'GET', '/api/datacomplements');
      expect(res.statusCode).toBe(200);
      expect(res.json().p2p_configured).toBe(false);
    }
  });

  it('create, trial, renew and the client import answer 503 NOT_CONFIGURED before any charge: balance, ledger, rows unchanged', async () => {
    const refused: [string, Method, string, object | undefined, Record<string, string>?][] = [
      ['create', 'POST', '/api/p2p/users', { name: 'Novo', username: 'nc_new', package_id: w.cheap }],
      ['create with Idempotency-Key', 'POST', '/api/p2p/users', { name: 'Novo', username: 'nc_new2', package_id: w.family, max_connections: 2 }, { 'idempotency-key': 'nc-create-1' }],
      ['trial', 'POST', '/api/p2p/test_users', { name: 'Teste', username: 'nc_trial', package_id: w.trialPkg }],
      ['renew', 'POST', `/api/p2p/users/${earlier.id}/renew`, { months: 3 }],
      ['renew with Idempotency-Key', 'POST', `/api/p2p/users/${earlier.id}/renew`, { months: 1 }, { 'idempotency-key': 'nc-renew-1' }],
      ['client import', 'POST', '/api/p2p/migrate_clients', undefined],
    ];
    for (const [token, who] of [
      [R.token, R],
      [M.token, M],
    ] as const) {
      for (const [label, method, url, payload, headers] of refused) {
        const before = await snapshot(who.id);
        const res = await call(token, method, url, payload, headers);
        expect(res.statusCode, `${who.username} ${label}: ${res.body}`).toBe(503);
        expect(res.json(), label).toMatchObject({ code: 'NOT_CONFIGURED' });
        expect(await snapshot(who.id), `${who.username} ${label}`).toEqual(before);
      }
    }
    expect(await w.balance(R.id)).toBe(9); // 10 - the account made earlier
    expect(await w.balance(M.id)).toBe(10); // 20 - the 10 given to R
    expect(await db().selectFrom('p2p_accounts').select('username').execute()).toEqual([{ username: 'made_before' }]);
    expect(w.p2p.received).toEqual([]);
  });

  it('edits, blocks and deletions are kept pending for when it is set (nothing lost); the online list answers NOT_CONFIGURED', async () => {
    const edited = await call(R.token, 'PUT', `/api/p2p/users/${earlier.id}`, { name: 'Renomeado' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Renomeado', sync_state: 'pending' });
    expect((await call(R.token, 'POST', `/api/p2p/users/${earlier.id}/block`)).json()).toMatchObject({ status: 0, sync_state: 'pending' });
    const rows = await db().selectFrom('outbox').select(['login', 'method', 'delivered_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { login: 'made_before@p2p.local', method: 'PUT', delivered_at: null },
      { login: 'made_before@p2p.local', method: 'PUT', delivered_at: null },
      { login: 'made_before@p2p.local', method: 'PUT', delivered_at: null },
    ]);
    expect((await call(R.token, 'DELETE', `/api/p2p/users/${earlier.id}`)).statusCode).toBe(204);
    const online = await call(R.token, 'GET', '/api/p2p/users/online');
    expect(online.statusCode).toBe(503);
    expect(online.json()).toMatchObject({ code: 'NOT_CONFIGURED' });
    expect((await call(w.admin, 'GET', '/api/admin/p2p/outbox')).json()).toMatchObject({ configured: false, pending: 4, failed: 0 });
    expect(w.p2p.received).toEqual([]);
  });

  it('with the old panel unset too, the old panel calls answer NOT_CONFIGURED', async () => {
    w.t.deps.config.oldP2pUrl = undefined;
    for (const [url, payload] of [
      ['/api/p2p/attach_login', { username: 'antigo', password: 'x' }],
      ['/api/p2p/migrate_reseller', { username: 'antigo', password: 'x' }],
    ] as const) {
      const res = await call(R.token, 'POST', url, payload);
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toMatchObject({ code: 'NOT_CONFIGURED' });
    }
  });
});

describe(`P2P configured: /api/datacomplements says so (${ENGINE})`, () => {
  let w: P2pWorld;
  beforeAll(async () => {
    w = await p2pWorld();
  });
  afterAll(() => w?.close());

  it('p2p_configured is true for a reseller', async () => {
    const R = await w.reseller('c_res', 'reseller', 1);
    expect((await w.t.call(R.token, { method: 'GET', url: '/api/datacomplements' })).json().p2p_configured).toBe(true);
  });
});
