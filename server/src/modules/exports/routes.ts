import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { ListQuery as LineListQuery } from '../lines/schemas.ts';
import { LogFilters } from '../logs/routes.ts';
import { PaymentListQuery } from '../payments/routes.ts';
import { ListQuery as ResellerListQuery } from '../resellers/schemas.ts';
import * as service from './service.ts';

/** What shapes the file rather than the rows, on every export. */
const FileParams = {
  lang: Type.Optional(Type.Union([Type.Literal('pt-BR'), Type.Literal('en-US')])),
  /** minutes east of UTC: dates are written in the caller's time zone */
  tz_offset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
  /** from POST /api/exports/token, for a browser download without the Authorization header */
  download_token: Type.Optional(Type.String({ maxLength: 200 })),
};

/** A list's filters without its paging: an export has every matching row, in id order. */
function filtersOf(props: TProperties) {
  const { page: _p, per: _n, order_by: _o, ...filters } = props;
  return Type.Object({ ...filters, ...FileParams });
}

const LineExportQuery = filtersOf(LineListQuery.properties);
const ResellerExportQuery = filtersOf(ResellerListQuery.properties);
const PaymentExportQuery = filtersOf(PaymentListQuery.properties);
const LogExportQuery = Type.Object({ ...LogFilters, ...FileParams });

/** The answer is the file, streamed: its schema is documentation (Fastify never serializes a stream). */
const file = (format: service.Format) => ({
  produces: [service.CONTENT_TYPES[format]],
  response: { 200: Type.String({ format: 'binary', description: `the ${format.toUpperCase()} file, every matching row` }) },
});

async function send(reply: FastifyReply, file: Promise<service.ExportFile>) {
  const { filename, contentType, stream } = await file;
  return reply
    .header('Content-Type', contentType)
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('Cache-Control', 'no-store')
    .send(stream);
}

export function exportRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['exports'];
  const anyone = { downloadable: true } as const;
  const managers = { downloadable: true, roles: ['admin', 'master'] } as const;
  const opts = (q: { lang?: 'pt-BR' | 'en-US'; tz_offset?: number }, format: service.Format) => ({ format, lang: q.lang, tz_offset: q.tz_offset });

  for (const format of ['csv', 'xlsx'] as const) {
    r.get(`/users/export.${format}`, { config: anyone, schema: { tags, querystring: LineExportQuery, ...file(format) } }, (req, reply) =>
      send(reply, service.exportLines(deps, req.user, req.query as never, opts(req.query, format))),
    );
    r.get(`/payments/export.${format}`, { config: anyone, schema: { tags, querystring: PaymentExportQuery, ...file(format) } }, (req, reply) =>
      send(reply, service.exportPayments(deps, req.user, req.query as never, opts(req.query, format))),
    );
  }
  r.get('/resellers/export.csv', { config: managers, schema: { tags, querystring: ResellerExportQuery, ...file('csv') } }, (req, reply) =>
    send(reply, service.exportResellers(deps, req.user, req.query as never, opts(req.query, 'csv'))),
  );
  r.get('/resellers/:id/ledger/export.csv', { config: anyone, schema: { tags, params: IdParams, querystring: Type.Object(FileParams), ...file('csv') } }, (req, reply) =>
    send(reply, service.exportLedger(deps, req.user, req.params.id, opts(req.query, 'csv'))),
  );
  r.get('/logs/export.csv', { config: anyone, schema: { tags, querystring: LogExportQuery, ...file('csv') } }, (req, reply) =>
    send(reply, service.exportLogs(deps, req.user, req.query, opts(req.query, 'csv'))),
  );
  r.post(
    '/exports/token',
    {
      schema: {
        tags,
        body: Type.Object({ path: Type.String({ minLength: 1, maxLength: 2000 }) }),
        response: { 201: Type.Object({ url: Type.String(), expires_at: Type.Integer() }, { title: 'DownloadLink' }) },
      },
    },
    async (req, reply) => reply.status(201).send(await service.downloadLink(deps, req.user, req.body.path)),
  );
}
