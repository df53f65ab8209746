import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { Nullable } from '../../http/schemas.ts';
import * as admin from './admin.ts';
import { SettingsBody } from './rules.ts';

const Answer = Type.Object(
  {
  settings: Type.Record(Type.String(), Type.String()),
  integrations: Type.Object({ public_url: Nullable(Type.String()), tmdb: Type.Boolean(), lazy_player: Type.Boolean(), p2p: Type.Boolean(), old_p2p_panel: Type.Boolean() }),
  },
  { title: 'AdminSettings' },
);

/** The admin's settings page: business settings, and which integrations the server is configured for. */
export function settingsRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const config = { roles: ['admin'] as const };
  r.get('/admin/settings', { config, schema: { tags: ['settings'], response: { 200: Answer } } }, () => admin.read(deps));
  r.put('/admin/settings', { config, schema: { tags: ['settings'], body: SettingsBody, response: { 200: Answer } } }, (req) =>
    admin.update(deps, req.user, req.body as Record<string, string>),
  );
}
