import { Type } from 'typebox';

// What an admin may set, and how each value must look (the body schema validates; the service
// checks what needs the database, such as the migration packages existing).

const int = (minimum: number, maximum: number) => Type.String({ pattern: '^[0-9]{1,10}$', description: `integer ${minimum}..${maximum}` });
const optionalUrl = Type.String({ maxLength: 500, pattern: '^(|https?://[^\\s]+)$', description: 'empty, or an http(s) URL' });

export const INT_RANGES: Record<string, [number, number]> = {
  master_min_credit_create: [0, 1_000_000],
  user_limit_screen: [1, 10],
  trial_limit_per_day: [0, 1000],
  migration_package_adult: [1, 2_147_483_647],
  migration_package_no_adult: [1, 2_147_483_647],
  lazy_player_monthly_credits: [0, 1000],
  api_key_requests_per_minute: [1, 100_000],
};

export const SettingsBody = Type.Object(
  {
    ...Object.fromEntries(Object.entries(INT_RANGES).map(([k, [min, max]]) => [k, Type.Optional(int(min, max))])),
    /** empty: links use PUBLIC_URL or the panel's own address */
    main_domain: Type.Optional(Type.String({ maxLength: 200, pattern: '^(|(https?://)?[A-Za-z0-9.-]+(:[0-9]{1,5})?/?)$' })),
    /** empty, or the id of a registered edge (the service checks it exists) */
    default_edge: Type.Optional(Type.String({ maxLength: 10, pattern: '^(|[1-9][0-9]{0,9})$' })),
    chat_group_url: Type.Optional(optionalUrl),
    manual_url: Type.Optional(optionalUrl),
    p2p_email_domain: Type.Optional(Type.String({ maxLength: 100, pattern: '^(|[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+)$' })),
  },
);
