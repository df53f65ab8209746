import { Type } from 'typebox';
import { PageQuery, orderBy } from '../../http/paging.ts';
import { Nullable } from '../../http/schemas.ts';
import { ORDER_FIELDS } from './service.ts';

export { IdParams } from '../../http/schemas.ts';
export const Username = Type.String({ minLength: 3, maxLength: 50, pattern: '^[A-Za-z0-9_.@-]+$' });
const Password = Type.String({ minLength: 8, maxLength: 128 });
const Text = (max: number) => Type.String({ maxLength: max });

export const ResellerRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  credits: Type.Integer(),
  master_username: Nullable(Type.String()),
  owner_id: Nullable(Type.Integer()),
  last_login: Nullable(Type.Integer()),
  group_name: Type.String(),
  group_type: Type.String(),
  member_group_id: Type.Integer(),
  sub_resellers_count: Type.Integer(),
  clients_count: Type.Integer(),
  status: Type.Integer(),
}, { title: 'Reseller' });

export const ResellerDetail = Type.Object({
  ...ResellerRow.properties,
  email: Nullable(Type.String()),
  whatsapp: Nullable(Type.String()),
  telegram: Nullable(Type.String()),
  notes: Nullable(Type.String()),
}, { title: 'ResellerDetail' });

export const ListQuery = Type.Object({
  ...PageQuery,
  order_by: orderBy(ORDER_FIELDS),
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type.Optional(Text(50)),
  reseller: Type.Optional(Text(50)),
  group: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
});

export const CreateBody = Type.Object({
  username: Username,
  password: Password,
  member_group_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  email: Type.Optional(Type.Union([Type.String({ maxLength: 255, format: 'email' }), Type.Literal('')])),
  credits: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  whatsapp: Type.Optional(Type.String({ maxLength: 30, pattern: '^[0-9+() -]*$' })),
  telegram: Type.Optional(Text(100)),
  notes: Type.Optional(Text(1000)),
});

export const UpdateBody = Type.Object({
  username: Type.Optional(Username),
  password: Type.Optional(Type.Union([Password, Type.Literal('')])),
  email: CreateBody.properties.email,
  whatsapp: CreateBody.properties.whatsapp,
  telegram: CreateBody.properties.telegram,
  notes: CreateBody.properties.notes,
});

export const CreditsBody = Type.Object({ value: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }) });
export const DeleteBody = Type.Object({
  reseller_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  type: Type.Literal('transferall'),
  target_id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
export const SearchBody = Type.Object({ search: Type.String({ maxLength: 50, pattern: '^\\w*$' }) });
export const DomainBody = Type.Object({
  dns_reseller: Type.String({ maxLength: 255 }),
  username: Type.Optional(Text(50)),
  token_id: Type.Optional(Text(100)),
  owner: Type.Optional(Type.Union([Text(50), Type.Integer(), Type.Null()])),
});
export const LedgerRow = Type.Object({
  id: Type.Integer(),
  delta: Type.Integer(),
  balance_after: Type.Integer(),
  reason: Type.String(),
  line_id: Nullable(Type.Integer()),
  /** the P2P account a P2P charge paid for */
  p2p_account_id: Nullable(Type.Integer()),
  created_at: Type.Integer(),
  counterparty: Nullable(Type.String()),
  actor: Nullable(Type.String()),
}, { title: 'LedgerEntry' });
export const DomainRow = Type.Object({
  id: Nullable(Type.Integer()),
  dns_reseller: Nullable(Type.String()),
  token_id: Nullable(Type.String()),
  created_at: Nullable(Type.Integer()),
  username: Type.String(),
  owner: Nullable(Type.String()),
}, { title: 'Domain' });

export const StrengthBody = Type.Object({
  password: Type.String({ maxLength: 128 }),
  /** username, e-mail, WhatsApp, Telegram: a password built on them is weak */
  user_inputs: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 6 })),
  lang: Type.Optional(Type.Union([Type.Literal('pt-BR'), Type.Literal('en-US')])),
});

export const StrengthAnswer = Type.Object({
  score: Type.Integer({ minimum: 0, maximum: 4 }),
  ok: Type.Boolean(),
  warning: Type.Union([Type.String(), Type.Null()]),
}, { title: 'PasswordStrength' });

export const DeactivateResult = Type.Object(
  { id: Type.Integer(), target_id: Type.Integer(), credits_moved: Type.Integer(), sub_resellers_moved: Type.Integer(), clients_moved: Type.Integer() },
  { title: 'DeactivateResult' },
);
