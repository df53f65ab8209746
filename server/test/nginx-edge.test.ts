import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import parser from 'iptv-playlist-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importM3u, m3u, setBouquet } from './catalogue-fixtures.ts';
import { NGINX, type Nginx, SEGMENTS, countingProxy, edgeConf, freePort, segment, startNginx, writeHls } from './edge/nginx.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { waitFor } from './wait.ts';

// A line plays through a real nginx edge (Debian's package) configured with docs/nginx-edge.conf:
// nginx serves a small HLS stream written by the test, asking the panel (auth_request ->
// /gateway/auth) and keeping its answer per player (here 2 s, shipped 20 s), and checking the
// panel's signed segment URLs itself (secure_link; here valid 4 s, shipped 30 s). The player only
// uses the URLs the panel and the edge hand out (get.php through the edge, then the playlist's
// segments); a counting proxy between nginx and the panel shows how often the panel is asked.

const PASS = 'Kq7.vX2p_Rz9@tLm';

describe.skipIf(!NGINX && !process.env.CI)(`a line plays through a real nginx edge (${ENGINE})`, () => {
  let t: TestContext;
  let dir: string;
  let nginx: Nginx;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  const KEEP_SECONDS = 2;
  const LINK_SECONDS = 4;
  let edge: string;
  let reseller: string;
  let line: { id: number; username: string; password: string };
  let streamId: number;
  /** in the catalogue and on the edge's disk, but not in the line's bouquets */
  let otherId: number;
  let pkg: number;

  /** A player: its own user agent, fetching through the edge (all from 127.0.0.1). */
  const get = (url: string, ua: string) => fetch(url, { headers: { 'user-agent': ua } });
  /** The playlist's segment URLs, as a player resolves them (signed by the edge for this player). */
  const segmentsOf = async (playlistUrl: string, ua: string) => {
    const res = await get(playlistUrl, ua);
    expect(res.status, nginx.errorLog()).toBe(200);
    return (await res.text())
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => new URL(l, playlistUrl).href);
  };
  const online = async () => (await t.call(reseller, { method: 'GET', url: `/api/users/connections?username=${line.username}` })).json().data;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-edge-'));
    t = await createTestContext({ trustProxy: ['loopback'], edgeLinkSeconds: LINK_SECONDS });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const panelPort = (t.app.server.address() as AddressInfo).port;
    const admin = await t.login('admin');

    await importM3u(
      t,
      admin,
      m3u([
        { name: 'Edge Live', group: 'Edge', url: 'http://origin.example/live/o/o/700.m3u8', tvgId: 'edge.live' },
        { name: 'Edge Premium', group: 'Premium', url: 'http://origin.example/live/o/o/701.m3u8', tvgId: 'edge.premium' },
      ]),
    );
    const stream = (await t.call(admin, { method: 'GET', url: '/api/admin/streams?search=edge%20live' })).json().data[0];
    streamId = stream.id;
    otherId = (await t.call(admin, { method: 'GET', url: '/api/admin/streams?search=edge%20premium' })).json().data[0].id;
    const bq = await createBouquet(t, admin, 'Edge bouquet');
    await setBouquet(t, admin, bq, { categories: [stream.category_id] }, 'Edge bouquet');
    pkg = await createPackage(t, admin, 'Edge monthly', bq);
    const groups = await groupIds(t, admin);
    reseller = (await createSignedInReseller(t, admin, { username: 'edge_res', password: PASS, type: 'reseller', credits: 10, groups })).token;
    line = await createLine(t, reseller, { package_id: pkg });

    const hls = path.join(dir, 'hls');
    writeHls(hls, streamId);
    writeHls(hls, otherId);
    const port = await freePort();
    edge = `http://127.0.0.1:${port}`;
    const server = (await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'nginx-edge', url: edge } })).json();
    proxy = await countingProxy(panelPort);
    nginx = await startNginx(dir, port, edgeConf(proxy.port, port, server.key, hls, { keepSeconds: KEEP_SECONDS }));
    // the edge is the default streaming server: the playlists' stream URLs hand out its address
    const chosen = await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { default_edge: String(server.id) } });
    expect(chosen.statusCode, chosen.body).toBe(200);
  });

  afterAll(async () => {
    await nginx?.stop();
    await proxy?.close();
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('plays the stream whose URL the panel hands out, and shows the player online', async () => {
    // the web's default link (output=m3u8), asked through the edge, which passes it on to the panel
    const list = await get(`${edge}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=m3u8`, 'PlayerOne/1.0');
    expect(list.status).toBe(200);
    const items = parser.parse(await list.text()).items;
    expect(items.map((i) => i.name)).toEqual(['Edge Live']);
    const url = items[0].url;
    expect(url).toBe(`${edge}/live/${line.username}/${line.password}/${streamId}.m3u8`);

    const playlist = await get(url, 'PlayerOne/1.0');
    expect(playlist.status, nginx.errorLog()).toBe(200);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const segments = (await playlist.text()).split('\n').filter((l) => l.includes('.ts'));
    expect(segments).toHaveLength(SEGMENTS);
    for (const [n, name] of segments.entries()) {
      // the edge signed each segment for this player: e=<expiry>&t=<MD5, base64url>
      expect(name).toMatch(new RegExp(`^${streamId}/seg${n}\\.ts\\?e=\\d{10}&t=[A-Za-z0-9_-]{22}$`));
      const res = await get(new URL(name, url).href, 'PlayerOne/1.0');
      expect(res.status, name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(segment(n))).toBe(true);
    }

    // the playlist: one question to the panel; the segments: none (nginx checks their signature)
    expect(proxy.authCalls()).toBe(1);

    const rows = await online();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: line.id, watching: 'Edge Live', server_name: 'nginx-edge', user_ip: '127.0.0.1', user_agent: 'PlayerOne/1.0' });
  });

  it('a player reloading its playlist every 200 ms is asked about once per kept answer, its segments never', async () => {
    const before = proxy.authCalls();
    const url = `${edge}/live/${line.username}/${line.password}/${streamId}.m3u8`;
    const started = Date.now();
    let fetched = 0;
    while (Date.now() - started < 2.5 * KEEP_SECONDS * 1000) {
      const segments = await segmentsOf(url, 'PlayerOne/1.0');
      expect((await get(segments[fetched % SEGMENTS], 'PlayerOne/1.0')).status).toBe(200);
      fetched++;
      await new Promise((r) => setTimeout(r, 200));
    }
    const asked = proxy.authCalls() - before;
    // 2.5 kept periods: at most 3 questions (nginx keeps an answer 2 to 3 s here; shipped 20 s, so
    // about 3 a minute) for some 25 playlists and segments; at least one, the answer from before
    // having run out
    expect(fetched).toBeGreaterThan(10);
    expect(asked, `${fetched} playlists`).toBeGreaterThanOrEqual(1);
    expect(asked, `${fetched} playlists`).toBeLessThanOrEqual(3);
  });

  it('a signed segment URL serves only its player, its stream and its lifetime', async () => {
    const url = `${edge}/live/${line.username}/${line.password}/${streamId}.m3u8`;
    const [first] = await segmentsOf(url, 'PlayerOne/1.0');
    expect((await get(first, 'PlayerOne/1.0')).status).toBe(200);
    // a user agent with a byte outside ASCII (sent as latin1): the panel signs the bytes nginx checks
    const second = await createLine(t, reseller, { package_id: pkg });
    const [odd] = await segmentsOf(`${edge}/live/${second.username}/${second.password}/${streamId}.m3u8`, 'Player\u00fc/1.0');
    expect((await get(odd, 'Player\u00fc/1.0')).status).toBe(200);
    const before = proxy.authCalls();
    // copied to another player (user agent), unsigned, tampered, or pointed at another stream
    expect((await get(first, 'LeakedTo/1.0')).status).toBe(403);
    expect((await get(first.split('?')[0], 'PlayerOne/1.0')).status).toBe(403);
    const tampered = first.replace(/e=(\d+)/, (_, e) => `e=${Number(e) + 3600}`);
    expect((await get(tampered, 'PlayerOne/1.0')).status).toBe(403);
    expect((await get(first.replace(`/${streamId}/`, `/${otherId}/`), 'PlayerOne/1.0')).status).toBe(403);
    // none of that asked the panel
    expect(proxy.authCalls()).toBe(before);
    // after its lifetime (4 s here, 30 s shipped) it is refused, while the player's fresh ones play.
    // nginx checks the lifetime on its own (real) clock: the player asks until it is turned away.
    const expires = Number(new URL(first).searchParams.get('e'));
    const refused = await waitFor(
      async () => {
        const status = (await get(first, 'PlayerOne/1.0')).status;
        return status === 200 ? undefined : status;
      },
      { timeoutMs: (LINK_SECONDS + 5) * 1000, everyMs: 100, what: 'the signed link to run out' },
    );
    expect(refused).toBe(410);
    expect(Date.now(), 'refused before its lifetime ended').toBeGreaterThanOrEqual(expires * 1000);
    const [fresh] = await segmentsOf(url, 'PlayerOne/1.0');
    expect((await get(fresh, 'PlayerOne/1.0')).status).toBe(200);
  });

  it('serves no stream outside the bouquets, whatever the form of the path (dot segments, escapes, double slashes)', async () => {
    // fetch() would normalise these paths itself: send them as written
    const raw = (p: string) =>
      new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: Number(new URL(edge).port), path: p, headers: { 'user-agent': 'PlayerOne/1.0' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
        });
        req.on('error', reject);
        req.end();
      });
    const base = `/live/${line.username}/${line.password}`;
    const [mine, other] = [String(streamId), String(otherId)];
    expect((await raw(`${base}/${mine}.m3u8`)).status, nginx.errorLog()).toBe(200);
    expect((await raw(`${base}/${other}.m3u8`)).status).toBe(403);
    const forbidden = segment(0);
    const variants = [
      `${base}/${mine}/../${other}.m3u8`,
      `${base}/${mine}/../${other}/seg0.ts`,
      `${base}/${mine}/%2e%2e/${other}/seg0.ts`,
      `${base}/${mine}/%2E%2E/${other}.m3u8`,
      `${base}/${mine}/./../${other}.m3u8`,
      `${base}/${mine}//..//${other}.m3u8`,
      `${base}/${mine}/.%2e/${other}/seg0.ts`,
      `${base}/${mine}/%2e./${other}/seg0.ts`,
      `${base}/${mine}/..%2f${other}/seg0.ts`,
      `${base}/${mine}/seg0.ts/../../${other}/seg0.ts`,
      `${base}/${mine}/x/../../${other}.m3u8`,
      `${base}/${mine}/./../${other}/./seg0.ts`,
      `${base}/${mine}/%2e%2e%2f${other}%2fseg0.ts`,
      `${base}//${mine}/../${other}.m3u8`,
      `${base}/${mine}/.././${other}.m3u8?x=1`,
      `/live/${line.username}/${line.password}/../${line.password}/${other}.m3u8`,
      `/live/${line.username}/./${line.password}/${other}.m3u8`,
      `/live/${line.username}/${line.password}/${mine}/..;/${other}.m3u8`,
    ];
    for (const v of variants) {
      const res = await raw(v);
      expect(res.status, v).not.toBe(200);
      expect(res.body.includes(forbidden) || res.body.toString().includes('seg0.ts'), v).toBe(false);
    }
    // a signed query of the line's own stream does not open another stream's segments either
    const [signed] = await segmentsOf(`${edge}${base}/${mine}.m3u8`, 'PlayerOne/1.0');
    const query = new URL(signed).search;
    for (const v of [`${base}/${other}/seg0.ts${query}`, `${base}/${mine}/../${other}/seg0.ts${query}`, `${base}/${mine}/%2e%2e/${other}/seg0.ts${query}`]) {
      expect((await raw(v)).status, v).toBe(403);
    }
    // the line's own stream still plays, segments included
    expect((await raw(`${base}/${mine}/seg0.ts${query}`)).status).toBe(200);
    expect(await online()).toHaveLength(1);
  });

  it('refuses a second player past max_connections, and anything without the right credentials', async () => {
    const url = `${edge}/live/${line.username}/${line.password}/${streamId}.m3u8`;
    expect((await get(url, 'PlayerTwo/2.0')).status).toBe(403);
    expect((await get(`${edge}/live/${line.username}/wrong/${streamId}.m3u8`, 'PlayerOne/1.0')).status).toBe(403);
    expect((await get(`${edge}/live/${line.username}/${line.password}/${streamId}/seg0.ts`, 'PlayerTwo/2.0')).status).toBe(403);
    // players cannot ask the gateway themselves through the edge
    expect((await get(`${edge}/gateway/auth`, 'PlayerTwo/2.0')).status).toBe(404);
    expect(await online()).toHaveLength(1);
  });

  it('after a disconnect from the API, the player is refused once the kept answer and its signed segment URLs run out', async () => {
    const url = `${edge}/live/${line.username}/${line.password}/${streamId}.m3u8`;
    const [held] = await segmentsOf(url, 'PlayerOne/1.0');
    const [row] = await online();
    const res = await t.call(reseller, { method: 'POST', url: `/api/users/connections/${line.id}/${row.activity_id}/disconnect` });
    expect(res.json()).toEqual({ message: 'user disconnected successfully' });
    await expectRefusedWithin(url, 'PlayerOne/1.0', KEEP_SECONDS, 403);
    await expectRefusedWithin(held, 'PlayerOne/1.0', LINK_SECONDS, 410);
    expect(await online()).toEqual([]);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|crit|alert)\]/);
  });

  it('after a block from the API, the player is refused once the kept answer runs out', async () => {
    const blocked = await createLine(t, reseller, { package_id: pkg });
    const url = `${edge}/live/${blocked.username}/${blocked.password}/${streamId}.m3u8`;
    const [held] = await segmentsOf(url, 'PlayerThree/3.0');
    expect((await get(held, 'PlayerThree/3.0')).status).toBe(200);
    expect((await t.call(reseller, { method: 'POST', url: `/api/users/${blocked.id}/block` })).statusCode).toBe(200);
    await expectRefusedWithin(url, 'PlayerThree/3.0', KEEP_SECONDS, 403);
    await expectRefusedWithin(held, 'PlayerThree/3.0', LINK_SECONDS, 410);
  });

  /** The player keeps fetching (every 100 ms) and is refused with `status` within `seconds`. */
  async function expectRefusedWithin(url: string, ua: string, seconds: number, status: number) {
    const since = Date.now();
    let got = 200;
    while (got === 200 && Date.now() - since < (seconds + 3) * 1000) {
      got = (await get(url, ua)).status;
      if (got === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(got).toBe(status);
    // within that time (and a little for a loaded machine); shipped: 20 s and 30 s
    expect(Date.now() - since).toBeLessThan((seconds + 1.5) * 1000);
  }
});
