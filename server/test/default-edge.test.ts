import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue, setBouquet } from './catalogue-fixtures.ts';
import { createBouquet, createPackage, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// Where links point: the stream URLs inside get.php playlists and the player API's
// server_info follow the registered edge the admin chose as default (setting default_edge), while
// the playlist links themselves stay on the panel's address (owner's domain, main_domain, origin).

const PASS = 'Edg3-default_pass';
const PANEL = 'panel.example.net:8080';

describe(`stream URLs follow the default edge (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let reseller: string;
  let line: { id: number; username: string; password: string };
  let liveId: number;
  let movieId: number;
  let edgeId: number;

  const playlist = async (output = 'm3u8') =>
    (await t.app.inject({ method: 'GET', url: `/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=${output}`, headers: { host: PANEL } })).body;
  const serverInfo = async () =>
    (await t.app.inject({ method: 'GET', url: `/player_api.php?username=${line.username}&password=${line.password}`, headers: { host: PANEL } })).json().server_info;
  const links = async () => (await t.call(reseller, { method: 'GET', url: `/api/users/${line.id}/links`, headers: { host: PANEL } })).json();
  const setDefault = (value: string) => t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { default_edge: value } });

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const catalogue = await seedCatalogue(t, admin);
    liveId = catalogue.streams['News One'];
    movieId = catalogue.streams['Heist Movie'];
    const bq = await createBouquet(t, admin, 'Default edge');
    await setBouquet(t, admin, bq, { categories: [catalogue.categories.News], streams: [movieId] }, 'Default edge');
    const pkg = await createPackage(t, admin, 'Default edge monthly', bq);
    const groups = await groupIds(t, admin);
    const res = await t.call(admin, { method: 'POST', url: '/api/resellers', payload: { username: 'edge_owner', password: PASS, member_group_id: groups.reseller, credits: 10 } });
    expect(res.statusCode, res.body).toBe(201);
    reseller = await t.login('edge_owner', PASS);
    const created = await t.call(reseller, { method: 'POST', url: '/api/users', payload: { package_id: pkg } });
    expect(created.statusCode, created.body).toBe(201);
    line = created.json();
    const edge = await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'edge-sp', url: 'https://edge1.example.com:8443/' } });
    expect(edge.statusCode, edge.body).toBe(201);
    edgeId = edge.json().id;
  }, 60_000);
  afterAll(async () => t?.close());

  it('without a default edge, streams are on the address the links use (today: the request origin)', async () => {
    const text = await playlist();
    expect(text).toContain(`http://${PANEL}/live/${line.username}/${line.password}/${liveId}.m3u8`);
    expect(await serverInfo()).toMatchObject({ url: 'panel.example.net', port: '8080', server_protocol: 'http' });
  });

  it('an unknown server id is refused; a registered one is saved', async () => {
    const bad = await setDefault('999999');
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().field).toBe('default_edge');
    expect((await setDefault('abc')).statusCode).toBe(400);
    const ok = await setDefault(String(edgeId));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings.default_edge).toBe(String(edgeId));
  });

  it("get.php's stream URLs and player_api.php's server_info point at the default edge; the links stay on the panel", async () => {
    await setDefault(String(edgeId));
    const text = await playlist();
    expect(text).toContain(`https://edge1.example.com:8443/live/${line.username}/${line.password}/${liveId}.m3u8`);
    expect(text).toContain(`https://edge1.example.com:8443/movie/${line.username}/${line.password}/${movieId}.mp4`);
    expect(text).not.toContain(PANEL);
    expect(await playlist('mpegts')).toContain(`https://edge1.example.com:8443/live/${line.username}/${line.password}/${liveId}.ts`);
    expect(await serverInfo()).toMatchObject({ url: 'edge1.example.com', https_port: '8443', server_protocol: 'https' });
    const l = await links();
    expect(l.m3u8).toBe(`http://${PANEL}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=m3u8`);
    // the main_domain setting moves the links, not the streams
    await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { main_domain: 'tv.example.org' } });
    expect((await links()).m3u8).toMatch(/^http:\/\/tv\.example\.org\/get\.php\?/);
    expect(await playlist()).toContain(`https://edge1.example.com:8443/live/`);
    await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { main_domain: '' } });
  });

  it('emptied, or the edge deleted, streams go back to the links address', async () => {
    await setDefault('');
    expect(await playlist()).toContain(`http://${PANEL}/live/`);
    await setDefault(String(edgeId));
    expect(await playlist()).toContain('https://edge1.example.com:8443/live/');
    expect((await t.call(admin, { method: 'DELETE', url: `/api/admin/servers/${edgeId}` })).statusCode).toBe(204);
    const settings = (await t.call(admin, { method: 'GET', url: '/api/admin/settings' })).json().settings;
    expect(settings.default_edge).toBe('');
    expect(await playlist()).toContain(`http://${PANEL}/live/`);
    expect((await serverInfo()).url).toBe('panel.example.net');
  });
});
