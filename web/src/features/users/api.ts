import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { showError } from '../../api/notify';
import { reloadProfile } from '../../api/profile';
import { useIntentMutation } from '../../api/useIntentMutation';
import { api, newIdempotencyKey } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { dropFromPages, replaceInPages, whilePending } from '../../api/pageCache';
import { queryKeys } from '../../api/queryKeys';
import type { Line, LineCreate, LinesQuery, LineUpdate, LinkType, TrialCreate } from '../../api/types';


export function useLines(query: LinesQuery) {
  return useQuery({
    queryKey: queryKeys.users.list(query),
    // `created` days are the browser's local days: the server needs the offset to find them.
    queryFn: ({ signal }) =>
      api.GET('/api/users', { params: { query: query.created ? { ...query, tz_offset: -new Date().getTimezoneOffset() } : query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: whilePending,
  });
}

export function useLine(id: number) {
  return useQuery({
    queryKey: queryKeys.users.one(id),
    queryFn: ({ signal }) => api.GET('/api/users/{id}', { params: { path: { id } }, signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}




/** Replaces the line with the same id in every cached list page (and its single-line cache). */
export const replaceLine = (line: Line): void => replaceInPages(queryKeys.users.lists(), queryKeys.users.one(line.id), line);

/** Takes a removed line out of every cached list page, then refetches to fill the page. */
export const dropLine = (id: number): void => dropFromPages<Line>(queryKeys.users.lists(), queryKeys.users.one(id), id);

/** New lines show up on the list's next load. */
export function invalidateLines(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.users.lists() });
}

/**
 * A change to one line (renew, screens, extend): one mutation, spends keyed per intent (the
 * variables, which name the line). On success the line replaces its cached copies and the balance
 * reloads; a failure is shown as a toast.
 */
export function useLineChange<V extends { id: number }>(call: (variables: V, idempotencyKey: string) => Promise<Line>) {
  return useIntentMutation({
    mutationFn: call,
    onSuccess: (line: Line) => {
      replaceLine(line);
      void reloadProfile();
    },
    onError: (e) => showError(e, 'users'),
  });
}

// --- Calls. All are `silent`: the caller shows the error (showError(e, 'users')). ---

/** The path and `silent` of a call about one line. */
const aboutLine = (id: number) => ({ params: { path: { id } }, silent: true });

export const createLine = (body: LineCreate, idempotencyKey: string) => api.POST('/api/users', { body, idempotencyKey, silent: true });

export const createTrialLine = (body: TrialCreate) => api.POST('/api/trial_users', { body, silent: true });

export const updateLine = (id: number, body: LineUpdate) => api.PUT('/api/users/{id}', { ...aboutLine(id), body });

export const deleteLine = (id: number) => api.DELETE('/api/users/{id}', aboutLine(id));

export const renewByPackage = (id: number, packageId: number, idempotencyKey = newIdempotencyKey()) =>
  api.POST('/api/users/{id}/renew', { ...aboutLine(id), body: { package_id: packageId }, idempotencyKey });

/** One-month flash renew, costing max_connections credits. */
export const flashRenew = (id: number, idempotencyKey = newIdempotencyKey()) =>
  api.POST('/api/users/{id}/renew', { ...aboutLine(id), body: { months: 1 }, idempotencyKey });

export const extendDays = (id: number, days: number) => api.POST('/api/users/{id}/extenddays', { ...aboutLine(id), body: { days } });

export const changeScreens = (id: number, amount: number, idempotencyKey = newIdempotencyKey()) =>
  api.POST('/api/users/{id}/screens', { ...aboutLine(id), body: { amount }, idempotencyKey });

export const setBlocked = (id: number, blocked: boolean) => api.POST(blocked ? '/api/users/{id}/block' : '/api/users/{id}/unblock', aboutLine(id));

export const changeSystem = (id: number, systemId: 1 | 2 | 3) => api.POST('/api/users/{id}/change_system', { ...aboutLine(id), body: { system_id: systemId } });

/** Sends a P2P line to the P2P server again (through the outbox). */
export const resyncP2p = (id: number) => api.POST('/api/users/{id}/resync_p2p', aboutLine(id));

export const shortenLink = (userId: number, type: LinkType) => api.POST('/api/shorturl', { body: { user_id: userId, type }, silent: true });

/** Lazy Player: debits the proportional charge and registers the line's playlist for this MAC. */
export const activateLazyPlayer = (id: number, mac: string, idempotencyKey: string) =>
  api.POST('/api/users/{id}/activesmart', { ...aboutLine(id), body: { mac }, idempotencyKey });

/** Migration: what the other provider says about the line of an original playlist URL. */
export const fetchUrlData = (url: string, signal?: AbortSignal) => api.POST('/api/users/fetch-url-data', { body: { url }, signal, silent: true });

export const migrateLine = (body: { username: string; password: string; exp_date: number; package_id: number }, idempotencyKey: string) =>
  api.POST('/api/users/migrate', { body, idempotencyKey, silent: true });
