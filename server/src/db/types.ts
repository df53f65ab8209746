import type { Generated, Insertable, Selectable } from 'kysely';

// Booleans are stored as 0/1 integers and JSON as text so one query set fits both engines.
export interface GroupsTable {
  group_id: Generated<number>;
  group_name: string;
  type: 'admin' | 'master' | 'reseller';
}

export interface ResellersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  email: string | null;
  whatsapp: string | null;
  telegram: string | null;
  notes: string | null;
  member_group_id: number;
  owner_id: number | null;
  credits: number;
  status: number;
  last_login: number | null;
  created_at: number;
  deleted_at: number | null;
  lines_count: Generated<number>;
}

export interface ResellerTreeTable {
  ancestor_id: number;
  descendant_id: number;
  depth: number;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  reseller_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  idle_seconds: number;
  remember_me: number;
  ip: string | null;
  user_agent: string | null;
  revoked_at: number | null;
}

export interface LoginAttemptsTable {
  key: string;
  failures: number;
  window_start: number;
}

export interface LoginThrottleTable {
  key: string;
  /** attempts counted in the current window (a success takes its own back) */
  failures: number;
  /** the delay set by the last counted attempt; doubles per attempt past the limit */
  delay_seconds: number;
  blocked_until: number;
  last_at: number;
  /** attempts refused since the last counted one */
  refused: number;
}

export interface KnownDevicesTable {
  id: Generated<number>;
  reseller_id: number;
  token_hash: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  reseller_id: number;
  delta: number;
  balance_after: number;
  reason: string;
  counterparty_id: number | null;
  line_id: number | null;
  p2p_account_id: Generated<number | null>;
  actor_id: number;
  idempotency_key: string | null;
  created_at: number;
}

