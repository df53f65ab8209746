import type { FastifyRequest } from 'fastify';

/** The address this request came to; X-Forwarded-Proto/Host count only from TRUST_PROXY's proxies. */
export const requestOrigin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
