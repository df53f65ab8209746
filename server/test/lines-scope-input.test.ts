import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBouquet, createPackage, createSignedInReseller, groupIds, createLine as postLine } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Line } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';
const LONG = 'a'.repeat(10_000);

interface Actor {
  id: number;
  username: string;
  token: string;
}

describe(`lines: scope and input (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let bouquet: number;
  let cheap: number;
  let renewPkg: number;
  let trialPkg: number;
  const groups: Record<string, number> = {};
  // M1 -> R1 (its sub-reseller); M2 a sibling master; R2 a plain reseller under the admin
  let M1: Actor;
  let R1: Actor;
  let M2: Actor;
  let R2: Actor;
  const L: Record<string, Line> = {};

  const db = () => t.database.db;

  async function reseller(username: string, type: 'master' | 'reseller', credits: number, by: string): Promise<Actor> {
    const { id, token } = await createSignedInReseller(t, by, { username, password: PASS, type, credits, groups });
    return { id, username, token };
  }
  async function createLine(token: string, username: string): Promise<Line> {
    return postLine(t, token, { package_id: cheap, username, password: 'secret99' });
  }

  /** Everything a refused call must leave as it was: lines, balances, ledger, links, keys, logs. */
  async function snapshot() {
    const [lines, resellers, ledger, links, keys, logs] = await Promise.all([
      db().selectFrom('lines').selectAll().orderBy('id').execute(),
      db().selectFrom('resellers').select(['id', 'credits']).orderBy('id').execute(),
      db().selectFrom('credit_ledger').select('id').execute(),
      db().selectFrom('short_links').select('id').execute(),
      db().selectFrom('idempotency_keys').select('key').execute(),
      db().selectFrom('logs').select('id').execute(),
    ]);
    return { lines, resellers, ledger: ledger.length, links: links.length, keys: keys.length, logs: logs.length };
  }

  /** Every line route, with a body that is valid for a line in scope. */
  function routes(id: number): [string, InjectOptions][] {
    return [
      ['get', { method: 'GET', url: `/api/users/${id}` }],
      ['put', { method: 'PUT', url: `/api/users/${id}`, payload: { password: 'hijack1', reseller_notes: 'mine now', bouquet: [String(bouquet)] } }],
      ['renew months', { method: 'POST', url: `/api/users/${id}/renew`, payload: { months: 1 } }],
      ['renew package', { method: 'POST', url: `/api/users/${id}/renew`, payload: { package_id: renewPkg }, headers: { 'idempotency-key': `scope-${id}` } }],
      ['extenddays', { method: 'POST', url: `/api/users/${id}/extenddays`, payload: { days: 2 } }],
      ['screens', { method: 'POST', url: `/api/users/${id}/screens`, payload: { amount: 1 } }],
      ['block', { method: 'POST', url: `/api/users/${id}/block` }],
      ['unblock', { method: 'POST', url: `/api/users/${id}/unblock` }],
      ['change_system', { method: 'POST', url: `/api/users/${id}/change_system`, payload: { system_id: 2 } }],
      ['links', { method: 'GET', url: `/api/users/${id}/links` }],
      ['shorturl', { method: 'POST', url: '/api/shorturl', payload: { user_id: id, type: 'm3u8' } }],
      ['delete', { method: 'DELETE', url: `/api/users/${id}` }],
    ];
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    Object.assign(groups, await groupIds(t, admin));
    bouquet = await createBouquet(t, admin, 'All');
    const pkg = (package_name: string, extra: Record<string, unknown>) => createPackage(t, admin, package_name, bouquet, extra);
    cheap = await pkg('Cheap', {});
    renewPkg = await pkg('Renewal', { official_credits: 2 });
    trialPkg = await pkg('Trial', { is_trial: 1, is_official: 0 });
    // screens +1 must be a legal request inside the subtree, so only scope can refuse it
    await db().updateTable('settings').set({ value: '3' }).where('key', '=', 'user_limit_screen').execute();

    M1 = await reseller('scope_m1', 'master', 100, admin);
    R1 = await reseller('scope_r1', 'reseller', 30, M1.token);
    M2 = await reseller('scope_m2', 'master', 100, admin);
    R2 = await reseller('scope_r2', 'reseller', 50, admin);
    L.m1 = await createLine(M1.token, 'line_m1');
    L.r1 = await createLine(R1.token, 'line_r1');
    L.m2 = await createLine(M2.token, 'line_m2');
    L.r2 = await createLine(R2.token, 'line_r2');
    L.admin = await createLine(admin, 'line_admin');
  });
  afterAll(() => t?.close());

  describe('outside the subtree every line route is a 404 and nothing changes', () => {
    const cases: [string, () => Actor, string[]][] = [
      ['a master', () => M1, ['m2', 'r2', 'admin']],
      ['a sibling master', () => M2, ['m1', 'r1']],
      ['a plain reseller', () => R2, ['m1', 'r1', 'm2', 'admin']],
      ['a sub-reseller (its master is above it)', () => R1, ['m1', 'm2', 'r2']],
    ];
    for (const [label, who, victims] of cases) {
      it(`${label}`, async () => {
        const actor = who();
        const before = await snapshot();
        for (const v of victims) {
          for (const [name, opts] of routes(L[v].id)) {
            const res = await t.call(actor.token, opts);
            expect(res.statusCode, `${actor.username} ${name} on line_${v}: ${res.body}`).toBe(404);
            expect(res.json().code).toBe('NOT_FOUND');
          }
          // nor do the lists reveal it
          const byId = (await t.call(actor.token, { method: 'GET', url: `/api/users?id=${L[v].id}` })).json();
          expect(byId.meta.total, `list id=${v}`).toBe(0);
          const byName = (await t.call(actor.token, { method: 'GET', url: `/api/users?text_search=line_${v}` })).json();
          expect(byName.meta.total, `text_search ${v}`).toBe(0);
          const search = (await t.call(actor.token, { method: 'POST', url: '/api/users/select_search', payload: { search: `line_${v}` } })).json();
          expect(search.data, `select_search ${v}`).toEqual([]);
        }
        const owners = [...new Set(victims.map((v) => L[v].member_id))];
        for (const ownerId of owners) {
          const owner = await db().selectFrom('resellers').select('username').where('id', '=', ownerId).executeTakeFirstOrThrow();
          const res = (await t.call(actor.token, { method: 'GET', url: `/api/users?reseller=${owner.username}` })).json();
          expect(res.meta.total, `reseller=${owner.username}`).toBe(0);
        }
        const expiring = (await t.call(actor.token, { method: 'GET', url: '/api/users/expiring?per=100' })).json();
        const visible = new Set(expiring.data.map((r: Line) => r.id));
        for (const v of victims) expect(visible.has(L[v].id), `expiring shows line_${v}`).toBe(false);
        expect(await snapshot()).toEqual(before);
      });
    }
  });

  it("a master sees and manages its sub-reseller's lines, paying from its own balance", async () => {
    const list = (await t.call(M1.token, { method: 'GET', url: '/api/users?per=100' })).json();
    expect(list.data.map((r: Line) => r.username).sort()).toEqual(['line_m1', 'line_r1']);
    const bySub = (await t.call(M1.token, { method: 'GET', url: `/api/users?reseller=${R1.username}` })).json();
    expect(bySub.data.map((r: Line) => r.id)).toEqual([L.r1.id]);
    const one = await t.call(M1.token, { method: 'GET', url: `/api/users/${L.r1.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: L.r1.id, master_username: R1.username });
    // the sub-reseller sees only its own
    const subList = (await t.call(R1.token, { method: 'GET', url: '/api/users?per=100' })).json();
    expect(subList.data.map((r: Line) => r.id)).toEqual([L.r1.id]);

    const m1Before = (await snapshot()).resellers.find((r) => r.id === M1.id)!.credits;
    const r1Before = (await snapshot()).resellers.find((r) => r.id === R1.id)!.credits;
    const renew = await t.call(M1.token, { method: 'POST', url: `/api/users/${L.r1.id}/renew`, payload: { months: 1 } });
    expect(renew.statusCode, renew.body).toBe(200);
    const after = (await snapshot()).resellers;
    expect(after.find((r) => r.id === M1.id)!.credits).toBe(m1Before - 1);
    expect(after.find((r) => r.id === R1.id)!.credits).toBe(r1Before);
  });

  it('the same requests succeed for the owner (the bodies are valid; only scope refused them)', async () => {
    const line = await createLine(R2.token, 'line_r2_control');
    const before = (await snapshot()).resellers.find((r) => r.id === R2.id)!.credits;
    for (const [name, opts] of routes(line.id)) {
      const res = await t.call(R2.token, opts);
      expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
    }
    // flash renew 1 + renew by package 2 + one screen for the remaining months (>= 2)
    const spent = before - (await snapshot()).resellers.find((r) => r.id === R2.id)!.credits;
    expect(spent).toBeGreaterThanOrEqual(5);
    expect((await t.call(R2.token, { method: 'GET', url: `/api/users/${line.id}` })).statusCode).toBe(404);
  });

  describe('bad input on every route is a 4xx and charges nothing', () => {
    let line: Line;
    let trialLine: Line;

    beforeAll(async () => {
      line = await createLine(R2.token, 'line_input');
      const tr = await t.call(R2.token, { method: 'POST', url: '/api/trial_users', payload: { package_id: trialPkg, username: 'line_input_trial' } });
      expect(tr.statusCode, tr.body).toBe(201);
      trialLine = tr.json();
      await createLine(R2.token, 'plainname');
    });

    async function expectAll4xx(cases: [string, InjectOptions][], exact?: number) {
      const before = await snapshot();
      for (const [fullLabel, opts] of cases) {
        const label = fullLabel.length > 120 ? `${fullLabel.slice(0, 120)}...` : fullLabel;
        const res = await t.call(R2.token, opts);
        expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        if (exact !== undefined) expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(exact);
      }
      expect(await snapshot()).toEqual(before);
    }

    const body = (method: 'POST' | 'PUT', url: string, payloads: [string, unknown][]): [string, InjectOptions][] =>
      payloads.map(([label, payload]) => [`${method} ${url} ${label}`, { method, url, payload: payload as never }]);

    it('POST /api/users', async () => {
      const u = '/api/users';
      await expectAll4xx(
        body('POST', u, [
          ['no package', {}],
          ['package "1"', { package_id: String(cheap) }],
          ['package 1.5', { package_id: 1.5 }],
          ['package -1', { package_id: -1 }],
          ['package 0', { package_id: 0 }],
          ['package null', { package_id: null }],
          ['package [id]', { package_id: [cheap] }],
          ['package true', { package_id: true }],
          ['package unknown', { package_id: 999_999 }],
          ['package 2^31', { package_id: 2 ** 31 }],
          ['package 1e20', { package_id: 1e20 }],
          ['trial package', { package_id: trialPkg }],
          ['screens -1', { package_id: cheap, max_connections: -1 }],
          ['screens 0', { package_id: cheap, max_connections: 0 }],
          ['screens 4 (limit 3)', { package_id: cheap, max_connections: 4 }],
          ['screens 1000000', { package_id: cheap, max_connections: 1_000_000 }],
          ['screens 1.5', { package_id: cheap, max_connections: 1.5 }],
          ['screens "2"', { package_id: cheap, max_connections: '2' }],
          ['username 10k', { package_id: cheap, username: LONG }],
          ['password 10k', { package_id: cheap, password: LONG }],
          ['username with space', { package_id: cheap, username: 'two words' }],
          ['username number', { package_id: cheap, username: 12345678 }],
          ['whatsapp 10k', { package_id: cheap, whatsapp: '1'.repeat(10_000) }],
          ['whatsapp letters', { package_id: cheap, whatsapp: 'call me' }],
          ['whatsapp number', { package_id: cheap, whatsapp: 5511999999999 }],
          ['notes 10k', { package_id: cheap, reseller_notes: LONG }],
          ['notes number', { package_id: cheap, reseller_notes: 42 }],
          ['bouquet empty', { package_id: cheap, bouquet: [] }],
          ['bouquet string', { package_id: cheap, bouquet: String(bouquet) }],
          ['bouquet numbers', { package_id: cheap, bouquet: [bouquet] }],
          ['bouquet unknown', { package_id: cheap, bouquet: ['999999'] }],
          ['bouquet not an id', { package_id: cheap, bouquet: ['abc'] }],
          ['bouquet 10k item', { package_id: cheap, bouquet: [LONG] }],
          ['body array', [{ package_id: cheap }]],
          ['body string', 'package_id=1'],
        ]),
      );
      await expectAll4xx([
        ['malformed JSON', { method: 'POST', url: u, payload: '{"package_id":', headers: { 'content-type': 'application/json' } }],
        ['text body', { method: 'POST', url: u, payload: 'package_id=1', headers: { 'content-type': 'text/plain' } }],
        ['300 kB body', { method: 'POST', url: u, payload: { package_id: cheap, reseller_notes: 'x'.repeat(300_000) } }],
        ['10k Idempotency-Key', { method: 'POST', url: u, payload: { package_id: cheap }, headers: { 'idempotency-key': LONG } }],
      ]);
    });

    it('POST /api/trial_users', async () => {
      await expectAll4xx(
        body('POST', '/api/trial_users', [
          ['no package', {}],
          ['package "id"', { package_id: String(trialPkg) }],
          ['package 1.5', { package_id: 1.5 }],
          ['package unknown', { package_id: 999_999 }],
          ['paid package', { package_id: cheap }],
          ['username 10k', { package_id: trialPkg, username: LONG }],
          ['password 10k', { package_id: trialPkg, password: LONG }],
          ['notes 10k', { package_id: trialPkg, reseller_notes: LONG }],
          ['whatsapp 10k', { package_id: trialPkg, whatsapp: LONG }],
        ]),
        400,
      );
    });

    it('PUT /api/users/{id}', async () => {
      const u = `/api/users/${line.id}`;
      await expectAll4xx(
        [
          ...body('PUT', u, [
            ['password 10k', { password: LONG }],
            ['password number', { password: 12345678 }],
            ['whatsapp letters', { whatsapp: 'abc' }],
            ['notes 10k', { reseller_notes: LONG }],
            ['bouquet empty', { bouquet: [] }],
            ['bouquet unknown', { bouquet: ['999999'] }],
            ['bouquet numbers', { bouquet: [bouquet] }],
            ['bouquet 10k item', { bouquet: [LONG] }],
            ['bouquet fraction', { bouquet: ['1.5'] }],
          ]),
          ...body('PUT', '/api/users/abc', [['id abc', { reseller_notes: 'x' }]]),
          ...body('PUT', '/api/users/0', [['id 0', { reseller_notes: 'x' }]]),
          ...body('PUT', '/api/users/-1', [['id -1', { reseller_notes: 'x' }]]),
          ...body('PUT', '/api/users/1.5', [['id 1.5', { reseller_notes: 'x' }]]),
        ],
        400,
      );
      // a 10,000-digit id: 414 URI too long is fine, as long as it is a 4xx
      await expectAll4xx(body('PUT', `/api/users/${'9'.repeat(10_000)}`, [['id 10k digits', { reseller_notes: 'x' }]]));
    });

    it('POST /api/users/{id}/renew', async () => {
      const u = `/api/users/${line.id}/renew`;
      await expectAll4xx(
        body('POST', u, [
          ['empty', {}],
          ['months 2', { months: 2 }],
          ['months 12', { mounth: 12 }],
          ['months "1"', { months: '1' }],
          ['months 0.5', { months: 0.5 }],
          ['months -1', { months: -1 }],
          ['both', { months: 1, package_id: renewPkg }],
          ['package "id"', { package_id: String(renewPkg) }],
          ['package 1.5', { package_id: 1.5 }],
          ['package -5', { package_id: -5 }],
          ['package unknown', { package_id: 999_999 }],
          ['package 1e20', { package_id: 1e20 }],
          ['trial package', { package_id: trialPkg }],
        ]),
        400,
      );
      await expectAll4xx(body('POST', '/api/users/abc/renew', [['id abc', { months: 1 }]]), 400);
    });

    it('POST /api/users/{id}/extenddays', async () => {
      await expectAll4xx(
        body('POST', `/api/users/${line.id}/extenddays`, [
          ['missing', {}],
          ['0', { days: 0 }],
          ['4', { days: 4 }],
          ['-1', { days: -1 }],
          ['-1000000', { days: -1_000_000 }],
          ['1e9', { days: 1e9 }],
          ['1.5', { days: 1.5 }],
          ['"1"', { days: '1' }],
          ['null', { days: null }],
        ]),
        400,
      );
    });

    it('POST /api/users/{id}/screens', async () => {
      await expectAll4xx(
        [
          ...body('POST', `/api/users/${line.id}/screens`, [
            ['missing', {}],
            ['0', { amount: 0 }],
            ['-1 (below 1)', { amount: -1 }],
            ['-1000', { amount: -1000 }],
            ['3 (above the limit of 3)', { amount: 3 }],
            ['1000', { amount: 1000 }],
            ['1e12', { amount: 1e12 }],
            ['max safe integer', { amount: Number.MAX_SAFE_INTEGER }],
            ['1.5', { amount: 1.5 }],
            ['"1"', { amount: '1' }],
          ]),
          ...body('POST', `/api/users/${trialLine.id}/screens`, [['trial line', { amount: 1 }]]),
        ],
      );
      expect((await db().selectFrom('lines').select('max_connections').where('id', '=', line.id).executeTakeFirstOrThrow()).max_connections).toBe(1);
    });

    it('block, unblock, change_system, links and delete with bad ids or values', async () => {
      const cases: [string, InjectOptions][] = [];
      for (const bad of ['abc', '0', '-3', '2.5', '99999999999']) {
        for (const action of ['block', 'unblock']) cases.push([`${action} ${bad}`, { method: 'POST', url: `/api/users/${bad}/${action}` }]);
        cases.push([`links ${bad}`, { method: 'GET', url: `/api/users/${bad}/links` }]);
        cases.push([`get ${bad}`, { method: 'GET', url: `/api/users/${bad}` }]);
        cases.push([`delete ${bad}`, { method: 'DELETE', url: `/api/users/${bad}` }]);
      }
      cases.push(
        ...body('POST', `/api/users/${line.id}/change_system`, [
          ['missing', {}],
          ['0', { system_id: 0 }],
          ['4', { system_id: 4 }],
          ['"2"', { system_id: '2' }],
          ['2.5', { system_id: 2.5 }],
          ['-1', { system_id: -1 }],
        ]),
      );
      await expectAll4xx(cases, 400);
    });

    it('POST /api/shorturl', async () => {
      await expectAll4xx(
        body('POST', '/api/shorturl', [
          ['missing', {}],
          ['no type', { user_id: line.id }],
          ['unknown type', { user_id: line.id, type: 'rtmp' }],
          ['user_id "id"', { user_id: String(line.id), type: 'm3u8' }],
          ['user_id 1.5', { user_id: 1.5, type: 'm3u8' }],
          ['user_id -1', { user_id: -1, type: 'm3u8' }],
          ['url 10k', { user_id: line.id, type: 'm3u8', url: LONG }],
          ['type 10k', { user_id: line.id, type: LONG }],
        ]),
        400,
      );
      await expectAll4xx(body('POST', '/api/shorturl', [['unknown line', { user_id: 99_999_999, type: 'hls' }]]), 404);
    });

    it('GET /api/users, /api/users/expiring and select_search', async () => {
      const q = (label: string, url: string): [string, InjectOptions] => [label, { method: 'GET', url }];
      await expectAll4xx(
        [
          q('id abc', '/api/users?id=abc'),
          q('id 1.5', '/api/users?id=1.5'),
          q('id 0', '/api/users?id=0'),
          q('page 0', '/api/users?page=0'),
          q('page 1.5', '/api/users?page=1.5'),
          q('per 7', '/api/users?per=7'),
          q('per 1000000', '/api/users?per=1000000'),
          q('username 10k', `/api/users?username=${LONG}`),
          q('text_search 10k', `/api/users?text_search=${LONG}`),
          q('reseller 10k', `/api/users?reseller=${LONG}`),
          q('created 10k', `/api/users?created=${LONG}`),
          q('created bad', '/api/users?created=31-01-2025'),
          q('order_by 10k', `/api/users?order_by=${LONG}`),
          q('order_by unknown', '/api/users?order_by=credits'),
          q('type_user', '/api/users?type_user=vip'),
          q('status 2', '/api/users?status=2'),
          q('status -1', '/api/users?status=-1'),
          q('expiring order', '/api/users/expiring?order=up'),
          q('expiring per', '/api/users/expiring?per=3'),
          ['select_search 10k', { method: 'POST', url: '/api/users/select_search', payload: { search: LONG } }],
          ['select_search pattern', { method: 'POST', url: '/api/users/select_search', payload: { search: "x' or 1=1" } }],
          ['select_search number', { method: 'POST', url: '/api/users/select_search', payload: { search: 5 } }],
        ],
        400,
      );
      // LIKE wildcards are literal text, not patterns
      const all = (await t.call(R2.token, { method: 'GET', url: '/api/users?per=100' })).json();
      expect(all.data.map((r: Line) => r.username)).toContain('plainname');
      const wild = (await t.call(R2.token, { method: 'GET', url: `/api/users?username=${encodeURIComponent('%')}` })).json();
      expect(wild.meta.total).toBe(0);
      const under = (await t.call(R2.token, { method: 'GET', url: `/api/users?per=100&text_search=${encodeURIComponent('_')}` })).json();
      expect(under.data.map((r: Line) => r.username)).not.toContain('plainname');
      expect(under.meta.total).toBe(all.meta.total - 1);
    });
  });
});
