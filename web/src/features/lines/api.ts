import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { pagedListCache, whilePending } from '../../api/pageCache';
import { reloadProfile } from '../../api/profile';
import { userKeys } from './queryKeys';
import { dashboardKeys } from '../dashboard/queryKeys';
import type { Line, LineCreate, LinesQuery, LineUpdate, LinkType, TrialCreate } from '../../api/types';
import { useIntentMutation } from '../../api/useIntentMutation';
import { useRowAction } from '../../components/table/rowActions';
import i18n from '../../i18n';
import { isValidId } from '../../lib/ids';
import { reminderKeys } from '../reminders/queryKeys';

export function useLines(query: LinesQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    // `created` days are the browser's local days: the server needs the offset to find them.
    queryFn: ({ signal }) =>
      api.GET('/api/users', { params: { query: query.created ? { ...query, tz_offset: -new Date().getTimezoneOffset() } : query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: whilePending,
  });
}

export function useLine(id: number) {
  return useQuery({
    queryKey: userKeys.one(id),
    queryFn: ({ signal }) => api.GET('/api/users/{id}', { params: { path: { id } }, signal }),
    enabled: isValidId(id),
  });
}

/** Migration: what the other provider says about the line of an original playlist URL (looked up once typed, cached per URL). */
export function useMigrationLookup(url: string, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.migrationLookup(url),
    queryFn: ({ signal }) => api.POST('/api/users/fetch-url-data', { body: { url }, signal, silent: true }),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/** (the dashboard's cards and expiry list count these lines) */
const lines = pagedListCache<Line>(userKeys.lists, userKeys.one, [dashboardKeys.all()]);

/** New lines show up on the list's next load; the balance paid for them. */
function lineCreated(): Promise<void> {
  void reloadProfile();
  return lines.reload();
}

/** A line changed (renew, screens, extend): it replaces its cached copies and the balance reloads. */
function lineChanged(line: Line): void {
  lines.replace(line);
  void reloadProfile();
}

/** The lines' own texts word their calls' errors (the client toasts them). */
const LINE_ERRORS = { errorScopes: ['users'] } as const;

/** The path of a call about one line, and its error texts. */
const aboutLine = (id: number) => ({ params: { path: { id } }, ...LINE_ERRORS });

/** The line's playlist and short links (its dialogs). */
export function useLineLinks(id: number, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.links(id),
    queryFn: ({ signal }) => api.GET('/api/users/{id}/links', { params: { path: { id } }, signal }),
    enabled: enabled && id > 0,
    staleTime: 60_000,
  });
}

/** The customer's renewal link for the WhatsApp message (null unless the owner takes PIX payments); silent: the message goes without it. */
export function useRenewalLink(id: number, enabled: boolean) {
  return useQuery({
    queryKey: reminderKeys.renewalLink(id),
    queryFn: ({ signal }) => api.GET('/api/reminders/renewal-link/{line_id}', { params: { path: { line_id: id } }, signal, silent: true }),
    enabled: enabled && id > 0,
    staleTime: 60_000,
  });
}

// --- Creation. The client toasts a failure; the form marks the field it names. ---

/** A paid line: spends credits, keyed per intent (the values sent). */
export function useCreateLine() {
  return useIntentMutation({
    mutationFn: (body: LineCreate, idempotencyKey) => api.POST('/api/users', { body, idempotencyKey, ...LINE_ERRORS }),
    onSuccess: lineCreated,
  });
}

/** A free trial line (a daily limit, no credits: no key). */
export function useCreateTrialLine() {
  return useMutation({
    mutationFn: (body: TrialCreate) => api.POST('/api/trial_users', { body, ...LINE_ERRORS }),
    onSuccess: lineCreated,
  });
}

/** Migration of a line from another provider: spends credits, keyed per intent (the values sent). Silent: the page keeps the error beside its button (its own texts) until the URL changes. */
export function useMigrateLine() {
  return useIntentMutation({
    mutationFn: (body: { username: string; password: string; exp_date: number; package_id: number }, idempotencyKey) =>
      api.POST('/api/users/migrate', { body, idempotencyKey, silent: true }),
    onSuccess: lineCreated,
  });
}

// --- Changes of one line from its dialogs and pages. ---

