/**
 * Every error code the server answers with (`{statusCode, code, message, field?}`): its HTTP
 * status and its English message. Features raise them with `appError(code, ...)` (domain/errors.ts,
 * the only place that builds an AppError). To add a code: add it here, and its text under
 * `errors.<CODE>` in both web/src/i18n/pt-BR.json and en-US.json (web/src/lib/errorCatalogue.test.ts
 * checks).
 *
 * A message that names values is a function of `params` (and of the answer's `field`, when it
 * starts with it). `status` is a list where one code has two meanings for two kinds of callers; the
 * first is the default. `field` is the input at fault when it is always the same one.
 *
 * This file imports nothing, so the web's tests can read it.
 */
export const ERROR_CODES = {
  // Any route: the input, the session, the caller's rights, the server's state.
  /** What is wrong: `<field>: <problem>` (validation() in http/errors.ts), or Fastify's schema text; `reason` (FIELD_REASONS) says the kind. */
  VALIDATION: { status: 400, message: (p: { message: string }) => p.message },
  /** Fastify's own refusals of a request it cannot read: its own text. */
  BAD_REQUEST: { status: 400, message: (p: { message: string }) => p.message },
  PAYLOAD_TOO_LARGE: { status: 413, message: (p: { message: string }) => p.message },
  URI_TOO_LONG: { status: 414, message: (p: { message: string }) => p.message },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: (p: { message: string }) => p.message },
  /** `credential`: what was presented instead of a session (an API key, a download link), when that is what failed. */
  UNAUTHORIZED: { status: 401, message: (p: { credential?: string }) => (p.credential ? `${p.credential} is not valid (unknown, revoked or expired)` : 'Sign in to continue') },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this' },
  NOT_FOUND: { status: 404, message: (p: { what: string }) => `${p.what} not found` },
  /** Two requests raced for the same unique value (username, ...): the loser's answer. */
  CONFLICT: { status: 409, message: 'This value is already taken' },
  /** `perMinute`: an API key's per-minute limit, when that is what was passed. */
  RATE_LIMITED: { status: 429, message: (p: { perMinute?: number }) => (p.perMinute ? `This API key may make ${p.perMinute} requests a minute` : 'Too many attempts, try again later') },
  INTERNAL: { status: 500, message: 'Internal server error' },
  BUSY: { status: 503, message: 'The database is busy; nothing was changed, try again' },
  SHUTTING_DOWN: { status: 503, message: 'The server is restarting, try again' },
  /** This process cannot reach its database (the only 504 the panel gives: a load balancer retries it on another host). */
  DATABASE_UNAVAILABLE: { status: 504, message: 'The server cannot reach its database; try again (with the same Idempotency-Key)' },
  NOT_CONFIGURED: { status: 503, message: (p: { what: string }) => `${p.what} is not configured` },
  /** The outside system (`system`) failed; without `system`, the detail names it. */
  UPSTREAM_ERROR: { status: 502, message: (p: { system?: string; detail: string }) => (p.system ? `${p.system}: ${p.detail}` : p.detail) },
  URL_NOT_ALLOWED: { status: 400, message: (p: { why: string }, field?: string) => `${field}: ${p.why}` },

  // Signing in: sessions, API keys, two-factor, the customer's payment page.
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  LINK_EXPIRED: { status: 401, message: 'This link is not valid any more: sign in with your username and password' },
  TWO_FACTOR_REQUIRED: { status: 403, message: 'Turn on two-factor sign-in first' },
  /** `scope`: the one the route needs (also the answer's `field`); none when keys cannot call it at all. */
  SCOPE_REQUIRED: { status: 403, message: (p: { scope?: string }) => (p.scope ? `This API key needs the scope ${p.scope}` : 'API keys cannot call this route') },
  IP_NOT_ALLOWED: { status: 403, message: 'This API key may not be used from this address' },
  API_KEY_LIMIT: { status: 409, message: (p: { max: number }) => `An account may hold ${p.max} keys: revoke one first` },
  /** 400 (with `field: 'code'`) when turning two-factor sign-in on or off; 401 when signing in. */
  INVALID_2FA_CODE: { status: [400, 401], message: 'The code is wrong or was already used' },
  TWO_FACTOR_CHALLENGE_EXPIRED: { status: 401, message: 'The sign-in took too long, start again' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor sign-in is already on' },
  TWO_FACTOR_NOT_PENDING: { status: 409, message: 'Start the set-up first' },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: 'This account has no two-factor sign-in' },
  INVALID_PASSWORD: { status: 400, message: 'The password is wrong', field: 'password' },
  WEAK_PASSWORD: {
    status: 400,
    message: (p: { weakness: string }) => `password is too weak: ${p.weakness.replace(/\.$/, '')}. Use a longer password with unrelated words, digits and symbols.`,
    field: 'password',
  },

  // Credits and idempotent calls.
  INSUFFICIENT_CREDITS: { status: 409, message: 'Insufficient credits' },
  CREDIT_LIMIT: { status: 409, message: 'This balance cannot grow any further' },
  IDEMPOTENCY_CONFLICT: { status: 422, message: 'This Idempotency-Key was already used with another request' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This Idempotency-Key was used for another request' },

  // Lines (users) and resellers.
  USERNAME_TAKEN: { status: 409, message: 'This username is already taken', field: 'username' },
  TRIAL_LIMIT_REACHED: { status: 409, message: (p: { limit: number }) => `Trial limit reached: ${p.limit} per day` },
  TRIAL_NOT_ALLOWED: { status: 409, message: 'Not available for trial lines' },
  EXTEND_LIMIT_REACHED: { status: 409, message: 'extend limit reached' },
  /** 409 when a panel action (or a customer's PIX charge) needs the line unblocked first; 403 from the player API. */
  LINE_BLOCKED: { status: [409, 403], message: 'This line is blocked' },
  /** 409 when a panel action needs the line renewed first; 403 from the player API. */
  LINE_EXPIRED: { status: [409, 403], message: 'This line has expired' },
  LINE_DISABLED: { status: 403, message: 'This line is not active' },
  LINE_INCOMPLETE: { status: 409, message: "The line's data is incomplete" },
  NOT_P2P: { status: 409, message: 'Only lines on a P2P system can be resynced' },
  BOUQUET_REQUIRED: { status: 400, message: 'You must select at least 1 bouquet' },
  BOUQUET_IN_USE: { status: 409, message: 'This bouquet is used by a package' },
  ALREADY_MASTER: { status: 409, message: 'This reseller is already a master' },
  TEMPLATE_UNKNOWN_VARIABLE: { status: 400, message: (p: { variable: string }, field?: string) => `${field}: unknown variable {${p.variable}}` },
  /** Automatic reminders on with neither WhatsApp nor e-mail ready: nothing could ever be sent. */
  REMINDERS_NO_CHANNEL: { status: 409, message: 'Set up WhatsApp or e-mail before turning reminders on', field: 'enabled' },
  WEBHOOK_LIMIT: { status: 409, message: (p: { max: number }) => `An account may have ${p.max} webhook endpoints` },
  INVALID_SIGNATURE: { status: 401, message: 'The notification signature is not valid' },
  /** An account above nobody (the admin) buys credits from no one: it mints them. */
  NO_PARENT: { status: 409, message: 'This account has no parent to buy credits from' },

  // Self-service trials (the public trial page).
  TRIAL_ALREADY_USED: { status: 409, message: 'This WhatsApp number already had a trial in the last 30 days', field: 'whatsapp' },
  /** Retry-After says when the next trial is allowed (an address's 3 a day, or the account's own daily limit). */
  TRIAL_LIMIT: { status: 429, message: 'No more trials can be given now; try again later' },
  SLUG_TAKEN: { status: 409, message: 'This page address is already taken', field: 'slug' },

  // Telegram bots.
  BOT_IN_USE: { status: 409, message: 'This bot is connected to another account', field: 'bot_token' },

  // Reports.
  RANGE_TOO_LARGE: { status: 400, message: (p: { max: number }) => `Choose a shorter period: at most ${p.max} buckets` },

  // Lazy Player.
  MAC_REQUIRED: { status: 400, message: 'Enter the MAC address', field: 'mac' },
  LAZY_PLAYER_WRONG_SYSTEM: { status: 409, message: 'Lines on another system cannot activate the Lazy Player' },
  LAZY_PLAYER_REFUSED: { status: 409, message: (p: { status: number }) => `The Lazy Player service refused the activation (status ${p.status}); nothing was charged` },
  LAZY_PLAYER_FAILED: { status: 409, message: 'The Lazy Player service could not be reached; nothing was charged' },
  IN_PROGRESS: { status: 409, message: 'This activation is still running' },

  // Movies and the catalogue.
  VOD_REQUEST_EXISTS: { status: 409, message: 'This title was already requested' },
  CATALOGUE_UNAVAILABLE: { status: 424, message: (p: { why: string }) => `The movie catalogue did not answer: ${p.why}` },
  IMPORT_RUNNING: { status: 409, message: 'Another catalogue import is running; try again when it has finished' },
  M3U_INVALID: { status: 400, message: (p: { why: string }, field?: string) => `${field}: ${p.why}; nothing was imported` },

  // Migrating a line from another provider.
  MIGRATION_TRIAL: { status: 409, message: 'Trial lines cannot be migrated' },
  MIGRATION_TOO_SHORT: { status: 409, message: (p: { days: number }) => `Only lines with at least ${p.days} days left can be migrated` },
  MIGRATION_NOT_LOOKED_UP: { status: 409, message: 'Look the playlist URL up first (or again): the line is migrated with what its provider answers' },
  URL_NOT_ORIGINAL: { status: 400, message: 'Paste the original playlist link (…/get.php?username=…&password=…), not a shortened one', field: 'url' },
  SOURCE_REFUSED: { status: 422, message: 'The provider did not accept the credentials of this link', field: 'url' },

  // Importing from the old P2P panel.
  NOT_ATTACHED: { status: 409, message: 'Sign in to the old P2P panel first' },
  OLD_LOGIN_FAILED: { status: 400, message: 'The old P2P panel refused this username or password', field: 'password' },
  ALREADY_IMPORTED: { status: 409, message: 'The credits of this old account were already imported' },
  IMPORT_CONFLICTS: { status: 409, message: (p: { conflicts: number }) => `${p.conflicts} of the old clients conflict with existing accounts: nothing was imported` },
} as const satisfies Record<string, ErrorEntry>;

