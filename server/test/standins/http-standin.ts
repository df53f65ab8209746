import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a stand-in does with the next requests: answer, refuse, break, hang or flood. */
export type StandinMode = 'ok' | 'refuse' | 'error' | 'hang' | 'oversize' | 'garbage';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Standin {
  url: string;
  received: Received[];
  mode: StandinMode;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 playing an outside service: it records every request and
 * answers with `answer(request)` in mode 'ok', or misbehaves as `mode` says.
 */
export async function startStandin(answer: (req: Received) => { status?: number; json?: unknown; text?: string }): Promise<Standin> {
  const sockets = new Set<import('node:net').Socket>();
  const state: Standin = { url: '', received: [], mode: 'ok', close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      state.received.push(received);
      switch (state.mode) {
        case 'hang':
          return; // never answers; the client's deadline must fire
        case 'refuse':
          res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":"refused"}');
          return;
        case 'error':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
          return;
        case 'oversize':
          res.writeHead(200, { 'content-type': 'application/json' }).end(`{"results":[],"pad":"${'x'.repeat(3_000_000)}"}`);
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not json');
          return;
        default: {
          const out = answer(received);
          const body = out.json !== undefined ? JSON.stringify(out.json) : (out.text ?? '');
          res.writeHead(out.status ?? 200, { 'content-type': out.json !== undefined ? 'application/json' : 'text/plain' }).end(body);
        }
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** Fields of a multipart/form-data or urlencoded body, read the way a web server would. */
export async function formFields(r: Received): Promise<Record<string, string>> {
  const req = new Request('http://standin/', { method: 'POST', headers: { 'content-type': String(r.headers['content-type'] ?? '') }, body: new Uint8Array(r.body) });
  const fields: Record<string, string> = {};
  (await req.formData()).forEach((v, k) => {
    fields[k] = String(v);
  });
  return fields;
}
