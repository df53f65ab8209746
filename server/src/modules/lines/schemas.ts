import { Type } from 'typebox';
import { PATTERN_MESSAGES } from '../../http/errors.ts';
import { CursorQuery, PageQuery, orderBy } from '../../http/paging.ts';
import { Nullable, SyncState } from '../../http/schemas.ts';
import { ORDER_FIELDS } from './queries.ts';

export { IdParams } from '../../http/schemas.ts';
export const Credential = Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9_.@-]*$' });
const Whatsapp = Type.String({ maxLength: 20, pattern: '^[0-9+() -]*$' });
const Notes = Type.String({ maxLength: 500 });
// an empty string clears it; otherwise one address, checked loosely (mail servers decide the rest)
const EMAIL_PATTERN = '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
PATTERN_MESSAGES.set(EMAIL_PATTERN, 'must be an e-mail address');
const Email = Type.String({ maxLength: 120, pattern: EMAIL_PATTERN });
const OptOut = Type.Boolean({ description: 'true: this customer gets no expiry reminders' });
const Bouquet = Type.Array(Type.String({ maxLength: 12 }), { maxItems: 500 });
const PackageId = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const LineRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  password: Type.String(),
  created_at: Type.Integer(),
  exp_date: Type.Integer(),
  master_username: Nullable(Type.String()),
  member_id: Type.Integer(),
  reseller_notes: Nullable(Type.String()),
  whatsapp: Nullable(Type.String()),
  email: Nullable(Type.String()),
  opt_out_reminders: Type.Integer({ description: '1: no expiry reminders' }),
  max_connections: Type.Integer(),
  enabled: Type.Integer(),
  is_trial: Type.Integer(),
  system: Type.Integer(),
  package_id: Nullable(Type.Integer()),
  bouquet: Type.Array(Type.String()),
  last_extended_at: Nullable(Type.Integer()),
  /** P2P lines (system 2/3, or just left it): delivery state on the P2P server; null when never P2P */
  sync_state: Nullable(SyncState),
  sync_error: Nullable(Type.String()),
}, { title: 'Line' });

export const ListQuery = Type.Object({
  ...PageQuery,
  order_by: orderBy(ORDER_FIELDS),
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type.Optional(Type.String({ maxLength: 50 })),
  text_search: Type.Optional(Type.String({ maxLength: 100 })),
  reseller: Type.Optional(Type.String({ maxLength: 50 })),
  created: Type.Optional(Type.String({ maxLength: 30 })),
  tz_offset: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
  type_user: Type.Optional(Type.Union([Type.Literal('normal'), Type.Literal('trial')])),
  status: Type.Optional(Type.Integer({ enum: [0, 1, 3, 4] })),
});

export const CreateBody = Type.Object({
  username: Type.Optional(Credential),
  password: Type.Optional(Credential),
  package_id: PackageId,
  max_connections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  whatsapp: Type.Optional(Whatsapp),
  email: Type.Optional(Email),
  opt_out_reminders: Type.Optional(OptOut),
  reseller_notes: Type.Optional(Notes),
  bouquet: Type.Optional(Bouquet),
});

export const TrialBody = Type.Object({
  username: Type.Optional(Credential),
  password: Type.Optional(Credential),
  package_id: PackageId,
  whatsapp: Type.Optional(Whatsapp),
  email: Type.Optional(Email),
  opt_out_reminders: Type.Optional(OptOut),
  reseller_notes: Type.Optional(Notes),
});

export const UpdateBody = Type.Object({
  password: Type.Optional(Credential),
  whatsapp: Type.Optional(Whatsapp),
  email: Type.Optional(Email),
  opt_out_reminders: Type.Optional(OptOut),
  reseller_notes: Type.Optional(Notes),
  bouquet: Type.Optional(Bouquet),
});

// {package_id} renews by package; {months: 1} (or the old panel's spelling `mounth`) is the flash renew.
export const RenewBody = Type.Object({
  package_id: Type.Optional(PackageId),
  months: Type.Optional(Type.Literal(1)),
  mounth: Type.Optional(Type.Literal(1)),
});
export const ExtendBody = Type.Object({ days: Type.Integer({ minimum: -1000, maximum: 1000 }) });
export const ScreensBody = Type.Object({ amount: Type.Integer({ minimum: -100, maximum: 100 }) });
export const SystemBody = Type.Object({ system_id: Type.Integer({ enum: [1, 2, 3] }) });
export const SearchBody = Type.Object({ search: Type.String({ maxLength: 50, pattern: '^\\w*$' }) });
export const ExpiringQuery = Type.Object({
  page: PageQuery.page,
  per: PageQuery.per,
  ...CursorQuery(),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
