import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { flushSeen } from '../src/modules/connections/service.ts';
import { type Catalogue, seedCatalogue, setBouquet } from './catalogue-fixtures.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// Edge authorization (nginx auth_request contract), connection tracking, the online list and
// disconnects, driven the way an edge asks: one GET /gateway/auth per client request.

const PASS = 'Kq7.vX2p_Rz9@tLm';
type Line = { id: number; username: string; password: string };

describe(`edge gateway and online users (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let cat: Catalogue;
  let key: string;
  let serverId: number;
  const who: Record<'masterA' | 'resA' | 'masterB', { id: number; token: string }> = {} as never;
  const L: Record<'a1' | 'a2' | 'b1' | 'trial', Line> = {} as never;

  const uri = (line: Line, stream: number, tail = '.m3u8') => `/live/${line.username}/${line.password}/${stream}${tail}`;
  const ask = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/gateway/auth', headers });
  const edge = (line: Line, stream: number, client: { ip: string; ua: string }, tail?: string, edgeKey = key) =>
    ask({ 'x-edge-key': edgeKey, 'x-original-uri': uri(line, stream, tail), 'x-real-ip': client.ip, 'user-agent': client.ua });
  const verdict = async (p: ReturnType<typeof edge>) => {
    const res = await p;
    return res.statusCode === 204 ? 'allow' : `${res.statusCode} ${res.headers['x-refused-reason']}`;
  };
  const online = async (token: string, query = '') => (await t.call(token, { method: 'GET', url: `/api/users/connections${query}` })).json();
  const disconnect = (token: string, lineId: number, activityId: number) => t.call(token, { method: 'POST', url: `/api/users/connections/${lineId}/${activityId}/disconnect` });
  const setActivity = (lineId: number, values: { last_seen?: number; banned_until?: number }) => t.database.db.updateTable('line_activity').set(values).where('line_id', '=', lineId).execute();
  const A = { ip: '198.51.100.10', ua: 'TiviMate/4.7' };
  const B = { ip: '198.51.100.20', ua: 'VLC/3.0.20' };

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    cat = await seedCatalogue(t, admin);
    const bq = await createBouquet(t, admin, 'Gateway');
    await setBouquet(t, admin, bq, { categories: [cat.categories.News], streams: [cat.streams['Heist Movie']] }, 'Gateway');
    const pkg = await createPackage(t, admin, 'Gateway monthly', bq);
    const trialPkg = await createPackage(t, admin, 'Gateway trial', bq, { is_trial: 1, is_official: 0 });
    const groups = await groupIds(t, admin);
    const reseller = (by: string, username: string, type: 'master' | 'reseller') => createSignedInReseller(t, by, { username, password: PASS, type, credits: 50, groups });
    who.masterA = await reseller(admin, 'gw_master_a', 'master');
    who.resA = await reseller(who.masterA.token, 'gw_res_a', 'reseller');
    who.masterB = await reseller(admin, 'gw_master_b', 'master');
    const line = async (token: string, username: string, trial = false) => {
      const made = await createLine(t, token, { package_id: trial ? trialPkg : pkg, username, password: `${username}pw` }, { trial });
      return { id: made.id as number, username, password: `${username}pw` };
    };
    L.a1 = await line(who.resA.token, 'gw_a1');
    L.a2 = await line(who.resA.token, 'gw_a2');
    L.trial = await line(who.resA.token, 'gw_trial', true);
    L.b1 = await line(who.masterB.token, 'gw_b1');
    const created = await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'edge-1', url: 'https://edge1.example.com/' } });
    expect(created.statusCode, created.body).toBe(201);
    ({ key, id: serverId } = created.json());
  });
  afterAll(() => t?.close());

  it('registers edges: the key is shown once and only its hash is stored', async () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const listed = (await t.call(admin, { method: 'GET', url: '/api/admin/servers' })).json().data;
    expect(listed).toEqual([{ id: serverId, name: 'edge-1', url: 'https://edge1.example.com', created_at: expect.any(Number) }]);
    const stored = await t.database.db.selectFrom('servers').selectAll().executeTakeFirstOrThrow();
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect((await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'x', url: 'ftp://edge.example' } })).json().field).toBe('url');
    expect((await t.call(who.masterA.token, { method: 'POST', url: '/api/admin/servers', payload: { name: 'x', url: 'http://e.example' } })).statusCode).toBe(403);
    expect((await t.call(who.masterA.token, { method: 'GET', url: '/api/admin/servers' })).statusCode).toBe(403);
  });

  it('answers 401 to an unknown edge and 403 to whatever is not an allowed stream request', async () => {
    expect(await verdict(edge(L.a1, cat.streams['News One'], A, '.m3u8', 'not-the-key'))).toBe('401 unknown edge key');
    expect((await ask({ 'x-original-uri': uri(L.a1, cat.streams['News One']), 'x-real-ip': A.ip })).statusCode).toBe(401);
    const refusals: [string, Record<string, string>, string][] = [
      ['panel page', { 'x-original-uri': '/api/users' }, 'not a stream URI'],
      ['no stream id', { 'x-original-uri': `/live/${L.a1.username}/${L.a1.password}/abc.ts` }, 'not a stream URI'],
      ['no address', { 'x-original-uri': uri(L.a1, cat.streams['News One']), 'x-real-ip': 'nowhere' }, 'no client address (X-Real-IP)'],
      ['wrong password', { 'x-original-uri': `/live/${L.a1.username}/nope/${cat.streams['News One']}.ts` }, 'wrong username or password'],
      ['not in the bouquet', { 'x-original-uri': uri(L.a1, cat.streams['Sports One']) }, "stream not in the line's bouquets"],
      ['wrong kind', { 'x-original-uri': `/movie/${L.a1.username}/${L.a1.password}/${cat.streams['News One']}.mp4` }, "stream not in the line's bouquets"],
      ['no such stream', { 'x-original-uri': uri(L.a1, 999_999) }, "stream not in the line's bouquets"],
    ];
    for (const [what, headers, reason] of refusals) {
      const res = await ask({ 'x-edge-key': key, 'x-real-ip': '192.0.2.9', 'user-agent': 'probe', ...headers });
      expect([res.statusCode, res.headers['x-refused-reason']], what).toEqual([403, reason]);
    }
  });

  it('allows a stream of the bouquet with its segments, tracks one connection and shows it online', async () => {
    const res = await edge(L.a1, cat.streams['News One'], A);
    expect(res.statusCode).toBe(204);
    expect(res.headers['x-stream-source']).toBe('http://origin.example/live/src/src/101.ts');
    expect(await verdict(edge(L.a1, cat.streams['News One'], A, '/seg-00001.ts'))).toBe('allow');
    expect(await verdict(edge(L.a1, cat.streams['News One'], A, '/1080p/seg-00002.ts?token=x'))).toBe('allow');
    // the same player on another stream changed channel: its connection moves, the screen stays one
    expect(await verdict(edge(L.a1, cat.streams['News Two'], A))).toBe('allow');
    expect((await online(who.resA.token)).data.map((r: { watching: string }) => r.watching)).toEqual(['News Two']);
    expect(await verdict(edge(L.a1, cat.streams['News One'], A, '/seg-00004.ts'))).toBe('allow');
    // (the connection ended by the change of channel is not banned: it came back)
    const movie = `/movie/${L.a1.username}/${L.a1.password}/${cat.streams['Heist Movie']}.mp4`;
    const other = await ask({ 'x-edge-key': key, 'x-original-uri': movie, 'x-real-ip': B.ip, 'user-agent': B.ua });
    expect([other.statusCode, other.headers['x-refused-reason']]).toEqual([403, 'max_connections reached']);

    const list = await online(who.resA.token);
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id: L.a1.id, user_id: L.a1.id, username: 'gw_a1', master_username: 'gw_res_a', watching: 'News One', server_name: 'edge-1', user_ip: A.ip, user_agent: A.ua });
    expect(list.data[0].elapsed).toBeGreaterThanOrEqual(0);
    expect((await online(who.masterA.token)).meta.total).toBe(1);
    expect((await online(admin)).meta.total).toBe(1);
    const player = (await t.app.inject({ method: 'GET', url: `/player_api.php?username=gw_a1&password=gw_a1pw` })).json();
    expect(player.user_info.active_cons).toBe('1');
  });

  it('refuses a connection past max_connections until the first one goes quiet', async () => {
    expect(await verdict(edge(L.a1, cat.streams['News One'], B))).toBe('403 max_connections reached');
    expect(await verdict(edge(L.a1, cat.streams['News One'], { ...A, ua: 'Another/1.0' }))).toBe('403 max_connections reached');
    await setActivity(L.a1.id, { last_seen: nowSec() - t.deps.config.onlineWindowSeconds - 1 });
    expect(await verdict(edge(L.a1, cat.streams['News One'], B))).toBe('allow');
    expect(await verdict(edge(L.a1, cat.streams['News One'], A))).toBe('403 max_connections reached');
    const rows = (await online(who.resA.token, '?username=gw_a1')).data;
    expect(rows.map((r: { user_ip: string }) => r.user_ip)).toEqual([B.ip]);
  });

  it("disconnects: 'user disconnected successfully', the next segment is refused, the ban ends", async () => {
    const [row] = (await online(who.resA.token, '?username=gw_a1')).data;
    const res = await disconnect(who.masterA.token, L.a1.id, row.activity_id);
    expect([res.statusCode, res.json()]).toEqual([200, { message: 'user disconnected successfully' }]);
    expect(await verdict(edge(L.a1, cat.streams['News One'], B, '/seg-00003.ts'))).toBe('403 connection ended by a disconnect');
    // changing channel does not get the player past it, nor does changing its user agent
    expect(await verdict(edge(L.a1, cat.streams['News Two'], B))).toBe('403 connection ended by a disconnect');
    expect(await verdict(edge(L.a1, cat.streams['News One'], { ip: B.ip, ua: 'Another Player/9.9' }))).toBe('403 connection ended by a disconnect');
    expect(await verdict(edge(L.a1, cat.streams['News One'], { ip: B.ip, ua: '' }, '/seg-00004.ts'))).toBe('403 connection ended by a disconnect');
    expect((await online(who.resA.token)).meta.total).toBe(0);
    expect((await disconnect(who.masterA.token, L.a1.id, row.activity_id)).statusCode).toBe(404);
    const log = await t.database.db.selectFrom('logs').select(['target_user', 'value_int']).where('action', '=', 'user_disconnect').executeTakeFirstOrThrow();
    expect(log).toEqual({ target_user: 'gw_a1', value_int: row.activity_id });
    // the ban is for that connection only, and only DISCONNECT_BAN_SECONDS long
    await setActivity(L.a1.id, { banned_until: nowSec() - 1 });
    expect(await verdict(edge(L.a1, cat.streams['News One'], B))).toBe('allow');
  });

  it("another subtree's connections are invisible: not listed, disconnect is 404", async () => {
    expect(await verdict(edge(L.b1, cat.streams['News Two'], A))).toBe('allow');
    const mine = (await online(who.masterB.token)).data;
    expect(mine.map((r: { username: string }) => r.username)).toEqual(['gw_b1']);
    expect((await online(who.masterA.token)).data.map((r: { username: string }) => r.username)).toEqual(['gw_a1']);
    expect((await online(who.masterA.token, '?username=gw_b1')).meta.total).toBe(0);
    const foreign = await disconnect(who.masterA.token, L.b1.id, mine[0].activity_id);
    expect([foreign.statusCode, foreign.json().code]).toEqual([404, 'NOT_FOUND']);
    const mismatched = await disconnect(who.masterB.token, L.a1.id, mine[0].activity_id);
    expect(mismatched.statusCode).toBe(404);
    expect(await verdict(edge(L.b1, cat.streams['News Two'], A, '/seg.ts'))).toBe('allow');
    expect((await t.call(who.resA.token, { method: 'POST', url: `/api/users/connections/${L.b1.id}/0/disconnect` })).statusCode).toBe(400);
  });

  it('filters the online list by username, reseller, type_user, status and created', async () => {
    expect(await verdict(edge(L.trial, cat.streams['News One'], A))).toBe('allow');
    const names = async (query: string) => (await online(admin, query)).data.map((r: { username: string }) => r.username).sort();
    expect(await names('')).toEqual(['gw_a1', 'gw_b1', 'gw_trial']);
    expect(await names('?username=GW_A')).toEqual(['gw_a1']);
    expect(await names('?reseller=gw_master_b')).toEqual(['gw_b1']);
    expect(await names('?type_user=trial')).toEqual(['gw_trial']);
    expect(await names('?status=3')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await names(`?created=${today}`)).toEqual(['gw_a1', 'gw_b1', 'gw_trial']);
    expect(await names('?created=2001-01-01')).toEqual([]);
    expect((await t.call(admin, { method: 'GET', url: '/api/users/connections?created=yesterday' })).json().field).toBe('created');
    expect((await t.call(admin, { method: 'GET', url: '/api/users/connections?order_by=password,asc' })).json().field).toBe('order_by');
  });

  it("the dashboard's online cards count open connections of the caller's scope", async () => {
    const cards = async (token: string) => {
      const d = (await t.call(token, { method: 'GET', url: '/api/dashboard' })).json();
      return [d.users_online, d.users_online_of_resellers, d.conections_online];
    };
    expect(await cards(admin)).toEqual([3, 3, 3]);
    expect(await cards(who.masterA.token)).toEqual([2, 2, 2]);
    expect(await cards(who.resA.token)).toEqual([2, 0, 2]);
    expect(await cards(who.masterB.token)).toEqual([1, 0, 1]);
    await setActivity(L.trial.id, { last_seen: nowSec() - t.deps.config.onlineWindowSeconds - 1 });
    expect(await cards(who.resA.token)).toEqual([1, 0, 1]);
  });

  it('blocking a line ends its connections at once; unblocked, it connects again', async () => {
    expect(await verdict(edge(L.a2, cat.streams['News Two'], B))).toBe('allow');
    expect((await t.call(who.resA.token, { method: 'POST', url: `/api/users/${L.a2.id}/block` })).statusCode).toBe(200);
    expect(await verdict(edge(L.a2, cat.streams['News Two'], B, '/seg.ts'))).toBe('403 line banned');
    expect((await online(who.resA.token, '?username=gw_a2')).meta.total).toBe(0);
    await t.call(who.resA.token, { method: 'POST', url: `/api/users/${L.a2.id}/unblock` });
    await setActivity(L.a2.id, { banned_until: nowSec() - 1 });
    expect(await verdict(edge(L.a2, cat.streams['News Two'], B))).toBe('allow');
  });

  it("with max_connections_policy 'drop_oldest' a new connection ends the oldest", async () => {
    await t.database.db.insertInto('settings').values({ key: 'max_connections_policy', value: 'drop_oldest' }).onConflict((oc) => oc.column('key').doUpdateSet({ value: 'drop_oldest' })).execute();
    try {
      expect(await verdict(edge(L.a2, cat.streams['News Two'], A))).toBe('allow');
      expect(await verdict(edge(L.a2, cat.streams['News Two'], B, '/seg.ts'))).toBe('403 connection ended by a disconnect');
      expect((await online(who.resA.token, '?username=gw_a2')).data.map((r: { user_ip: string }) => r.user_ip)).toEqual([A.ip]);
    } finally {
      await t.database.db.deleteFrom('settings').where('key', '=', 'max_connections_policy').execute();
    }
  });

  it('lets exactly max_connections of many simultaneous new connections through', async () => {
    const fresh = L.b1;
    await t.database.db.deleteFrom('line_activity').where('line_id', '=', fresh.id).execute();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => verdict(edge(fresh, cat.streams['News One'], { ip: `192.0.2.${i + 1}`, ua: `Player/${i}` }))));
    expect(answers.filter((a) => a === 'allow')).toHaveLength(1);
    expect(answers.filter((a) => a === '403 max_connections reached')).toHaveLength(11);
  });

  it("writes an open connection's refreshes behind the requests, many in one transaction", async () => {
    const [row] = (await online(who.resA.token, '?username=gw_a2')).data;
    await setActivity(L.a2.id, { last_seen: nowSec() - 20 });
    expect(await verdict(edge(L.a2, cat.streams['News Two'], A, '/seg9.ts'))).toBe('allow');
    const seen = async () => Number((await t.database.db.selectFrom('line_activity').select('last_seen').where('activity_id', '=', row.activity_id).executeTakeFirstOrThrow()).last_seen);
    expect(await seen()).toBeLessThanOrEqual(nowSec() - 19);
    await flushSeen(t.deps);
    expect(await seen()).toBeGreaterThanOrEqual(nowSec() - 1);
  });

  it("an open connection's every question is decided afresh: bouquet contents, package, password, expiry, block", async () => {
    const bq = await createBouquet(t, admin, 'Gateway fresh');
    await setBouquet(t, admin, bq, { categories: [cat.categories.News] }, 'Gateway fresh');
    const pkg = await createPackage(t, admin, 'Gateway fresh monthly', bq);
    const fresh = async (username: string) => {
      const made = await createLine(t, who.resA.token, { package_id: pkg, username, password: `${username}pw` });
      const line = { id: made.id as number, username, password: `${username}pw` };
      // open, then asked again as an open connection (the one-statement path)
      expect(await verdict(edge(line, cat.streams['News One'], A))).toBe('allow');
      expect(await verdict(edge(line, cat.streams['News One'], A))).toBe('allow');
      return line;
    };
    const one = await fresh('gw_fresh1');
    // the bouquet loses the category: the catalogue's version moves, the kept entitlement with it
    await setBouquet(t, admin, bq, { categories: [cat.categories.Sports] }, 'Gateway fresh');
    expect(await verdict(edge(one, cat.streams['News One'], A))).toBe("403 stream not in the line's bouquets");
    await setBouquet(t, admin, bq, { categories: [cat.categories.News] }, 'Gateway fresh');
    expect(await verdict(edge(one, cat.streams['News One'], A))).toBe('allow');

    const two = await fresh('gw_fresh2');
    const changed = await t.call(who.resA.token, { method: 'PUT', url: `/api/users/${two.id}`, payload: { password: 'changed123' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await verdict(edge(two, cat.streams['News One'], A))).toBe('403 wrong username or password');
    expect(await verdict(edge({ ...two, password: 'changed123' }, cat.streams['News One'], A))).toBe('allow');

    const three = await fresh('gw_fresh3');
    await t.database.db.updateTable('lines').set({ exp_date: nowSec() - 1 }).where('id', '=', three.id).execute();
    expect(await verdict(edge(three, cat.streams['News One'], A))).toBe('403 line expired');

    const four = await fresh('gw_fresh4');
    const sports = await createBouquet(t, admin, 'Gateway sports');
    await setBouquet(t, admin, sports, { categories: [cat.categories.Sports] }, 'Gateway sports');
    const moved = await t.call(who.resA.token, { method: 'PUT', url: `/api/users/${four.id}`, payload: { bouquet: [String(sports)] } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await verdict(edge(four, cat.streams['News One'], A))).toBe("403 stream not in the line's bouquets");

    const five = await fresh('gw_fresh5');
    expect((await t.call(who.resA.token, { method: 'POST', url: `/api/users/${five.id}/block` })).statusCode).toBe(200);
    expect(await verdict(edge(five, cat.streams['News One'], A))).toBe('403 line banned');
  });

  it('a player that stopped asking frees its screen after the hold (40 s), before it leaves the online list (60 s)', async () => {
    const { screenHoldSeconds: hold, onlineWindowSeconds: window } = t.deps.config;
    expect(hold).toBeLessThan(window);
    const made = await createLine(t, who.resA.token, { package_id: await createPackage(t, admin, 'Gateway switch', (await createBouquet(t, admin, 'Gateway switch'))) });
    const line = { id: made.id as number, username: made.username as string, password: made.password as string };
    const bq = (await t.database.db.selectFrom('lines').select('bouquet').where('id', '=', line.id).executeTakeFirstOrThrow()).bouquet;
    await setBouquet(t, admin, Number(JSON.parse(bq)[0]), { categories: [cat.categories.News] }, 'Gateway switch');
    const phone = { ip: '203.0.113.5', ua: 'Phone/1.0' };
    const tv = { ip: '203.0.113.6', ua: 'SmartTV/2.0' };
    expect(await verdict(edge(line, cat.streams['News One'], phone))).toBe('allow');
    // the phone asked 30 s ago (an edge asks every 20 s or so while it plays): the TV waits
    await setActivity(line.id, { last_seen: nowSec() - 30 });
    expect(await verdict(edge(line, cat.streams['News One'], tv))).toBe('403 max_connections reached');
    // past the hold the phone has stopped: the TV takes the screen, and the phone coming back is the second device
    await setActivity(line.id, { last_seen: nowSec() - hold - 1 });
    expect((await online(who.resA.token, `?username=${line.username}`)).data).toHaveLength(1);
    expect(await verdict(edge(line, cat.streams['News One'], tv))).toBe('allow');
    expect(await verdict(edge(line, cat.streams['News One'], phone))).toBe('403 max_connections reached');
    expect(await verdict(edge(line, cat.streams['News One'], tv))).toBe('allow');
  });

  it('a removed edge is unknown at once', async () => {
    const other = (await t.call(admin, { method: 'POST', url: '/api/admin/servers', payload: { name: 'edge-2', url: 'http://edge2.example' } })).json();
    expect(await verdict(edge(L.a2, cat.streams['News Two'], A, '/seg.ts', other.key))).toBe('allow');
    expect((await t.call(admin, { method: 'DELETE', url: `/api/admin/servers/${other.id}` })).statusCode).toBe(204);
    expect(await verdict(edge(L.a2, cat.streams['News Two'], A, '/seg.ts', other.key))).toBe('401 unknown edge key');
    expect((await t.call(admin, { method: 'DELETE', url: `/api/admin/servers/${other.id}` })).statusCode).toBe(404);
  });
});
