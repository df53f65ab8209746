import type { InjectOptions } from 'fastify';
import { nowMs } from '../src/lib/clock.ts';
import { PACKAGE_DEFAULTS, createBouquet, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { ApiErrorBody } from '../../web/src/api/types.ts';

const PKG = '/api/admin/packages';
const BQ = '/api/admin/bouquets';
const SUB_PASSWORD = 'Errors-sub-pass-2026';

describe(`errors and permissions (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let master: string;
  let reseller: string;
  let bouquetId: number;
  let packageId: number;

  function validPackage(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      ...PACKAGE_DEFAULTS,
      package_name: 'Valid',
      bouquets: [String(bouquetId)],
      ...extra,
    };
  }

  /** Packages, bouquets and admin log rows: a failed or refused call must leave all of them as they were. */
  async function snapshot() {
    const db = t.database.db;
    const [packages, bouquets, logs] = await Promise.all([
      db.selectFrom('packages').selectAll().orderBy('id').execute(),
      db.selectFrom('bouquets').selectAll().orderBy('id').execute(),
      db.selectFrom('logs').select(['id', 'action']).where('type_log', '=', 'admin').orderBy('id').execute(),
    ]);
    return { packages, bouquets, logs };
  }

  /** Calls `opts`, expects a 4xx JSON error, and returns the parsed body. */
  async function expectClientError(token: string | null, opts: InjectOptions, status = 400) {
    const res = await t.call(token, opts);
    const label = `${opts.method} ${opts.url} ${typeof opts.payload === 'string' ? opts.payload.slice(0, 80) : JSON.stringify(opts.payload ?? '').slice(0, 80)}`;
    expect(res.statusCode, `${label} -> ${res.body.slice(0, 300)}`).toBe(status);
    expect(res.headers['content-type'], label).toMatch(/application\/json/);
    const body = res.json();
    expect(body.statusCode, label).toBe(status);
    expect(typeof body.code, label).toBe('string');
    expect(typeof body.message, label).toBe('string');
    return body as ApiErrorBody;
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    bouquetId = await createBouquet(t, admin, 'Base');
    packageId = await createPackage(t, admin, 'Base package', bouquetId);

    // A master directly under the admin (50 credits once it has given 5), and a plain reseller under the master.
    const groups = await groupIds(t, admin);
    master = (await createSignedInReseller(t, admin, { username: 'master1', password: SUB_PASSWORD, type: 'master', credits: 55, groups })).token;
    reseller = (await createSignedInReseller(t, master, { username: 'reseller1', password: SUB_PASSWORD, type: 'reseller', credits: 5, groups })).token;
  });
  afterAll(() => t?.close());

  describe('bad input gives 4xx, never 5xx, and changes nothing', () => {
    const intFields = ['max_connections', 'is_trial', 'is_official', 'official_credits', 'official_duration', 'trial_credits', 'trial_duration'];

    it('a string for a number in a body is 400 VALIDATION naming the field', async () => {
      const before = await snapshot();
      const body = await expectClientError(admin, { method: 'POST', url: PKG, payload: validPackage({ max_connections: '1' }) });
      expect(body).toMatchObject({ code: 'VALIDATION', field: 'max_connections' });
      for (const field of intFields) {
        for (const value of ['1', '', true, null, [1], { n: 1 }]) {
          const b = await expectClientError(admin, { method: 'POST', url: PKG, payload: validPackage({ [field]: value }) });
          expect(b, `${field}=${JSON.stringify(value)}`).toMatchObject({ code: 'VALIDATION', field });
        }
      }
      const put = await expectClientError(admin, {
        method: 'PUT',
        url: `${PKG}/${packageId}`,
        payload: { package_name: 'X', bouquets: [String(bouquetId)], max_connections: '2' },
      });
      expect(put).toMatchObject({ code: 'VALIDATION', field: 'max_connections' });
      expect(await snapshot()).toEqual(before);
    });

    it('fractions, negative and huge numbers are 400 VALIDATION naming the field', async () => {
      const before = await snapshot();
      const values = [1.5, -1, -2147483649, 2147483648, 1e12, Number.MAX_SAFE_INTEGER + 2, 1e308];
      for (const field of intFields) {
        for (const value of values) {
          const b = await expectClientError(admin, { method: 'POST', url: PKG, payload: validPackage({ [field]: value }) });
          expect(b, `${field}=${value}`).toMatchObject({ code: 'VALIDATION', field });
        }
      }
      // numbers the JSON parser cannot represent exactly
      for (const raw of ['1e400', '-1e400', '123456789012345678901234567890']) {
        const payload = JSON.stringify(validPackage({ max_connections: 1 })).replace('"max_connections":1', `"max_connections":${raw}`);
        const b = await expectClientError(admin, { method: 'POST', url: PKG, payload, headers: { 'content-type': 'application/json' } });
        expect(b.code, raw).toBe('VALIDATION');
      }
      for (const value of [0, 101, 0.5]) {
        const put = await expectClientError(admin, {
          method: 'PUT',
          url: `${PKG}/${packageId}`,
          payload: { package_name: 'X', bouquets: [String(bouquetId)], max_connections: value },
        });
        expect(put).toMatchObject({ code: 'VALIDATION', field: 'max_connections' });
      }
      const unit = await expectClientError(admin, { method: 'POST', url: PKG, payload: validPackage({ official_duration_in: 'weeks' }) });
      expect(unit).toMatchObject({ code: 'VALIDATION', field: 'official_duration_in' });
      const numBouquet = await expectClientError(admin, { method: 'POST', url: PKG, payload: validPackage({ bouquets: [bouquetId] }) });
      expect(numBouquet.code).toBe('VALIDATION');
      expect(numBouquet.field).toMatch(/^bouquets/);
      expect(await snapshot()).toEqual(before);
    });

    it('each missing required field is 400 VALIDATION naming it', async () => {
      const before = await snapshot();
      for (const field of Object.keys(validPackage())) {
        const payload = validPackage();
        delete payload[field];
        const b = await expectClientError(admin, { method: 'POST', url: PKG, payload });
        expect(b, field).toMatchObject({ code: 'VALIDATION', field });
      }
      for (const field of ['package_name', 'bouquets']) {
        const payload: Record<string, unknown> = { package_name: 'X', bouquets: [String(bouquetId)] };
        delete payload[field];
        const b = await expectClientError(admin, { method: 'PUT', url: `${PKG}/${packageId}`, payload });
        expect(b, field).toMatchObject({ code: 'VALIDATION', field });
      }
      const emptyBq = await expectClientError(admin, { method: 'POST', url: BQ, payload: {} });
      expect(emptyBq).toMatchObject({ code: 'VALIDATION', field: 'bouquet_name' });
      expect(await snapshot()).toEqual(before);
    });

    it('10,000-character strings and 10,000-item arrays are 400', async () => {
      const before = await snapshot();
      const long = 'x'.repeat(10_000);
      const cases: [InjectOptions, string][] = [
        [{ method: 'POST', url: PKG, payload: validPackage({ package_name: long }) }, 'package_name'],
        [{ method: 'POST', url: PKG, payload: validPackage({ official_duration_in: long }) }, 'official_duration_in'],
        [{ method: 'POST', url: PKG, payload: validPackage({ bouquets: [long] }) }, 'bouquets.0'],
        [{ method: 'POST', url: PKG, payload: validPackage({ bouquets: Array(10_000).fill(String(bouquetId)) }) }, 'bouquets'],
        [{ method: 'PUT', url: `${PKG}/${packageId}`, payload: { package_name: long, bouquets: [String(bouquetId)] } }, 'package_name'],
        [{ method: 'POST', url: BQ, payload: { bouquet_name: long } }, 'bouquet_name'],
        [{ method: 'PUT', url: `${BQ}/${bouquetId}`, payload: { bouquet_name: long } }, 'bouquet_name'],
        [{ method: 'GET', url: PKG, query: { order_by: long } }, 'order_by'],
      ];
      for (const [opts, field] of cases) {
        const b = await expectClientError(admin, opts);
        expect(b, `${opts.method} ${opts.url} ${field}`).toMatchObject({ code: 'VALIDATION', field });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('a malformed, empty or non-object JSON body is 400 VALIDATION', async () => {
      const before = await snapshot();
      const json = { 'content-type': 'application/json' };
      for (const payload of ['{"package_name": ', '{bad json}', "{'a':1}", '', 'null', '[]', '"text"', '42']) {
        for (const opts of [
          { method: 'POST', url: PKG },
          { method: 'PUT', url: `${PKG}/${packageId}` },
          { method: 'POST', url: BQ },
          { method: 'PUT', url: `${BQ}/${bouquetId}` },
        ] as const) {
          const b = await expectClientError(admin, { ...opts, payload, headers: json });
          expect(b.code, `${opts.method} ${opts.url} ${JSON.stringify(payload)}`).toBe('VALIDATION');
        }
      }
      const signIn = await expectClientError(null, { method: 'POST', url: '/api/auth/sign-in', payload: '{"username":', headers: json });
      expect(signIn.code).toBe('VALIDATION');
      expect(await snapshot()).toEqual(before);
    });

    it('an unsupported content type is 415 and an oversized body is 413, not 5xx', async () => {
      const before = await snapshot();
      const b415 = await expectClientError(admin, { method: 'POST', url: BQ, payload: '<bouquet_name>x</bouquet_name>', headers: { 'content-type': 'application/xml' } }, 415);
      expect(b415.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const big = JSON.stringify({ bouquet_name: 'x'.repeat(300 * 1024) });
      const b413 = await expectClientError(admin, { method: 'POST', url: BQ, payload: big, headers: { 'content-type': 'application/json' } }, 413);
      expect(b413.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await snapshot()).toEqual(before);
    });

    it('an unknown /api route is a JSON 404 NOT_FOUND, with or without a token', async () => {
      for (const [token, method, url] of [
        [admin, 'GET', '/api/whatever'],
        [null, 'GET', '/api/whatever'],
        [admin, 'POST', '/api/whatever'],
        [admin, 'DELETE', '/api/admin/packages/1'],
        [admin, 'GET', `/api/admin/packages/${packageId}/extra`],
        [admin, 'GET', '/api'],
      ] as const) {
        const b = await expectClientError(token, { method, url }, 404);
        expect(b.code, `${method} ${url}`).toBe('NOT_FOUND');
      }
    });

    it('a non-numeric or out-of-range id in the path is 400 VALIDATION field id', async () => {
      const before = await snapshot();
      for (const id of ['abc', '1abc', '0', '-1', '1.5', '2147483648', '99999999999999999999', '%20']) {
        for (const opts of [
          { method: 'GET', url: `${PKG}/${id}` },
          { method: 'PUT', url: `${PKG}/${id}`, payload: { package_name: 'X', bouquets: [String(bouquetId)] } },
          { method: 'PUT', url: `${BQ}/${id}`, payload: { bouquet_name: 'X' } },
          { method: 'DELETE', url: `${BQ}/${id}` },
        ] as InjectOptions[]) {
          const b = await expectClientError(admin, opts);
          expect(b, `${opts.method} ${opts.url}`).toMatchObject({ code: 'VALIDATION', field: 'id' });
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('bad paging query values are 400 VALIDATION naming the parameter', async () => {
      for (const [query, field] of [
        ['page=99999999999999', 'page'],
        ['page=1e400', 'page'],
        ['per=1e3', 'per'],
        ['per=10.0001', 'per'],
        ['page=1&page=2', 'page'],
        ['order_by=id,asc&order_by=id,desc', 'order_by'],
      ]) {
        const b = await expectClientError(admin, { method: 'GET', url: `${PKG}?${query}` });
        expect(b, query).toMatchObject({ code: 'VALIDATION', field });
      }
    });
  });

  describe('permissions', () => {
    const adminOnly = (): InjectOptions[] => [
      { method: 'GET', url: PKG },
      { method: 'GET', url: `${PKG}/${packageId}` },
      { method: 'POST', url: PKG, payload: validPackage({ package_name: 'Sneaky' }) },
      { method: 'PUT', url: `${PKG}/${packageId}`, payload: { package_name: 'Sneaky', bouquets: [String(bouquetId)], max_connections: 99 } },
      { method: 'GET', url: BQ },
      { method: 'POST', url: BQ, payload: { bouquet_name: 'Sneaky' } },
      { method: 'PUT', url: `${BQ}/${bouquetId}`, payload: { bouquet_name: 'Sneaky' } },
      { method: 'DELETE', url: `${BQ}/${bouquetId}` },
    ];

    for (const who of ['master', 'reseller'] as const) {
      it(`a ${who} gets 403/404 on every admin-only route and changes nothing`, async () => {
        const token = who === 'master' ? master : reseller;
        const before = await snapshot();
        for (const opts of adminOnly()) {
          const res = await t.call(token, opts);
          const label = `${who} ${opts.method} ${opts.url}`;
          expect([403, 404], `${label} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
          const body = res.json();
          expect(body.code, label).toBe(res.statusCode === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
          // no package or bouquet data leaks in the refusal
          expect(res.body, label).not.toContain('Base package');
          expect(body.data, label).toBeUndefined();
        }
        expect(await snapshot()).toEqual(before);
        // the same calls work for the admin, so the refusals above are about the role, not the requests
        const ok = await t.call(admin, { method: 'GET', url: `${PKG}/${packageId}` });
        expect(ok.statusCode).toBe(200);
      });

      it(`a ${who} can read /api/profile and /api/datacomplements`, async () => {
        const token = who === 'master' ? master : reseller;
        const profile = await t.call(token, { method: 'GET', url: '/api/profile' });
        expect(profile.statusCode).toBe(200);
        expect(profile.json()).toMatchObject({ username: `${who}1`, type: who, credits: who === 'master' ? 50 : 5 });
        const comp = await t.call(token, { method: 'GET', url: '/api/datacomplements' });
        expect(comp.statusCode).toBe(200);
        const body = comp.json();
        expect(body.groups.map((g: { type: string }) => g.type).sort()).toEqual(['admin', 'master', 'reseller']);
        expect(body.settings).toMatchObject({ master_min_credit_create: '1', user_limit_screen: '1' });
        expect(body.packages.map((p: { id: number }) => p.id)).toContain(packageId);
        expect(body.bouquets).toContainEqual({ id: bouquetId, bouquet_name: 'Base' });
        expect(Math.abs(body.server_time - nowMs() / 1000)).toBeLessThan(5);
      });
    }

    it('every protected route without a token is 401 UNAUTHORIZED (before body validation) and changes nothing', async () => {
      const before = await snapshot();
      const routes: InjectOptions[] = [
        ...adminOnly(),
        { method: 'GET', url: '/api/profile' },
        { method: 'GET', url: '/api/datacomplements' },
        { method: 'DELETE', url: '/api/auth/sign-out' },
        // invalid input must not reveal validation details to an anonymous caller
        { method: 'POST', url: PKG, payload: { max_connections: 'x' } },
        { method: 'GET', url: `${PKG}/abc` },
        { method: 'GET', url: `${PKG}?per=7` },
      ];
      for (const opts of routes) {
        for (const token of [null, 'not-a-real-token']) {
          const b = await expectClientError(token, opts, 401);
          expect(b.code, `${token} ${opts.method} ${opts.url}`).toBe('UNAUTHORIZED');
        }
      }
      const basic = await t.call(null, { method: 'GET', url: '/api/profile', headers: { authorization: `Basic ${admin}` } });
      expect(basic.statusCode).toBe(401);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('serves an OpenAPI document listing the package and bouquet routes', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBeTruthy();
    expect(Object.keys(doc.paths['/api/admin/packages'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/admin/packages/{id}'] ?? {})).toEqual(expect.arrayContaining(['get', 'put']));
    expect(Object.keys(doc.paths['/api/admin/bouquets/{id}'] ?? {})).toEqual(expect.arrayContaining(['put', 'delete']));
    expect(doc.paths['/api/datacomplements']).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
