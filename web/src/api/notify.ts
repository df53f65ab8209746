import { notifications } from '@mantine/notifications';
import i18n from '../i18n';
import type { ApiError } from './errors';

const AUTO_CLOSE = 4000;

/** Translated text of an API error: `errors.<CODE>` when known, else the server's message. */
export function errorText(err: ApiError): string {
  const key = `errors.${err.code}`;
  if (i18n.exists(key)) return i18n.t(key, { message: err.message, field: err.field ?? '' });
  return err.message || i18n.t('errors.UNKNOWN');
}

export function notifyError(err: ApiError): void {
  notifications.show({
    id: `api-error-${err.code}`,
    color: 'red',
    title: i18n.t('common.error'),
    message: errorText(err),
    autoClose: AUTO_CLOSE,
  });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, autoClose: AUTO_CLOSE });
}
