import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-body.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';

const PASS = 'Quartz-lamp#7301-river';
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const json = { 'content-type': 'application/json' };

describe(`HTTP hardening (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let adminId: number;
  let master: { id: number; token: string };
  let plain: { id: number; token: string };
  let lineId: number;

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    adminId = (await t.call(admin, { method: 'GET', url: '/api/profile' })).json().id;
    const g = await groupIds(t, admin);
    const create = (username: string, type: 'master' | 'reseller') => createSignedInReseller(t, admin, { username, password: PASS, type, credits: 5, groups: g });
    master = await create('hh_master', 'master');
    plain = await create('hh_plain', 'reseller');
    const pkg = await createPackage(t, admin, 'HH package', await createBouquet(t, admin, 'HH bouquet'));
    lineId = (await createLine(t, admin, { package_id: pkg })).id;
  });
  afterAll(() => t.close());

  describe('deeply nested JSON', () => {
    it('is a 400 on sign-in, without a session', async () => {
      const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', headers: json, payload: `{"a":${nested(5000)}}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'body' });
    });

    it('is a 400 on a signed-in route, in objects as in arrays', async () => {
      for (const payload of [`{"package_id":${nested(5000)}}`, `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`, `[${nested(MAX_JSON_DEPTH)}]`]) {
        const res = await t.call(admin, { method: 'POST', url: '/api/users', headers: json, payload });
        expect(res.statusCode, payload.slice(0, 20)).toBe(400);
        expect(res.json().code).toBe('VALIDATION');
      }
    });

    it('up to the limit is parsed as usual, and brackets inside strings do not count', async () => {
      const body = `{"username":"admin","password":${JSON.stringify(ADMIN_PASSWORD)},"extra":${nested(MAX_JSON_DEPTH - 1)},"note":"${'['.repeat(100)}"}`;
      const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', headers: json, payload: body });
      expect(res.statusCode, res.body).toBe(200);
      const quoted = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', headers: json, payload: `{"username":"nobody","password":"x\\"${'{'.repeat(100)}"}` });
      expect(quoted.statusCode, quoted.body).toBe(401);
    });
  });

  describe('lone surrogates', () => {
    it('are a 400 naming the field, on sign-in and on writes', async () => {
      const signIn = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', headers: json, payload: '{"username":"ad\\ud800min","password":"x"}' });
      expect(signIn.statusCode).toBe(400);
      expect(signIn.json()).toMatchObject({ code: 'VALIDATION', field: 'username' });
      for (const text of ['\\udc00', 'a\\ud83d', '\\ude00\\ud83d']) {
        const res = await t.call(admin, { method: 'PUT', url: `/api/resellers/${plain.id}`, headers: json, payload: `{"notes":"${text}"}` });
        expect(res.statusCode, text).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'notes' });
      }
    });

    it('paired surrogates (emoji) and other odd but valid text are stored as sent', async () => {
      const notes = 'tv 📺 \u200b\ufeff \u202e ok \uffff';
      const res = await t.call(admin, { method: 'PUT', url: `/api/resellers/${plain.id}`, payload: { notes } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().notes).toBe(notes);
    });
  });

  describe('path ids', () => {
    const odd = ['%204', '4%20', '+4', '%2B4', '-4', '04', '0x1', '0X1', '1e0', '4.0', '0', '0b1', '2147483648', '99999999999999999999', 'abc', '1_0', '%E2%80%8B4'];

    it('anything but a plain positive decimal is a 400 naming the field', async () => {
      for (const base of ['/api/users', '/api/resellers', '/api/admin/packages']) {
        for (const id of odd) {
          const res = await t.call(admin, { method: 'GET', url: `${base}/${id}` });
          expect(res.statusCode, `${base}/${id}`).toBe(400);
          expect(res.json(), `${base}/${id}`).toMatchObject({ code: 'VALIDATION', field: 'id' });
        }
      }
      const write = await t.call(admin, { method: 'POST', url: `/api/resellers/0x${plain.id}/block` });
      expect(write.statusCode).toBe(400);
      const row = await t.database.db.selectFrom('resellers').select('status').where('id', '=', plain.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(1);
    });

    it('plain ids still work, and the largest integer is only not found', async () => {
      expect((await t.call(admin, { method: 'GET', url: `/api/users/${lineId}` })).statusCode).toBe(200);
      expect((await t.call(admin, { method: 'GET', url: `/api/resellers/${adminId}` })).statusCode).toBe(200);
      expect((await t.call(admin, { method: 'GET', url: '/api/resellers/2147483647' })).statusCode).toBe(404);
    });

    it('numbers in query strings follow the same rule', async () => {
      expect((await t.call(admin, { method: 'GET', url: '/api/resellers?id=0x1' })).json()).toMatchObject({ code: 'VALIDATION', field: 'id' });
      expect((await t.call(admin, { method: 'GET', url: '/api/resellers?page=%201' })).statusCode).toBe(400);
      expect((await t.call(admin, { method: 'GET', url: `/api/resellers?id=${plain.id}&page=1` })).statusCode).toBe(200);
      expect((await t.call(admin, { method: 'GET', url: '/api/reports/sales?reseller_id=0x1' })).json()).toMatchObject({ code: 'VALIDATION', field: 'reseller_id' });
      expect((await t.call(admin, { method: 'GET', url: `/api/reports/sales?reseller_id=${plain.id}` })).statusCode).toBe(200);
    });
  });

  describe('roles are checked before the body', () => {
    const garbage = [
      { headers: json, payload: '{"package_name": [1, {"x": null}], "bouquets": 7' }, // malformed JSON
      { headers: json, payload: '{"package_name": 12}' }, // wrong types
      { headers: json, payload: `{"a":${nested(5000)}}` }, // too deep
      { headers: { 'content-type': 'text/xml' }, payload: '<x/>' }, // wrong content type
    ];

    async function snapshot() {
      const db = t.database.db;
      return {
        packages: await db.selectFrom('packages').selectAll().orderBy('id').execute(),
        bouquets: await db.selectFrom('bouquets').selectAll().orderBy('id').execute(),
        news: await db.selectFrom('news').selectAll().orderBy('id').execute(),
        resellers: await db.selectFrom('resellers').select(['id', 'status', 'credits', 'member_group_id', 'deleted_at']).orderBy('id').execute(),
      };
    }

    it('a reseller posting garbage to admin routes gets 403 and changes nothing', async () => {
      const before = await snapshot();
      const adminRoutes = [
        { method: 'POST', url: '/api/admin/packages' },
        { method: 'PUT', url: '/api/admin/packages/1' },
        { method: 'POST', url: '/api/admin/bouquets' },
        { method: 'PUT', url: '/api/admin/bouquets/1' },
        { method: 'PUT', url: '/api/news/1' },
        { method: 'DELETE', url: `/api/resellers/${plain.id}` },
      ] as const;
      for (const who of [plain, master]) {
        for (const route of adminRoutes) {
          for (const g of garbage) {
            const res = await t.call(who.token, { ...route, ...g });
            expect(res.statusCode, `${route.method} ${route.url} ${g.payload.slice(0, 15)}`).toBe(403);
            expect(res.json().code).toBe('FORBIDDEN');
          }
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('a plain reseller gets 403 on reseller management and 404 on a reseller, body or not', async () => {
      const before = await snapshot();
      for (const g of garbage) {
        for (const url of ['/api/resellers', '/api/resellers/select_search']) {
          expect((await t.call(plain.token, { method: 'POST', url, ...g })).statusCode, url).toBe(403);
        }
        for (const path of ['', '/credits', '/block', '/to_master']) {
          const method = path === '' ? 'PUT' : 'POST';
          expect((await t.call(plain.token, { method, url: `/api/resellers/${master.id}${path}`, ...g })).statusCode, path).toBe(404);
        }
        expect((await t.call(plain.token, { method: 'PUT', url: `/api/resellers/${plain.id}/add_domain`, ...g })).statusCode).toBe(404);
      }
      expect((await t.call(plain.token, { method: 'GET', url: '/api/resellers' })).statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });

    it('the roles allowed still get the validation errors, and no session is still a 401', async () => {
      const res = await t.call(admin, { method: 'POST', url: '/api/admin/packages', headers: json, payload: '{"package_name": 12}' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
      const masterRes = await t.call(master.token, { method: 'POST', url: '/api/resellers', headers: json, payload: '{"username": 1}' });
      expect(masterRes.statusCode).toBe(400);
      const anonymous = await t.call(null, { method: 'POST', url: '/api/admin/packages', headers: json, payload: '{' });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('answers the OpenAPI document lists, over a real socket', () => {
    let base: string;
    beforeAll(async () => {
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    const doc = () => t.app.swagger() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

    it('the edge gateway answers a 16 KB URI with 403, never 431 (nginx would turn it into a 500)', async () => {
      const server = await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'hh-edge', url: 'http://hh-edge.example' } });
      const key = server.json().key as string;
      for (const size of [16 * 1024, 40 * 1024]) {
        const res = await fetch(`${base}/gateway/auth`, { headers: { 'x-edge-key': key, 'x-original-uri': `/live/u/p/1/${'a'.repeat(size)}.ts`, 'x-real-ip': '198.51.100.9' } });
        expect(res.status, String(size)).toBe(403);
      }
      expect(Object.keys(doc().paths['/gateway/auth'].get.responses).sort()).toEqual(['204', '401', '403']);
    });

    it('a path parameter past the router limit is a 414 URI_TOO_LONG, an undecodable URL a 400 VALIDATION; both documented', async () => {
      const long = await fetch(`${base}/api/users/${'1'.repeat(300)}`, { headers: { authorization: `Bearer ${admin}` } });
      expect(long.status).toBe(414);
      expect((await long.json()).code).toBe('URI_TOO_LONG');
      expect(doc().paths['/api/users/{id}'].get.responses).toHaveProperty('414');
      const bad = await fetch(`${base}/api/users/%E0%A4%A`, { headers: { authorization: `Bearer ${admin}` } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).code).toBe('VALIDATION');
    });

    it('write routes list 413 and 415; the player API lists its 429', async () => {
      const big = await fetch(`${base}/api/users`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ notes: 'x'.repeat(300 * 1024) }) });
      expect([big.status, (await big.json()).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      const xml = await fetch(`${base}/api/users`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/xml' }, body: '<a/>' });
      expect([xml.status, (await xml.json()).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const paths = doc().paths;
      for (const [path, byMethod] of Object.entries(paths)) {
        for (const [method, op] of Object.entries(byMethod)) {
          if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
        }
      }
      expect(paths['/player_api.php'].get.responses).toHaveProperty('429');
    });
  });
});
