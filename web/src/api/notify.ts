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

/** Toast of an API error: the client's, for every call that is not `silent`, and showFormError's for a form's silent call whose error names none of its inputs. */
export function notifyError(err: ApiError, ...scopes: ErrorScope[]): void {
  toast({ id: `api-error-${err.code}`, color: 'red', title: i18n.t('common.error'), message: errorText(err, ...scopes) });
}

export function notifySuccess(message: string): void {
  toast({ color: 'green', message });
}

/**
 * A failed call rejects its `mutateAsync` once the client has shown it (a toast, or in place for a
 * silent call), so handlers await mutations without catching (README, "Mutations"). This marks those
 * rejections handled: no "Uncaught (in promise)" in the console. Any other rejection (a bug) is still reported.
 */
export function quietShownApiErrors(): void {
  window.addEventListener('unhandledrejection', (event) => {
    if (isApiError(event.reason)) event.preventDefault();
  });
}
