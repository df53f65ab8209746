import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * CSP, frame and sniffing protections on every answer (web app, API, docs). Scripts only from our
 * own origin; inline styles are allowed because Mantine injects its style tags at run time.
 * HSTS and upgrade-insecure-requests only when the panel is published over https: a panel on
 * plain http (a LAN address) would otherwise lock browsers out of it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, publicUrl: string | undefined, posterOrigin?: string): Promise<void> {
  const https = publicUrl?.toLowerCase().startsWith('https://') ?? false;
  await app.register(helmet, {
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
}
