import type { ApiError } from '../../api/errors';
import { errorText } from '../../api/notify';
import i18n from '../../i18n';

/** Error text of a reseller call: `resellers.errors.<CODE>` first, then the shared catalogue / server message. */
export function resellerErrorText(err: ApiError): string {
  const key = `resellers.errors.${err.code}`;
  if (i18n.exists(key)) return i18n.t(key);
  return errorText(err);
}
