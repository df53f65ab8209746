import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OldClient, sampleClients } from '../../standins/old-panel.ts';
import { ENGINE } from './helpers.ts';
import { type Actor, type P2pWorld, drained, p2pWorld } from './p2p-fixtures.ts';

// The old P2P panel's import (docs/integrations.md, "Old P2P panel") against its stand-in: the credit import
// happens once per old account; the client import is refused while any conflict remains and is
// all or nothing.

interface PreviewRow {
  id: number;
  email: string;
  username: string;
  import: boolean;
  reason: string | null;
}

describe(`P2P: import from the old P2P panel (${ENGINE})`, () => {
  let w: P2pWorld;
  let M: Actor;
  let R: Actor;
  const db = () => w.t.database.db;
  const post = (token: string, url: string, payload?: object, headers?: Record<string, string>) =>
    w.t.call(token, { method: 'POST', url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });
  const preview = async (token: string) => {
    const res = await w.t.call(token, { method: 'GET', url: '/api/p2p/import_preview' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { attached: boolean; old_username: string | null; data: PreviewRow[]; conflicts: number };
  };
  const counts = async () => ({
    accounts: (await db().selectFrom('p2p_accounts').select('id').execute()).length,
    outbox: (await db().selectFrom('outbox').select('id').execute()).length,
    ledger: (await db().selectFrom('credit_ledger').select('id').execute()).length,
    logs: (await db().selectFrom('logs').select('id').where('action', 'like', 'p2p_import%').execute()).length,
  });

  beforeAll(async () => {
    w = await p2pWorld();
    w.startWorker();
    M = await w.reseller('imp_master', 'master', 10);
    R = await w.reseller('imp_res', 'reseller', 3, M.token);
    w.old.accounts.push(
      { username: 'antigo', password: 'senha-antiga', credits: 25, clients: sampleClients('velho', 6) },
      { username: 'antigo_zero', password: 'zero-zero', credits: 0, clients: [] },
      { username: 'antigo_conflitos', password: 'conf-conf', credits: 4, clients: [] },
    );
  });
  afterAll(() => w?.close());

  it('attach_login checks the old credentials: {login: false, message} or {login: true} with the old account', async () => {
    const wrong = await post(R.token, '/api/p2p/attach_login', { username: 'antigo', password: 'nope' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({ login: false, message: expect.any(String) });
    expect(await db().selectFrom('p2p_old_logins').selectAll().execute()).toEqual([]);
    expect((await preview(R.token)).attached).toBe(false);

    const right = await post(R.token, '/api/p2p/attach_login', { username: 'antigo', password: 'senha-antiga' });
    expect(right.json()).toMatchObject({ login: true, username: 'antigo', credits: 25 });
    const log = await db().selectFrom('logs').selectAll().where('action', '=', 'p2p_attach_login').execute();
    expect(log).toMatchObject([{ actor_id: R.id, value: 'antigo' }]);
  });

  it('migrate_reseller moves the old balance once (ledger reason import); a second try is ALREADY_IMPORTED, for anyone', async () => {
    const before = await w.balance(R.id);
    const h = { 'idempotency-key': 'import-antigo' };
    const first = await post(R.token, '/api/p2p/migrate_reseller', { username: 'antigo', password: 'senha-antiga' }, h);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ old_username: 'antigo', credits_imported: 25, credits: before + 25 });
    expect(await w.balance(R.id)).toBe(before + 25);
    expect(await w.ledgerSum(R.id)).toBe(before + 25);
    const ledger = await db().selectFrom('credit_ledger').select(['delta', 'reason', 'balance_after']).where('reseller_id', '=', R.id).where('reason', '=', 'import').execute();
    expect(ledger).toEqual([{ delta: 25, reason: 'import', balance_after: before + 25 }]);
    // the same key replays the first answer; without it, or for someone else, it is refused
    const replay = await post(R.token, '/api/p2p/migrate_reseller', { username: 'antigo', password: 'senha-antiga' }, h);
    expect(replay.json()).toEqual(first.json());
    const c = await counts();
    for (const token of [R.token, M.token, w.admin]) {
      const again = await post(token, '/api/p2p/migrate_reseller', { username: 'antigo', password: 'senha-antiga' });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ALREADY_IMPORTED');
    }
    expect(await w.balance(R.id)).toBe(before + 25);
    expect(await counts()).toEqual(c);
    const imports = await db().selectFrom('p2p_imports').selectAll().execute();
    expect(imports).toMatchObject([{ reseller_id: R.id, old_username: 'antigo', credits: 25 }]);
  });

  it('concurrent imports of one old account credit it once', async () => {
    const before = await w.balance(M.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => post(M.token, '/api/p2p/migrate_reseller', { username: 'antigo_conflitos', password: 'conf-conf' })));
    // the others wait for the first one's commit on the import's unique key; one kept waiting past
    // the lock timeout (a loaded machine) is refused with BUSY, having changed nothing (db/tx.ts)
    const busy = (r: (typeof results)[number]) => r.statusCode === 503 && r.json().code === 'BUSY';
    expect(results.filter((r) => r.statusCode >= 500 && !busy(r)).map((r) => r.body)).toEqual([]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'ALREADY_IMPORTED')).toBe(true);
    expect(results.filter((r) => r.statusCode === 200 || r.statusCode === 409 || busy(r))).toHaveLength(10);
    expect(await w.balance(M.id)).toBe(before + 4);
    expect(await w.ledgerSum(M.id)).toBe(before + 4);
  });

  it('an old account without credits is recorded (once) without a ledger row; wrong credentials and a failing old panel change nothing', async () => {
    const c = await counts();
    const zero = await post(M.token, '/api/p2p/migrate_reseller', { username: 'antigo_zero', password: 'zero-zero' });
    expect(zero.json()).toMatchObject({ credits_imported: 0 });
    expect((await counts()).ledger).toBe(c.ledger);
    expect((await post(M.token, '/api/p2p/migrate_reseller', { username: 'antigo_zero', password: 'zero-zero' })).json().code).toBe('ALREADY_IMPORTED');
    const wrong = await post(M.token, '/api/p2p/migrate_reseller', { username: 'antigo_zero', password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'OLD_LOGIN_FAILED', field: 'password' });
    w.old.failWith(500);
    try {
      const down = await post(M.token, '/api/p2p/migrate_reseller', { username: 'antigo', password: 'senha-antiga' });
      expect(down.statusCode).toBe(502);
      expect(down.json()).toMatchObject({ code: 'UPSTREAM_ERROR', message: expect.stringContaining('500') });
      expect((await post(M.token, '/api/p2p/attach_login', { username: 'antigo', password: 'senha-antiga' })).statusCode).toBe(502);
    } finally {
      w.old.failWith(null);
    }
    await w.old.goAway();
    try {
      expect((await post(M.token, '/api/p2p/attach_login', { username: 'antigo', password: 'senha-antiga' })).json().code).toBe('UPSTREAM_ERROR');
    } finally {
      await w.old.comeBack();
    }
  });

  it('the preview lists the old clients with import: true|false; conflicts are an existing email or username', async () => {
    // R's old account "antigo" has 6 clients velho1..velho6@painel-antigo.example; make conflicts:
    await w.account(M.token, { username: 'velho2' }); // username taken (another domain)
    const old = w.old.accounts[0] as { clients: OldClient[] };
    await db().insertInto('p2p_accounts').values({ member_id: M.id, name: 'x', username: 'other_name', email: 'velho3@painel-antigo.example', password: 'p', external_password: null, created_at: 1, expires_at: 2, status: 1, is_trial: 0, package_id: null, max_connections: 1, whatsapp: null, notes: null }).execute();
    old.clients.push({ ...(old.clients[0] as OldClient), id: 7, email: 'VELHO1@painel-antigo.example' }); // the same client twice
    old.clients.push({ ...(old.clients[0] as OldClient), id: 8, email: 'not an email' });
    old.clients.push({ ...(old.clients[0] as OldClient), id: 9, email: 'joao+tv@painel-antigo.example' }); // odd but usable
    const p = await preview(R.token);
    expect(p).toMatchObject({ attached: true, old_username: 'antigo', conflicts: 4 });
    expect(p.data.map((r) => [r.email, r.import, r.reason])).toEqual([
      ['velho1@painel-antigo.example', true, null],
      ['velho2@painel-antigo.example', false, 'username_taken'],
      ['velho3@painel-antigo.example', false, 'email_taken'],
      ['velho4@painel-antigo.example', true, null],
      ['velho5@painel-antigo.example', true, null],
      ['velho6@painel-antigo.example', true, null],
      ['VELHO1@painel-antigo.example', false, 'duplicate'],
      ['not an email', false, 'invalid'],
      ['joao+tv@painel-antigo.example', true, null],
    ]);
    expect(p.data[0]).toMatchObject({ id: 1, username: 'velho1', name: 'Cliente velho1', status: 1, password: 'senha1x' });
  });

  it('migrate_clients is refused while any conflict remains, importing nothing', async () => {
    const c = await counts();
    const res = await post(R.token, '/api/p2p/migrate_clients');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'IMPORT_CONFLICTS', message: expect.stringContaining('4') });
    expect(await counts()).toEqual(c);
  });

  it('is all or nothing: a failure on the last insert leaves nothing behind', async () => {
    const old = w.old.accounts[0] as { clients: OldClient[] };
    old.clients.splice(6); // the duplicate, the invalid one and the odd one go
    await db().updateTable('p2p_accounts').set({ username: 'velho2_renamed' }).where('username', '=', 'velho2').execute();
    await db().deleteFrom('p2p_accounts').where('email', '=', 'velho3@painel-antigo.example').execute();
    expect((await preview(R.token)).conflicts).toBe(0);
    // the database refuses the sixth client: everything before it must roll back too
    if (ENGINE === 'postgres') {
      await sql`CREATE FUNCTION refuse_velho6() RETURNS trigger AS $$ BEGIN IF NEW.username = 'velho6' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(db());
      await sql`CREATE TRIGGER refuse_velho6 BEFORE INSERT ON p2p_accounts FOR EACH ROW EXECUTE FUNCTION refuse_velho6()`.execute(db());
    } else {
      await sql`CREATE TRIGGER refuse_velho6 BEFORE INSERT ON p2p_accounts WHEN NEW.username = 'velho6' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`.execute(db());
    }
    const c = await counts();
    try {
      const res = await post(R.token, '/api/p2p/migrate_clients');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'Internal server error' });
      expect(await counts()).toEqual(c);
      expect(await db().selectFrom('p2p_accounts').select('id').where('username', 'like', 'velho%').where('member_id', '=', R.id).execute()).toEqual([]);
    } finally {
      await sql`DROP TRIGGER refuse_velho6${sql.raw(ENGINE === 'postgres' ? ' ON p2p_accounts' : '')}`.execute(db());
      if (ENGINE === 'postgres') await sql`DROP FUNCTION refuse_velho6()`.execute(db());
    }
  });

  it('imports every client as the caller\'s account once no conflict remains; they reach the P2P server; a second import is refused', async () => {
    const res = await post(R.token, '/api/p2p/migrate_clients');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 6 });
    const rows = await db().selectFrom('p2p_accounts').selectAll().where('member_id', '=', R.id).orderBy('id').execute();
    const old = (w.old.accounts[0] as { clients: OldClient[] }).clients;
    expect(rows.map((r) => r.email)).toEqual(old.map((c) => c.email));
    for (const [i, r] of rows.entries()) {
      const c = old[i] as OldClient;
      expect(r).toMatchObject({ username: c.email.split('@')[0], name: c.name, created_at: c.created, expires_at: c.expiracao, status: c.status, is_trial: 0, external_password: c.password });
      // "0" means no password: a generated one replaces it
      if (c.password === '0') expect(r.password).toMatch(/^[a-z0-9]{6,9}$/);
      else expect(r.password).toBe(c.password);
    }
    const log = await db().selectFrom('logs').selectAll().where('action', '=', 'p2p_import_clients').execute();
    expect(log).toMatchObject([{ actor_id: R.id, value: 'antigo', value_int: 6 }]);
    await drained(w.t);
    for (const r of rows) expect(w.p2p.accounts.get(r.email)).toMatchObject({ name: r.name, password: r.password, expires_at: r.expires_at, status: r.status });
    // the list shows them with the product's names
    const list = (await w.t.call(R.token, { method: 'GET', url: '/api/p2p/users?per=100&order_by=id,asc' })).json();
    expect(list.data[0]).toMatchObject({ email: old[0]?.email, externo_senha: old[0]?.password, created: old[0]?.created, expiracao: old[0]?.expiracao });

    const again = await post(R.token, '/api/p2p/migrate_clients');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMPORT_CONFLICTS');
    expect((await preview(R.token)).data.every((r) => !r.import && r.reason === 'email_taken')).toBe(true);
  });

  it('an expired old sign-in detaches: the preview asks for the login again and the import is refused', async () => {
    w.old.expireTokens();
    expect(await preview(R.token)).toEqual({ attached: false, old_username: null, data: [], conflicts: 0 });
    expect(await db().selectFrom('p2p_old_logins').selectAll().where('reseller_id', '=', R.id).execute()).toEqual([]);
    const res = await post(R.token, '/api/p2p/migrate_clients');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NOT_ATTACHED');
  });
});
