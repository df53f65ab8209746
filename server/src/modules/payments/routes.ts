import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import { IdParams } from '../../http/schemas.ts';
import { PageQuery, Paged } from '../../http/paging.ts';
import * as customer from './customer.ts';
import { onNotification } from './notifications.ts';
import * as service from './service.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Status = Type.Union([Type.Literal('pending'), Type.Literal('applied'), Type.Literal('paid_awaiting_credits'), Type.Literal('expired'), Type.Literal('rejected'), Type.Literal('failed')]);
const Price = Type.Object({ package_id: Type.Integer({ minimum: 1, maximum: 2147483647 }), price_cents: Type.Integer({ minimum: 100, maximum: 10_000_000, description: 'BRL cents' }) });
const Settings = Type.Object(
  {
    enabled: Type.Boolean(),
    mercadopago_access_token_set: Type.Boolean(),
    mercadopago_webhook_secret_set: Type.Boolean(),
    public_url_configured: Type.Boolean({ description: 'PIX needs PUBLIC_URL: Mercado Pago notifies it' }),
    notification_url_reachable: Type.Boolean({ description: 'PUBLIC_URL is https on a public address or name: false, Mercado Pago cannot notify it and payments are confirmed only by polling' }),
    notification_url: Nullable(Type.String({ description: "what to enter as the webhook URL in Mercado Pago's panel" })),
    prices: Type.Array(Price),
  },
  { title: 'PaymentSettings' },
);
const Payment = Type.Object(
  {
    id: Type.Integer(),
    line_id: Type.Integer(),
    username: Type.String(),
    package_name: Nullable(Type.String()),
    amount_cents: Type.Integer(),
    status: Type.String({ description: 'pending, applied, paid_awaiting_credits, expired, rejected or failed (the charge could not be made at Mercado Pago)' }),
    created_at: Type.Integer(),
    paid_at: Nullable(Type.Integer()),
    applied_at: Nullable(Type.Integer()),
    exp_after: Nullable(Type.Integer({ description: 'the expiry the renewal gave' })),
    mp_payment_id: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
  },
  { title: 'Payment' },
);
/** The payments list's query (its export takes the same filters). */
export const PaymentListQuery = Type.Object({ ...PageQuery, status: Type.Optional(Status), line: Type.Optional(Type.String({ maxLength: 50 })) });
const Received = Type.Object({ count: Type.Integer(), cents: Type.Integer() });

/** The signed-in account's PIX settings and payments. API keys cannot call these (no scope). */
export function paymentRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['payments'];
  r.get('/payments/settings', { schema: { tags, response: { 200: Settings } } }, (req) => service.getSettings(deps, req.user));
  r.put(
    '/payments/settings',
    {
      schema: {
        tags,
        body: Type.Object({
          enabled: Type.Optional(Type.Boolean({ description: 'on needs the access token, the webhook secret and a price (400 VALIDATION, reason REQUIRED_TO_ENABLE)' })),
          mercadopago_access_token: Type.Optional(Nullable(Type.String({ minLength: 10, maxLength: 300, description: 'write-only' }))),
          mercadopago_webhook_secret: Type.Optional(Nullable(Type.String({ minLength: 8, maxLength: 200, description: 'write-only' }))),
          prices: Type.Optional(Type.Array(Price, { maxItems: 100 })),
        }),
        response: { 200: Settings },
      },
    },
    (req) => service.putSettings(deps, req.user, req.body),
  );
  r.get(
    '/payments',
    { schema: { tags, querystring: PaymentListQuery, response: { 200: Paged(Payment) } } },
    (req) => service.list(deps, req.user, req.query),
  );
  r.get(
    '/payments/summary',
    { schema: { tags, response: { 200: Type.Object({ enabled: Type.Boolean(), today: Received, month: Received, awaiting_credits: Type.Integer() }) } } },
    (req) => service.summary(deps, req.user),
  );
}

const CustomerPayment = Type.Object(
  {
    id: Type.Integer(),
    status: Status,
    amount_cents: Type.Integer(),
    package_id: Type.Integer(),
    qr_code: Nullable(Type.String({ description: 'PIX copy-paste code' })),
    qr_code_base64: Nullable(Type.String({ description: 'the QR code, a PNG in base64' })),
    ticket_url: Nullable(Type.String()),
    expires_at: Type.Integer(),
    created_at: Type.Integer(),
    applied_at: Nullable(Type.Integer()),
    exp_after: Nullable(Type.Integer()),
  },
  { title: 'CustomerPayment' },
);

