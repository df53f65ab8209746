import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRunning } from '../src/modules/catalogue/import.ts';
import { m3u } from './catalogue-fixtures.ts';
import { ENGINE, FAST_TIER, type TestContext, createTestContext } from './helpers.ts';
import { IMPORT, MB, bulk, peakRssGrowth, servePlaylist, tinyPlaylist } from './perf/catalogue-import-setup.ts';

// The import's limits (without them a 1,000,000-entry playlist took 786 MB and 17 s before being
// refused; a 100,000-entry import stalled every other request for 1.5-5 s): a playlist past the
// entry limit is refused while it arrives, with flat memory; one import at a time; other requests
// keep answering during an import. How long each takes is measured in
// test/perf/catalogue-import-time.test.ts.

describe(`catalogue import limits (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const streams = async () => Number((await t.database.db.selectFrom('streams').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('a 1,000,000-entry playlist is refused before it is parsed, with flat memory', async () => {
    const body = JSON.stringify({ m3u: tinyPlaylist(1_000_000) });
    expect(body.length).toBeLessThan(32 * MB);
    const { value: res, growthMb, peakMb } = await peakRssGrowth(() =>
      t.call(admin, { method: 'POST', url: IMPORT, payload: body, headers: { 'content-type': 'application/json' } }),
    );
    console.log(`1M-entry import (${ENGINE}, body): refused, peak RSS +${growthMb.toFixed(0)} MB (${peakMb.toFixed(0)} MB, test process and its 30 MB body included)`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'M3U_INVALID', field: 'm3u', message: 'm3u: more than 100000 entries; nothing was imported' });
    // refused before the parse: the flat memory shows it
    expect(growthMb).toBeLessThan(150);

    // three at once: one is refused for its size, the others for the import running (or the same)
    const three = await peakRssGrowth(() =>
      Promise.all([1, 2, 3].map(() => t.call(admin, { method: 'POST', url: IMPORT, payload: body, headers: { 'content-type': 'application/json' } }))),
    );
    console.log(`3 x 1M-entry imports at once (${ENGINE}): ${three.value.map((r) => r.statusCode).join(', ')}, peak RSS +${three.growthMb.toFixed(0)} MB`);
    for (const r of three.value) expect(['M3U_INVALID', 'IMPORT_RUNNING'], r.body).toContain(r.json().code);
    expect(three.value.some((r) => r.json().code === 'M3U_INVALID')).toBe(true);
    expect(three.growthMb).toBeLessThan(200);
    expect(await streams()).toBe(0);
  });

  it('a 1,000,000-entry playlist by URL: the download stops at the first chunk past the limit', async () => {
    const served = await servePlaylist(1_000_000);
    t.deps.config.outboundAllowNetworks = ['127.0.0.1/32'];
    try {
      const { value: res, growthMb } = await peakRssGrowth(() => t.call(admin, { method: 'POST', url: IMPORT, payload: { url: served.url } }));
      console.log(`1M-entry import (${ENGINE}, url): refused after ${(served.sent() / MB).toFixed(1)} of ~28 MB sent, peak RSS +${growthMb.toFixed(0)} MB`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'M3U_INVALID', field: 'url', message: 'url: more than 100000 entries; nothing was imported' });
      expect(growthMb).toBeLessThan(150);
      await expect.poll(served.closed).toBe(true);
      expect(served.sent()).toBeLessThan(12 * MB);
      expect(await streams()).toBe(0);
    } finally {
      t.deps.config.outboundAllowNetworks = [];
      served.close();
    }
  });

  it('a body over 32 MiB is a 413; a refused import gives its slot back', async () => {
    const body = JSON.stringify({ m3u: `#EXTM3U\n${'#'.repeat(32 * MB + 64 * 1024)}` });
    const res = await t.call(admin, { method: 'POST', url: IMPORT, payload: body, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const invalid = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: '#EXTM3U\n', kind: 'radio' } });
    expect(invalid.statusCode, invalid.body).toBe(400);
    const small = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: m3u(bulk(3, 'slot')) } });
    expect(small.statusCode, small.body).toBe(200);
  });

  it('a big body (parsed off the event loop) is checked as every JSON body: depth, syntax, prototype keys, text', async () => {
    const pad = `"pad":"${'x'.repeat(300 * 1024)}"`;
    const before = await streams();
    const cases: [string, string, RegExp][] = [
      [`{${pad},"a":${'['.repeat(40)}${']'.repeat(40)}}`, 'body', /nested deeper than 32 levels/],
      [`{${pad},"m3u":"#EXTM3U\\n"`, 'body', /JSON/],
      [`{${pad},"__proto__":{"x":1},"m3u":"#EXTM3U\\n"}`, 'body', /forbidden prototype property/],
      [`{${pad},"constructor":{"prototype":{"x":1}},"m3u":"#EXTM3U\\n"}`, 'body', /forbidden prototype property/],
      [`{${pad},"m3u":"#EXTM3U\\n\\ud800"}`, 'm3u', /valid Unicode/],
      [' '.repeat(300 * 1024), 'body', /empty/],
    ];
    for (const [payload, field, message] of cases) {
      const res = await t.call(admin, { method: 'POST', url: IMPORT, payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, `${payload.slice(-40)}: ${res.body}`).toBe(400);
      expect(res.json(), res.body).toMatchObject({ code: 'VALIDATION', field });
      expect(res.json().message).toMatch(message);
    }
    expect(await streams()).toBe(before);
  });

  it('100,001 entries are refused before the parse, also when the JSON body hides the marks', async () => {
    const before = await streams();
    for (const text of [tinyPlaylist(100_001), tinyPlaylist(150_000, '\\u0023EXTINF:')]) {
      // the second: `\u0023` in the JSON text is `#` once parsed (the body's count cannot see it)
      const body = `{"m3u":${JSON.stringify(text).replaceAll('\\\\u0023', '\\u0023')}}`;
      const res = await t.call(admin, { method: 'POST', url: IMPORT, payload: body, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'M3U_INVALID', field: 'm3u', message: 'm3u: more than 100000 entries; nothing was imported' });
    }
    expect(await streams()).toBe(before);
  });

  it('a 100,000-entry import: other requests keep answering while it runs, a second import gets 409 IMPORT_RUNNING', { skip: FAST_TIER, timeout: 180_000 }, async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = Buffer.from(JSON.stringify({ m3u: m3u(bulk(100_000, 'big')) }));
    const before = await streams();
    let finished = false;
    const importing = fetch(`${base}${IMPORT}`, { method: 'POST', body, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' } })
      .then(async (answer) => ({ statusCode: answer.status, body: await answer.text() }))
      .finally(() => {
        finished = true;
      });
    // the slot is taken before the body is read: a second import is refused at once
    await expect.poll(() => importRunning(t.deps), { interval: 2 }).toBe(true);
    const second = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: m3u(bulk(3, 'other')) } });
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({ code: 'IMPORT_RUNNING' });

    // 20 requests over HTTP, one after another as a browser would, all answered while the import
    // has not (how fast they answer: test/perf/catalogue-import-time.test.ts)
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${admin}` } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }
    expect(finished, 'the import was still running').toBe(false);
    expect(importRunning(t.deps)).toBe(true);

    const res = await importing;
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ added: 100_000, updated: 0, unchanged: 0, skipped_total: 0, categories_added: 75 });
    expect(await streams()).toBe(before + 100_000);

    // the slot is free again; a re-import converges (nothing changes)
    const again = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: m3u(bulk(1000, 'big')) } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ added: 0, unchanged: 1000 });
  });

  it.runIf(ENGINE === 'postgres')('PostgreSQL: an import running in another server process (its lock held) gets 409', async () => {
    const other = new pg.Client({ connectionString: t.deps.config.databaseUrl });
    await other.connect();
    try {
      await other.query(`select pg_advisory_lock(hashtext('catalogue_import'))`);
      const res = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: m3u(bulk(3, 'elsewhere')) } });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'IMPORT_RUNNING' });
      await other.query(`select pg_advisory_unlock(hashtext('catalogue_import'))`);
      const after = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: m3u(bulk(3, 'elsewhere')) } });
      expect(after.statusCode, after.body).toBe(200);
    } finally {
      await other.end();
    }
  });

  it('a batch failing midway: a 500, the batches before it stay, the action log says so, importing again completes it', async () => {
    const failing = 'http://midway.example/live/u/p/1101.ts';
    const trigger =
      ENGINE === 'sqlite'
        ? [`CREATE TRIGGER fail_import BEFORE INSERT ON streams WHEN NEW.source_url = '${failing}' BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END`]
        : [
            `CREATE FUNCTION fail_import() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.source_url = '${failing}' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF; RETURN NEW; END $$`,
            'CREATE TRIGGER fail_import BEFORE INSERT ON streams FOR EACH ROW EXECUTE FUNCTION fail_import()',
          ];
    for (const statement of trigger) await sql.raw(statement).execute(t.database.db);
    const text = m3u(bulk(1200, 'midway'));
    const before = await streams();
    const res = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: text } });
    expect(res.statusCode, res.body).toBe(500);
    // two batches of 500 were stored before the third failed
    expect(await streams()).toBe(before + 1000);
    const log = await t.database.db.selectFrom('logs').select(['value', 'value_int']).where('action', '=', 'catalogue_import').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.value).toMatch(/^file: stopped after 1000 of 1200 entries were stored \(.*refused by a test trigger.*\); importing the same playlist again completes it$/);
    expect(log.value_int).toBe(1000);

    await sql.raw('DROP TRIGGER fail_import' + (ENGINE === 'postgres' ? ' ON streams' : '')).execute(t.database.db);
    const again = await t.call(admin, { method: 'POST', url: IMPORT, payload: { m3u: text } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ added: 200, updated: 0, unchanged: 1000 });
    expect(await streams()).toBe(before + 1200);
  });
});
