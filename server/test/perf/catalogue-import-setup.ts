import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Entry } from '../catalogue-fixtures.ts';

// Playlists and measurements shared by test/catalogue-import-limits.test.ts (what the import's
// limits answer) and test/perf/catalogue-import-time.test.ts (how long they take).

export const IMPORT = '/api/admin/catalogue/import';
export const MB = 1024 * 1024;

/** `n` minimal entries (~28 bytes each: a million fit in the 32 MiB body limit). */
export function* tinyEntries(n: number, mark = '#EXTINF:'): Generator<string> {
  for (let i = 0; i < n; i += 10_000) {
    let part = '';
    for (let j = i; j < Math.min(n, i + 10_000); j++) part += `${mark}0,a\nhttp://h/${j}\n`;
    yield part;
  }
}
export const tinyPlaylist = (n: number, mark?: string) => `#EXTM3U\n${[...tinyEntries(n, mark)].join('')}`;

export const bulk = (n: number, prefix: string): Entry[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix} ${i}`,
    group: `${prefix} group ${i % 50}`,
    url: i % 4 === 0 ? `http://${prefix}.example/movie/u/p/${i}.mp4` : `http://${prefix}.example/live/u/p/${i}.ts`,
    tvgId: `${prefix}${i}.tv`,
    logo: `http://img.example/${prefix}/${i}.png`,
  }));

/** The process's resident memory, sampled every 10 ms while `fn` runs: its peak above the start, and the seconds `fn` took. */
export async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number; peakMb: number; seconds: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const started = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthMb: (peak - start) / MB, peakMb: peak / MB, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(timer);
  }
}

/** A server on 127.0.0.1 streaming a playlist of `n` tiny entries: the bytes it sent, and whether the client hung up. */
export async function servePlaylist(n: number): Promise<{ url: string; sent: () => number; closed: () => boolean; close: () => void }> {
  let sent = 0;
  let closed = false;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/x-mpegurl' });
    const stream = Readable.from(
      (function* () {
        yield '#EXTM3U\n';
        yield* tinyEntries(n);
      })(),
    );
    stream.on('data', (chunk: string) => {
      sent += Buffer.byteLength(chunk);
    });
    res.on('close', () => {
      closed = true;
      stream.destroy();
    });
    stream.pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.m3u`,
    sent: () => sent,
    closed: () => closed,
    close: () => server.close(),
  };
}
