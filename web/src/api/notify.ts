import type { NotificationData } from '@mantine/notifications';
import i18n from '../i18n';
import { type ErrorScope, errorText } from '../lib/errors';
import { type ApiError, isApiError } from './errors';

/** Every toast stays this long. */
export const TOAST_MS = 4000;

/**
 * The one way to show a toast. @mantine/notifications is loaded on first use: the signed-out
 * pages do not download it (the signed-in layout mounts <Notifications>).
 */
export function toast(notification: Omit<NotificationData, 'autoClose'>): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show({ ...notification, autoClose: TOAST_MS }));
}

/** Toast of an API error (the client shows those of calls that are not `silent`). */
export function notifyError(err: ApiError, ...scopes: ErrorScope[]): void {
  toast({ id: `api-error-${err.code}`, color: 'red', title: i18n.t('common.error'), message: errorText(err, ...scopes) });
}

/** Shows the error of a `silent` call, worded by `errorText` (401s are already handled by the client). */
export function showError(e: unknown, ...scopes: ErrorScope[]): void {
  if (!isApiError(e)) toast({ color: 'red', title: i18n.t('common.error'), message: i18n.t('errors.UNKNOWN') });
  else if (e.status !== 401) notifyError(e, ...scopes);
}

export function notifySuccess(message: string): void {
  toast({ color: 'green', message });
}
