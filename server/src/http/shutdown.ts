import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { appError, sendError } from './errors.ts';

const draining = new WeakSet<FastifyInstance>();

/**
 * Once shutdown starts, a request that arrives on an already open connection is answered 503, and
 * every answer (those of requests still in flight too) carries `Connection: close`, so keep-alive
 * clients stop reusing the socket instead of racing its close.
 */
export function registerShutdownGate(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request, and a promise each is measurable.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!draining.has(app)) return done();
    reply.header('Connection', 'close');
    sendError(reply, appError('SHUTTING_DOWN', { retryAfter: 5 }));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining.has(app)) reply.header('Connection', 'close');
    done(null, payload);
  });
}

/**
 * Stops accepting connections, lets open ones drain, closes the sockets left idle after
 * `drainMs`, waits (up to `graceMs`) for the requests in flight to finish, then closes the app.
 * http.Server#close would drop idle keep-alive sockets at once, resetting the requests clients
 * are sending on them at that moment; so only the listening socket is closed first.
 */
export async function closeGracefully(app: FastifyInstance, { drainMs = 1000, graceMs = 30_000 } = {}): Promise<void> {
  draining.add(app);
  const server = app.server;
  const allClosed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  await Promise.race([allClosed, delay(drainMs)]);
  server.closeIdleConnections();
  const finished = await Promise.race([allClosed.then(() => true), delay(graceMs).then(() => false)]);
  if (!finished) {
    app.log.warn({ graceMs }, 'requests still running after the grace period: closing their connections');
    server.closeAllConnections();
  }
  await app.close();
}
