import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedIpv4, isPublicAddress } from '../src/lib/ssrf/addresses.ts';
import { OutboundError, safeFetch } from '../src/lib/ssrf/index.ts';

// The SSRF guard (docs/integrations.md, "SSRF guard") against real sockets on this machine. Only loopback
// addresses are ever contacted: every other private range is checked by the classifier, or by a
// fetch the guard must refuse before any connection is made.

interface StandIn {
  server: http.Server;
  port: number;
  hits: string[];
}

async function standIn(handler: http.RequestListener): Promise<StandIn> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

async function refusal(url: string, opts: Parameters<typeof safeFetch>[1] = {}): Promise<OutboundError> {
  try {
    await safeFetch(url, opts);
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error(`${url} was fetched`);
}

const LOOPBACK_ONLY = ['127.0.0.1/32'];

describe('SSRF guard: address classification', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata, multicast and reserved ranges', () => {
    const notPublic = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
      '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
      '192.0.2.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '192.0.0.170',
      '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
      '64:ff9b::7f00:1', '64:ff9b::10.1.2.3', '64:ff9b:1::1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00:ec2::254',
      'fec0::1', 'ff02::1', '2001:db8::1', '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '100::1',
      'not-an-ip', '',
    ];
    expect(notPublic.filter((ip) => isPublicAddress(ip))).toEqual([]);
  });

  it('lets public unicast addresses through, IPv4 inside IPv6 judged as itself', () => {
    const publicOnes = ['8.8.8.8', '1.1.1.1', '200.160.2.3', '172.32.0.1', '100.128.0.1', '2800:3f0:4001:80a::200e', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'];
    expect(publicOnes.filter((ip) => !isPublicAddress(ip))).toEqual([]);
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('64:ff9b::a01:203')).toBe('10.1.2.3');
    expect(embeddedIpv4('2001:db8::1')).toBeUndefined();
  });
});

describe('SSRF guard: safeFetch', () => {
  let target: StandIn;
  let redirector: StandIn;
  let slow: StandIn;
  let big: StandIn;

  beforeAll(async () => {
    target = await standIn((_req, res) => res.end('inside'));
    redirector = await standIn((req, res) => {
      const to = req.url === '/meta' ? 'http://169.254.169.254/latest/meta-data/' : `http://127.0.0.1:${target.port}/secret`;
      res.writeHead(req.url === '/307' ? 307 : 302, { location: to }).end();
    });
    slow = await standIn(() => {}); // never answers
    big = await standIn((_req, res) => {
      res.write(Buffer.alloc(600_000, 97));
      res.end(Buffer.alloc(600_000, 97));
    });
  });
  afterAll(async () => {
    for (const s of [target, redirector, slow, big]) {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    }
  });

  it('refuses every spelling of loopback without connecting', async () => {
    const p = target.port;
    const spellings = [
      `http://127.0.0.1:${p}/`,
      `http://localhost:${p}/`,
      `http://2130706433:${p}/`, // decimal
      `http://0x7f000001:${p}/`, // hexadecimal
      `http://0x7f.1:${p}/`,
      `http://017700000001:${p}/`, // octal
      `http://127.1:${p}/`,
      `http://127.0.0.1.:${p}/`,
      `http://[::1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`, // IPv4-mapped IPv6
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://0:${p}/`,
    ];
    for (const url of spellings) expect((await refusal(url)).reason, url).toBe('address');
    expect(target.hits).toEqual([]);
  });

  it('refuses private, link-local and metadata addresses before any connection is made', async () => {
    for (const url of ['http://10.0.0.1/', 'http://192.168.0.1:8080/', 'http://172.16.5.4/', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://[fe80::1]/', 'http://[fd00:ec2::254]/']) {
      expect((await refusal(url, { timeoutMs: 500 })).reason, url).toBe('address');
    }
  });

  it('refuses a host name when any of its addresses is not public (DNS answers played by a resolver)', async () => {
    const resolve = async (host: string) =>
      host === 'mixed.example' ? [{ address: '93.184.216.34', family: 4 }, { address: '10.1.1.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    expect((await refusal('http://mixed.example/list.m3u', { resolve })).reason).toBe('address');
    expect((await refusal('http://rebind.example/list.m3u', { resolve })).reason).toBe('address');
    expect((await refusal('http://no-such-host.invalid/', { resolve: async () => [] })).reason).toBe('dns');
  });

  it('refuses other schemes and credentials in the URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', 'javascript:alert(1)']) {
      expect((await refusal(url)).reason, url).toBe('scheme');
    }
    expect((await refusal(`http://user:pw@127.0.0.1:${target.port}/`, { allow: LOOPBACK_ONLY })).reason).toBe('credentials');
    expect((await refusal('not a url')).reason).toBe('invalid_url');
  });

  it('reaches a listed network (OUTBOUND_ALLOW_NETWORKS), and only that one', async () => {
    const res = await safeFetch(`http://127.0.0.1:${target.port}/ok`, { allow: LOOPBACK_ONLY });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('inside');
    expect((await refusal(`http://[::1]:${target.port}/`, { allow: LOOPBACK_ONLY })).reason).toBe('address');
    expect((await refusal(`http://127.0.0.2:${target.port}/`, { allow: LOOPBACK_ONLY })).reason).toBe('address');
    // a name resolving to the listed address is allowed, to anything else is not
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    expect((await safeFetch(`http://stand-in.test:${target.port}/named`, { allow: LOOPBACK_ONLY, resolve })).status).toBe(200);
  });

  it('never follows a redirect, whether it points inside, to metadata or anywhere', async () => {
    const before = target.hits.length;
    for (const path of ['/', '/307', '/meta']) {
      const err = await refusal(`http://127.0.0.1:${redirector.port}${path}`, { allow: LOOPBACK_ONLY });
      expect(err.reason).toBe('redirect');
      expect(err.status).toBe(path === '/307' ? 307 : 302);
    }
    expect(target.hits.length).toBe(before);
  });

  it('stops at the time limit and at the size limit', async () => {
    // the server that never answers: refused for the time limit, the request having reached it
    // (how soon after the limit the refusal comes is in test/perf/ssrf-timeout.test.ts)
    const before = slow.hits.length;
    let hungUp = false;
    slow.server.once('request', (req: http.IncomingMessage) => req.socket.once('close', () => (hungUp = true)));
    expect((await refusal(`http://127.0.0.1:${slow.port}/`, { allow: LOOPBACK_ONLY, timeoutMs: 300 })).reason).toBe('timeout');
    expect(slow.hits.length).toBe(before + 1);
    await expect.poll(() => hungUp).toBe(true); // the guard closed its connection
    expect((await refusal(`http://127.0.0.1:${big.port}/`, { allow: LOOPBACK_ONLY, maxBytes: 1_000_000 })).reason).toBe('too_large');
    expect((await safeFetch(`http://127.0.0.1:${big.port}/`, { allow: LOOPBACK_ONLY, maxBytes: 2_000_000 })).body.length).toBe(1_200_000);
  });

  it('reports the other side failing with its status', async () => {
    const failing = await standIn((_req, res) => res.writeHead(503).end('down'));
    try {
      const err = await refusal(`http://127.0.0.1:${failing.port}/`, { allow: LOOPBACK_ONLY });
      expect([err.reason, err.status]).toEqual(['status', 503]);
    } finally {
      failing.server.close();
    }
  });
});