interface ErrorEntry {
  readonly status: number | readonly number[];
  readonly message: string | ((params: never, field?: string) => string);
  readonly field?: string;
}

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The kind of problem a 400 VALIDATION answer names beside its `field` (`reason`; `limits` carries
 * the bound when the kind has one), so a client can word it under that input in its own language
 * (web: `errors.reasons.<REASON>`). INVALID is any other problem: its English `message` says which.
 */
export const FIELD_REASONS = [
  'INVALID',
  'REQUIRED',
  /** needed before the feature can be switched on (PIX: token, secret, a price) */
  'REQUIRED_TO_ENABLE',
  /** `limits.max` characters */
  'TOO_LONG',
  /** `limits.min` characters */
  'TOO_SHORT',
  /** `limits.max` items */
  'TOO_MANY',
  /** `limits.min` and/or `limits.max` */
  'OUT_OF_RANGE',
  'NOT_URL',
  'NOT_HTTPS',
  /** an address the panel will not call: private, loopback, link-local... (lib/ssrf) */
  'NOT_PUBLIC',
  /** not an IP address or CIDR network */
  'NOT_ADDRESS',
  'NOT_EMAIL',
  'NOT_PHONE',
  /** a Telegram bot token Telegram does not accept */
  'INVALID_TOKEN',
  'NOT_FUTURE',
  'DUPLICATE',
  /** an id that names nothing that can be chosen there */
  'UNKNOWN_CHOICE',
] as const;

export type FieldReason = (typeof FIELD_REASONS)[number];
export type FieldLimits = { min?: number; max?: number };
