import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/** Finds the first field holding a NUL character, which PostgreSQL text cannot store. */
function nulField(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = nulField(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  }
  return undefined;
}

/** Bad text is a 400 naming the field on both engines, never a database error. */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = nulField(request.query, '') ?? nulField(request.body, '') ?? nulField(request.params, '');
    if (field) throw new AppError(400, 'VALIDATION', `${field}: must not contain NUL characters`, field);
  });
}
