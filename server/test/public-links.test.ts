import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import { up as unsetSeededMainDomain } from '../src/db/migrations/012_main_domain_unset.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, createTestContext } from './helpers.ts';
import type { ShortLink } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';

// Playlist and short links without a configured domain: the main_domain setting starts empty
// (no more http://localhost:3000), so links use PUBLIC_URL, else the address the request came to.

async function world(overrides: Partial<Config> = {}) {
  const t = await createTestContext(overrides);
  const admin = await t.login('admin');
  const groups = await groupIds(t, admin);
  const pkg = await createPackage(t, admin, 'Links', await createBouquet(t, admin, 'Canais'));
  const { token } = await createSignedInReseller(t, admin, { username: 'linkowner', password: PASS, type: 'reseller', credits: 20, groups });
  const line = await createLine(t, token, { package_id: pkg, username: 'linkline', password: 'l1nkpass' });
  return { t, admin, token, lineId: line.id as number };
}

type World = Awaited<ReturnType<typeof world>>;
const Q = 'username=linkline&password=l1nkpass&type=m3u_plus&output=m3u8';

function links(w: World, headers: Record<string, string> = {}) {
  return w.t.call(w.token, { method: 'GET', url: `/api/users/${w.lineId}/links`, headers });
}

async function shortLink(w: World, headers: Record<string, string> = {}) {
  const res = await w.t.call(w.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: w.lineId, type: 'm3u8' }, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ShortLink;
}

const setMainDomain = (w: World, value: string) => w.t.database.db.updateTable('settings').set({ value }).where('key', '=', 'main_domain').execute();

describe(`links without a configured domain (${ENGINE})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  }, 60_000);
  afterAll(async () => w?.t.close());

  it('main_domain starts empty: nothing points at localhost:3000', async () => {
    const complements = await w.t.call(w.admin, { method: 'GET', url: '/api/datacomplements' });
    expect(complements.json().settings.main_domain).toBe('');
    expect(complements.json().public_url).toBeNull();
    const res = await links(w, { host: 'panel.example.net:8080' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('localhost:3000');
  });

  it("the playlist links use the request's origin (host and port)", async () => {
    expect((await links(w, { host: 'panel.example.net:8080' })).json().m3u8).toBe(`http://panel.example.net:8080/get.php?${Q}`);
    expect((await links(w, { host: '192.0.2.7:3111' })).json().m3u8).toBe(`http://192.0.2.7:3111/get.php?${Q}`);
  });

  it('a short link is on the request origin and redirects there', async () => {
    const { url, original } = await shortLink(w, { host: 'painel.example.com:4000' });
    expect(url).toMatch(/^http:\/\/painel\.example\.com:4000\/s\/[A-Za-z0-9_-]{16}$/);
    expect(original).toBe(`http://painel.example.com:4000/get.php?${Q}`);
    const go = await w.t.app.inject({ method: 'GET', url: new URL(url).pathname, headers: { host: 'painel.example.com:4000' } });
    expect(go.statusCode).toBe(302);
    expect(go.headers.location).toBe(`http://painel.example.com:4000/get.php?${Q}`);
  });

  it('X-Forwarded-Proto/Host are ignored without TRUST_PROXY', async () => {
    const res = await links(w, { host: 'direct.example.net', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(res.json().m3u8).toBe(`http://direct.example.net/get.php?${Q}`);
  });

  it('a main_domain set by the admin wins; emptied again, the origin is back', async () => {
    await setMainDomain(w, 'https://tv.main.example');
    try {
      expect((await links(w, { host: 'panel.example.net' })).json().m3u8).toBe(`https://tv.main.example/get.php?${Q}`);
      expect((await shortLink(w, { host: 'panel.example.net' })).url.startsWith('http://panel.example.net/s/')).toBe(true);
    } finally {
      await setMainDomain(w, '');
    }
    expect((await links(w, { host: 'panel.example.net' })).json().m3u8).toBe(`http://panel.example.net/get.php?${Q}`);
  });

  it('the migration clears the old seeded localhost value only while unchanged', async () => {
    await setMainDomain(w, 'http://localhost:3000');
    await unsetSeededMainDomain(w.t.database.db);
    expect((await links(w, { host: 'panel.example.net' })).json().m3u8).toBe(`http://panel.example.net/get.php?${Q}`);
    await setMainDomain(w, 'http://tv.kept.example');
    await unsetSeededMainDomain(w.t.database.db);
    try {
      expect((await links(w, { host: 'panel.example.net' })).json().m3u8).toBe(`http://tv.kept.example/get.php?${Q}`);
    } finally {
      await setMainDomain(w, '');
    }
  });
});

describe(`links with PUBLIC_URL, behind a trusted proxy (${ENGINE})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ publicUrl: 'https://painel.revenda.example/', trustProxy: ['loopback'] });
  }, 60_000);
  afterAll(async () => w?.t.close());

  it('PUBLIC_URL is the base of playlist and short links, whatever the request says', async () => {
    expect((await w.t.call(w.token, { method: 'GET', url: '/api/datacomplements' })).json().public_url).toBe('https://painel.revenda.example/');
    expect((await links(w, { host: 'internal:3000' })).json().m3u8).toBe(`https://painel.revenda.example/get.php?${Q}`);
    const { url } = await shortLink(w, { host: 'internal:3000' });
    expect(url).toMatch(/^https:\/\/painel\.revenda\.example\/s\/[A-Za-z0-9_-]{16}$/);
  });
});

describe(`links behind a trusted proxy without PUBLIC_URL (${ENGINE})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ trustProxy: ['loopback'] });
  }, 60_000);
  afterAll(async () => w?.t.close());

  it("the proxy's X-Forwarded-Proto/Host give the origin", async () => {
    const res = await links(w, { host: '127.0.0.1:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'painel.proxy.example' });
    expect(res.json().m3u8).toBe(`https://painel.proxy.example/get.php?${Q}`);
  });
});
