import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Deps } from '../deps.ts';
import { apiKeyInUse } from '../domain/api-key-context.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import { KEY_PREFIX, type Scope, authenticateKey } from '../modules/apikeys/service.ts';
import { authenticate } from '../modules/auth/service.ts';
import { authenticateDownload } from '../modules/exports/service.ts';
import { mustEnrol } from '../modules/twofactor/service.ts';
import { appError, type AppError, validation } from './errors.ts';

type Role = AuthUser['type'];

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser;
  }
  interface FastifyContextConfig {
    /**
     * Who may call the route, checked right after the session and before the body is read or
     * validated, so a caller without the role learns nothing about the route's input.
     */
    roles?: readonly Role[];
    /** Other roles get 404 "<hideAs> not found" instead of 403 (routes about one reseller). */
    hideAs?: string;
    /** Also opens with a one-time `download_token` in the URL instead of the bearer header (exports). */
    downloadable?: boolean;
  }
  interface FastifySchema {
    /** API keys holding this scope may call the route; keys may call no route without one (docs/api.md). */
    scope?: Scope;
  }
}

/** What an admin who must enrol in 2FA (REQUIRE_ADMIN_2FA=1) may still call. */
export const ENROLMENT_ROUTES = new Set(['/api/profile', '/api/profile/2fa', '/api/profile/2fa/setup', '/api/profile/2fa/enable', '/api/auth/sign-out']);

/** Every route registered inside `scope` requires a valid bearer token. */
export function requireSession(scope: FastifyInstance, deps: Deps): void {
  scope.decorateRequest('user', null as unknown as AuthUser);
  // A callback hook, not an async one: on SQLite the session usually resolves at once (see
  // authenticate), and the request then goes on without a promise in between.
  scope.addHook('onRequest', (request, _reply, done) => {
    const signedIn = (user: AuthUser) => {
      request.user = user;
      if (deps.config.requireAdmin2fa && !ENROLMENT_ROUTES.has(request.routeOptions.url ?? '') && mustEnrol(deps, user)) {
        throw appError('TWO_FACTOR_REQUIRED');
      }
    };
    let user: AuthUser | Promise<AuthUser>;
    try {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      const byLink = token === undefined && request.routeOptions.config?.downloadable === true && request.url.includes('download_token=');
      if (token?.startsWith(KEY_PREFIX) && token.length <= 200) user = authenticateKey(deps, token, request.ip).then((u) => keyMayCall(request, u));
      else user = byLink ? authenticateDownload(deps, request.url) : authenticate(deps, token);
      if (!(user instanceof Promise)) signedIn(user);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (user instanceof Promise) user.then(signedIn).then(() => done(), done);
    else done();
  });
}

/**
 * An API key calls only routes that name a scope it holds (nothing else: keys, webhooks, resellers,
 * settings, 2FA, passwords, sessions), and every spend through it names an Idempotency-Key.
 */
function keyMayCall(request: FastifyRequest, user: Awaited<ReturnType<typeof authenticateKey>>): AuthUser {
  const schema = request.routeOptions.schema;
  const scope = schema?.scope;
  if (!scope) throw appError('SCOPE_REQUIRED');
  if (!user.apiKey.scopes.includes(scope)) throw appError('SCOPE_REQUIRED', { field: scope, params: { scope } });
  const key = request.headers['idempotency-key'];
  if (schema?.idempotencyKey && (typeof key !== 'string' || key === '')) {
    throw validation('Idempotency-Key', 'a call that spends credits through an API key must send one', 'REQUIRED');
  }
  return user;
}

/** The rest of a request through an API key runs where the action log finds the key's name. */
export function registerApiKeyContext(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const name = request.user?.apiKey?.name;
    if (name === undefined) return done();
    apiKeyInUse.run(name, done);
  });
}

/**
 * Routes declaring `config: { roles }` get a role check as their own onRequest hook. Route hooks
 * run after the scope's session hook and before body parsing and validation. A route outside a
 * session scope has no user, so it is refused (fails closed).
 */
export function registerRoleChecks(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const roles = route.config?.roles;
    if (!roles) return;
    const hideAs = route.config?.hideAs;
    const check: onRequestHookHandler = async (request) => {
      if (!request.user || !roles.includes(request.user.type)) throw denied(hideAs);
    };
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...own, check];
  });
}

function denied(hideAs: string | undefined): AppError {
  return hideAs ? appError('NOT_FOUND', { params: { what: hideAs } }) : appError('FORBIDDEN');
}

/** In-handler check; prefer `config: { roles }`, which runs before the body is validated. */
export function requireRole(request: FastifyRequest, ...types: Role[]): AuthUser {
  if (!types.includes(request.user.type)) throw appError('FORBIDDEN');
  return request.user;
}
