import type { NotificationData } from '@mantine/notifications';
import i18n from '../i18n';
import type { ApiError } from './errors';

const AUTO_CLOSE = 4000;

/** Translated text of an API error: `errors.<CODE>` when known, else the server's message. */
export function errorText(err: ApiError): string {
  const key = `errors.${err.code}`;
  if (i18n.exists(key)) return i18n.t(key, { message: err.message, field: err.field ?? '' });
  return err.message || i18n.t('errors.UNKNOWN');
}

/** Loaded on first use: the signed-out pages do not download it (the signed-in layout mounts <Notifications>). */
function show(notification: NotificationData): void {
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(notification));
}

export function notifyError(err: ApiError): void {
  show({
    id: `api-error-${err.code}`,
    color: 'red',
    title: i18n.t('common.error'),
    message: errorText(err),
    autoClose: AUTO_CLOSE,
  });
}

export function notifySuccess(message: string): void {
  show({ color: 'green', message, autoClose: AUTO_CLOSE });
}
