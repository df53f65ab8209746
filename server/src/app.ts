import fs from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Deps } from './deps.ts';
import { registerApiKeyContext, registerRoleChecks, requireSession } from './http/auth.ts';
import { appError, registerErrorHandling, sendError } from './http/errors.ts';
import { registerJsonBody } from './http/json-body.ts';
import { swaggerOptions } from './http/openapi.ts';
import { lazySerializers } from './http/serializers.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerShutdownGate } from './http/shutdown.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerValidators } from './http/validator.ts';
import { createLogger, requestIdGenerator, scrub } from './lib/logger.ts';
import { registerReplayHeader } from './http/schemas.ts';
import { authRoutes, publicAuthRoutes } from './modules/auth/routes.ts';
import { bouquetRoutes } from './modules/bouquets/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { complementRoutes } from './modules/complements/routes.ts';
import { connectionRoutes } from './modules/connections/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { exportRoutes } from './modules/exports/routes.ts';
import { gatewayRoutes } from './modules/gateway/routes.ts';
import { lazyPlayerRoutes } from './modules/lazyplayer/routes.ts';
import { lineRoutes } from './modules/lines/routes.ts';
import { logRoutes } from './modules/logs/routes.ts';
import { migrationRoutes } from './modules/migration/routes.ts';
import { apiKeyRoutes } from './modules/apikeys/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { reminderRoutes } from './modules/reminders/routes.ts';
import { paymentRoutes, publicPaymentRoutes } from './modules/payments/routes.ts';
import { creditSaleRoutes } from './modules/creditsales/routes.ts';
import { publicTrialRoutes, trialPageRoutes } from './modules/trialpage/routes.ts';
import { publicTelegramRoutes, telegramRoutes } from './modules/telegram/routes.ts';
import { newsRoutes } from './modules/news/routes.ts';
import { p2pRoutes } from './modules/p2p/routes.ts';
import { packageRoutes } from './modules/packages/routes.ts';
import { playerRoutes } from './modules/player/routes.ts';
import { resellerRoutes } from './modules/resellers/routes.ts';
import { serverRoutes } from './modules/servers/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { publicShortlinkRoute, shortlinkRoutes } from './modules/shortlinks/routes.ts';
import { publicTwoFactorRoutes, twoFactorRoutes } from './modules/twofactor/routes.ts';
import { vodRoutes } from './modules/vods/routes.ts';
import { healthRoutes, registerMetrics } from './modules/ops/routes.ts';

/** Every module with routes behind the session check; later features add theirs here. */
const protectedModules = [
  authRoutes,
  packageRoutes,
  bouquetRoutes,
  complementRoutes,
  resellerRoutes,
  logRoutes,
  connectionRoutes,
  lineRoutes,
  shortlinkRoutes,
  dashboardRoutes,
  reportRoutes,
  newsRoutes,
  twoFactorRoutes,
  exportRoutes,
  catalogueRoutes,
  serverRoutes,
  p2pRoutes,
  migrationRoutes,
  lazyPlayerRoutes,
  vodRoutes,
  settingsRoutes,
  apiKeyRoutes,
  webhookRoutes,
  reminderRoutes,
  paymentRoutes,
  creditSaleRoutes,
  trialPageRoutes,
  telegramRoutes,
];

export interface BuildAppOptions {
  /** false: no log; a pino logger (lib/logger.ts createLogger, e.g. into a test's stream); unset: JSON lines to stdout at LOG_LEVEL */
  logger?: boolean | Logger;
}

