import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Entry, SAMPLE, importM3u, m3u, seedCatalogue, setBouquet } from './catalogue-fixtures.ts';
import { createBouquet } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

const IMPORT = '/api/admin/catalogue/import';

describe(`catalogue (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const count = async (table: 'streams' | 'categories') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('imports an M3U playlist: group-title -> category per kind, tvg-id, tvg-logo; the URL says the kind', async () => {
    const result = await importM3u(t, admin, m3u(SAMPLE));
    expect(result).toMatchObject({ added: 7, updated: 0, unchanged: 0, skipped: [], skipped_total: 0, categories_added: 4 });
    const categories = (await t.call(admin, { method: 'GET', url: '/api/admin/categories' })).json().data;
    expect(categories.map((c: { kind: string; name: string; streams_count: number }) => `${c.kind}:${c.name}:${c.streams_count}`)).toEqual([
      'live:News:2',
      'live:Sports:2',
      'movie:Action:2',
      'series:Drama:1',
    ]);
    const news = (await t.call(admin, { method: 'GET', url: '/api/admin/streams?kind=live&search=news%20one' })).json();
    expect(news.meta.total).toBe(1);
    expect(news.data[0]).toMatchObject({ name: 'News One', kind: 'live', category_name: 'News', epg_id: 'news1.br', icon: 'http://img.example/n1.png', container_ext: 'ts' });
    const movies = (await t.call(admin, { method: 'GET', url: `/api/admin/streams?category_id=${categories[2].id}&order_by=name,asc` })).json();
    expect(movies.data.map((s: { name: string; container_ext: string }) => `${s.name}.${s.container_ext}`)).toEqual(['Chase Movie.mkv', 'Heist Movie.mp4']);
    // a bouquet's chosen streams by id (the bouquet page shows their names)
    const byIds = (await t.call(admin, { method: 'GET', url: `/api/admin/streams?ids=${movies.data[1].id},${news.data[0].id},999999` })).json();
    expect(byIds.data.map((s: { name: string }) => s.name).sort()).toEqual(['Heist Movie', 'News One']);
    expect((await t.call(admin, { method: 'GET', url: '/api/admin/streams?ids=1;2' })).statusCode).toBe(400);
  });

  it('re-importing updates by source URL instead of duplicating', async () => {
    const again = await importM3u(t, admin, m3u(SAMPLE));
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 7 });
    const renamed = SAMPLE.map((e, i) => (i === 0 ? { ...e, name: 'News One HD', group: 'News HD' } : e));
    const changed = await importM3u(t, admin, m3u([...renamed, { name: 'News Three', group: 'News', url: 'http://origin.example/live/src/src/103.ts' }]));
    expect(changed).toMatchObject({ added: 1, updated: 1, unchanged: 6, categories_added: 1 });
    expect(await count('streams')).toBe(8);
    const row = await t.database.db.selectFrom('streams').selectAll().where('source_url', '=', SAMPLE[0].url).executeTakeFirstOrThrow();
    expect(row.name).toBe('News One HD');
  });

  it('skips broken entries with their line and reason, and imports the rest', async () => {
    const text = [
      '#EXTM3U',
      '#EXTINF:-1 group-title="Misc",No URL follows',
      '#EXTINF:-1 group-title="Misc",Good One',
      'http://origin.example/misc/1.ts',
      '#EXTINF:-1 group-title="Misc",Bad Scheme',
      'file:///etc/passwd',
      '#EXTINF:-1 group-title="Misc",Not A URL',
      'just words',
      '#EXTINF:-1 group-title="Misc",Twice',
      'http://origin.example/misc/1.ts',
      '#EXTINF:-1 group-title="Misc",',
      'http://origin.example/misc/2.ts',
    ].join('\r\n');
    const result = await importM3u(t, admin, text);
    expect(result.added).toBe(1);
    expect(result.skipped).toEqual([
      { line: 2, name: '', reason: 'no stream URL after this #EXTINF' },
      { line: 5, name: 'Bad Scheme', reason: 'unsupported stream URL scheme file:' },
      { line: 7, name: 'Not A URL', reason: 'the stream URL is not a valid URL' },
      { line: 9, name: 'Twice', reason: 'same stream URL as line 3' },
      { line: 11, name: '', reason: 'no name' },
    ]);
    expect(result.skipped_total).toBe(5);
  });

  it('a malformed playlist is a clear 400 and imports nothing', async () => {
    const streams = await count('streams');
    const categories = await count('categories');
    const cases: [string, RegExp][] = [
      ['not a playlist at all', /starts with #EXTM3U/],
      ['#EXTINF:-1,Channel\nhttp://origin.example/x.ts\n', /starts with #EXTM3U/],
      ['#EXTM3U\n# just a comment\n', /no #EXTINF entries/],
      ['#EXTM3U\n#EXTINF:-1 group-title="New",Only Broken\nftp://origin.example/a.ts\n', /no entry can be imported \(line 2: unsupported stream URL scheme ftp:\)/],
    ];
    for (const [text, message] of cases) {
      const res = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: text } });
      expect(res.statusCode, text).toBe(400);
      expect(res.json()).toMatchObject({ code: 'M3U_INVALID', field: 'm3u' });
      expect(res.json().message).toMatch(message);
      expect(res.json().message).toMatch(/nothing was imported/);
    }
    for (const payload of [{}, { m3u: '#EXTM3U', url: 'http://x.example/' }, { m3u: '' }, { m3u: 5 }, { kind: 'radio', m3u: '#EXTM3U' }]) {
      const res = await t.call(admin, { method: 'POST', url: IMPORT, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBeTruthy();
    }
    expect(await count('streams')).toBe(streams);
    expect(await count('categories')).toBe(categories);
  });

  it('fetches a playlist URL through the SSRF guard: refused inside, fetched from an allowed stand-in', async () => {
    const body = m3u([{ name: 'Remote One', group: 'Remote', url: 'http://origin.example/live/r/r/901.ts' }]);
    const server = http.createServer((req, res) => (req.url === '/list.m3u' ? res.end(body) : res.writeHead(302, { location: 'http://169.254.169.254/' }).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const refused = await t.call(admin, { method: 'POST', url: IMPORT, payload: { url: `${url}/list.m3u` } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'URL_NOT_ALLOWED', field: 'url' });
      t.deps.config.outboundAllowNetworks = ['127.0.0.1/32'];
      const fetched = await t.call(admin, { method: 'POST', url: IMPORT, payload: { url: `${url}/list.m3u` } });
      expect(fetched.statusCode, fetched.body).toBe(200);
      expect(fetched.json().added).toBe(1);
      const redirected = await t.call(admin, { method: 'POST', url: IMPORT, payload: { url: `${url}/moved` } });
      expect(redirected.statusCode).toBe(502);
      expect(redirected.json()).toMatchObject({ code: 'UPSTREAM_ERROR' });
    } finally {
      t.deps.config.outboundAllowNetworks = [];
      server.close();
    }
  });

  // The limit is the test's timeout, generous for a loaded 2-core machine: a per-row import (no
  // batches) of 20,000 entries takes far longer. The figures are logged; the bench measures speed.
  it('imports 20,000 entries (in batches); a re-import changes nothing', { timeout: 120_000 }, async () => {
    const entries: Entry[] = Array.from({ length: 20_000 }, (_, i) => ({
      name: `Bulk ${i}`,
      group: `Bulk group ${i % 40}`,
      url: i % 4 === 0 ? `http://bulk.example/movie/u/p/${i}.mp4` : `http://bulk.example/live/u/p/${i}.ts`,
      tvgId: `bulk${i}.tv`,
      logo: `http://img.example/${i}.png`,
    }));
    const text = m3u(entries);
    const before = await count('streams');
    let started = Date.now();
    const first = await importM3u(t, admin, text);
    const firstSeconds = (Date.now() - started) / 1000;
    expect(first).toMatchObject({ added: 20_000, updated: 0, skipped_total: 0 });
    started = Date.now();
    const second = await importM3u(t, admin, text);
    const secondSeconds = (Date.now() - started) / 1000;
    expect(second).toMatchObject({ added: 0, updated: 0, unchanged: 20_000 });
    expect(await count('streams')).toBe(before + 20_000);
    console.log(`catalogue import (${ENGINE}): 20,000 entries in ${firstSeconds.toFixed(1)} s, re-import in ${secondSeconds.toFixed(1)} s`);
  });

  it('bouquets hold categories and single streams; unknown ids are a 400 that changes nothing', async () => {
    const { categories, streams } = await seedCatalogue(t, admin);
    const bq = await createBouquet(t, admin, 'Catalogue bouquet');
    const set = await setBouquet(t, admin, bq, { categories: [categories.News, categories.News], streams: [streams['Heist Movie']] }, 'Catalogue bouquet');
    expect(set).toEqual({ id: bq, bouquet_name: 'Catalogue bouquet', categories: [categories.News], streams: [streams['Heist Movie']] });
    // only the name: the contents stay
    expect((await setBouquet(t, admin, bq, {}, 'Renamed')).categories).toEqual([categories.News]);
    // streams only: categories stay
    expect(await setBouquet(t, admin, bq, { streams: [] }, 'Renamed')).toMatchObject({ categories: [categories.News], streams: [] });
    for (const payload of [{ categories: [999_999] }, { streams: [999_999] }, { categories: ['1'] }, { streams: [0] }]) {
      const res = await t.call(admin, { method: 'PUT', url: `/api/admin/bouquets/${bq}`, payload: { bouquet_name: 'Renamed', ...payload } });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toMatch(/categories|streams/);
    }
    expect((await t.call(admin, { method: 'GET', url: `/api/admin/bouquets/${bq}` })).json()).toMatchObject({ categories: [categories.News], streams: [] });
    const listed = (await t.call(admin, { method: 'GET', url: '/api/admin/bouquets' })).json().data.find((b: { id: number }) => b.id === bq);
    expect(listed).toMatchObject({ categories_count: 1, streams_count: 0 });
  });

  it('latest content: the 10 newest movies and series for every role; catalogue admin routes are admin-only', async () => {
    const movies = (await t.call(admin, { method: 'GET', url: '/api/vods/latest?type=movie' })).json().data;
    expect(movies).toHaveLength(10);
    expect(movies[0]).toMatchObject({ name: 'Bulk 19996', stream_icon: 'http://img.example/19996.png', cover: null });
    const series = (await t.call(admin, { method: 'GET', url: '/api/vods/latest?type=series' })).json().data;
    expect(series).toEqual([expect.objectContaining({ name: 'Family Saga S01E01', cover: 'http://img.example/saga.jpg', stream_icon: null })]);
    expect((await t.call(admin, { method: 'GET', url: '/api/vods/latest?type=live' })).statusCode).toBe(400);

    const groups = (await t.call(admin, { method: 'GET', url: '/api/datacomplements' })).json().groups as { group_id: number; type: string }[];
    const created = await t.call(admin, {
      method: 'POST',
      url: '/api/resellers',
      payload: { username: 'cat_reseller', password: 'Kq7.vX2p_Rz9@tLm', member_group_id: groups.find((g) => g.type === 'reseller')?.group_id, credits: 0 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reseller = await t.login('cat_reseller', 'Kq7.vX2p_Rz9@tLm');
    expect((await t.call(reseller, { method: 'GET', url: '/api/vods/latest?type=series' })).statusCode).toBe(200);
    for (const [method, url] of [['GET', '/api/admin/streams'], ['GET', '/api/admin/categories'], ['POST', IMPORT]] as const) {
      expect((await t.call(reseller, { method, url, ...(method === 'POST' ? { payload: { m3u: m3u(SAMPLE) } } : {}) })).statusCode).toBe(403);
    }
  });
});
