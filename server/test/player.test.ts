import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Xtream } from '@iptv/xtream-api';
import parser from 'iptv-playlist-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { type Catalogue, importM3u, m3u, seedCatalogue, setBouquet } from './catalogue-fixtures.ts';
import { listCacheOf } from '../src/modules/player/list-cache.ts';
import { catalogueVersion } from '../src/modules/player/repo.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// The Xtream player API and playlists as real clients read them: the public Xtream client from npm
// over HTTP, and an M3U parser on get.php.

const PASS = 'Kq7.vX2p_Rz9@tLm';

describe(`player API and playlists (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let base: string;
  let cat: Catalogue;
  let reseller: { id: number; token: string };
  let bouquetA: number;
  let packageA: number;
  const lines: Record<'one' | 'two' | 'blocked' | 'expired' | 'deleted' | 'p2p', { id: number; username: string; password: string }> = {} as never;

  const player = (query: Record<string, string>, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: `/player_api.php?${new URLSearchParams(query)}`, remoteAddress });
  /** get.php over HTTP, as players fetch it (the links are built from the address they used) */
  async function playlist(query: Record<string, string>) {
    const res = await fetch(`${base}/get.php?${new URLSearchParams(query)}`);
    const body = await res.text();
    return { statusCode: res.status, headers: Object.fromEntries(res.headers), body, json: () => JSON.parse(body) };
  }
  const client = (line: { username: string; password: string }) => new Xtream({ url: base, username: line.username, password: line.password });

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    cat = await seedCatalogue(t, admin);
    // bouquet A: the News category and one movie; bouquet B: Sports and the Drama series
    const a = await createBouquet(t, admin, 'A');
    bouquetA = a;
    const b = await createBouquet(t, admin, 'B');
    await setBouquet(t, admin, a, { categories: [cat.categories.News], streams: [cat.streams['Heist Movie']] }, 'A');
    await setBouquet(t, admin, b, { categories: [cat.categories.Sports, cat.categories.Drama] }, 'B');
    const pkg = await createPackage(t, admin, 'Player monthly', a, { max_connections: 2 });
    packageA = pkg;
    const groups = await groupIds(t, admin);
    const { id, token } = await createSignedInReseller(t, admin, { username: 'player_res', password: PASS, type: 'reseller', credits: 50, groups });
    reseller = { id, token };
    for (const name of Object.keys({ one: 1, two: 1, blocked: 1, expired: 1, deleted: 1, p2p: 1 }) as (keyof typeof lines)[]) {
      const made = await createLine(t, reseller.token, { package_id: pkg, username: `pl_${name}`, password: `pw${name}9` });
      lines[name] = { id: made.id, username: `pl_${name}`, password: `pw${name}9` };
    }
    await t.call(reseller.token, { method: 'PUT', url: `/api/users/${lines.two.id}`, payload: { bouquet: [String(a), String(b)] } });
    await t.call(reseller.token, { method: 'POST', url: `/api/users/${lines.blocked.id}/block` });
    await t.database.db.updateTable('lines').set({ exp_date: nowSec() - 60 }).where('id', '=', lines.expired.id).execute();
    await t.call(reseller.token, { method: 'DELETE', url: `/api/users/${lines.deleted.id}` });
    await t.call(reseller.token, { method: 'POST', url: `/api/users/${lines.p2p.id}/change_system`, payload: { system_id: 2 } });
  });
  afterAll(() => t?.close());

  it('the public Xtream client signs in and reads the profile and server info', async () => {
    const xtream = client(lines.one);
    const profile = await xtream.getProfile();
    expect(profile).toMatchObject({ username: 'pl_one', auth: 1, status: 'Active', is_trial: '0', max_connections: '2', active_cons: '0', allowed_output_formats: ['m3u8', 'ts'] });
    const server = await xtream.getServerInfo();
    expect(server).toMatchObject({ url: '127.0.0.1', port: base.split(':')[2], server_protocol: 'http' });
  });

  it("lists only the line's bouquets: categories, channels, movies, series", async () => {
    const one = client(lines.one);
    expect((await one.getChannelCategories()).map((c) => c.category_name)).toEqual(['News']);
    const channels = await one.getChannels();
    expect(channels.map((c) => c.name)).toEqual(['News One', 'News Two']);
    expect(channels[0]).toMatchObject({ stream_type: 'live', stream_id: cat.streams['News One'], epg_channel_id: 'news1.br', stream_icon: 'http://img.example/n1.png', category_id: String(cat.categories.News) });
    // the client picks the first format user_info allows when the one it prefers (ts) is not listed
    expect(channels[0].url).toBe(`${base}/live/pl_one/pwone9/${cat.streams['News One']}.ts`);
    expect((await one.getChannels({ categoryId: cat.categories.Sports })).map((c) => c.name)).toEqual([]);
    // a single movie of a category the bouquet does not hold: its category is listed, its neighbour is not
    expect((await one.getMovieCategories()).map((c) => c.category_name)).toEqual(['Action']);
    expect((await one.getMovies()).map((m) => `${m.name}.${m.container_extension}`)).toEqual(['Heist Movie.mp4']);
    const movie = await one.getMovie({ movieId: cat.streams['Heist Movie'] });
    expect(movie.movie_data).toMatchObject({ stream_id: cat.streams['Heist Movie'], container_extension: 'mp4' });
    expect(movie.url).toBe(`${base}/movie/pl_one/pwone9/${cat.streams['Heist Movie']}.mp4`);
    await expect(one.getMovie({ movieId: cat.streams['Chase Movie'] })).rejects.toThrow('Movie Not Found');
    expect(await one.getShowCategories()).toEqual([]);
    expect(await one.getShows()).toEqual([]);

    const two = client(lines.two);
    expect((await two.getChannelCategories()).map((c) => c.category_name)).toEqual(['News', 'Sports']);
    expect((await two.getChannels({ categoryId: cat.categories.Sports })).map((c) => c.name)).toEqual(['Sports One', 'Sports Two']);
    const shows = await two.getShows();
    expect(shows.map((s) => [s.name, s.series_id])).toEqual([['Family Saga S01E01', cat.streams['Family Saga S01E01']]]);
    const show = await two.getShow({ showId: shows[0].series_id });
    expect(show.episodes['1'][0].url).toBe(`${base}/series/pl_two/pwtwo9/${cat.streams['Family Saga S01E01']}.mkv`);
    expect((await two.getShortEPG({ channelId: cat.streams['Sports One'] })).epg_listings).toEqual([]);
  });

  it('sends the figures players expect as strings', async () => {
    const res = await player({ username: 'pl_one', password: 'pwone9' });
    expect(res.headers['cache-control']).toBe('no-store');
    const { user_info: u, server_info: s } = res.json();
    for (const field of ['exp_date', 'created_at', 'is_trial', 'active_cons', 'max_connections']) expect(typeof u[field], field).toBe('string');
    for (const field of ['port', 'https_port', 'rtmp_port']) expect(typeof s[field], field).toBe('string');
    expect(typeof s.timestamp_now).toBe('number');
    const vod = (await player({ username: 'pl_one', password: 'pwone9', action: 'get_vod_streams' })).json();
    expect(typeof vod[0].added).toBe('string');
    expect(typeof vod[0].category_id).toBe('string');
    expect(typeof vod[0].stream_id).toBe('number');
    expect((await player({ username: 'pl_one', password: 'pwone9', action: 'get_live_streams', category_id: 'abc' })).json()).toEqual([]);
    expect((await player({ username: 'pl_one', password: 'pwone9', action: 'no_such_action' })).json()).toEqual([]);
  });

  it('get.php: an M3U parser finds exactly the bouquet, with the stream URLs players open', async () => {
    const res = await playlist({ username: 'pl_one', password: 'pwone9', type: 'm3u_plus', output: 'ts' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^audio\/x-mpegurl/);
    const items = parser.parse(res.body).items;
    expect(items.map((i) => [i.name, i.group.title, i.tvg.id])).toEqual([
      ['News One', 'News', 'news1.br'],
      ['News Two', 'News', 'news2.br'],
      ['Heist Movie', 'Action', ''],
    ]);
    expect(items.map((i) => i.url)).toEqual([
      `${base}/live/pl_one/pwone9/${cat.streams['News One']}.ts`,
      `${base}/live/pl_one/pwone9/${cat.streams['News Two']}.ts`,
      `${base}/movie/pl_one/pwone9/${cat.streams['Heist Movie']}.mp4`,
    ]);
    const hls = parser.parse((await playlist({ username: 'pl_two', password: 'pwtwo9', output: 'hls' })).body).items;
    expect(hls.map((i) => i.name)).toEqual(['News One', 'News Two', 'Sports One', 'Sports Two', 'Heist Movie', 'Family Saga S01E01']);
    expect(hls[0].url.endsWith('.m3u8')).toBe(true);
    expect((await playlist({ username: 'pl_one', password: 'pwone9', output: 'flv' })).statusCode).toBe(400);
  });

  it("links use the owner's domain, else main_domain, else the panel's address", async () => {
    const urlOf = async () => parser.parse((await playlist({ username: 'pl_one', password: 'pwone9' })).body).items[0].url;
    const info = async () => (await player({ username: 'pl_one', password: 'pwone9' })).json().server_info;
    await t.database.db.updateTable('settings').set({ value: 'https://tv.example.com:8443' }).where('key', '=', 'main_domain').execute();
    try {
      expect(await urlOf()).toMatch(/^https:\/\/tv\.example\.com:8443\/live\/pl_one\//);
      expect(await info()).toMatchObject({ url: 'tv.example.com', https_port: '8443', server_protocol: 'https' });
      const added = await t.call(admin, { method: 'PUT', url: `/api/resellers/${reseller.id}/add_domain`, payload: { dns_reseller: 'revenda.example.net' } });
      expect(added.statusCode, added.body).toBe(201);
      expect(await urlOf()).toMatch(/^http:\/\/revenda\.example\.net\/live\/pl_one\//);
      expect(await info()).toMatchObject({ url: 'revenda.example.net', port: '80', server_protocol: 'http' });
    } finally {
      await t.call(admin, { method: 'PUT', url: `/api/resellers/${reseller.id}/add_domain`, payload: { dns_reseller: 'NULL' } });
      await t.database.db.updateTable('settings').set({ value: '' }).where('key', '=', 'main_domain').execute();
    }
  });

  it('blocked, expired, deleted and P2P lines get their status and nothing to play', async () => {
    const expected = { blocked: ['Banned', 'LINE_BLOCKED'], expired: ['Expired', 'LINE_EXPIRED'], deleted: ['Disabled', 'LINE_DISABLED'], p2p: ['Disabled', 'LINE_DISABLED'] } as const;
    for (const [name, [status, code]] of Object.entries(expected)) {
      const line = lines[name as keyof typeof expected];
      const creds = { username: line.username, password: line.password };
      expect((await player(creds)).json().user_info, name).toMatchObject({ auth: 1, status });
      for (const action of ['get_live_categories', 'get_live_streams', 'get_vod_streams', 'get_series']) expect((await player({ ...creds, action })).json(), `${name} ${action}`).toEqual([]);
      expect((await player({ ...creds, action: 'get_vod_info', vod_id: String(cat.streams['Heist Movie']) })).json()).toEqual({ info: [], movie_data: [] });
      const refused = await playlist(creds);
      expect([refused.statusCode, refused.json().code], name).toEqual([403, code]);
    }
    expect((await client(lines.blocked).getProfile()).status).toBe('Banned');
  });

  it('wrong credentials: auth 0 for players, counted by the sign-in rate limiter', async () => {
    const ip = '203.0.113.77';
    const wrong = await player({ username: 'pl_one', password: 'nope' }, ip);
    expect([wrong.statusCode, wrong.json()]).toEqual([200, { user_info: { auth: 0 } }]);
    expect((await player({ username: 'no_such_line', password: 'x' }, ip)).json()).toEqual({ user_info: { auth: 0 } });
    expect((await playlist({ username: 'pl_one', password: 'nope' })).statusCode).toBe(401);
    for (let i = 0; i < t.deps.config.loginMaxFailures; i++) await player({ username: 'pl_one', password: `wrong${i}` }, ip);
    // blocked for this username and address, even with the right password; other addresses are not
    const limited = await player({ username: 'pl_one', password: 'pwone9' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
    expect((await player({ username: 'pl_one', password: 'pwone9' }, '203.0.113.78')).json().user_info.auth).toBe(1);
    const logged = await t.database.db.selectFrom('logs').select('action').where('action', '=', 'line_auth_rate_limited').execute();
    expect(logged.length).toBeGreaterThan(0);
    // the panel's sign-in keys are apart: the same address still signs in
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: ip, payload: { username: 'player_res', password: PASS } })).statusCode).toBe(200);
  });

  it('the OpenAPI document shows the public player and edge routes, without a token', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of ['/player_api.php', '/get.php', '/gateway/auth']) {
      expect(doc.paths[path]?.get, path).toBeDefined();
      expect(doc.paths[path].get.security, path).toEqual([]);
    }
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [url, field] of [
      ['/player_api.php?password=x', 'username'],
      ['/get.php?username=a&password=b&type=m3u9', 'type'],
      [`/player_api.php?username=${'a'.repeat(101)}&password=x`, 'username'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().field, url).toBe(field);
    }
  });
  it('lists are built once per catalogue version, sent with an ETag, and change with the catalogue and the bouquets', async () => {
    const creds = { username: 'pl_one', password: 'pwone9' };
    const names = (res: { body: string }) => (JSON.parse(res.body) as { name: string }[]).map((c) => c.name);
    const first = await player({ ...creds, action: 'get_live_streams' });
    expect([first.statusCode, names(first)]).toEqual([200, ['News One', 'News Two']]);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    // another line with the same bouquet gets the same list, and a player that holds it gets 304
    await createLine(t, reseller.token, { package_id: packageA, username: 'pl_same', password: 'pwsame9' });
    const other = await player({ username: 'pl_same', password: 'pwsame9', action: 'get_live_streams' });
    expect([other.headers.etag, other.body]).toEqual([etag, first.body]);
    const again = await t.app.inject({ method: 'GET', url: `/player_api.php?${new URLSearchParams({ ...creds, action: 'get_live_streams' })}`, headers: { 'if-none-match': etag } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    // gzipped once for players that accept it: the same list
    const zipped = await t.app.inject({ method: 'GET', url: `/player_api.php?${new URLSearchParams({ ...creds, action: 'get_live_streams' })}`, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect([zipped.headers['content-encoding'], zipped.headers.etag, gunzipSync(zipped.rawPayload).toString()]).toEqual(['gzip', etag, first.body]);
    const refused = await t.app.inject({ method: 'GET', url: `/player_api.php?${new URLSearchParams({ ...creds, action: 'get_live_streams' })}`, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect([refused.headers['content-encoding'], refused.body]).toEqual([undefined, first.body]);
    // other lists and categories name themselves apart
    const categories = await player({ ...creds, action: 'get_live_categories' });
    expect(categories.headers.etag).not.toBe(etag);
    expect((JSON.parse(categories.body) as { category_name: string }[]).map((c) => c.category_name)).toEqual(['News']);
    // the profile answer holds the password: never kept
    expect((await player(creds)).headers['cache-control']).toBe('no-store');

    // a channel added to the catalogue shows at the next request, under a new ETag
    await importM3u(t, admin, m3u([{ name: 'News Three', group: 'News', url: 'http://origin.example/live/src/src/103.ts' }]));
    const grown = await t.app.inject({ method: 'GET', url: `/player_api.php?${new URLSearchParams({ ...creds, action: 'get_live_streams' })}`, headers: { 'if-none-match': etag } });
    expect([grown.statusCode, names(grown)]).toEqual([200, ['News One', 'News Two', 'News Three']]);
    expect(grown.headers.etag).not.toBe(etag);

    // a bouquet that no longer holds the category: the list empties at once
    await setBouquet(t, admin, bouquetA, { categories: [], streams: [cat.streams['Heist Movie']] }, 'A');
    expect(names(await player({ ...creds, action: 'get_live_streams' }))).toEqual([]);
    expect(JSON.parse((await player({ ...creds, action: 'get_live_categories' })).body)).toEqual([]);
    await setBouquet(t, admin, bouquetA, { categories: [cat.categories.News], streams: [cat.streams['Heist Movie']] }, 'A');
    expect(names(await player({ ...creds, action: 'get_live_streams' }))).toEqual(['News One', 'News Two', 'News Three']);

    // PLAYER_CACHE_MB=0: the same list, streamed as built, without an ETag
    const cached = await player({ ...creds, action: 'get_live_streams' });
    t.deps.config.playerCacheMb = 0;
    try {
      const streamed = await player({ ...creds, action: 'get_live_streams' });
      expect([streamed.statusCode, streamed.headers.etag, streamed.headers['cache-control'], streamed.body]).toEqual([200, undefined, 'no-store', cached.body]);
      expect(JSON.parse((await player({ ...creds, action: 'get_live_categories' })).body)).toEqual([{ category_id: String(cat.categories.News), category_name: 'News', parent_id: 0 }]);
    } finally {
      t.deps.config.playerCacheMb = 64;
    }
  });

  it('get.php: lines with the same bouquets share one kept playlist, each with its own credentials, and a catalogue change shows at once', async () => {
    const urls = async (creds: { username: string; password: string }, extra: Record<string, string> = {}) =>
      parser.parse((await playlist({ ...creds, ...extra })).body).items.map((i) => i.url);
    await createLine(t, reseller.token, { package_id: packageA, username: 'pl_twin', password: 'pw@twin.9' });
    const one = await urls({ username: 'pl_one', password: 'pwone9' });
    const twin = await urls({ username: 'pl_twin', password: 'pw@twin.9' });
    expect(one).toHaveLength(4);
    // the same entries; each line's own (escaped) credentials in every URL, never the other's
    expect(twin).toEqual(one.map((u) => u.replace('/pl_one/pwone9/', `/pl_twin/${encodeURIComponent('pw@twin.9')}/`)));
    expect(twin.join('\n')).not.toContain('pwone9');
    // the format is part of what is kept: HLS links are their own playlist
    expect((await urls({ username: 'pl_twin', password: 'pw@twin.9' }, { output: 'm3u8' }))[0]).toMatch(/\/pl_twin\/.+\.m3u8$/);
    // two templates kept (MPEG-TS and HLS links), and no line's credentials in them
    const cache = listCacheOf(t.deps);
    const version = await catalogueVersion(t.database.db);
    const templates = [`${version}|get.php|plus|ts|${base}|${bouquetA}`, `${version}|get.php|plus|m3u8|${base}|${bouquetA}`];
    expect(templates.filter((k) => cache?.lists.has(k))).toEqual(templates);
    for (const key of templates) expect(cache?.lists.get(key)?.body).not.toMatch(/pl_one|pwone9|pl_twin|twin\.9/);
    // a channel added to the catalogue is in the next playlist
    const before = await t.database.db.selectFrom('streams').select('id').where('name', '=', 'News Four').executeTakeFirst();
    expect(before).toBeUndefined();
    await importM3u(t, admin, m3u([{ name: 'News Four', group: 'News', url: 'http://origin.example/live/src/src/104.ts' }]));
    const names = parser.parse((await playlist({ username: 'pl_twin', password: 'pw@twin.9' })).body).items.map((i) => i.name);
    expect(names).toContain('News Four');
    // a player that accepts gzip gets the same text compressed (its credentials make it its own)
    const zipped = await playlist({ username: 'pl_twin', password: 'pw@twin.9' }); // fetch accepts gzip
    expect([zipped.statusCode, zipped.headers['content-encoding'], zipped.headers['cache-control']]).toEqual([200, 'gzip', 'no-store']);
    const plain = await fetch(`${base}/get.php?${new URLSearchParams({ username: 'pl_twin', password: 'pw@twin.9' })}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const kept = await plain.text();
    expect(zipped.body).toBe(kept);
    // PLAYER_CACHE_MB=0: the same playlist, written as the rows arrive
    t.deps.config.playerCacheMb = 0;
    try {
      expect((await playlist({ username: 'pl_twin', password: 'pw@twin.9' })).body).toBe(kept);
    } finally {
      t.deps.config.playerCacheMb = 64;
    }
  });
});
