import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Nullable, idempotencyKey } from '../../http/schemas.ts';
import { Credential, LineRow } from '../lines/schemas.ts';
import * as service from './service.ts';

const FetchBody = Type.Object({ url: Type.String({ minLength: 5, maxLength: 2000 }) });
const SourceLine = Type.Object(
  { username: Type.String(), password: Type.String(), exp_date: Nullable(Type.Integer()), created_at: Nullable(Type.Integer()), is_trial: Type.Boolean() },
  { title: 'MigrationSourceLine' },
);
const MigrateBody = Type.Object({
  username: Type.String({ ...Credential, minLength: 1 }),
  password: Type.String({ ...Credential, minLength: 1 }),
  exp_date: Type.Integer({ minimum: 0, maximum: 2147483647 }),
  package_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
const Migrated = Type.Object({ line: LineRow, exp_date: Type.Integer(), capped: Type.Boolean() }, { title: 'MigratedLine' });

/** Migrate a line from another provider's playlist URL (docs/integrations.md, "Migration from another provider"). */
export function migrationRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['users'];
  r.post('/users/fetch-url-data', {
      schema: { tags, errors: { 400: ['URL_NOT_ALLOWED', 'URL_NOT_ORIGINAL'], 422: ['SOURCE_REFUSED'], 502: ['UPSTREAM_ERROR'] }, body: FetchBody, response: { 200: SourceLine } },
    }, (req) => service.fetchUrlData(deps, req.user, req.body.url),
  );
  r.post('/users/migrate', {
      schema: {
        tags,
        idempotencyKey: true,
        errors: { 409: ['MIGRATION_NOT_LOOKED_UP', 'MIGRATION_TRIAL', 'MIGRATION_TOO_SHORT', 'USERNAME_TAKEN', 'INSUFFICIENT_CREDITS'] },
        body: MigrateBody,
        response: { 201: Migrated },
      },
    }, async (req, reply) => reply.status(201).send(await service.migrate(deps, req.user, req.body, idempotencyKey(req))),
  );
}