export interface IdempotencyKeysTable {
  reseller_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  response: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface PackagesTable {
  id: Generated<number>;
  package_name: string;
  is_trial: number;
  is_official: number;
  max_connections: number;
  official_credits: number;
  official_duration: number;
  official_duration_in: string;
  trial_credits: number;
  trial_duration: number;
  trial_duration_in: string;
  bouquets: string;
}

export interface BouquetsTable {
  id: Generated<number>;
  bouquet_name: string;
}

export interface LogsTable {
  id: Generated<number>;
  type_log: string;
  action: string;
  actor_id: number | null;
  reseller_id: number | null;
  target_reseller_id: number | null;
  target_user: string | null;
  value: string | null;
  value_int: number | null;
  ip: string | null;
  created_at: number;
  /** the API key the change came through (migration 034) */
  api_key_name: string | null;
  /** set by a trigger (migration 023) */
  top_reseller_id: Generated<number | null>;
  target_top_reseller_id: Generated<number | null>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  reseller_id: number;
  name: string;
  /** JSON array of scopes */
  scopes: string;
  /** JSON array of addresses and CIDR networks, or null: any */
  allowed_ips: string | null;
  key_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  last_used_ip: string | null;
}

export interface ApiKeyUsageTable {
  key_id: number;
  minute: number;
  requests: number;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  reseller_id: number;
  url: string;
  /** JSON array of event types */
  events: string;
  secret_sealed: string;
  include_credentials: Generated<number>;
  credits_low_threshold: number | null;
  created_at: number;
  deleted_at: number | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  type: string;
  body: string;
  /** pending, delivered, gave_up, cancelled */
  state: string;
  attempts: Generated<number>;
  created_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  /** the leasing worker's token: only it may record the outcome */
  lease_token: string | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_answer: string | null;
  delivered_at: number | null;
}

export interface LineExpiryMarksTable {
  line_id: number;
  exp_date: number;
  /** e.g. webhook:line.expiring */
  kind: string;
  created_at: number;
}

export interface ReminderSettingsTable {
  reseller_id: number;
  enabled: number;
  /** JSON array of stages; null: inherited */
  stages: string | null;
  quiet_from: string | null;
  quiet_to: string | null;
  language: string | null;
  /** JSON {stage: {pt?, en?}}; a stage or language left out is inherited */
  templates: string | null;
  email_enabled: number;
  whatsapp_base_url: string | null;
  whatsapp_instance: string | null;
  whatsapp_key_sealed: string | null;
  updated_at: number;
}

export type ReminderStatus = 'sending' | 'sent' | 'retry' | 'failed' | 'cancelled';

export interface ReminderMessagesTable {
  id: Generated<number>;
  reseller_id: number;
  line_id: number;
  stage: string;
  exp_date: number;
  channel: string;
  recipient: string;
  status: ReminderStatus;
  attempts: Generated<number>;
  created_at: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  last_status: number | null;
  answer: string | null;
  sent_at: number | null;
}

export interface PaymentSettingsTable {
  reseller_id: number;
  enabled: number;
  token_sealed: string | null;
  secret_sealed: string | null;
  updated_at: number;
}

export interface TrialPagesTable {
  reseller_id: number;
  enabled: number;
  slug: string | null;
  package_id: number | null;
  per_day: number;
  message: string | null;
  updated_at: number;
}

export type TrialRequestStatus = 'sending' | 'sent' | 'failed';

export interface TrialRequestsTable {
  id: Generated<number>;
  reseller_id: number;
  whatsapp: string;
  ip: string;
  line_id: number | null;
  status: TrialRequestStatus;
  error: string | null;
  created_at: number;
}

export interface PaymentPricesTable {
  reseller_id: number;
  package_id: number;
  price_cents: number;
}

export type PaymentStatus = 'pending' | 'applied' | 'paid_awaiting_credits' | 'expired' | 'rejected' | 'failed';

export interface PaymentsTable {
  id: Generated<number>;
  reseller_id: number;
  line_id: number;
  package_id: number;
  amount_cents: number;
  status: PaymentStatus;
  idempotency_key: string;
  mp_payment_id: string | null;
  qr_code: string | null;
  qr_code_base64: string | null;
  ticket_url: string | null;
  expires_at: number;
  created_at: number;
  paid_at: number | null;
  applied_at: number | null;
  exp_before: number | null;
  exp_after: number | null;
  last_error: string | null;
  checked_at: number | null;
}

export interface CreditSaleSettingsTable {
  reseller_id: number;
  enabled: number;
  price_cents_per_credit: number;
  min_credits: number;
  updated_at: number;
}

export interface CreditPurchasesTable {
  id: Generated<number>;
  buyer_id: number;
  seller_id: number;
  credits: number;
  amount_cents: number;
  status: PaymentStatus;
  idempotency_key: string;
  mp_payment_id: string | null;
  qr_code: string | null;
  qr_code_base64: string | null;
  expires_at: number;
  created_at: number;
  paid_at: number | null;
  applied_at: number | null;
  last_error: string | null;
  checked_at: number | null;
}

export interface TelegramBotsTable {
  reseller_id: number;
  bot_id: number;
  bot_username: string;
  bot_name: string;
  token_sealed: string;
  secret_hash: string;
  enabled: Generated<number>;
  revoked_at: number | null;
  owner_chat_id: number | null;
  link_code_hash: string | null;
  link_code_expires_at: number | null;
  credits_low_threshold: Generated<number>;
  paused_until_ms: number | null;
  updated_at: number;
}

export interface TelegramChatsTable {
  id: Generated<number>;
  reseller_id: number;
  chat_id: number;
  line_id: number | null;
  line_password_hash: string | null;
  language: string;
  awaiting_contact: Generated<number>;
  updated_at: number;
}

export interface TelegramUpdatesTable {
  bot_id: number;
  update_id: number;
  received_at: number;
}

export interface TelegramOutboxTable {
  id: Generated<number>;
  reseller_id: number;
  chat_id: number;
  method: string;
  payload: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_at_ms: number;
  created_at: number;
  sent_at: number | null;
  last_error: string | null;
}

export interface CustomerSessionsTable {
  token_hash: string;
  line_id: number;
  created_at: number;
  expires_at: number;
}

export interface SchedulerLeasesTable {
  name: string;
  holder: string;
  until: number;
}

export interface NewsTable {
  id: Generated<number>;
  title: string;
  body: string;
  level: number;
  status: number;
}

export interface ResellerDomainsTable {
  id: Generated<number>;
  reseller_id: number;
  dns_reseller: string;
  token_id: string;
  created_by: number;
  created_at: number;
}

export interface LinesTable {
  id: Generated<number>;
  member_id: number;
  username: string;
  password: string;
  exp_date: number;
  created_at: number;
  enabled: number;
  is_trial: number;
  max_connections: number;
  package_id: number | null;
  bouquet: string;
  reseller_notes: string | null;
  whatsapp: string | null;
  email: string | null;
  /** 1: the customer asked for no expiry reminders */
  opt_out_reminders: Generated<number>;
  system: number;
  last_extended_at: number | null;
  deleted_at: number | null;
  /** P2P sync of a line on system 2/3 (written by modules/p2p/outbox-repo.ts only) */
  p2p_sync_state: SyncState | null;
  p2p_sync_error: string | null;
  p2p_sync_version: Generated<number>;
  /** the owner's ancestor right under the root admin; set by triggers (migration 019) */
  top_reseller_id: Generated<number | null>;
}

export type SyncState = 'synced' | 'pending' | 'failed';

export interface P2pAccountsTable {
  id: Generated<number>;
  member_id: number;
  name: string;
  username: string;
  email: string;
  password: string;
  external_password: string | null;
  created_at: number;
  expires_at: number;
  /** -1 registered, 0 disabled, 1 active */
  status: number;
  is_trial: number;
  package_id: number | null;
  max_connections: number;
  whatsapp: string | null;
  notes: string | null;
  sync_state: Generated<SyncState>;
  sync_error: string | null;
  sync_version: Generated<number>;
  synced_at: number | null;
  deleted_at: number | null;
}

/** Deliveries to the P2P server, in id order per subject (see modules/p2p/worker.ts). */
export interface OutboxTable {
  id: Generated<number>;
  subject_kind: 'account' | 'line';
  subject_id: number;
  /** the subject's sync_version this delivery brings it to */
  version: number;
  login: string;
  method: 'PUT' | 'DELETE';
  body: string | null;
  created_at: number;
  attempts: Generated<number>;
  /** epoch ms */
  next_attempt_at: number;
  last_error: string | null;
  /** epoch ms */
  delivered_at: number | null;
}

export interface P2pImportsTable {
  id: Generated<number>;
  reseller_id: number;
  old_username: string;
  credits: number;
  created_at: number;
}

export interface P2pOldLoginsTable {
  reseller_id: number;
  old_username: string;
  token: string;
  created_at: number;
}

export interface ShortLinksTable {
  id: Generated<number>;
  code: string;
  line_id: number;
  type: string;
  created_by: number;
  hits: number;
  created_at: number;
}

/** One connection of a line through an edge: (line, stream, client IP, user agent). See migration 016. */
export interface LineActivityTable {
  activity_id: Generated<number>;
  line_id: number;
  stream_id: number | null;
  server_id: number | null;
  user_ip: string;
  user_agent: string;
  date_start: number;
  last_seen: number;
  /** set by a disconnect (or the line's blocking or removal) */
  ended_at: number | null;
  /** a disconnected connection is refused until then */
  banned_until: number | null;
  /** 1: a disconnect, refusing the line from this address whatever the user agent; 0: this player only */
  address_ban: Generated<number>;
}

export type CatalogueKind = 'live' | 'movie' | 'series';

export interface CategoriesTable {
  id: Generated<number>;
  kind: CatalogueKind;
  name: string;
  created_at: number;
}

export interface StreamsTable {
  id: Generated<number>;
  kind: CatalogueKind;
  name: string;
  category_id: number;
  icon: string | null;
  /** epoch seconds of the first import */
  added: number;
  container_ext: string;
  source_url: string;
  epg_id: string | null;
  rating: number | null;
}

/** A bouquet holds whole categories and single streams: exactly one of the two ids is set. */
export interface BouquetItemsTable {
  bouquet_id: number;
  category_id: number | null;
  stream_id: number | null;
}

/** Streaming edges registered by admins; only the SHA-256 of their key is kept. */
export interface ServersTable {
  id: Generated<number>;
  name: string;
  url: string;
  key_hash: string;
  created_by: number;
  created_at: number;
}

/** Kept dashboard figures per scope, kind and day (migration 032, modules/dashboard/line-counts-repo.ts). */
export interface LineCountsTable {
  scope_id: number;
  kind: number;
  /** a day number (kinds 0-4) or an hour number (kinds 5-9) since 1970, UTC */
  period: number;
  n: number;
}

/** Differences written by the lines triggers, folded into line_counts in the background. */
export interface LineCountChangesTable {
  id: Generated<number>;
  scope_id: number;
  kind: number;
  period: number;
  n: number;
}

export interface CatalogueVersionTable {
  id: number;
  version: number;
}

export interface DashboardCacheTable {
  reseller_id: number;
  computed_at: number;
  invalidated_at: Generated<number>;
  body: string | null;
}

export interface TwoFactorTable {
  reseller_id: number;
  secret_enc: string;
  enabled_at: number | null;
  last_step: number | null;
  created_at: number;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  reseller_id: number;
  code_hash: string;
  used_at: number | null;
}

export interface TwoFactorChallengesTable {
  id: Generated<number>;
  token_hash: string;
  reseller_id: number;
  remember_me: number;
  attempts: Generated<number>;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ServerKeysTable {
  name: string;
  value: string;
}

/** Failed short-link look-ups per client IP in a fixed window. */
export interface ShortLinkMissesTable {
  ip: string;
  misses: number;
  window_start: number;
}

/** One-time export download links (see migration 013). */
export interface DownloadTokensTable {
  token_hash: string;
  session_id: number;
  url: string;
  expires_at: number;
}

export interface MigrationLookupsTable {
  reseller_id: number;
  username: string;
  password_sha256: string;
  exp_date: number | null;
  created_at: number | null;
  is_trial: number;
  /** epoch milliseconds */
  looked_up_at: number;
}

export interface VodRequestsTable {
  id: Generated<number>;
  reseller_id: number;
  movie_id: number;
  media_type: 'movie' | 'tv';
  title: string;
  year: string;
  stars: number;
  image_link: string | null;
  notes: string;
  /** 1 pending, 2 added */
  status: number;
  created_at: number;
  updated_at: number;
  /** a title asked by name (movie_id 0): its folded title, unique per media type; null for searched ones */
  title_key: string | null;
}

export interface LazyPlayerActivationsTable {
  id: Generated<number>;
  line_id: number;
  reseller_id: number;
  mac: string;
  charged: number;
  status: 'pending' | 'active' | 'failed';
  error: string | null;
  idempotency_key: string | null;
  created_at: number;
  finished_at: number | null;
}

/** The reports' kept counts per scope (an account's subtree; 0: everything) and day or month (039_reports). */
export interface ReportCounts {
  scope_id: number;
  lines_created: Generated<number>;
  trials_created: Generated<number>;
  renewals: Generated<number>;
  credits_spent: Generated<number>;
  pix_payments: Generated<number>;
  pix_received_cents: Generated<number>;
  expired: Generated<number>;
}
export interface ReportDaysTable extends ReportCounts {
  /** days since 1970-01-01 of the local date */
  day: number;
}
export interface ReportMonthsTable extends ReportCounts {
  /** year * 12 + month - 1 */
  month: number;
}

export interface DB {
  report_days: ReportDaysTable;
  report_months: ReportMonthsTable;
  p2p_accounts: P2pAccountsTable;
  outbox: OutboxTable;
  p2p_imports: P2pImportsTable;
  p2p_old_logins: P2pOldLoginsTable;
  vod_requests: VodRequestsTable;
  lazy_player_activations: LazyPlayerActivationsTable;
  download_tokens: DownloadTokensTable;
  migration_lookups: MigrationLookupsTable;
  dashboard_cache: DashboardCacheTable;
  catalogue_version: CatalogueVersionTable;
  line_counts: LineCountsTable;
  line_count_changes: LineCountChangesTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  server_keys: ServerKeysTable;
  line_activity: LineActivityTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  line_expiry_marks: LineExpiryMarksTable;
  scheduler_leases: SchedulerLeasesTable;
  reminder_settings: ReminderSettingsTable;
  reminder_messages: ReminderMessagesTable;
  payment_settings: PaymentSettingsTable;
  payment_prices: PaymentPricesTable;
  payments: PaymentsTable;
  credit_sale_settings: CreditSaleSettingsTable;
  credit_purchases: CreditPurchasesTable;
  customer_sessions: CustomerSessionsTable;
  telegram_bots: TelegramBotsTable;
  telegram_chats: TelegramChatsTable;
  telegram_updates: TelegramUpdatesTable;
  telegram_outbox: TelegramOutboxTable;
  trial_pages: TrialPagesTable;
  trial_requests: TrialRequestsTable;
  categories: CategoriesTable;
  streams: StreamsTable;
  bouquet_items: BouquetItemsTable;
  servers: ServersTable;
  short_links: ShortLinksTable;
  short_link_misses: ShortLinkMissesTable;
  reseller_domains: ResellerDomainsTable;
  lines: LinesTable;
  groups: GroupsTable;
  resellers: ResellersTable;
  reseller_tree: ResellerTreeTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  login_throttle: LoginThrottleTable;
  known_devices: KnownDevicesTable;
  credit_ledger: CreditLedgerTable;
  idempotency_keys: IdempotencyKeysTable;
  settings: SettingsTable;
  packages: PackagesTable;
  bouquets: BouquetsTable;
  logs: LogsTable;
  news: NewsTable;
}

export type Reseller = Selectable<ResellersTable>;
export type NewLog = Insertable<LogsTable>;
export type Package = Selectable<PackagesTable>;

export type Line = Selectable<LinesTable>;
export type P2pAccount = Selectable<P2pAccountsTable>;
