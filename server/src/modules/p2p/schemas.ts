import { Type } from 'typebox';
import { PageQuery, orderBy } from '../../http/paging.ts';
import { Nullable, SyncState } from '../../http/schemas.ts';
import { ORDER_FIELDS } from './repo.ts';

export { IdParams } from '../../http/schemas.ts';

/** The part of the login before the @ (the domain is the `p2p_email_domain` setting). */
const Username = Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9_.-]*$' });
const Password = Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9_.@-]*$' });
const Name = Type.String({ maxLength: 100 });
const PackageId = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Whatsapp = Type.String({ maxLength: 20, pattern: '^[0-9+() -]*$' });
const Status = Type.Integer({ enum: [-1, 0, 1] });

export const P2pRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Type.String(),
  /** the login on the P2P server */
  email: Type.String(),
  password: Type.String(),
  /** the password the client had in the old P2P panel (imports); null otherwise */
  externo_senha: Nullable(Type.String()),
  /** epoch seconds */
  created: Type.Integer(),
  /** expiry, epoch seconds */
  expiracao: Type.Integer(),
  /** -1 registered, 0 disabled, 1 active */
  status: Status,
  is_trial: Type.Integer(),
  member_id: Type.Integer(),
  master_username: Nullable(Type.String()),
  package_id: Nullable(Type.Integer()),
  max_connections: Type.Integer(),
  whatsapp: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  sync_state: SyncState,
  sync_error: Nullable(Type.String()),
  /** last delivery to the P2P server, epoch seconds */
  synced_at: Nullable(Type.Integer()),
});

export const ListQuery = Type.Object({
  ...PageQuery,
  order_by: orderBy(ORDER_FIELDS),
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type.Optional(Type.String({ maxLength: 50 })),
  reseller: Type.Optional(Type.String({ maxLength: 50 })),
  /** -1 registered, 0 disabled, 1 active and not expired, 3 expired */
  status: Type.Optional(Type.Integer({ enum: [-1, 0, 1, 3] })),
  type_user: Type.Optional(Type.Union([Type.Literal('normal'), Type.Literal('trial')])),
});

export const CreateBody = Type.Object({
  /** empty: the username */
  name: Name,
  /** empty or missing: generated */
  username: Type.Optional(Username),
  /** empty or missing: generated */
  password: Type.Optional(Password),
  package_id: PackageId,
  max_connections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  whatsapp: Type.Optional(Whatsapp),
  notes: Type.Optional(Type.String({ maxLength: 500 })),
});

export const TrialBody = Type.Object({
  name: Name,
  username: Type.Optional(Username),
  password: Type.Optional(Password),
  package_id: PackageId,
});

/** Empty or missing fields stay as they are. */
export const UpdateBody = Type.Object({
  name: Type.Optional(Name),
  username: Type.Optional(Username),
  password: Type.Optional(Password),
});

export const RenewBody = Type.Object({ months: Type.Integer({ minimum: 1, maximum: 12 }) });
export const SearchBody = Type.Object({ search: Type.String({ maxLength: 50, pattern: '^[\\w.-]*$' }) });
export const SearchAnswer = Type.Object({ data: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })) });

export const OnlineAnswer = Type.Object({
  data: Type.Array(
    Type.Object({
      username: Type.String(),
      channel_name: Type.String(),
      /** seconds */
      duration: Type.Integer(),
      external_ip: Type.String(),
      app_version: Type.String(),
      app_name: Type.String(),
    }),
  ),
});

// ---- the old P2P panel ----

/** The old panel's credentials: the username is longer than 3 characters (docs/rules.md, "P2P accounts"). */
export const OldLoginBody = Type.Object({
  username: Type.String({ minLength: 4, maxLength: 100 }),
  password: Type.String({ minLength: 1, maxLength: 100 }),
});

export const AttachAnswer = Type.Object({
  login: Type.Boolean(),
  message: Type.String(),
  /** the old account's name and balance, when signed in */
  username: Type.Optional(Type.String()),
  credits: Type.Optional(Type.Integer()),
});

export const MigrateResellerAnswer = Type.Object({
  old_username: Type.String(),
  credits_imported: Type.Integer(),
  /** the caller's balance afterwards */
  credits: Type.Integer(),
});

export const ImportPreview = Type.Object({
  /** false: no old-panel sign-in attached (or it expired): show the login form */
  attached: Type.Boolean(),
  old_username: Nullable(Type.String()),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      email: Type.String(),
      username: Type.String(),
      password: Type.String(),
      created: Type.Integer(),
      expiracao: Type.Integer(),
      status: Type.Integer(),
      /** true: can be imported; false: conflict (see reason) */
      import: Type.Boolean(),
      reason: Nullable(
        Type.Union([Type.Literal('email_taken'), Type.Literal('username_taken'), Type.Literal('duplicate'), Type.Literal('invalid')]),
      ),
    }),
  ),
  /** rows with import: false; the import is refused while this is above 0 */
  conflicts: Type.Integer(),
});

export const MigrateClientsAnswer = Type.Object({ imported: Type.Integer() });

export const OutboxStatus = Type.Object({
  /** P2P_API_URL is set: a worker delivers */
  configured: Type.Boolean(),
  /** undelivered changes not failed yet */
  pending: Type.Integer(),
  /** undelivered changes whose last attempt failed (retried with backoff) */
  failed: Type.Integer(),
  /** creation of the oldest undelivered change, epoch seconds */
  oldest: Nullable(Type.Integer()),
  errors: Type.Array(
    Type.Object({
      id: Type.Integer(),
      login: Type.String(),
      method: Type.String(),
      attempts: Type.Integer(),
      last_error: Nullable(Type.String()),
      /** epoch ms */
      next_attempt_at: Type.Integer(),
    }),
  ),
});
