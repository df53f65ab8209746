import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { PageQuery, Paged } from '../../http/paging.ts';
import { IdParams } from '../../http/schemas.ts';
import * as service from './service.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Status = Type.Union([Type.Literal('pending'), Type.Literal('applied'), Type.Literal('paid_awaiting_credits'), Type.Literal('expired'), Type.Literal('rejected'), Type.Literal('failed')]);
const Direction = Type.Union([Type.Literal('bought'), Type.Literal('sold')]);
const PRICE = { minimum: 1, maximum: 100_000, description: 'BRL cents per credit' };
const MIN_CREDITS = { minimum: 1, maximum: 100_000 };

const Settings = Type.Object(
  {
    enabled: Type.Boolean(),
    price_cents_per_credit: Type.Integer({ description: 'BRL cents per credit; 0 until set' }),
    min_credits: Type.Integer({ description: 'the fewest credits a purchase may buy' }),
    mercadopago_ready: Type.Boolean({ description: "the account's PIX settings hold its Mercado Pago access token and webhook secret (needed to turn sales on)" }),
    public_url_configured: Type.Boolean({ description: 'charges need PUBLIC_URL: Mercado Pago notifies it' }),
  },
  { title: 'CreditSaleSettings' },
);
const Offer = Type.Object({ enabled: Type.Boolean({ description: 'false: the parent sells no credits now (a purchase answers NOT_CONFIGURED); the figures are then 0' }), price_cents_per_credit: Type.Integer(), min_credits: Type.Integer() }, { title: 'CreditOffer' });
const Purchase = Type.Object(
  {
    id: Type.Integer(),
    status: Status,
    credits: Type.Integer(),
    amount_cents: Type.Integer(),
    qr_code: Nullable(Type.String({ description: 'PIX copy-paste code' })),
    qr_code_base64: Nullable(Type.String({ description: 'the QR code, a PNG in base64' })),
    expires_at: Type.Integer(),
    created_at: Type.Integer(),
    applied_at: Nullable(Type.Integer()),
    buyer_id: Type.Integer(),
    seller_id: Type.Integer(),
  },
  { title: 'CreditPurchase' },
);
const ListedPurchase = Type.Object(
  {
    id: Type.Integer(),
    direction: Direction,
    buyer_id: Type.Integer(),
    buyer: Type.String({ description: "the buyer's username" }),
    seller_id: Type.Integer(),
    seller: Type.String({ description: "the seller's username" }),
    credits: Type.Integer(),
    amount_cents: Type.Integer(),
    status: Status,
    created_at: Type.Integer(),
    paid_at: Nullable(Type.Integer()),
    applied_at: Nullable(Type.Integer()),
    mp_payment_id: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
  },
  { title: 'ListedCreditPurchase' },
);

/** Credit sales (docs/payments.md): a parent's offer, its sub-resellers' purchases by PIX. API keys cannot call these (no scope). */
export function creditSaleRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['credit-sales'];
  const sellers = { roles: ['admin', 'master'] } as const;
  r.get('/credit-sales/settings', { config: sellers, schema: { tags, response: { 200: Settings } } }, (req) => service.getSettings(deps, req.user));
  r.put(
    '/credit-sales/settings',
    {
      config: sellers,
      schema: {
        tags,
        body: Type.Object({
          enabled: Type.Optional(Type.Boolean({ description: "on needs the account's Mercado Pago access token and webhook secret (400 VALIDATION, reason REQUIRED_TO_ENABLE)" })),
          price_cents_per_credit: Type.Optional(Type.Integer(PRICE)),
          min_credits: Type.Optional(Type.Integer(MIN_CREDITS)),
        }),
        response: { 200: Settings },
      },
    },
    (req) => service.putSettings(deps, req.user, req.body),
  );
  r.get('/credit-sales/summary', { config: sellers, schema: { tags, response: { 200: Type.Object({ awaiting_credits: Type.Integer({ description: 'sales paid and waiting for the credits of this account' }) }) } } }, (req) =>
    service.summary(deps, req.user),
  );

  r.get('/credit-purchases/offer', { schema: { tags, errors: { 409: ['NO_PARENT'] }, response: { 200: Offer } } }, (req) => service.offer(deps, req.user));
  r.post(
    '/credit-purchases',
    {
      schema: {
        tags,
        errors: { 409: ['NO_PARENT', 'IDEMPOTENCY_KEY_REUSED'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] },
        headers: Type.Object({ 'idempotency-key': Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' }) }),
        body: Type.Object({ credits: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }),
        response: { 200: Purchase },
      },
    },
    (req) => service.createPurchase(deps, req.user, req.body.credits, req.headers['idempotency-key']),
  );
  r.get(
    '/credit-purchases',
    { schema: { tags, querystring: Type.Object({ ...PageQuery, direction: Type.Optional(Direction), status: Type.Optional(Status) }), response: { 200: Paged(ListedPurchase) } } },
    (req) => service.list(deps, req.user, req.query),
  );
  r.get('/credit-purchases/:id', { schema: { tags, errors: { 404: ['NOT_FOUND'] }, params: IdParams, response: { 200: Purchase } } }, (req) => service.view(deps, req.user, req.params.id));
}