/** The client toasts a failure; the form marks the field it names. */
export function useUpdateLine() {
  return useMutation({
    mutationFn: ({ id, ...body }: LineUpdate & { id: number }) => api.PUT('/api/users/{id}', { ...aboutLine(id), body }),
    onSuccess: lines.replace,
  });
}

/** Renewal by package: spends credits, keyed per intent (the variables name the line). */
export function useRenewLine() {
  return useIntentMutation({
    mutationFn: ({ id, packageId }: { id: number; packageId: number }, idempotencyKey) =>
      api.POST('/api/users/{id}/renew', { ...aboutLine(id), body: { package_id: packageId }, idempotencyKey }),
    onSuccess: lineChanged,
  });
}

/** Screens added (amount x months remaining credits) or removed; `kind` tells which button asked. */
export function useChangeScreens() {
  return useIntentMutation({
    mutationFn: ({ id, amount }: { id: number; amount: number; kind: 'add' | 'remove' }, idempotencyKey) =>
      api.POST('/api/users/{id}/screens', { ...aboutLine(id), body: { amount }, idempotencyKey }),
    onSuccess: lineChanged,
  });
}

/** 1 to 3 free days, once per 30 days. */
export function useExtendLine() {
  return useMutation({
    mutationFn: ({ id, days }: { id: number; days: number }) => api.POST('/api/users/{id}/extenddays', { ...aboutLine(id), body: { days } }),
    onSuccess: lineChanged,
  });
}

/** Lazy Player: debits the proportional charge and registers the line's playlist for this MAC; keyed per intent. Silent: the dialog shows the error in place (its own texts). */
export function useActivateLazyPlayer() {
  return useIntentMutation({
    mutationFn: ({ id, mac }: { id: number; mac: string }, idempotencyKey) => api.POST('/api/users/{id}/activesmart', { params: { path: { id } }, body: { mac }, idempotencyKey, silent: true }),
    onSuccess: () => void reloadProfile(),
  });
}

export function useShortenLink() {
  return useMutation({
    mutationFn: ({ userId, type }: { userId: number; type: LinkType }) => api.POST('/api/shorturl', { body: { user_id: userId, type }, ...LINE_ERRORS }),
  });
}

// --- Row actions of the list: all share LINE_ROW_ACTIONS, so the list shows a row busy while one runs. ---

export const LINE_ROW_ACTIONS = ['users', 'row-action'] as const;

function useLineRowAction<V extends { id: number }>(mutationFn: (variables: V) => Promise<Line | undefined>, success: (variables: V) => string) {
  return useRowAction({ mutationKey: LINE_ROW_ACTIONS, mutationFn, replace: lines.replace, drop: lines.drop, success });
}

export const useSetLineBlocked = () =>
  useLineRowAction(
    ({ id, block }: { id: number; block: boolean }) => api.POST(block ? '/api/users/{id}/block' : '/api/users/{id}/unblock', aboutLine(id)),
    ({ block }) => i18n.t(block ? 'users.block.success' : 'users.unblock.success'),
  );

export const useDeleteLine = () =>
  useLineRowAction(
    ({ id }: { id: number }) => api.DELETE('/api/users/{id}', aboutLine(id)).then(() => undefined),
    () => i18n.t('users.remove.success'),
  );

export const useChangeSystem = () =>
  useLineRowAction(
    ({ id, systemId }: { id: number; systemId: 1 | 2 | 3 }) => api.POST('/api/users/{id}/change_system', { ...aboutLine(id), body: { system_id: systemId } }),
    () => i18n.t('users.system.changed'),
  );

/** Sends a P2P line to the P2P server again (through the outbox). */
export const useResyncLine = () =>
  useLineRowAction(
    ({ id }: { id: number }) => api.POST('/api/users/{id}/resync_p2p', aboutLine(id)),
    () => i18n.t('p2p.resync.success'),
  );

/** One-month flash renew, costing max_connections credits; keyed per intent (the line). */
export function useFlashRenewLine() {
  return useIntentMutation({
    mutationKey: LINE_ROW_ACTIONS,
    mutationFn: ({ id }: { id: number }, idempotencyKey) => api.POST('/api/users/{id}/renew', { ...aboutLine(id), body: { months: 1 }, idempotencyKey }),
    onSuccess: (line) => {
      lineChanged(line);
      notifySuccess(i18n.t('users.renew.success'));
    },
  });
}
