import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listBouquets } from '../bouquets/repo.ts';
import { allPackages } from '../packages/repo.ts';
import { PackageOut } from '../packages/schemas.ts';
import { Bouquet } from '../bouquets/routes.ts';
import { allSettings } from '../settings/repo.ts';

const Complements = Type.Object({
  groups: Type.Array(Type.Object({ group_id: Type.Integer(), group_name: Type.String(), type: Type.String() })),
  settings: Type.Record(Type.String(), Type.String()),
  packages: Type.Array(PackageOut),
  bouquets: Type.Array(Bouquet),
  server_time: Type.Integer(),
});

/** Reference data every signed-in page needs; small tables only. */
export function complementRoutes(app: FastifyInstance, { database }: Deps): void {
  app.get('/datacomplements', { schema: { tags: ['general'], response: { 200: Complements } } }, async () => {
    const db = database.db;
    const [groups, settings, packages, bouquets] = await Promise.all([
      db.selectFrom('groups').selectAll().orderBy('group_id').execute(),
      allSettings(db),
      allPackages(db),
      listBouquets(db),
    ]);
    return { groups, settings, packages, bouquets, server_time: Math.floor(Date.now() / 1000) };
  });
}
