import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBouquet, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

describe(`admin settings (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let master: string;
  let pkg: number;

  beforeAll(async () => {
    t = await createTestContext({ tmdbApiKey: 'k', lazyPlayerUrl: undefined });
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'Migração', await createBouquet(t, admin, 'Canais'));
    master = (await createSignedInReseller(t, admin, { username: 'setmaster', password: 'Str0ng-pass!', type: 'master', credits: 5, groups })).token;
  }, 60_000);
  afterAll(async () => t?.close());

  const put = (body: object, token = admin) => t.call(token, { method: 'PUT', url: '/api/admin/settings', payload: body });

  it('reads every business setting and which integrations are configured', async () => {
    const res = await t.call(admin, { method: 'GET', url: '/api/admin/settings' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({ user_limit_screen: '1', lazy_player_monthly_credits: '1', chat_group_url: '', manual_url: '', main_domain: '' });
    expect(res.json().integrations).toEqual({ public_url: null, tmdb: true, lazy_player: false, p2p: false, old_p2p_panel: false });
    expect((await t.call(master, { method: 'GET', url: '/api/admin/settings' })).statusCode).toBe(403);
  });

  it('saves valid values, logs each change, and every signed-in page sees them', async () => {
    const res = await put({ user_limit_screen: '3', chat_group_url: 'https://chat.example/g/abc', migration_package_adult: String(pkg), main_domain: 'tv.example.com:8080' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({ user_limit_screen: '3', chat_group_url: 'https://chat.example/g/abc', migration_package_adult: String(pkg), main_domain: 'tv.example.com:8080' });
    const complements = (await t.call(master, { method: 'GET', url: '/api/datacomplements' })).json();
    expect(complements.settings.chat_group_url).toBe('https://chat.example/g/abc');
    const logs = await t.database.db.selectFrom('logs').select('value').where('action', '=', 'settings_update').execute();
    expect(logs.map((l) => l.value).sort()).toEqual([`migration_package_adult=${pkg}`, 'chat_group_url=https://chat.example/g/abc', 'main_domain=tv.example.com:8080', 'user_limit_screen=3'].sort());
  });

  it('refuses bad values with the field and changes nothing', async () => {
    const before = (await t.call(admin, { method: 'GET', url: '/api/admin/settings' })).json().settings;
    for (const [body, field] of [
      [{ user_limit_screen: '0' }, 'user_limit_screen'],
      [{ user_limit_screen: '2.5' }, 'user_limit_screen'],
      [{ chat_group_url: 'javascript:alert(1)' }, 'chat_group_url'],
      [{ manual_url: 'ftp://x.example' }, 'manual_url'],
      [{ main_domain: 'evil.example/path?x=<script>' }, 'main_domain'],
      [{ migration_package_no_adult: '999999' }, 'migration_package_no_adult'],
      [{ user_limit_screen: '2', migration_package_adult: '999999' }, 'migration_package_adult'],
    ] as const) {
      const res = await put(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field ?? 'body', JSON.stringify(body)).toContain(field);
    }
    // unknown keys are dropped (as on every route): nothing known sent, nothing changed
    expect((await put({ unknown_setting: '1' })).statusCode).toBe(200);
    expect((await put({ user_limit_screen: '2' }, master)).statusCode).toBe(403);
    expect((await t.call(admin, { method: 'GET', url: '/api/admin/settings' })).json().settings).toEqual(before);
  });
});
