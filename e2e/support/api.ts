import { randomBytes } from 'node:crypto';
import { recordAnswered, recordAuthorization, recordSecret, recordSent } from './secrets.ts';
import type { Bouquet, Complements, Package, Profile, ResellerDetail, ResellerGroup, Role, SignedIn } from '../../web/src/api/types.ts';

/** An HTTP error from the API, with the server's `code` and `message`. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The API's types, generated from its OpenAPI document (web/src/api/types.ts). */
export type * from '../../web/src/api/types.ts';

/** Short unique name for test data: `${prefix}${random}` (letters/digits only, fits username rules). */
export function uniqueName(prefix = 'e2e'): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

/** A password the server accepts (>= 8 chars, not on the common list). */
export const DEFAULT_PASSWORD = 'Tr0ub4dor-e2e';

/** Raw call: returns the parsed JSON (undefined for 204) or throws ApiCallError. */
export async function apiRequest<T>(baseUrl: string, method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  // what the run used, for the log check (support/secrets.ts)
  recordAuthorization(headers.Authorization ?? headers.authorization);
  for (const [name, value] of Object.entries(headers)) if (/key|token|secret/i.test(name)) recordSecret(`header ${name}`, value);
  recordSent(opts.body);
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers,
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  recordAnswered(data, method);
  if (!res.ok) {
    const d = (data ?? {}) as { code?: string; message?: string };
    throw new ApiCallError(res.status, d.code, `${method} ${path} -> ${res.status} ${d.code ?? ''} ${d.message ?? text}`.trim(), data);
  }
  return data as T;
}

/** Signed-in API client for fast test setup (bearer token). */
export class Api {
  private groupsCache: ResellerGroup[] | undefined;

  constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly user: SignedIn['user'],
  ) {}

  /** POST /api/auth/sign-in and wrap the token. */
  static async signIn(baseUrl: string, username: string, password: string): Promise<Api> {
    const res = await apiRequest<SignedIn>(baseUrl, 'POST', '/auth/sign-in', { body: { username, password } });
    return new Api(baseUrl, res.token, res.user);
  }

  request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    return apiRequest<T>(this.baseUrl, method, path, { token: this.token, body, headers });
  }
  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }
  put<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('PUT', path, body);
  }
  delete<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('DELETE', path, body);
  }

  /** GET /api/profile. */
  profile(): Promise<Profile> {
    return this.get<Profile>('/profile');
  }

  /** Groups from GET /api/datacomplements (cached per client). */
  async groups(): Promise<ResellerGroup[]> {
    this.groupsCache ??= (await this.get<Complements>('/datacomplements')).groups;
    return this.groupsCache;
  }

  /** First group id of a type ('admin' | 'master' | 'reseller'). */
  async groupId(type: Role): Promise<number> {
    const g = (await this.groups()).find((x) => x.type === type);
    if (!g) throw new Error(`no group of type ${type} in /api/datacomplements`);
    return g.group_id;
  }

  /**
   * POST /api/resellers as this user. Defaults: unique username, DEFAULT_PASSWORD, type 'reseller', 0 credits.
   * Returns the created row plus the password used.
   */
  async createReseller(input: { username?: string; password?: string; type?: Role; credits?: number; email?: string; whatsapp?: string; notes?: string } = {}): Promise<ResellerDetail & { password: string }> {
    const { type = 'reseller', password = DEFAULT_PASSWORD, username = uniqueName('r'), credits = 0, ...rest } = input;
    const body = { username, password, member_group_id: await this.groupId(type), credits, ...rest };
    const row = await this.post<ResellerDetail>('/resellers', body);
    return { ...row, password };
  }

  /** Creates a reseller and returns an Api signed in as it. */
  async createAndSignIn(input: Parameters<Api['createReseller']>[0] = {}): Promise<Api> {
    const r = await this.createReseller(input);
    return Api.signIn(this.baseUrl, r.username, r.password);
  }

  /** POST /api/admin/bouquets. */
  createBouquet(bouquet_name = uniqueName('Bouquet ')): Promise<Bouquet> {
    return this.post<Bouquet>('/admin/bouquets', { bouquet_name });
  }

  /** POST /api/admin/packages: an official 1-month, 1-credit, 1-screen package. Give `bouquets` ids that exist. */
  createPackage(input: Partial<Omit<Package, 'id'>> & { bouquets: string[] }): Promise<Package> {
    return this.post<Package>('/admin/packages', {
      package_name: uniqueName('Package '),
      is_trial: 0,
      is_official: 1,
      max_connections: 1,
      official_credits: 1,
      official_duration: 1,
      official_duration_in: 'months',
      trial_credits: 0,
      trial_duration: 0,
      trial_duration_in: 'hours',
      ...input,
    });
  }

  /** GET /api/admin/packages/{id}. */
  getPackage(id: number): Promise<Package> {
    return this.get<Package>(`/admin/packages/${id}`);
  }

  /** DELETE /api/auth/sign-out (revokes this token). */
  signOut(): Promise<void> {
    return this.delete<void>('/auth/sign-out');
  }
}

/** HTTP status of a call without throwing (e.g. a revoked token gets 401, a reseller on an admin route 403). */
export async function statusOf(baseUrl: string, method: string, path: string, token?: string): Promise<number> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  recordAuthorization(headers.Authorization);
  const res = await fetch(`${baseUrl}/api${path}`, { method, headers, signal: AbortSignal.timeout(15_000) });
  await res.arrayBuffer();
  return res.status;
}