export async function buildApp(deps: Deps, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const logger = opts.logger === false ? undefined : typeof opts.logger === 'object' ? opts.logger : createLogger(deps.config.logLevel);
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    // the id of every line a request logs (reqId) and of its X-Request-Id answer header (lib/logger.ts)
    genReqId: requestIdGenerator(deps.config.trustProxy !== false),
    bodyLimit: 256 * 1024,
    trustProxy: deps.config.trustProxy,
    return503OnClosing: true,
    // Two log lines per request cost a fifth of a signed-in request's time at a million lines; the reverse
    // proxy keeps the access log. Errors are logged by the error handler, slow requests below.
    logController: new LogController({ disableRequestLogging: !deps.config.logRequests }),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // An edge passes the client's whole request line in X-Original-URI: room for nginx's own
    // limit (large_client_header_buffers) and more, so the gateway refuses it in its own words.
    http: { maxHeaderSize: 64 * 1024 },
    // The router's own refusals (a URL it cannot decode, a path parameter too long) in the API's error shape.
    frameworkErrors: (err, _request, reply) => {
      const long = err.statusCode === 414;
      const body = { statusCode: long ? 414 : 400, code: long ? 'URI_TOO_LONG' : 'VALIDATION', message: err.message };
      void (reply as FastifyReply).status(body.statusCode).send(body);
    },
  });
  if (!deps.config.logRequests) logSlowRequests(app);
  registerValidators(app);
  registerErrorHandling(app);
  registerTextGuard(app);
  registerJsonBody(app);
  registerRoleChecks(app);
  await registerSecurityHeaders(app, deps.config.publicUrl, new URL(deps.config.tmdbImageUrl).origin);
  registerShutdownGate(app);
  registerReplayHeader(app);
  registerApiKeyContext(app);
  // before every route: fastify-metrics times the routes registered after it
  await registerMetrics(app, deps);
  // Tokens, profiles, customers' lines: no API answer is for a browser or proxy cache to keep
  // (a route may still set its own Cache-Control). Every answer names its request id (the reqId
  // of the log lines it wrote).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    done();
  });

  await app.register(swagger, swaggerOptions);
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      publicAuthRoutes(api, deps);
      publicTwoFactorRoutes(api, deps);
      publicPaymentRoutes(api, deps);
      publicTrialRoutes(api, deps);
      publicTelegramRoutes(api, deps);
      await api.register(async (scope) => {
        requireSession(scope, deps);
        for (const mod of protectedModules) mod(scope, deps);
      });
    },
    { prefix: '/api' },
  );

  healthRoutes(app, deps);
  publicShortlinkRoute(app, deps);
  // What players and streaming edges ask, at the addresses they use (outside /api).
  playerRoutes(app, deps);
  gatewayRoutes(app, deps);
  await serveWeb(app, deps.config.webDist);
  return app;
}

const SLOW_REQUEST_MS = 1000;

function logSlowRequests(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.elapsedTime >= SLOW_REQUEST_MS) {
      request.log.warn({ method: request.method, url: scrub(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'slow request');
    }
    done();
  });
}

/**
 * The light pages (sign-in, the customer's page, a reseller's trial page): public.html, a small
 * entry of their own without the panel's code (docs/decisions.md, first-load budget).
 */
const LIGHT_PAGE = /^\/(?:auth\/sign-in|minha-conta|teste\/[^/]+)\/?$/;

/** The built web app everywhere outside /api, with history fallback to index.html (public.html for the light pages). */
async function serveWeb(app: FastifyInstance, dist: string | undefined): Promise<void> {
  const root = dist ? path.resolve(dist) : undefined;
  const hasWeb = root !== undefined && fs.existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: 'index.html',
      preCompressed: true, // the build writes .br and .gz beside each asset
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
        // Hashed file names never change; the service worker, its loader and the manifest are checked every time.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else if (/^(sw\.js|manifest\.webmanifest|index\.html|public\.html)$/.test(name)) res.setHeader('Cache-Control', 'no-cache');
        else res.setHeader('Cache-Control', 'public, max-age=0');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (isApi || !hasWeb || request.method !== 'GET') {
      return sendError(reply, appError('NOT_FOUND', { params: { what: `Route ${request.method} ${request.url.split('?')[0]}` } }));
    }
    const page = LIGHT_PAGE.test(request.url.split('?')[0] ?? '') ? 'public.html' : 'index.html';
    return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile(page);
  });
}
