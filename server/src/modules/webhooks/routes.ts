import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const Event = Type.Union([
  Type.Literal('line.created'),
  Type.Literal('line.renewed'),
  Type.Literal('line.blocked'),
  Type.Literal('line.expiring'),
  Type.Literal('line.expired'),
  Type.Literal('credits.low'),
  Type.Literal('payment.approved'),
  Type.Literal('payment.failed'),
  Type.Literal('credits.purchase_waiting'),
  Type.Literal('credits.purchased'),
]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Endpoint = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    include_credentials: Type.Boolean({ description: "the events' lines carry their password" }),
    credits_low_threshold: Nullable(Type.Integer()),
    created_at: Type.Integer(),
  },
  { title: 'WebhookEndpoint' },
);
const Delivery = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String({ description: 'sent as Webhook-Id' }),
    type: Type.String(),
    state: Type.String({ description: 'pending, delivered, gave_up (24 hours of failures) or cancelled (the endpoint was removed)' }),
    attempts: Type.Integer(),
    created_at: Type.Integer(),
    next_attempt_at: Type.Integer(),
    last_attempt_at: Nullable(Type.Integer()),
    last_status: Nullable(Type.Integer({ description: "the endpoint's HTTP status" })),
    last_answer: Nullable(Type.String({ description: 'why the last attempt failed' })),
    delivered_at: Nullable(Type.Integer()),
  },
  { title: 'WebhookDelivery' },
);
const Body = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 500, description: 'https (http only to an address OUTBOUND_ALLOW_NETWORKS permits)' }),
  events: Type.Array(Event, { minItems: 1, maxItems: 8, uniqueItems: true }),
  include_credentials: Type.Optional(Type.Boolean()),
  credits_low_threshold: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'credits.low fires when the balance falls under this' }))),
});
const DeliveryParams = Type.Object({ id: IdParams.properties.id, delivery_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** The signed-in account's webhook endpoints. API keys cannot call these (no scope). */
export function webhookRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['webhooks'];
  r.get('/webhooks', { schema: { tags, response: { 200: Type.Object({ data: Type.Array(Endpoint) }) } } }, (req) => service.list(deps, req.user));
  r.post(
    '/webhooks',
    { schema: { tags, errors: { 409: ['WEBHOOK_LIMIT'] }, body: Body, response: { 201: Type.Object({ ...Endpoint.properties, secret: Type.String({ description: 'whsec_...: shown this once; the key of Webhook-Signature' }) }) } } },
    async (req, reply) => reply.status(201).send(await service.create(deps, req.user, req.body)),
  );
  r.delete('/webhooks/:id', { schema: { tags, params: IdParams, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.remove(deps, req.user, req.params.id);
    return reply.status(204).send(null);
  });
  r.get('/webhooks/:id/deliveries', { schema: { tags, params: IdParams, response: { 200: Type.Object({ data: Type.Array(Delivery) }) } } }, (req) => service.deliveries(deps, req.user, req.params.id));
  r.post('/webhooks/:id/deliveries/:delivery_id/resend', { schema: { tags, params: DeliveryParams, response: { 201: Delivery } } }, async (req, reply) =>
    reply.status(201).send(await service.resend(deps, req.user, req.params.id, req.params.delivery_id)),
  );
  r.post('/webhooks/:id/test', { schema: { tags, params: IdParams, response: { 201: Delivery } } }, async (req, reply) => reply.status(201).send(await service.sendTest(deps, req.user, req.params.id)));
}
