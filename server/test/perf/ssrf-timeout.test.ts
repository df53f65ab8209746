import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, safeFetch } from '../../src/lib/ssrf/index.ts';

// How soon the SSRF guard gives up on a server that never answers, its time limit being 300 ms.
// That it refuses with reason 'timeout' and closes its connection is in test/ssrf.test.ts.
describe('SSRF guard: time to refuse at the time limit', () => {
  let slow: http.Server;
  let port: number;
  beforeAll(async () => {
    slow = http.createServer(() => {}); // never answers
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    port = (slow.address() as AddressInfo).port;
  });
  afterAll(async () => {
    slow.closeAllConnections();
    await new Promise((r) => slow.close(r));
  });

  it('a 300 ms limit refuses within 3 s', async () => {
    const started = Date.now();
    const err = await safeFetch(`http://127.0.0.1:${port}/`, { allow: ['127.0.0.1/32'], timeoutMs: 300 }).catch((e: unknown) => e);
    const ms = Date.now() - started;
    console.log(`refused after ${ms} ms`);
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).reason).toBe('timeout');
    expect(ms).toBeLessThan(3000);
  });
});
