import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, newIdempotencyKey } from '../../api/client';
import type { Paged } from '../../api/errors';
import { queryClient } from '../../api/queryClient';
import type { Complements } from '../../api/complements';
import { queryKeys } from '../../api/queryKeys';

/** A user line (GET /api/users). Dates are epoch seconds. */
export interface Line {
  id: number;
  username: string;
  password: string;
  created_at: number;
  exp_date: number;
  master_username: string | null;
  member_id: number;
  reseller_notes: string | null;
  whatsapp: string | null;
  max_connections: number;
  /** 1 enabled, 0 blocked. */
  enabled: number;
  is_trial: number;
  /** 1 HTTP, 2 P2P, 3 P2P BR. */
  system: number;
  package_id: number | null;
  bouquet: string[];
  last_extended_at: number | null;
}

export const LINK_TYPES = ['mpgets', 'm3u8', 'hls', 'ssiptv'] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export type LineLinks = Record<LinkType, string>;

type ListQuery = Record<string, string | number | undefined>;

export function useLines(query: ListQuery) {
  return useQuery({
    queryKey: queryKeys.users.list(query),
    // `created` days are the browser's local days: the server needs the offset to find them.
    queryFn: ({ signal }) =>
      api<Paged<Line>>('/users', { query: query.created ? { ...query, tz_offset: -new Date().getTimezoneOffset() } : query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useLine(id: number) {
  return useQuery({
    queryKey: queryKeys.users.one(id),
    queryFn: ({ signal }) => api<Line>(`/users/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** Setting `user_limit_screen` (default 1). */
export function screenLimit(c: Complements | undefined): number {
  const n = Number(c?.settings.user_limit_screen ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Packages for normal lines (creation and renewal): non-trial only. */
export const paidPackages = (c: Complements | undefined) => (c?.packages ?? []).filter((p) => p.is_trial !== 1);
/** Packages for trial lines: trial and not official. */
export const trialPackages = (c: Complements | undefined) => (c?.packages ?? []).filter((p) => p.is_trial === 1 && p.is_official === 0);

export function useLineLinks(id: number, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.users.links(id),
    queryFn: ({ signal }) => api<LineLinks>(`/users/${id}/links`, { signal }),
    enabled: enabled && id > 0,
    staleTime: 60_000,
  });
}

/** Replaces the line with the same id in every cached list page (and its single-line cache). */
export function replaceLine(line: Line): void {
  queryClient.setQueriesData<Paged<Line>>({ queryKey: queryKeys.users.lists() }, (old) =>
    old ? { ...old, data: old.data.map((l) => (l.id === line.id ? line : l)) } : old,
  );
  queryClient.setQueryData(queryKeys.users.one(line.id), line);
}

/** Takes a removed line out of every cached list page, then refetches to fill the page. */
export function dropLine(id: number): void {
  queryClient.setQueriesData<Paged<Line>>({ queryKey: queryKeys.users.lists() }, (old) =>
    old?.data.some((l) => l.id === id)
      ? { data: old.data.filter((l) => l.id !== id), meta: { ...old.meta, total: Math.max(0, old.meta.total - 1), count: Math.max(0, old.meta.count - 1) } }
      : old,
  );
  queryClient.removeQueries({ queryKey: queryKeys.users.one(id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() });
}

/** New lines show up on the list's next load. */
export function invalidateLines(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() });
}

// --- Calls. All are `silent`: the caller shows the error (see showLineError). ---

export interface CreateLineBody {
  username?: string;
  password?: string;
  package_id: number;
  max_connections?: number;
  whatsapp?: string;
  reseller_notes?: string;
}

export const createLine = (body: CreateLineBody, idempotencyKey: string) =>
  api<Line>('/users', { method: 'POST', body, idempotencyKey, silent: true });

export const createTrialLine = (body: Omit<CreateLineBody, 'max_connections'>) => api<Line>('/trial_users', { method: 'POST', body, silent: true });

export const updateLine = (id: number, body: { password?: string; whatsapp?: string; reseller_notes?: string; bouquet?: string[] }) =>
  api<Line>(`/users/${id}`, { method: 'PUT', body, silent: true });

export const deleteLine = (id: number) => api<void>(`/users/${id}`, { method: 'DELETE', silent: true });

export const renewByPackage = (id: number, packageId: number, idempotencyKey = newIdempotencyKey()) =>
  api<Line>(`/users/${id}/renew`, { method: 'POST', body: { package_id: packageId }, idempotencyKey, silent: true });

/** One-month flash renew, costing max_connections credits. */
export const flashRenew = (id: number, idempotencyKey = newIdempotencyKey()) =>
  api<Line>(`/users/${id}/renew`, { method: 'POST', body: { months: 1 }, idempotencyKey, silent: true });

export const extendDays = (id: number, days: number) => api<Line>(`/users/${id}/extenddays`, { method: 'POST', body: { days }, silent: true });

export const changeScreens = (id: number, amount: number, idempotencyKey = newIdempotencyKey()) =>
  api<Line>(`/users/${id}/screens`, { method: 'POST', body: { amount }, idempotencyKey, silent: true });

export const setBlocked = (id: number, blocked: boolean) => api<Line>(`/users/${id}/${blocked ? 'block' : 'unblock'}`, { method: 'POST', silent: true });

export const changeSystem = (id: number, systemId: number) =>
  api<Line>(`/users/${id}/change_system`, { method: 'POST', body: { system_id: systemId }, silent: true });

export const shortenLink = (userId: number, type: LinkType) =>
  api<{ url: string; original: string }>('/shorturl', { method: 'POST', body: { user_id: userId, type }, silent: true });
