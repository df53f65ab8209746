import { redirect } from '@tanstack/react-router';
import i18n from '../i18n';

/**
 * For a route guard: the page asked for is not open to the caller's role (a bookmark, a typed
 * URL). Back to the dashboard, with a notice saying why rather than a silent jump.
 */
export function roleRedirect() {
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({ id: 'role-redirect', color: 'yellow', message: i18n.t('errors.roleRedirect'), autoClose: 8000 }),
  );
  return redirect({ to: '/' });
}
