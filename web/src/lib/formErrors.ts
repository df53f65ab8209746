import type { ReactNode } from 'react';
import { isApiError } from '../api/errors';
import { notifyError } from '../api/notify';
import { type ErrorScope, errorText, reasonText } from './errors';

/** What showFormError needs of a @mantine/form form. */
interface FormLike {
  getValues: () => object;
  setFieldError: (path: string, error: ReactNode) => void;
}

export interface FormErrorOptions {
  /** The form's path of an answer's `field` where they differ (`channels.whatsapp.base_url` -> `base_url`). */
  fields?: Record<string, string>;
  /** The form's input that shows any other failure in place (a dialog); without it, it is toasted. */
  otherwise?: string;
  /** as the call's errorScopes: the features whose texts word a toasted failure first */
  scopes?: ErrorScope[];
}

/** Does the form have a value at this dotted path (`prices.7`, `templates.day.pt`)? */
function hasPath(values: object, path: string): boolean {
  let at: unknown = values;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || !(part in at)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * The failure of a form's `silent` call, shown once: an answer naming one of the form's inputs
 * (`field`, mapped by `fields`) under that input, in the user's language (reasonText: the input's
 * label names the field); anything else under `otherwise`, or toasted as the client would have.
 */
export function showFormError(form: FormLike, e: unknown, options: FormErrorOptions = {}): void {
  const field = isApiError(e) && e.field ? (options.fields?.[e.field] ?? e.field) : undefined;
  if (field && hasPath(form.getValues(), field)) form.setFieldError(field, reasonText(e));
  else if (options.otherwise) form.setFieldError(options.otherwise, errorText(e, ...(options.scopes ?? [])));
  else if (isApiError(e)) notifyError(e, ...(options.scopes ?? []));
}
