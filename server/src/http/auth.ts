import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { type AuthUser, authenticate } from '../modules/auth/service.ts';
import { forbidden } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
  }
}

/** Every route registered inside `scope` requires a valid bearer token. */
export function requireSession(scope: FastifyInstance, deps: Deps): void {
  scope.decorateRequest('user', null as unknown as AuthUser);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    request.user = await authenticate(deps, token);
  });
}

export function requireRole(request: FastifyRequest, ...types: AuthUser['type'][]): AuthUser {
  if (!types.includes(request.user.type)) throw forbidden();
  return request.user;
}
