import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { ErrorCode } from '../domain/errors.ts';
import { ENROLMENT_ROUTES } from './auth.ts';

/** Error codes by HTTP status. */
type ErrorCodes = Partial<Record<400 | 401 | 403 | 404 | 409 | 422 | 424 | 429 | 502 | 503, readonly ErrorCode[]>>;

declare module 'fastify' {
  interface FastifySchema {
    /** Documentation only: the error codes of this route beyond those every route of its kind gives (see errorResponses). */
    errors?: ErrorCodes;
    /** Documentation only: the route reads an `Idempotency-Key` header (calls that spend credits). */
    idempotencyKey?: true;
    /** Documentation only: the route answers only the statuses of its `response` (an edge's auth_request: nginx turns anything else into a 500). */
    onlyListedAnswers?: true;
  }
}

/** Every error answer of the API (docs/rules.md, "Limits and list conventions"). */
export const ApiError = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ description: 'stable code the web app translates; each answer lists the codes it can carry' }),
    message: Type.String({ description: 'English text' }),
    field: Type.Optional(Type.String({ description: 'the input at fault' })),
    reason: Type.Optional(Type.String({ description: 'VALIDATION: the kind of problem with `field` (REQUIRED, TOO_LONG, NOT_HTTPS, NOT_PUBLIC, ...: docs/api.md)' })),
    limits: Type.Optional(Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) }, { description: 'the bound of TOO_LONG, TOO_SHORT, TOO_MANY, OUT_OF_RANGE' })),
  },
  { title: 'ApiError' },
);

const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'one random key per user intent, sent again on retry: a repeated key replays the first answer instead of spending twice',
    }),
  ),
});

const DESCRIPTION = [
  'Errors answer `{statusCode, code, message, field?, reason?, limits?}` (schema `ApiError`); each operation lists every status and code it can give.',
  'A call that writes may answer 503 `BUSY` with Retry-After: a lock was not granted within a second and nothing was changed; send it again (with the same Idempotency-Key).',
  'Only a fault of the server answers anything else: 500 `INTERNAL`, while the server stops 503 `SHUTTING_DOWN`, and while it cannot reach its database 504 `DATABASE_UNAVAILABLE` (a load balancer sends it to another host).',
].join(' ');

/** Methods whose body Fastify reads: a body too large or of another type is refused before the route runs. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error answers of a route: those its kind always can give (any input, even a query string or
 * a body it ignores; the session; `config.roles`; an `{id}`; an idempotency key), plus its own.
 */
function errorResponses(schema: FastifySchema, route: RouteOptions) {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...list: readonly string[]) => codes.set(status, new Set([...(codes.get(status) ?? []), ...list]));
  const isPublic = schema.security?.length === 0;
  add(400, 'VALIDATION');
  if (!isPublic) {
    add(401, 'UNAUTHORIZED');
    // through an API key (docs/api.md): a route without the key's scope, an address outside its list, its rate
    add(403, 'SCOPE_REQUIRED', 'IP_NOT_ALLOWED');
    add(429, 'RATE_LIMITED');
  }
  if (!isPublic && !ENROLMENT_ROUTES.has(route.url)) add(403, 'TWO_FACTOR_REQUIRED');
  if (route.config?.roles) add(route.config.hideAs ? 404 : 403, route.config.hideAs ? 'NOT_FOUND' : 'FORBIDDEN');
  if (route.url.includes(':id')) add(404, 'NOT_FOUND');
  // a path parameter longer than the router takes (maxParamLength)
  if (route.url.includes(':')) add(414, 'URI_TOO_LONG');
  if ([route.method].flat().some((m) => WITH_BODY.has(m))) {
    add(413, 'PAYLOAD_TOO_LARGE');
    add(415, 'UNSUPPORTED_MEDIA_TYPE');
    // a write transaction whose lock was not granted in time (db/tx.ts)
    add(503, 'BUSY');
  }
  if (schema.idempotencyKey) add(422, 'IDEMPOTENCY_CONFLICT');
  for (const [status, list] of Object.entries(schema.errors ?? {})) add(Number(status), ...list);
  return Object.fromEntries(
    [...codes].map(([status, list]) => [status, { description: `${STATUS_CODES[status]}: ${[...list].join(', ')}`, content: { 'application/json': { schema: ApiError } } }]),
  );
}

/** Adds to each operation its error answers, its Idempotency-Key header; the doc-only keys go. */
const transform: FastifyDynamicSwaggerOptions['transform'] = ({ schema, url, route }) => {
  if (!schema || schema.hide) return { schema, url };
  const { errors: _errors, idempotencyKey, onlyListedAnswers, scope, ...rest } = schema;
  if (onlyListedAnswers) return { url, schema: rest };
  const forKeys = scope
    ? `API keys with the scope \`${scope}\` may call this${idempotencyKey ? ' (with an Idempotency-Key)' : ''}.`
    : 'API keys cannot call this.';
  return {
    url,
    schema: {
      ...rest,
      ...(schema.security?.length === 0 ? {} : { description: [rest.description, forKeys].filter(Boolean).join(' '), 'x-api-key-scope': scope ?? null }),
      ...(idempotencyKey ? { headers: IdempotencyHeader } : {}),
      response: { ...(rest.response as object), ...errorResponses(schema, route) },
    },
  };
};

type Json = Record<string, unknown>;

/**
 * Schemas with a `title` become named components (`#/components/schemas/<title>`), so the
 * document and the types generated from it say `Line` once instead of repeating its fields.
 */
function nameTitledSchemas(doc: Json): Json {
  const named: Record<string, Json> = {};
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v)]));
    if (typeof out.title !== 'string') return out;
    const name = out.title;
    if (named[name] && JSON.stringify(named[name]) !== JSON.stringify(out)) throw new Error(`two different schemas are titled ${name}`);
    named[name] = out;
    return { $ref: `#/components/schemas/${name}` };
  };
  const paths = visit(doc.paths);
  const components = doc.components as Json;
  const sorted = Object.fromEntries(Object.keys(named).sort().map((k) => [k, named[k]]));
  return { ...doc, paths, components: { ...components, schemas: { ...(components.schemas as Json), ...sorted } } };
}

export const swaggerOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    info: { title: 'Reseller panel API', version: '1.0.0', description: DESCRIPTION },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, customerSession: { type: 'http', scheme: 'bearer', description: 'a customer session (POST /api/customer/sign-in): cs_...' } } },
    security: [{ bearer: [] }],
  },
  transform,
  transformObject: (documentObject) => nameTitledSchemas((documentObject as { openapiObject: Json }).openapiObject),
};
