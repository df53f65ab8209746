import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// An Evolution API instance on a real socket: POST /message/sendText/{instance} with `apikey`,
// answering 201 {key: {id}} like the real gateway, and GET /instance/connectionState/{instance}
// ({instance: {state: 'open'}}). It can be down (503), or hold requests unanswered.

export interface Delivered {
  instance: string;
  number: string;
  text: string;
  id: string;
}

export interface EvolutionStandin {
  url: string;
  /** messages it answered as sent */
  delivered: Delivered[];
  /** requests it got, answered or not */
  requests: number;
  /** down: 503; error: 500 */
  mode: 'ok' | 'down' | 'error' | 'hold';
  /** answers every held request as sent */
  release(): void;
  close(): Promise<void>;
}

export async function startEvolution(apiKey: string): Promise<EvolutionStandin> {
  const held: (() => void)[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const state: EvolutionStandin = {
    url: '',
    delivered: [],
    requests: 0,
    mode: 'ok',
    release() {
      for (const answer of held.splice(0)) answer();
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const m = /^\/message\/sendText\/([^/]+)$/.exec(req.url ?? '');
      const check = /^\/instance\/connectionState\/([^/]+)$/.exec(req.url ?? '');
      if (!(req.method === 'POST' && m) && !(req.method === 'GET' && check)) return res.writeHead(404).end();
      if (req.headers.apikey !== apiKey) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized"}');
      if (state.mode === 'down') return res.writeHead(503).end('gateway restarting');
      if (state.mode === 'error' && m) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"Internal Server Error"}');
      if (check) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ instance: { instanceName: decodeURIComponent(check[1]!), state: 'open' } }));
      if (!m) return;
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { number: string; text: string };
      const answer = () => {
        const id = randomBytes(8).toString('hex').toUpperCase();
        state.delivered.push({ instance: decodeURIComponent(m[1]!), number: body.number, text: body.text, id });
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ key: { remoteJid: `${body.number}@s.whatsapp.net`, fromMe: true, id }, status: 'PENDING' }));
      };
      if (state.mode === 'hold') held.push(answer);
      else answer();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return state;
}
