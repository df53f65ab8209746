import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * CSP, frame and sniffing protections on every answer (web app, API, docs). Scripts only from our
 * own origin; inline styles are allowed because Mantine injects its style tags at run time.
 * HSTS and upgrade-insecure-requests only when the panel is published over https: a panel on
 * plain http (a LAN address) would otherwise lock browsers out of it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined, posterOrigin?: string): Promise<void> {
  const headers = await helmetHeaders(publicUrl, posterOrigin);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The headers helmet sets, computed once: @fastify/helmet builds the middleware again on every
 * request, parsing the CSP directives each time (~10 % of the CPU of a light API request in a
 * profile of /api/profile). The headers never vary per request here (no nonces).
 */
async function helmetHeaders(publicUrl: string | undefined, posterOrigin?: string): Promise<Record<string, string>> {
  const https = publicUrl?.toLowerCase().startsWith('https://') ?? false;
  const probe = Fastify();
  await probe.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Content-request posters come from the movie catalogue's image host (no key in those URLs).
        imgSrc: ["'self'", 'data:', ...(posterOrigin ? [posterOrigin] : [])],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'"], // the service worker (installable panel)
        manifestSrc: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  probe.get('/', (_request, reply) => reply.send());
  const res = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const own = new Set(['content-length', 'content-type', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !own.has(name)).map(([name, value]) => [name, String(value)]));
}
