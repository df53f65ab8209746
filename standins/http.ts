import http from 'node:http';
import type net from 'node:net';

// A small real HTTP server on 127.0.0.1 that can go away (port closed, connections cut: the
// caller gets "connection refused") and come back on the same port.

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

export interface Switchable {
  readonly port: number;
  readonly url: string;
  /** true while listening */
  readonly up: boolean;
  goAway(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

export async function listen(handler: Handler, port = 0): Promise<Switchable> {
  let server: http.Server | undefined;
  const sockets = new Set<net.Socket>();
  let boundPort = port;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const s = http.createServer((req, res) => {
        Promise.resolve(handler(req, res)).catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: String(err) }));
        });
      });
      s.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      s.once('error', reject);
      s.listen(boundPort, '127.0.0.1', () => {
        boundPort = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  await start();
  return {
    get port() {
      return boundPort;
    },
    get url() {
      return `http://127.0.0.1:${boundPort}`;
    },
    get up() {
      return server !== undefined;
    },
    goAway: stop,
    comeBack: async () => {
      if (!server) await start();
    },
    close: stop,
  };
}

/** The request's JSON body (undefined when empty); throws on malformed JSON. */
export async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.trim() === '' ? undefined : JSON.parse(text);
}

export function send(res: http.ServerResponse, status: number, body?: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export const bearer = (req: http.IncomingMessage) => {
  const h = req.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
};
