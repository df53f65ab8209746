import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Bouquet } from '../bouquets/routes.ts';
import { PackageOut } from '../packages/schemas.ts';
import { complements } from './service.ts';

const Complements = Type.Object({
  groups: Type.Array(Type.Object({ group_id: Type.Integer(), group_name: Type.String(), type: Type.String() }, { title: 'ResellerGroup' })),
  settings: Type.Record(Type.String(), Type.String()),
  packages: Type.Array(PackageOut),
  bouquets: Type.Array(Bouquet),
  server_time: Type.Integer(),
  /** PUBLIC_URL; with it and main_domain both unset, links use the address the panel is reached at */
  public_url: Type.Union([Type.String(), Type.Null()]),
  /** P2P_API_URL is set: P2P accounts can be created, trialled, renewed and imported (otherwise 503 NOT_CONFIGURED) */
  p2p_configured: Type.Boolean(),
}, { title: 'Complements' });

/** Reference data every signed-in page needs; small tables only. */
export function complementRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/datacomplements', { schema: { tags: ['general'], scope: 'lines:read', response: { 200: Complements } } }, () => complements(deps));
}
