// Names for the API's types. All come from the generated schema.d.ts (`npm run api:types`, from
// server/openapi.json): aliases, never copies. The server tests and the browser tests use them too.
import type { components, paths } from './schema.d.ts';

type Schemas = components['schemas'];
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON answer of a successful call (200 or 201). */
export type Answer<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'delete'> = paths[P][M] extends { responses: infer R }
  ? Json<R[keyof R & (200 | 201)]>
  : never;
/** The JSON body of a call. */
export type Body<P extends keyof paths, M extends 'post' | 'put' | 'delete'> = paths[P][M] extends { requestBody?: infer B } ? Json<B> : never;
/** The query parameters of a GET. */
export type Query<P extends keyof paths> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type ApiErrorBody = Schemas['ApiError'];
export type PageMeta = Schemas['PageMeta'];

export type Profile = Schemas['Profile'];
export type Role = Profile['type'];
export type SignedIn = Schemas['SignedIn'];
export type TwoFactorChallenge = Schemas['TwoFactorChallenge'];
export type SignInBody = Body<'/api/auth/sign-in', 'post'>;
export type TwoFactorStatus = Schemas['TwoFactorStatus'];
export type TwoFactorSetup = Schemas['TwoFactorSetup'];

export type Complements = Schemas['Complements'];
export type ResellerGroup = Schemas['ResellerGroup'];
export type SearchOption = Schemas['SearchOption'];

export type Line = Schemas['Line'];
export type LinePage = Answer<'/api/users', 'get'>;
export type LinesQuery = Query<'/api/users'>;
export type ExpiringQuery = Query<'/api/users/expiring'>;
export type LineCreate = Body<'/api/users', 'post'>;
export type TrialCreate = Body<'/api/trial_users', 'post'>;
export type LineUpdate = Body<'/api/users/{id}', 'put'>;
export type LineLinks = Schemas['LineLinks'];
export type LinkType = keyof LineLinks;
export type ShortLink = Schemas['ShortLink'];

export type Reseller = Schemas['Reseller'];
export type ResellerDetail = Schemas['ResellerDetail'];
export type ResellerPage = Answer<'/api/resellers', 'get'>;
export type ResellersQuery = Query<'/api/resellers'>;
export type ResellerCreate = Body<'/api/resellers', 'post'>;
export type ResellerUpdate = Body<'/api/resellers/{id}', 'put'>;
export type LedgerEntry = Schemas['LedgerEntry'];
export type Domain = Schemas['Domain'];
export type DeactivateResult = Schemas['DeactivateResult'];
export type PasswordStrength = Schemas['PasswordStrength'];

export type Package = Schemas['Package'];
export type PackageInput = Body<'/api/admin/packages', 'post'>;
export type PackagesQuery = Query<'/api/admin/packages'>;
export type DurationUnit = Package['official_duration_in'];
export type Bouquet = Schemas['Bouquet'];

export type NewsItem = Schemas['NewsItem'];
export type NewsInput = Body<'/api/news/{id}', 'put'>;

export type LogEntry = Schemas['LogEntry'];
export type LogPage = Answer<'/api/logs', 'get'>;
export type LogsQuery = Query<'/api/logs'>;
export type LogOptions = Answer<'/api/logs/getoptions', 'get'>;

export type Dashboard = Schemas['Dashboard'];
export type SalesReport = Schemas['SalesReport'];
export type SalesBucket = Schemas['SalesBucket'];
export type SalesQuery = Query<'/api/reports/sales'>;
export type TopReseller = Schemas['TopReseller'];

// Outside integrations: line migration, Lazy Player, content requests, admin settings.
export type MigrationSourceLine = Schemas['MigrationSourceLine'];
export type MigratedLine = Schemas['MigratedLine'];
export type LazyPlayerActivation = Schemas['LazyPlayerActivation'];
export type CatalogueTitle = Schemas['CatalogueTitle'];
export type VodRequest = Schemas['VodRequest'];
export type AdminVodRequest = Schemas['AdminVodRequest'];
export type VodRequestBody = Body<'/api/vods/pedido', 'post'>;
export type ManualVodRequestBody = Body<'/api/vods/pedido/manual', 'post'>;
export type VodsQuery = Query<'/api/vods'>;
export type AdminVodsQuery = Query<'/api/admin/vods'>;
export type VodPage = Answer<'/api/vods', 'get'>;
export type AdminVodPage = Answer<'/api/admin/vods', 'get'>;
export type AdminSettings = Schemas['AdminSettings'];
export type SettingsUpdate = Body<'/api/admin/settings', 'put'>;

export type P2pUser = Answer<'/api/p2p/users/{id}', 'get'>;
export type P2pUserPage = Answer<'/api/p2p/users', 'get'>;
export type P2pUsersQuery = Query<'/api/p2p/users'>;
export type P2pCreate = Body<'/api/p2p/users', 'post'>;
export type P2pTrialCreate = Body<'/api/p2p/test_users', 'post'>;
export type P2pUpdate = Body<'/api/p2p/users/{id}', 'put'>;
export type P2pOnlineRow = Answer<'/api/p2p/users/online', 'get'>['data'][number];
export type P2pImportPreview = Answer<'/api/p2p/import_preview', 'get'>;
export type P2pImportRow = P2pImportPreview['data'][number];
export type P2pOutboxStatus = Answer<'/api/admin/p2p/outbox', 'get'>;
/** Delivery state of a P2P account or P2P line to the P2P server. */
export type SyncState = NonNullable<Line['sync_state']>;

// Players and streaming edges: catalogue, bouquet contents, edge servers, online users, latest content.
export type Category = Answer<'/api/admin/categories', 'get'>['data'][number];
export type CatalogueKind = Category['kind'];
export type Stream = Answer<'/api/admin/streams', 'get'>['data'][number];
export type StreamPage = Answer<'/api/admin/streams', 'get'>;
export type StreamsQuery = Query<'/api/admin/streams'>;
export type CatalogueImport = Body<'/api/admin/catalogue/import', 'post'>;
export type CatalogueImportResult = Answer<'/api/admin/catalogue/import', 'post'>;
export type BouquetListed = Schemas['BouquetListed'];
export type BouquetContents = Schemas['BouquetWithContents'];
export type EdgeServer = Answer<'/api/admin/servers', 'get'>['data'][number];
export type EdgeServerCreated = Answer<'/api/admin/servers', 'post'>;
export type ApiKey = Answer<'/api/api-keys', 'get'>['data'][number];
export type ApiKeyCreated = Answer<'/api/api-keys', 'post'>;
export type WebhookEndpoint = Answer<'/api/webhooks', 'get'>['data'][number];
export type WebhookCreated = Answer<'/api/webhooks', 'post'>;
export type WebhookDelivery = Answer<'/api/webhooks/{id}/deliveries', 'get'>['data'][number];
export type Connection = Answer<'/api/users/connections', 'get'>['data'][number];
export type ConnectionPage = Answer<'/api/users/connections', 'get'>;
export type ConnectionsQuery = Query<'/api/users/connections'>;
export type LatestType = Query<'/api/vods/latest'>['type'];
export type LatestItem = Answer<'/api/vods/latest', 'get'>['data'][number];

export type ReminderSettings = Schemas['ReminderSettings'];
export type ReminderSettingsBody = Body<'/api/reminders/settings', 'put'>;
export type ReminderMessage = Schemas['ReminderMessage'];
export type ReminderHistoryQuery = Query<'/api/reminders/messages'>;
