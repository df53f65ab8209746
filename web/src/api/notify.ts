import type { NotificationData } from '@mantine/notifications';
import i18n from '../i18n';
import { type ErrorScope, errorText } from '../lib/errors';
import type { ApiError } from './errors';

/** Every toast stays this long. */
export const TOAST_MS = 4000;

/**
 * The one way to show a toast. @mantine/notifications is loaded on first use: the signed-out
 * pages do not download it (the signed-in layout mounts <Notifications>).
 */
export function toast(notification: Omit<NotificationData, 'autoClose'>): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show({ ...notification, autoClose: TOAST_MS }));
}

/** Toast of an API error: the client's, for every call that is not `silent`, and showFormError's for a form's silent call whose error names none of its inputs. */
export function notifyError(err: ApiError, ...scopes: ErrorScope[]): void {
  toast({ id: `api-error-${err.code}`, color: 'red', title: i18n.t('common.error'), message: errorText(err, ...scopes) });
}

export function notifySuccess(message: string): void {
  toast({ color: 'green', message });
}

/**
 * The rejection handler of a mutation whose failure its caller does nothing about: the API client
 * has already shown it (or, for a silent call, the page shows `mutation.error` in place). Calls are
 * `await m.mutateAsync(v)` in a handler, or `void m.mutateAsync(v).then(onDone, alreadyShown)`.
 */
export const alreadyShown = (): undefined => undefined;
