import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../src/lib/clock.ts';
import { ENGINE, type TestContext, createTestContext, logIdsInScope } from './helpers.ts';
import { createBouquet, createPackage, createSignedInReseller, groupIds, mint, createLine as postLine } from './fixtures.ts';
import type { LogEntry, LogOptions, LogPage, NewsItem } from '../../web/src/api/types.ts';

// GET/PUT /api/news and GET /api/logs, /api/logs/getoptions.
//
// Tree (argon2 makes each reseller create/sign-in ~50 ms, so it is built once):
//
//   admin ─┬─ nl_m (master M) ─┬─ nl_s (plain reseller S)
//          │                   └─ nl_r (plain reseller R)
//          └─ nl_x (master X, a sibling of M)
//
// The news tests run first; they write news_update rows the log tests then see.

const PASS = 'News-logs-2024';
const DAY_MS = 86_400_000;

type Res = Awaited<ReturnType<TestContext['call']>>;

describe(`news and action logs (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const groups: Record<string, number> = {};
  const id: Record<string, number> = {};
  const tok: Record<string, string> = {};
  let pkg: number;
  let trialPkg: number;
  const line: Record<string, number> = {};

  const db = () => t.database.db;

  async function expectStatus(token: string | null, opts: InjectOptions, status: number): Promise<Res> {
    const res = await t.call(token, opts);
    expect(res.statusCode, `${opts.method} ${opts.url} ${JSON.stringify(opts.payload ?? '').slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBe(status);
    return res;
  }

  async function reseller(by: string, username: string, type: 'master' | 'reseller', credits: number) {
    const made = await createSignedInReseller(t, by, { username, password: PASS, type, credits, groups });
    id[username] = made.id;
    tok[username] = made.token;
  }

  async function createLine(token: string, username: string, trial = false) {
    const made = await postLine(t, token, { package_id: trial ? trialPkg : pkg, username }, { trial });
    line[username] = made.id;
    return made.id as number;
  }

  const newsRows = () => db().selectFrom('news').selectAll().orderBy('id').execute();
  const getNews = async (token: string) => (await expectStatus(token, { method: 'GET', url: '/api/news' }, 200)).json().data as NewsItem[];
  const putNews = (token: string, newsId: number | string, payload: unknown) => t.call(token, { method: 'PUT', url: `/api/news/${newsId}`, payload: payload as never });

  async function logs(token: string, query = ''): Promise<LogPage> {
    return (await expectStatus(token, { method: 'GET', url: `/api/logs?${query}` }, 200)).json();
  }
  /** Every row of a filtered view, paging through 100 at a time. */
  async function allLogs(token: string, query = ''): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    for (let page = 1; ; page++) {
      const res = await logs(token, `per=100&page=${page}${query ? `&${query}` : ''}`);
      out.push(...res.data);
      if (page >= res.meta.pages) {
        expect(out).toHaveLength(res.meta.total);
        return out;
      }
    }
  }
  const actionsOf = (rows: LogEntry[]) => [...new Set(rows.map((r) => r.action))].sort();
  const ids = (rows: { id: number }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);

  /** Log ids whose actor-side or target-side reseller is one of `scope`, ascending. */
  const dbLogIdsFor = async (scope: number[]) => (await logIdsInScope(db(), scope)).sort((a, b) => a - b);

  /** Synthetic rows with exact timestamps, for the date-range boundaries. */
  async function insertLog(created_at: number, values: { action: string; reseller_id: number; target_user: string; type_log?: string }) {
    await db()
      .insertInto('logs')
      .values({ type_log: values.type_log ?? 'user', action: values.action, actor_id: values.reseller_id, reseller_id: values.reseller_id, target_reseller_id: null, target_user: values.target_user, value: null, value_int: null, ip: null, created_at })
      .execute();
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    Object.assign(groups, await groupIds(t, admin));
    const bq = await createBouquet(t, admin, 'Main');
    pkg = await createPackage(t, admin, 'Monthly', bq);
    trialPkg = await createPackage(t, admin, 'Trial', bq, { is_trial: 1, is_official: 0 });

    await reseller(admin, 'nl_m', 'master', 30);
    await reseller(admin, 'nl_x', 'master', 20);
    await reseller(tok.nl_m, 'nl_s', 'reseller', 5);
    await reseller(tok.nl_m, 'nl_r', 'reseller', 3);

    // credits: admin mints for M and burns from X; M transfers to S
    await mint(t, admin, id.nl_m, 7);
    await mint(t, admin, id.nl_x, -3);
    await mint(t, tok.nl_m, id.nl_s, 2);

    // lines
    await createLine(tok.nl_m, 'logline_m');
    await createLine(tok.nl_s, 'logline_s');
    await createLine(tok.nl_s, 'logtrial_s', true);
    await createLine(tok.nl_r, 'logline_r');
    await createLine(tok.nl_x, 'logline_x');
    await expectStatus(tok.nl_s, { method: 'POST', url: `/api/users/${line.logline_s}/change_system`, payload: { system_id: 2 } }, 200);
    await expectStatus(admin, { method: 'POST', url: `/api/users/${line.logline_s}/block` }, 200); // done *to* S's line by the admin
    await expectStatus(tok.nl_s, { method: 'POST', url: `/api/users/${line.logline_s}/unblock` }, 200);
    await expectStatus(tok.nl_s, { method: 'PUT', url: `/api/users/${line.logline_s}`, payload: { reseller_notes: 'vip' } }, 200);
    await expectStatus(tok.nl_s, { method: 'POST', url: `/api/users/${line.logline_s}/renew`, payload: { months: 1 } }, 200);
    await expectStatus(tok.nl_s, { method: 'DELETE', url: `/api/users/${line.logtrial_s}` }, 204);
    await expectStatus(tok.nl_x, { method: 'POST', url: `/api/users/${line.logline_x}/block` }, 200);

    // auth: a failed sign-in of S, and a second session of R that signs out
    const failed = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { username: 'nl_s', password: 'wrong-password' } });
    expect(failed.statusCode).toBe(401);
    const extra = await t.login('nl_r', PASS);
    await expectStatus(extra, { method: 'DELETE', url: '/api/auth/sign-out' }, 204);
  });
  afterAll(() => t?.close());

  describe('news', () => {
    const valid = { title: 'Avisos', body: 'Manutenção hoje às 22h.\nObrigado!', level: 2, status: 1 };

    it('GET: non-admins see only active items, admins see all', async () => {
      // both seeded items start inactive
      expect((await getNews(admin)).map((n) => [n.id, n.status])).toEqual([
        [1, 0],
        [2, 0],
      ]);
      expect(await getNews(tok.nl_m)).toEqual([]);
      expect(await getNews(tok.nl_s)).toEqual([]);

      const res = await putNews(admin, 1, valid);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: 1, ...valid });
      for (const who of ['nl_m', 'nl_s', 'nl_x']) expect(await getNews(tok[who]), who).toEqual([{ id: 1, ...valid }]);
      expect((await getNews(admin)).map((n) => [n.id, n.status])).toEqual([
        [1, 1],
        [2, 0],
      ]);

      // item 2 on, item 1 off: a reseller sees only item 2
      expect((await putNews(admin, 2, { title: 'Links', body: 'short links', level: 1, status: 1 })).statusCode).toBe(200);
      expect((await putNews(admin, 1, { ...valid, status: 0 })).statusCode).toBe(200);
      expect((await getNews(tok.nl_s)).map((n) => n.id)).toEqual([2]);
      expect((await getNews(admin)).map((n) => n.id)).toEqual([1, 2]);
      // back: item 1 active, item 2 inactive
      expect((await putNews(admin, 1, valid)).statusCode).toBe(200);
      expect((await putNews(admin, 2, { title: 'Links', body: 'short links', level: 1, status: 0 })).statusCode).toBe(200);
      expect((await getNews(tok.nl_r)).map((n) => n.id)).toEqual([1]);
    });

    it('PUT is admin only: 403 for a master and a plain reseller, nothing changes', async () => {
      const before = await newsRows();
      const logCount = (await db().selectFrom('logs').select('id').where('action', '=', 'news_update').execute()).length;
      for (const who of ['nl_m', 'nl_s']) {
        const res = await putNews(tok[who], 1, { title: 'hijacked', body: 'hijacked', level: 1, status: 1 });
        expect(res.statusCode, `${who} ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
      expect(await newsRows()).toEqual(before);
      expect((await db().selectFrom('logs').select('id').where('action', '=', 'news_update').execute()).length).toBe(logCount);
      await expectStatus(null, { method: 'GET', url: '/api/news' }, 401);
      expect((await putNews(null as unknown as string, 1, valid)).statusCode).toBe(401);
    });

    it('PUT requires all four fields: each missing one is a 400 VALIDATION naming it', async () => {
      const before = await newsRows();
      for (const field of ['title', 'body', 'level', 'status'] as const) {
        const { [field]: _, ...rest } = valid;
        const res = await putNews(admin, 1, rest);
        expect(res.statusCode, `${field} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field });
      }
      const empty = await putNews(admin, 1, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().code).toBe('VALIDATION');
      expect(await newsRows()).toEqual(before);
    });

    it('PUT refuses wrong types, out-of-range level/status and over-long or blank text', async () => {
      const before = await newsRows();
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 123 }, 'title'],
        [{ title: ['Avisos'] }, 'title'],
        [{ title: null }, 'title'],
        [{ body: 42 }, 'body'],
        [{ body: { text: 'x' } }, 'body'],
        [{ level: '2' }, 'level'],
        [{ level: 2.5 }, 'level'],
        [{ status: '1' }, 'status'],
        [{ status: true }, 'status'],
        [{ level: -1 }, 'level'],
        [{ level: 11 }, 'level'],
        [{ status: 2 }, 'status'],
        [{ status: -1 }, 'status'],
        [{ title: '' }, 'title'],
        [{ title: '   ' }, 'title'],
        [{ title: 'x'.repeat(201) }, 'title'],
        [{ title: 'x'.repeat(10_001) }, 'title'],
        [{ body: '' }, 'body'],
        [{ body: 'y'.repeat(10_001) }, 'body'],
      ];
      for (const [change, field] of cases) {
        const res = await putNews(admin, 1, { ...valid, ...change });
        const label = `${JSON.stringify(change).slice(0, 60)} -> ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBe(400);
        expect(res.json(), label).toMatchObject({ code: 'VALIDATION', field });
      }
      expect(await newsRows()).toEqual(before);
    });

    it('PUT accepts the boundaries: level 0 and 10, a 200-character title, a 10,000-character body', async () => {
      const edge = { title: 't'.repeat(200), body: 'b'.repeat(10_000), level: 10, status: 1 };
      const res = await putNews(admin, 2, edge);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.json()).toEqual({ id: 2, ...edge });
      const low = await putNews(admin, 2, { ...edge, level: 0, status: 0 });
      expect(low.statusCode).toBe(200);
      expect((await newsRows())[1]).toEqual({ id: 2, ...edge, level: 0, status: 0 });
    });

    it('PUT on an unknown id is a 404; a malformed id is a 400', async () => {
      const before = await newsRows();
      const res = await putNews(admin, 999, valid);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      for (const bad of ['0', 'abc', '-1']) {
        const r = await putNews(admin, bad, valid);
        expect(r.statusCode, bad).toBe(400);
        expect(r.json()).toMatchObject({ code: 'VALIDATION', field: 'id' });
      }
      expect(await newsRows()).toEqual(before);
      expect(await db().selectFrom('news').select('id').execute()).toHaveLength(2);
    });

    it('stores title and body as text verbatim (markup is the web app’s to escape)', async () => {
      const raw = {
        title: '<img src=x onerror=alert(1)> & "quotes"',
        body: "<script>alert(1)</script>\n<b>bold</b> &amp; %3Cscript%3E 'single' \\n ção ✓ 🎉\r\n  trailing  ",
        level: 3,
        status: 1,
      };
      const res = await putNews(admin, 1, raw);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: 1, ...raw });
      expect((await getNews(tok.nl_s))[0]).toEqual({ id: 1, ...raw });
      expect((await getNews(admin))[0]).toEqual({ id: 1, ...raw });
      expect((await newsRows())[0]).toEqual({ id: 1, ...raw });
    });

    it('an update is logged as news_update by the admin, outside the resellers’ scope', async () => {
      const res = await putNews(admin, 1, { ...valid, title: 'Logged title' });
      expect(res.statusCode).toBe(200);
      const rows = await allLogs(admin, 'actions=news_update&order_by=id,desc');
      expect(rows[0]).toMatchObject({ type_log: 'admin', action: 'news_update', user: 'admin', reseller: 'admin', value: 'Logged title', value_int: 1 });
      expect(await allLogs(tok.nl_m, 'actions=news_update')).toEqual([]);
      // leave item 1 as the active notice
      expect((await putNews(admin, 1, valid)).statusCode).toBe(200);
    });
  });

  describe('logs', () => {
    it('an admin sees every row', async () => {
      const rows = await allLogs(admin);
      const all = await db().selectFrom('logs').select('id').execute();
      expect(ids(rows)).toEqual(ids(all));
    });

    it('a master sees its own and its subtree’s actions and what was done to them, never a sibling’s', async () => {
      const rows = await allLogs(tok.nl_m);
      const mine = new Set(['nl_m', 'nl_s', 'nl_r']);
      for (const r of rows) expect(mine.has(r.reseller ?? '') || mine.has(r.toreseller ?? ''), JSON.stringify(r)).toBe(true);
      expect(ids(rows)).toEqual(await dbLogIdsFor([id.nl_m, id.nl_s, id.nl_r]));

      const has = (pred: (r: LogEntry) => boolean) => rows.some(pred);
      // done by M and by its sub-resellers
      expect(has((r) => r.action === 'reseller_create' && r.user === 'nl_m' && r.toreseller === 'nl_s')).toBe(true);
      expect(has((r) => r.action === 'user_create' && r.target_user === 'logline_m')).toBe(true);
      expect(has((r) => r.action === 'user_create' && r.target_user === 'logline_r' && r.user === 'nl_r')).toBe(true);
      expect(has((r) => r.action === 'sign_out' && r.user === 'nl_r')).toBe(true);
      // done to M and to its subtree by the admin
      expect(has((r) => r.action === 'reseller_create' && r.user === 'admin' && r.toreseller === 'nl_m')).toBe(true);
      expect(has((r) => r.action === 'add_credits' && r.user === 'admin' && r.toreseller === 'nl_m' && r.value_int === 7)).toBe(true);
      expect(has((r) => r.action === 'user_block' && r.user === 'admin' && r.reseller === 'nl_s' && r.target_user === 'logline_s')).toBe(true);
      // nothing of X, nor the admin's own business
      const foreign = rows.filter(
        (r) => [r.user, r.reseller, r.toreseller].includes('nl_x') || r.target_user === 'logline_x' || ['package_create', 'bouquet_create', 'news_update'].includes(r.action),
      );
      expect(foreign).toEqual([]);
    });

    it('a top-level master’s small pages, newest or oldest first, list every row of its scope once and in order', async () => {
      // Its page merges two ranges (done by its subtree; done to it by others, such as the admin's
      // credits): a row done inside the subtree to someone inside it must come once, and the merge
      // must hold across page boundaries.
      const scope = [id.nl_m, id.nl_s, id.nl_r];
      const newestFirst = await logIdsInScope(db(), scope);
      expect(newestFirst.length, "more than two pages").toBeGreaterThan(20);
      for (const [dir, want] of [['desc', newestFirst], ['asc', [...newestFirst].reverse()]] as const) {
        const got: number[] = [];
        for (let page = 1; ; page++) {
          const res = await logs(tok.nl_m, `per=10&page=${page}&order_by=created_at,${dir}`);
          got.push(...res.data.map((r) => Number(r.id)));
          if (page >= res.meta.pages) break;
        }
        expect(got, dir).toEqual(want);
      }
    });

    it('a plain reseller sees only its own rows (its actions and what was done to it)', async () => {
      const rows = await allLogs(tok.nl_s);
      for (const r of rows) expect(r.reseller === 'nl_s' || r.toreseller === 'nl_s', JSON.stringify(r)).toBe(true);
      expect(ids(rows)).toEqual(await dbLogIdsFor([id.nl_s]));
      expect(actionsOf(rows)).toEqual(
        ['add_credits', 'reseller_create', 'sign_in', 'sign_in_failed', 'trial_create', 'user_block', 'user_change_system', 'user_create', 'user_delete', 'user_flash_renew', 'user_unblock', 'user_update'].sort(),
      );
      // never the master's own lines nor the sibling reseller's
      expect(rows.filter((r) => ['logline_m', 'logline_r', 'logline_x'].includes(r.target_user ?? ''))).toEqual([]);
      expect(rows.filter((r) => r.user === 'nl_r' || r.reseller === 'nl_r' || r.toreseller === 'nl_r')).toEqual([]);

      const x = await allLogs(tok.nl_x);
      expect(ids(x)).toEqual(await dbLogIdsFor([id.nl_x]));
      expect(x.filter((r) => r.reseller !== 'nl_x' && r.toreseller !== 'nl_x')).toEqual([]);
      expect(x.filter((r) => ['nl_m', 'nl_s', 'nl_r'].some((n) => [r.user, r.reseller, r.toreseller, r.target_user].includes(n)))).toEqual([]);
    });

    it('filters by type', async () => {
      const credits = await allLogs(admin, 'type=credits');
      expect(credits.map((r) => [r.action, r.user, r.toreseller, r.value_int]).sort()).toEqual(
        [
          ['add_credits', 'admin', 'nl_m', 7],
          ['add_credits', 'nl_m', 'nl_s', 2],
          ['remove_credits', 'admin', 'nl_x', -3],
        ].sort(),
      );
      const auth = await allLogs(tok.nl_m, 'type=auth');
      expect(auth.length).toBeGreaterThan(0);
      expect(auth.every((r) => r.type_log === 'auth')).toBe(true);
      expect(new Set(auth.map((r) => r.target_user))).toEqual(new Set(['nl_m', 'nl_s', 'nl_r']));
      expect(await allLogs(admin, 'type=nosuchtype')).toEqual([]);
    });

    it('filters by actions (a comma list, spaces tolerated)', async () => {
      const created = await allLogs(admin, 'actions=user_create,trial_create');
      expect(created.map((r) => `${r.action}:${r.target_user}`).sort()).toEqual(
        ['trial_create:logtrial_s', 'user_create:logline_m', 'user_create:logline_r', 'user_create:logline_s', 'user_create:logline_x'].sort(),
      );
      const blocks = await allLogs(admin, `actions=${encodeURIComponent(' user_block , user_unblock ')}`);
      expect(blocks.map((r) => `${r.action}:${r.user}:${r.target_user}`).sort()).toEqual(
        ['user_block:admin:logline_s', 'user_block:nl_x:logline_x', 'user_unblock:nl_s:logline_s'].sort(),
      );
      // scope still applies
      expect((await allLogs(tok.nl_m, 'actions=user_create')).map((r) => r.target_user).sort()).toEqual(['logline_m', 'logline_r', 'logline_s']);
      expect(await allLogs(admin, 'actions=no_such_action')).toEqual([]);
    });

    it('filters by reseller and toreseller ids, within the caller’s scope', async () => {
      const byM = await allLogs(admin, `reseller=${id.nl_m}`);
      expect(byM.length).toBeGreaterThan(0);
      expect(byM.every((r) => r.reseller === 'nl_m')).toBe(true);
      expect(ids(byM)).toEqual(ids(await db().selectFrom('logs').select('id').where('reseller_id', '=', id.nl_m).execute()));

      const toX = await allLogs(admin, `toreseller=${id.nl_x}`);
      expect(toX.map((r) => `${r.action}:${r.user}`).sort()).toEqual(['remove_credits:admin', 'reseller_create:admin']);

      // M asking about its sibling gets nothing
      expect(await allLogs(tok.nl_m, `reseller=${id.nl_x}`)).toEqual([]);
      expect(await allLogs(tok.nl_m, `toreseller=${id.nl_x}`)).toEqual([]);
      // S asking about its master sees only what the master did to S
      const mToS = await allLogs(tok.nl_s, `reseller=${id.nl_m}`);
      expect(mToS.map((r) => `${r.action}:${r.toreseller}`).sort()).toEqual(['add_credits:nl_s', 'reseller_create:nl_s']);
      // M: what M did to S, combined with a type
      const credit = await allLogs(tok.nl_m, `reseller=${id.nl_m}&toreseller=${id.nl_s}&type=credits`);
      expect(credit.map((r) => [r.action, r.value_int])).toEqual([['add_credits', 2]]);

      for (const bad of ['reseller=abc', 'toreseller=0', 'reseller=-5']) {
        const res = await expectStatus(admin, { method: 'GET', url: `/api/logs?${bad}` }, 400);
        expect(res.json().code).toBe('VALIDATION');
      }
    });

    it('filters by line username (case-insensitive), within scope', async () => {
      const rows = await allLogs(tok.nl_m, 'user=LogLine_S&order_by=id,asc');
      expect(rows.map((r) => r.action)).toEqual(['user_create', 'user_change_system', 'user_block', 'user_unblock', 'user_update', 'user_flash_renew']);
      expect(rows.every((r) => r.target_user === 'logline_s' && r.reseller === 'nl_s')).toBe(true);
      expect(rows.find((r) => r.action === 'user_change_system')).toMatchObject({ value: '2', value_int: 2 });
      expect(await allLogs(tok.nl_x, 'user=logline_s')).toEqual([]);
      expect(await allLogs(tok.nl_s, 'user=logline_m')).toEqual([]);
      expect(await allLogs(admin, 'user=logline_')).toEqual([]); // an exact name, not a prefix
    });

    it('filters by dates "fromMs,toMs" with both boundaries inclusive', async () => {
      const B = 1_600_000_000_000;
      for (const offset of [-1, 0, 1, 2, 3]) await insertLog(B + offset, { action: 'user_update', reseller_id: id.nl_m, target_user: `boundary${offset + 1}` });
      const names = async (token: string, dates: string) =>
        (await allLogs(token, `dates=${dates}&order_by=created_at,asc`)).filter((r) => r.target_user?.startsWith('boundary')).map((r) => r.target_user);
      expect(await names(admin, `${B},${B + 2}`)).toEqual(['boundary1', 'boundary2', 'boundary3']);
      expect(await names(admin, `${B},${B}`)).toEqual(['boundary1']);
      expect(await names(tok.nl_m, `${B - 1},${B + 3}`)).toEqual(['boundary0', 'boundary1', 'boundary2', 'boundary3', 'boundary4']);
      // the whole range only holds those rows
      expect((await allLogs(admin, `dates=${B - 1},${B + 3}`)).length).toBe(5);
      expect(await allLogs(tok.nl_x, `dates=${B - 1},${B + 3}`)).toEqual([]);
      expect(await allLogs(admin, `dates=${B + 4},${B + 1000}`)).toEqual([]);
      expect(await allLogs(admin, `dates=${encodeURIComponent(` ${B} , ${B} `)}`)).toHaveLength(1);

      for (const bad of ['abc', `${B + 1},${B}`, `${B}`, `${B},${B + 1},${B + 2}`, `-1,${B}`, `${B}.5,${B + 1}`, `${B},`, '99999999999999999999,1']) {
        const res = await expectStatus(admin, { method: 'GET', url: `/api/logs?dates=${encodeURIComponent(bad)}` }, 400);
        expect(res.json(), bad).toMatchObject({ code: 'VALIDATION', field: 'dates' });
      }
    });

    it('"today" in America/Sao_Paulo (UTC-3) holds a log written now and its local midnight, not yesterday’s', async () => {
      const OFFSET_MS = -3 * 3_600_000;
      const now = nowMs();
      const startToday = Math.floor((now + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
      const today = `${startToday},${startToday + DAY_MS - 1}`;
      const yesterday = `${startToday - DAY_MS},${startToday - 1}`;
      // the fixed offset agrees with the zone database for this date
      const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
      expect(new Date(startToday + 3_600_000 * 3).toISOString().slice(0, 10)).toBe(localDate);
      expect(new Date(startToday).toISOString().slice(11, 19)).toBe('03:00:00');

      await createLine(tok.nl_m, 'sp_now_line');
      await insertLog(startToday, { action: 'user_update', reseller_id: id.nl_m, target_user: 'sp_midnight' });
      await insertLog(startToday - 1, { action: 'user_update', reseller_id: id.nl_m, target_user: 'sp_last_ms_yesterday' });
      const seen = async (range: string) =>
        (await allLogs(tok.nl_m, `dates=${range}`)).map((r) => r.target_user).filter((n) => n?.startsWith('sp_')).sort();
      expect(await seen(today)).toEqual(['sp_midnight', 'sp_now_line']);
      expect(await seen(yesterday)).toEqual(['sp_last_ms_yesterday']);
      // every row in today's range really is from today's local date
      for (const r of await allLogs(tok.nl_m, `dates=${today}`)) {
        expect(new Date(r.created_at + OFFSET_MS).toISOString().slice(0, 10)).toBe(localDate);
      }
    });

    it('orders by created_at asc and desc (id breaks ties); unknown orders are a 400', async () => {
      const asc = await allLogs(admin, 'order_by=created_at,asc');
      const desc = await allLogs(admin, 'order_by=created_at,desc');
      expect(asc.length).toBeGreaterThan(20);
      for (let i = 1; i < asc.length; i++) {
        const [a, b] = [asc[i - 1], asc[i]];
        expect(a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id), `${a.id}@${a.created_at} before ${b.id}@${b.created_at}`).toBe(true);
      }
      expect(desc.map((r) => r.id)).toEqual([...asc].reverse().map((r) => r.id));
      // the default is newest first
      expect((await allLogs(admin)).map((r) => r.id)).toEqual(desc.map((r) => r.id));
      expect(asc[0].created_at).toBe(1_600_000_000_000 - 1); // the synthetic oldest row
      for (const bad of ['password', 'created_at,up', 'created_at;drop table logs']) {
        const res = await expectStatus(admin, { method: 'GET', url: `/api/logs?order_by=${encodeURIComponent(bad)}` }, 400);
        expect(res.json(), bad).toMatchObject({ code: 'VALIDATION', field: 'order_by' });
      }
    });

    it('pages with meta (page, per, count, pages, total)', async () => {
      const all = await allLogs(admin, 'order_by=id,asc');
      const total = all.length;
      const pages = Math.ceil(total / 10);
      const p2 = await logs(admin, 'order_by=id,asc&per=10&page=2');
      expect(p2.meta).toEqual({ page: 2, per: 10, count: 10, pages, total, prev: expect.any(String), ...(pages > 2 ? { next: expect.any(String) } : {}) });
      expect(p2.data.map((r) => r.id)).toEqual(all.slice(10, 20).map((r) => r.id));
      const last = await logs(admin, `order_by=id,asc&per=10&page=${pages}`);
      expect(last.meta).toEqual({ page: pages, per: 10, count: total - 10 * (pages - 1), pages, total, ...(pages > 1 ? { prev: expect.any(String) } : {}) });
      expect(last.data.map((r) => r.id)).toEqual(all.slice(10 * (pages - 1)).map((r) => r.id));
      const beyond = await logs(admin, `order_by=id,asc&per=10&page=${pages + 1}`);
      expect(beyond).toEqual({ data: [], meta: { page: pages + 1, per: 10, count: 0, pages, total } });
      const dflt = await logs(tok.nl_s);
      expect(dflt.meta).toMatchObject({ page: 1, per: 10 });
      // the total follows the filters
      const filtered = await logs(admin, 'type=credits&per=10');
      expect(filtered.meta).toEqual({ page: 1, per: 10, count: 3, pages: 1, total: 3 });
      for (const bad of ['per=7', 'page=0', 'per=1000']) {
        const res = await expectStatus(admin, { method: 'GET', url: `/api/logs?${bad}` }, 400);
        expect(res.json().code, bad).toBe('VALIDATION');
      }
    });

    it('a kept total follows the next log row at once (the count is kept while the newest id stays)', async () => {
      const before = await logs(tok.nl_m, 'per=10');
      expect((await logs(tok.nl_m, 'per=10')).meta.total).toBe(before.meta.total);
      await expectStatus(tok.nl_m, { method: 'POST', url: `/api/resellers/${id.nl_s}/credits`, payload: { value: 1 } }, 200);
      expect((await logs(tok.nl_m, 'per=10')).meta.total).toBe(before.meta.total + 1);
      expect((await logs(tok.nl_m, 'type=credits&per=10')).meta.total).toBe((await allLogs(tok.nl_m, 'type=credits')).length);
    });

    it('getoptions lists every type and action present in the log table', async () => {
      const present = await db().selectFrom('logs').select(['type_log', 'action']).distinct().execute();
      const presentActions = [...new Set(present.map((r) => r.action))];
      const presentTypes = [...new Set(present.map((r) => r.type_log))];
      // the setup above really exercised these
      for (const a of ['sign_in', 'sign_in_failed', 'sign_out', 'bouquet_create', 'package_create', 'reseller_create', 'add_credits', 'remove_credits', 'user_create', 'trial_create', 'user_change_system', 'user_block', 'user_unblock', 'user_update', 'user_flash_renew', 'user_delete', 'news_update']) {
        expect(presentActions, a).toContain(a);
      }
      for (const token of [admin, tok.nl_m, tok.nl_s]) {
        const res = await expectStatus(token, { method: 'GET', url: '/api/logs/getoptions' }, 200);
        const { types, actions } = res.json() as LogOptions;
        expect(new Set(actions).size).toBe(actions.length);
        for (const a of presentActions) expect(actions, a).toContain(a);
        for (const ty of presentTypes) expect(types, ty).toContain(ty);
      }
      await expectStatus(null, { method: 'GET', url: '/api/logs/getoptions' }, 401);
      await expectStatus(null, { method: 'GET', url: '/api/logs' }, 401);
    });

    it('rows carry the actor, both resellers, the target line and the values', async () => {
      const [create] = await allLogs(admin, 'user=logline_r&actions=user_create');
      expect(create).toMatchObject({ type_log: 'user', action: 'user_create', user: 'nl_r', reseller: 'nl_r', toreseller: null, target_user: 'logline_r', value: 'Monthly', value_int: 1 });
      const [made] = await allLogs(admin, `actions=reseller_create&toreseller=${id.nl_s}`);
      expect(made).toMatchObject({ type_log: 'reseller', user: 'nl_m', reseller: 'nl_m', toreseller: 'nl_s', value: 'nl_s', value_int: 5 });
      expect(Math.abs(made.created_at - nowMs())).toBeLessThan(10 * 60_000); // epoch milliseconds
    });
  });
});
