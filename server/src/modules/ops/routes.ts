import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMetrics, { type IMetricsPluginOptions } from 'fastify-metrics';
import client from 'prom-client';
import { Type } from 'typebox';
import type { PoolFigures } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../domain/errors.ts';
import { sendError } from '../../http/errors.ts';
import { counters } from '../../lib/counters.ts';
import * as service from './service.ts';

// What an operator's tools ask (docs/operations.md): is the process up, may a load balancer send it
// requests, and the Prometheus figures. At the site root, without a session, saying nothing secret.

const Health = Type.Object({ status: Type.Literal('ok') });
const Ready = Type.Object({ status: Type.Literal('ready') });
const Unavailable = Type.Object({ status: Type.Literal('unavailable'), reason: Type.String() });

export function healthRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(
    '/healthz',
    {
      logLevel: 'warn', // asked every few seconds by the load balancer
      schema: { tags: ['ops'], security: [], summary: 'The process serves (no database call)', response: { 200: Health } },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      logLevel: 'warn',
      schema: {
        tags: ['ops'],
        security: [],
        onlyListedAnswers: true,
        summary: 'The database answers and has this build\'s migrations; 503 takes the host out of a load balancer',
        response: { 200: Ready, 503: Unavailable },
      },
    },
    async (_request, reply) => {
      const r = await service.readiness(deps);
      reply.header('Cache-Control', 'no-store');
      return r.ready ? { status: 'ready' as const } : reply.status(503).send({ status: 'unavailable' as const, reason: r.reason });
    },
  );
}

/**
 * GET /metrics through fastify-metrics (request durations by route template, method and status;
 * Node's process figures) plus the database pool and the business figures. Registered before the
 * routes, as fastify-metrics learns them as they are added. Without METRICS_TOKEN the route answers
 * 404 and no request is timed.
 */
export async function registerMetrics(app: FastifyInstance, deps: Deps): Promise<void> {
  const token = deps.config.metricsToken;
  if (!token) {
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => sendError(reply, appError('NOT_FOUND', { params: { what: 'Route GET /metrics' } })));
    return;
  }
  await app.register(metricsPlugin, {
    // one registry per process; a test building a second app starts it afresh
    clearRegisterOnInit: true,
    promClient: client,
    endpoint: { url: '/metrics', method: 'GET', logLevel: 'warn', schema: { hide: true }, onRequest: bearer(token), handler: () => undefined },
    routeMetrics: { enabled: { histogram: true, summary: false }, routeBlacklist: ['/metrics', '/healthz', '/readyz'] },
  });
  registerBusinessMetrics(deps);
}

/** fastify-metrics is CommonJS with `exports.default`: Node's ESM import sees the exports object. */
const metricsPlugin = ((fastifyMetrics as unknown as { default?: typeof fastifyMetrics }).default ?? fastifyMetrics) as unknown as FastifyPluginAsync<Partial<IMetricsPluginOptions>>;

/** The bearer check: a constant-time comparison, 401 without a match. */
function bearer(token: string) {
  const expected = Buffer.from(`Bearer ${token}`);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendError(reply.header('WWW-Authenticate', 'Bearer'), appError('UNAUTHORIZED'));
    }
  };
}

/** Gauges and counters read when Prometheus scrapes: one read of the kept counts and backlogs per scrape. */
function registerBusinessMetrics(deps: Deps): void {
  let scrape: Promise<Awaited<ReturnType<typeof service.businessFigures>> & { pool: PoolFigures }> | undefined;
  // every metric's collect() of one scrape shares one read
  // the pool is read before the scrape's own statements take connections from it
  const figures = () => {
    if (!scrape) {
      const pool = deps.database.pool();
      scrape = service
        .businessFigures(deps)
        .then((f) => ({ ...f, pool }))
        .finally(() => setImmediate(() => (scrape = undefined)));
    }
    return scrape;
  };
  const gauge = (name: string, help: string, read: (f: Awaited<ReturnType<typeof figures>>) => number) =>
    new client.Gauge({
      name,
      help,
      async collect() {
        this.set(read(await figures()));
      },
    });
  gauge('panel_lines_active', 'Enabled lines not yet expired (normal and trial, HTTP and P2P)', (f) => f.linesActive);
  gauge('panel_webhook_deliveries_pending', 'Webhook deliveries waiting to be delivered (counted up to 10,001)', (f) => f.webhookDeliveries);
  gauge('panel_reminders_pending', 'Reminder messages waiting to be sent or retried (counted up to 10,001)', (f) => f.reminders);
  gauge('panel_outbox_pending', 'Changes waiting for the P2P server (counted up to 10,001)', (f) => f.outbox);
  gauge('panel_payments_awaiting_credits', 'PIX payments approved, waiting for their reseller to have credits (counted up to 10,001)', (f) => f.paymentsAwaitingCredits);
  new client.Counter({
    name: 'panel_credit_spends_total',
    help: 'Credit spends committed by this process',
    collect() {
      this.reset();
      this.inc(counters().creditSpends);
    },
  });
  new client.Counter({
    name: 'panel_gateway_auth_total',
    help: "Edges' authorization answers of this process, by result",
    labelNames: ['result'],
    collect() {
      this.reset();
      for (const [result, n] of Object.entries(counters().gateway)) this.inc({ result }, n);
    },
  });
  new client.Gauge({
    name: 'panel_db_pool_connections',
    help: 'Database connections of this process by state (SQLite: the writer and its reader threads, total only)',
    labelNames: ['state'],
    async collect() {
      const { pool } = await figures();
      this.set({ state: 'total' }, pool.total);
      if (pool.idle !== undefined) this.set({ state: 'idle' }, pool.idle);
      if (pool.waiting !== undefined) this.set({ state: 'waiting' }, pool.waiting);
    },
  });
}
