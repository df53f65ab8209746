import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD, a day of the panel\'s time zone' };
const Counts = {
  lines_created: Type.Integer({ description: 'paid lines and P2P accounts created (a trial renewed into a paid line counts here)' }),
  trials_created: Type.Integer(),
  renewals: Type.Integer({ description: 'renewals of a paid term: panel, flash, by package, PIX, P2P' }),
  credits_spent: Type.Integer({ description: 'credits spent on lines, screens and P2P accounts, net of refunds' }),
  pix_payments: Type.Integer({ description: 'PIX payments applied' }),
  pix_received_cents: Type.Integer(),
  expired: Type.Integer({ description: 'lines whose expiry fell in the bucket and that were not renewed since' }),
};
const SalesBucket = Type.Object({ start: Type.String({ description: 'the bucket\'s first day (not before from)' }), ...Counts }, { title: 'SalesBucket' });
const SalesReport = Type.Object(
  { from: Type.String(), to: Type.String(), bucket: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]), time_zone: Type.String(), series: Type.Array(SalesBucket), totals: Type.Object(Counts) },
  { title: 'SalesReport' },
);
const TopReseller = Type.Object(
  { reseller_id: Type.Integer(), username: Type.String(), lines_created: Type.Integer(), renewals: Type.Integer(), credits_spent: Type.Integer() },
  { title: 'TopReseller' },
);
const Range = {
  from: Type.Optional(Type.String({ ...DATE, description: 'first day (default: 29 days before to)' })),
  to: Type.Optional(Type.String({ ...DATE, description: 'last day, included (default: today)' })),
};

export function reportRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['reports'];
  r.get(
    '/reports/sales',
    {
      schema: {
        tags,
        summary: 'Sales, renewals, credits, PIX and expiries by day, week (from Monday) or month, for the caller\'s subtree or one sub-reseller\'s',
        querystring: Type.Object({
          ...Range,
          bucket: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')], { default: 'day' })),
          reseller_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'a reseller in the caller\'s subtree (404 otherwise): its subtree' })),
        }),
        errors: { 400: ['RANGE_TOO_LARGE'], 404: ['NOT_FOUND'] },
        response: { 200: SalesReport },
      },
    },
    (req) => service.sales(deps, req.user, req.query),
  );
  r.get(
    '/reports/top-resellers',
    {
      schema: {
        tags,
        summary: 'The caller\'s direct sub-resellers, each counting its whole subtree, best first by credits spent',
        querystring: Type.Object({ ...Range, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })) }),
        errors: { 400: ['RANGE_TOO_LARGE'] },
        response: { 200: Type.Array(TopReseller) },
      },
    },
    (req) => service.topResellers(deps, req.user, req.query),
  );
}
