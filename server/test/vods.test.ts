import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Standin } from './standins/http-standin.ts';
import { startTmdb, TMDB_KEY } from './standins/tmdb.ts';

const PASS = 'Str0ng-pass!';
const FIGHT_CLUB = { movie_id: 550, media_type: 'movie', title: 'Clube da Luta', year: '1999', stars: 8.4, image_link: 'https://image.tmdb.org/t/p/w185/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg' };

describe(`content requests and the catalogue search (${ENGINE})`, () => {
  let t: TestContext;
  let tmdb: Standin;
  let admin: string;
  let master: string;
  let master2: string;
  let reseller: string;

  beforeAll(async () => {
    tmdb = await startTmdb();
    t = await createTestContext({ tmdbApiUrl: `${tmdb.url}/3`, tmdbApiKey: TMDB_KEY, integrationTimeoutMs: 400 });
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    const make = async (username: string, type: 'master' | 'reseller') => (await createSignedInReseller(t, admin, { username, password: PASS, type, credits: 5, groups })).token;
    master = await make('vodmaster', 'master');
    master2 = await make('vodmaster2', 'master');
    reseller = await make('vodreseller', 'reseller');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await tmdb?.close();
  });
  beforeEach(() => {
    tmdb.mode = 'ok';
    t.deps.config.tmdbApiKey = TMDB_KEY;
  });

  const search = (q: string, token = master) => t.call(token, { method: 'GET', url: `/api/vods/search?q=${encodeURIComponent(q)}` });
  const ask = (body: object, token = master) => t.call(token, { method: 'POST', url: '/api/vods/pedido', payload: body });

  it('the server searches TMDB in pt-BR with its key and answers normalised titles (people left out)', async () => {
    const res = await search('tr');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(TMDB_KEY);
    expect(res.json().data).toEqual([
      { movie_id: 1399, media_type: 'tv', title: 'A Guerra dos Tronos', year: '2011', stars: 8.4, image_link: 'https://image.tmdb.org/t/p/w185/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg' },
      { movie_id: 603, media_type: 'movie', title: 'Matrix', year: '1999', stars: 8.2, image_link: null },
    ]);
    const sent = new URL(tmdb.received.at(-1)!.url, 'http://x');
    expect(sent.pathname).toBe('/3/search/multi');
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({ query: 'tr', language: 'pt-BR', api_key: TMDB_KEY });
  });

  it.each(['error', 'garbage', 'oversize', 'hang'] as const)('TMDB misbehaves (%s): a clear 424, never a 5xx', async (mode) => {
    tmdb.mode = mode;
    const res = await search('matrix');
    expect([res.statusCode, res.json().code]).toEqual([424, 'CATALOGUE_UNAVAILABLE']);
  });

  it('without TMDB_API_KEY: NOT_CONFIGURED, and TMDB is not called', async () => {
    t.deps.config.tmdbApiKey = undefined;
    const calls = tmdb.received.length;
    const res = await search('matrix');
    expect([res.statusCode, res.json().code]).toEqual([503, 'NOT_CONFIGURED']);
    expect(tmdb.received.length).toBe(calls);
  });

  it('only masters and admins search and request; a duplicate is refused; everyone sees the list', async () => {
    expect((await search('matrix', reseller)).statusCode).toBe(403);
    const plain = await ask(FIGHT_CLUB, reseller);
    expect([plain.statusCode, plain.json().code]).toEqual([403, 'FORBIDDEN']);

    expect((await search('clube')).json().data).toEqual([FIGHT_CLUB]);
    const first = await ask({ ...FIGHT_CLUB, status: '1', observacoes: 'versão dublada, por favor' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ ...FIGHT_CLUB, status: 1 });
    const dup = await ask(FIGHT_CLUB, master2);
    expect([dup.statusCode, dup.json().code]).toEqual([409, 'VOD_REQUEST_EXISTS']);
    // the same id as a series is another title
    expect((await ask({ ...FIGHT_CLUB, media_type: 'tv', title: 'Outra' }, master2)).statusCode).toBe(201);

    const list = await t.call(reseller, { method: 'GET', url: '/api/vods?search=clube' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((r: { title: string }) => r.title)).toEqual(['Clube da Luta']);
    expect(list.json().data[0]).not.toHaveProperty('notes');
  });

  it('the page can ask whether the search is configured (masters and admins)', async () => {
    const status = (token: string) => t.call(token, { method: 'GET', url: '/api/vods/search/status' });
    expect([(await status(master)).statusCode, (await status(master)).json()]).toEqual([200, { configured: true }]);
    expect((await status(admin)).json()).toEqual({ configured: true });
    expect((await status(reseller)).statusCode).toBe(403);
    t.deps.config.tmdbApiKey = undefined;
    expect((await status(master)).json()).toEqual({ configured: false });
  });

  it('a title typed by hand: validated, logged, one request per title whatever the case and spaces', async () => {
    t.deps.config.tmdbApiKey = undefined; // works without the catalogue search
    const byHand = (body: object, token = master) => t.call(token, { method: 'POST', url: '/api/vods/pedido/manual', payload: body });
    const before = (await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=100' })).json().meta.total;
    for (const [body, field] of [
      [{ title: '   ' }, 'title'],
      [{}, 'title'],
      [{ title: 'x'.repeat(301) }, 'title'],
      [{ title: 'Ok', year: '99' }, 'year'],
      [{ title: 'Ok', media_type: 'person' }, 'media_type'],
      [{ title: 'Ok', observacoes: 'y'.repeat(1001) }, 'observacoes'],
    ] as const) {
      const res = await byHand(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toContain(field);
    }
    expect((await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=100' })).json().meta.total).toBe(before);

    const plain = await byHand({ title: 'O Auto da Compadecida' }, reseller);
    expect([plain.statusCode, plain.json().code]).toEqual([403, 'FORBIDDEN']);

    const made = await byHand({ title: '  O Auto   da Compadecida ', media_type: 'movie', year: '2000', observacoes: 'dublado' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ title: 'O Auto da Compadecida', media_type: 'movie', year: '2000', stars: 0, image_link: null, status: 1 });
    expect(made.json().movie_id).toBe(0);
    const dup = await byHand({ title: 'o auto da COMPADECIDA' }, master2);
    expect([dup.statusCode, dup.json().code]).toEqual([409, 'VOD_REQUEST_EXISTS']);
    // the same title as a series is another request; no year is fine
    const series = await byHand({ title: 'O Auto da Compadecida', media_type: 'tv' }, master2);
    expect([series.statusCode, series.json().year]).toEqual([201, '']);

    const mine = (await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=100&search=compadecida' })).json().data;
    expect(mine.map((r: { requested_by: string; notes: string }) => [r.requested_by, r.notes])).toEqual([['vodmaster2', ''], ['vodmaster', 'dublado']]);
    const log = await t.database.db.selectFrom('logs').select(['type_log', 'action', 'actor_id', 'value']).where('action', '=', 'vod_request').orderBy('id', 'desc').limit(2).execute();
    expect(log.map((l) => [l.type_log, l.action, l.value])).toEqual([['vod', 'vod_request', 'O Auto da Compadecida'], ['vod', 'vod_request', 'O Auto da Compadecida']]);
  });

  it('concurrent requests for one title: exactly one is created', async () => {
    const body = { movie_id: 9001, title: 'Corrida', year: '2020', stars: 6 };
    const answers = await Promise.all([ask(body), ask(body, master2), ask(body), ask(body, master2)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    // asked by name, spelled four ways: one request; other titles asked by name are not held up
    const byName = (title: string, token = master) => t.call(token, { method: 'POST', url: '/api/vods/pedido/manual', payload: { title } });
    const named = await Promise.all([byName('Central do Brasil'), byName('central do brasil', master2), byName(' Central  do Brasil'), byName('CENTRAL DO BRASIL', master2)]);
    expect(named.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const others = await Promise.all(['Cidade de Deus', 'Tropa de Elite', 'Bacurau'].map((title) => byName(title, master2)));
    expect(others.map((a) => a.statusCode)).toEqual([201, 201, 201]);
  });

  it('bad input is a 400 with the field and creates nothing', async () => {
    const before = (await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=100' })).json().meta.total;
    for (const [body, field] of [
      [{ ...FIGHT_CLUB, movie_id: 0 }, 'movie_id'],
      [{ ...FIGHT_CLUB, movie_id: 77, title: '   ' }, 'title'],
      [{ ...FIGHT_CLUB, movie_id: 77, year: '99' }, 'year'],
      [{ ...FIGHT_CLUB, movie_id: 77, stars: 11 }, 'stars'],
      [{ ...FIGHT_CLUB, movie_id: 77, image_link: 'javascript:alert(1)' }, 'image_link'],
      [{ ...FIGHT_CLUB, movie_id: 77, media_type: 'person' }, 'media_type'],
    ] as const) {
      const res = await ask(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toContain(field);
    }
    expect((await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=20' })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'PUT', url: '/api/admin/vods/status', payload: { ids: [], status: 2 } })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'PUT', url: '/api/admin/vods/status', payload: { ids: [1], status: 3 } })).statusCode).toBe(400);
    expect((await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=100' })).json().meta.total).toBe(before);
  });

  it('admin: paged list with who asked, single and bulk status, bulk removal; others get 403', async () => {
    const created = [];
    for (const n of [1, 2, 3]) created.push((await ask({ movie_id: 7000 + n, title: `Título ${n}`, year: '2024', stars: 7, observacoes: `nota ${n}` })).json().id as number);
    const page = await t.call(admin, { method: 'GET', url: '/api/admin/vods?per_page=10&search=T%C3%ADtulo' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((r: { title: string }) => r.title)).toEqual(['Título 3', 'Título 2', 'Título 1']);
    expect(page.json().data[0]).toMatchObject({ requested_by: 'vodmaster', notes: 'nota 3', status: 1 });

    expect((await t.call(master, { method: 'PUT', url: `/api/vods/pedido/${created[0]}`, payload: { status: 2 } })).statusCode).toBe(403);
    expect((await t.call(master, { method: 'GET', url: '/api/admin/vods' })).statusCode).toBe(403);
    const one = await t.call(admin, { method: 'PUT', url: `/api/vods/pedido/${created[0]}`, payload: { movie_id: 7001, status: 2 } });
    expect([one.statusCode, one.json().status]).toEqual([200, 2]);
    const bulk = await t.call(admin, { method: 'PUT', url: '/api/admin/vods/status', payload: { ids: created, status: 2 } });
    expect(bulk.json()).toEqual({ changed: 3 });
    const back = await t.call(admin, { method: 'PUT', url: `/api/vods/pedido/${created[1]}`, payload: { status: 1 } });
    expect(back.json().status).toBe(1);

    const removed = await t.call(admin, { method: 'DELETE', url: '/api/admin/vods', payload: { ids: created } });
    expect(removed.json()).toEqual({ removed: 3 });
    const gone = await t.call(admin, { method: 'DELETE', url: '/api/admin/vods', payload: { ids: created } });
    expect(gone.statusCode).toBe(404);
    expect((await t.call(admin, { method: 'PUT', url: `/api/vods/pedido/${created[0]}`, payload: { status: 2 } })).statusCode).toBe(404);
  });
});
