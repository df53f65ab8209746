import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m3u } from '../catalogue-fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';
import { IMPORT, MB, bulk, peakRssGrowth, servePlaylist, tinyPlaylist } from './catalogue-import-setup.ts';

// How long the catalogue import's limits take: refusing playlists past the entry limit, and how
// fast other requests answer during a 100,000-entry import. What they answer (400 M3U_INVALID,
// 409 IMPORT_RUNNING, flat memory, other requests answered meanwhile) is in
// test/catalogue-import-limits.test.ts.

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

describe(`catalogue import limits: time (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const post = (body: string) => t.call(admin, { method: 'POST', url: IMPORT, payload: body, headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
  });
  afterAll(() => t?.close());

  it('a 1,000,000-entry playlist is refused within 10 s, three at once within 15 s', async () => {
    const body = JSON.stringify({ m3u: tinyPlaylist(1_000_000) });
    // generous limits: parsing a million entries, which the refusal must avoid, takes far longer on any machine
    const one = await peakRssGrowth(() => post(body));
    const three = await peakRssGrowth(() => Promise.all([1, 2, 3].map(() => post(body))));
    console.log(`1M-entry import (${ENGINE}, body): refused in ${one.seconds.toFixed(2)} s; 3 at once in ${three.seconds.toFixed(2)} s`);
    expect(one.value.statusCode, one.value.body).toBe(400);
    expect(one.seconds).toBeLessThan(10);
    expect(three.seconds).toBeLessThan(15);
  });

  it('a 1,000,000-entry playlist by URL is refused within 10 s', async () => {
    const served = await servePlaylist(1_000_000);
    t.deps.config.outboundAllowNetworks = ['127.0.0.1/32'];
    try {
      const { value: res, seconds } = await peakRssGrowth(() => t.call(admin, { method: 'POST', url: IMPORT, payload: { url: served.url } }));
      console.log(`1M-entry import (${ENGINE}, url): refused in ${seconds.toFixed(2)} s after ${(served.sent() / MB).toFixed(1)} MB sent`);
      expect(res.statusCode, res.body).toBe(400);
      expect(seconds).toBeLessThan(10);
    } finally {
      t.deps.config.outboundAllowNetworks = [];
      served.close();
    }
  });

  it('100,001 entries are refused within 10 s, also when the JSON body hides the marks', async () => {
    for (const text of [tinyPlaylist(100_001), tinyPlaylist(150_000, '\\u0023EXTINF:')]) {
      const body = `{"m3u":${JSON.stringify(text).replaceAll('\\\\u0023', '\\u0023')}}`;
      const { value: res, seconds } = await peakRssGrowth(() => post(body));
      console.log(`${text.length} characters refused in ${seconds.toFixed(2)} s`);
      expect(res.statusCode, res.body).toBe(400);
      expect(seconds).toBeLessThan(10); // generous: the parse of 100,001 entries is what must not happen
    }
  });

  it('a 100,000-entry import: GET /api/profile during it has a p99 under 1 s', { timeout: 180_000 }, async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // a first request opens the connection
    await (await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${admin}` } })).arrayBuffer();
    // the import too goes over HTTP, its body built beforehand: the test's own work (building and
    // sending the request) shares the event loop with the server and must not be counted as a stall
    const body = Buffer.from(JSON.stringify({ m3u: m3u(bulk(100_000, 'big')) }));
    let finished = false;
    const importing = peakRssGrowth(async () => {
      const answer = await fetch(`${base}${IMPORT}`, { method: 'POST', body, headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' } });
      return { statusCode: answer.status, body: await answer.text() };
    }).finally(() => {
      finished = true;
    });
    // polled over HTTP, one request after another, as a browser would (a keep-alive connection)
    const latencies: number[] = [];
    while (!finished) {
      const at = performance.now();
      const res = await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${admin}` } });
      await res.arrayBuffer();
      latencies.push(performance.now() - at);
      expect(res.status).toBe(200);
    }
    const { value: res, growthMb, peakMb, seconds } = await importing;
    expect(res.statusCode, res.body).toBe(200);
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const max = latencies[latencies.length - 1];
    console.log(
      `100k-entry import (${ENGINE}): ${seconds.toFixed(1)} s, peak RSS +${growthMb.toFixed(0)} MB (${peakMb.toFixed(0)} MB); GET /api/profile during it: ${latencies.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    expect(latencies.length).toBeGreaterThan(20);
    // the target is 100 ms; the limit is generous for a loaded 2-core machine and still below what
    // an import that blocks the event loop gives (it was 1,450 ms on SQLite, 5 s on PostgreSQL)
    expect(p99).toBeLessThan(1000);
  });
});