/** Mercado Pago's notifications and the customers' own routes: no panel session (docs/payments.md). */
export function publicPaymentRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/payments/mercadopago/webhook',
    {
      schema: {
        tags: ['payments'],
        security: [],
        errors: { 401: ['INVALID_SIGNATURE'], 502: ['UPSTREAM_ERROR'] },
        querystring: Type.Object({ reseller: Type.Integer({ minimum: 1, maximum: 2147483647 }), 'data.id': Type.Optional(Type.String({ maxLength: 40 })), type: Type.Optional(Type.String({ maxLength: 40 })) }),
        body: Type.Optional(Type.Object({ data: Type.Optional(Type.Object({ id: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Integer()])) })) })),
        response: { 200: Type.Object({ ok: Type.Boolean() }) },
      },
    },
    async (req) => {
      const dataId = req.query['data.id'] ?? (req.body?.data?.id !== undefined ? String(req.body.data.id) : undefined);
      if (!dataId) throw validation('data.id', 'required', 'REQUIRED');
      await onNotification(deps, {
        resellerId: req.query.reseller,
        dataId,
        type: req.query.type,
        signature: req.headers['x-signature'] as string | undefined,
        requestId: req.headers['x-request-id'] as string | undefined,
      });
      return { ok: true };
    },
  );

  const tags = ['customer'];
  const bearer = [{ customerSession: [] }];
  r.post(
    '/customer/sign-in',
    {
      schema: {
        tags,
        security: [],
        errors: { 401: ['INVALID_CREDENTIALS', 'LINK_EXPIRED'], 429: ['RATE_LIMITED'] },
        body: Type.Object({ username: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })), password: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })), link: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Type.Object({ token: Type.String({ description: 'cs_...: Authorization: Bearer for the customer routes' }), expires_in: Type.Integer() }) },
      },
    },
    (req) => customer.signIn(deps, req.body, req.ip),
  );
  r.get(
    '/customer/line',
    {
      schema: {
        tags,
        security: bearer,
        errors: { 401: ['UNAUTHORIZED'] },
        response: {
          200: Type.Object(
            {
              username: Type.String(),
              exp_date: Type.Integer(),
              enabled: Type.Boolean(),
              is_trial: Type.Boolean(),
              package_id: Nullable(Type.Integer({ description: "the line's package: an offer of another package changes it" })),
              package_name: Nullable(Type.String()),
              screens: Type.Integer(),
              playlist_url: Type.String(),
              playlist_qr: Type.String({ description: 'data: URL of an SVG QR code of playlist_url (for TV apps)' }),
              reseller: Type.Object({ whatsapp: Nullable(Type.String({ description: "the reseller's WhatsApp number, as they entered it" })) }),
              payments_enabled: Type.Boolean({ description: 'PIX is on with prices, and the line is not blocked' }),
              offers: Type.Array(Type.Object({ package_id: Type.Integer(), package_name: Type.String(), price_cents: Type.Integer(), duration: Type.Integer(), duration_in: Type.String() })),
            },
            { title: 'CustomerLine' },
          ),
        },
      },
    },
    async (req) => customer.lineView(deps, await customer.customerLineId(deps, req.headers.authorization), `${req.protocol}://${req.host}`),
  );
  r.post(
    '/customer/payments',
    {
      schema: {
        tags,
        security: bearer,
        errors: { 401: ['UNAUTHORIZED'], 409: ['IDEMPOTENCY_KEY_REUSED', 'LINE_BLOCKED'], 503: ['NOT_CONFIGURED'], 502: ['UPSTREAM_ERROR'] },
        headers: Type.Object({ 'idempotency-key': Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' }) }),
        body: Type.Object({ package_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }),
        response: { 200: CustomerPayment },
      },
    },
    async (req) => customer.createCharge(deps, await customer.customerLineId(deps, req.headers.authorization), req.body.package_id, req.headers['idempotency-key']),
  );
  r.get(
    '/customer/payments/:id',
    { schema: { tags, security: bearer, errors: { 401: ['UNAUTHORIZED'] }, params: IdParams, response: { 200: CustomerPayment } } },
    async (req) => customer.paymentView(deps, await customer.customerLineId(deps, req.headers.authorization), req.params.id),
  );
}
