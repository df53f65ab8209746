/**
 * Every TanStack Query key of the app, in one place. A key names one endpoint AND the shape its
 * cache entry holds: two hooks that share a key must share the query function too (two features
 * once cached `{ data }` and `data` under ['news'] and a page crashed). Prefix keys (`all`,
 * `lists`) exist only to invalidate a whole family.
 */
type ListQuery = Record<string, string | number | undefined>;

export const queryKeys = {
  /** Profile: GET /profile. */
  profile: () => ['profile'] as const,
  /** Complements: GET /datacomplements (raw answer). */
  complements: () => ['datacomplements'] as const,
  /** NewsItem[]: GET /news (the `data` array). */
  news: () => ['news'] as const,

  dashboard: {
    all: () => ['dashboard'] as const,
    /** Dashboard: GET /dashboard. */
    counters: () => ['dashboard', 'counters'] as const,
    /** { data: ActivityDay[] }: GET /dashboard/activity. */
    activity: (tzOffset: number) => ['dashboard', 'activity', tzOffset] as const,
  },

  users: {
    all: () => ['users'] as const,
    lists: () => ['users', 'list'] as const,
    /** LinePage: GET /users. */
    list: (query: ListQuery) => ['users', 'list', query] as const,
    /** Line: GET /users/{id}. */
    one: (id: number) => ['users', 'one', id] as const,
    /** LineLinks: GET /users/{id}/links. */
    links: (id: number) => ['users', 'links', id] as const,
    /** LinePage: GET /users/expiring. */
    expiring: (params: { order: string; page: number; per: number }) => ['users', 'expiring', params] as const,
  },

  resellers: {
    all: () => ['resellers'] as const,
    lists: () => ['resellers', 'list'] as const,
    /** ResellerPage: GET /resellers. */
    list: (query: ListQuery) => ['resellers', 'list', query] as const,
    /** ResellerDetail: GET /resellers/{id}. */
    one: (id: number) => ['resellers', 'one', id] as const,
    /** string (the username) of GET /resellers/{id}. */
    name: (id: number | undefined) => ['resellers', 'name', id] as const,
    ledger: (id: number) => ['resellers', 'ledger', id] as const,
    /** a page of GET /resellers/{id}/ledger. */
    ledgerPage: (id: number, page: number, per: number) => ['resellers', 'ledger', id, page, per] as const,
    /** Domain[]: GET /resellers/{id}/domains (the `data` array). */
    domains: (id: number) => ['resellers', 'domains', id] as const,
    /** SearchOption[]: POST /resellers/select_search (the `data` array). */
    search: (term: string) => ['resellers', 'search', term] as const,
  },

  logs: {
    /** GET /logs (LogEntry rows). */
    list: (query: ListQuery) => ['logs', 'list', query] as const,
    /** LogOptions: GET /logs/getoptions. */
    options: () => ['logs', 'options'] as const,
  },

  packages: {
    all: () => ['packages'] as const,
    /** GET /admin/packages (Package rows). */
    list: (query: ListQuery) => ['packages', 'list', query] as const,
    /** Package: GET /admin/packages/{id}. */
    one: (id: number) => ['packages', 'one', id] as const,
  },

  /** TwoFactorStatus: GET /profile/2fa. */
  twoFactor: () => ['twoFactor'] as const,

  /** Bouquet[]: GET /admin/bouquets (the `data` array). */
  bouquets: () => ['bouquets'] as const,

  vods: {
    all: () => ['vods'] as const,
    /** VodPage: GET /vods. */
    list: (query: ListQuery) => ['vods', 'list', query] as const,
    /** AdminVodPage: GET /admin/vods. */
    admin: (query: ListQuery) => ['vods', 'admin', query] as const,
    /** CatalogueTitle[]: GET /vods/search (the `data` array). */
    search: (q: string) => ['vods', 'search', q] as const,
    /** { configured }: GET /vods/search/status. */
    searchStatus: () => ['vods', 'search-status'] as const,
  },

  p2p: {
    all: () => ['p2p'] as const,
    lists: () => ['p2p', 'list'] as const,
    /** P2pUserPage: GET /p2p/users. */
    list: (query: ListQuery) => ['p2p', 'list', query] as const,
    /** P2pUser: GET /p2p/users/{id}. */
    one: (id: number) => ['p2p', 'one', id] as const,
    /** P2pOnlineRow[]: GET /p2p/users/online (the `data` array). */
    online: () => ['p2p', 'online'] as const,
    /** P2pImportPreview: GET /p2p/import_preview. */
    importPreview: () => ['p2p', 'importPreview'] as const,
    /** P2pOutboxStatus: GET /admin/p2p/outbox. */
    outbox: () => ['p2p', 'outbox'] as const,
  },

  /** AdminSettings: GET /admin/settings. */
  settings: () => ['settings'] as const,

  catalogue: {
    all: () => ['catalogue'] as const,
    /** StreamPage: GET /admin/streams. */
    streams: (query: ListQuery) => ['catalogue', 'streams', query] as const,
    /** Category[]: GET /admin/categories (the `data` array). */
    categories: () => ['catalogue', 'categories'] as const,
  },

  /** BouquetContents: GET /admin/bouquets/{id}. */
  bouquetContents: (id: number) => ['bouquetContents', id] as const,

  /** EdgeServer[]: GET /admin/servers (the `data` array). */
  servers: () => ['servers'] as const,

  connections: {
    all: () => ['connections'] as const,
    /** ConnectionPage: GET /users/connections. */
    list: (query: ListQuery) => ['connections', 'list', query] as const,
  },

  latestContent: {
    all: () => ['latestContent'] as const,
    /** LatestItem[]: GET /vods/latest (the `data` array). */
    of: (type: 'movie' | 'series') => ['latestContent', type] as const,
  },

  /** MigrationSourceLine: POST /users/fetch-url-data (a lookup, cached per URL). */
  migrationLookup: (url: string) => ['migrationLookup', url] as const,
};
