import { notifications } from '@mantine/notifications';
import { isApiError } from '../../api/errors';
import { notifyError } from '../../api/notify';
import i18n from '../../i18n';

/** Line error codes with their own text under users.errors (the rest use the shared errors.*). */
const LINE_CODES = ['TRIAL_LIMIT_REACHED', 'TRIAL_NOT_ALLOWED', 'LINE_BLOCKED', 'CONFLICT'] as const;

/** Text of a failed line call (line-specific codes first, then the shared catalogue). */
export function lineErrorText(e: unknown): string | undefined {
  if (!isApiError(e)) return undefined;
  if ((LINE_CODES as readonly string[]).includes(e.code)) return i18n.t(`users.errors.${e.code}`);
  if (e.code === 'VALIDATION' && e.field === 'days') return i18n.t('users.extend.invalid');
  return undefined;
}

/** Shows the error of a `silent` line call (401s are already handled by the client). */
export function showLineError(e: unknown): void {
  if (!isApiError(e)) {
    notifications.show({ color: 'red', title: i18n.t('common.error'), message: i18n.t('errors.UNKNOWN'), autoClose: 4000 });
    return;
  }
  if (e.status === 401) return;
  const own = lineErrorText(e);
  if (own) notifications.show({ id: `api-error-${e.code}`, color: 'red', title: i18n.t('common.error'), message: own, autoClose: 4000 });
  else notifyError(e);
}
