import { IconAlertCircle } from '@tabler/icons-react';

interface Props {
  /** The error, worded (errorText, or the feature's fixed text). */
  children: string;
  /** A heading above it (what failed), when the text alone does not say. */
  title?: string;
  testId?: string;
}

/**
 * THE error shown in place, where a toast will not do: inside a dialog's form, next to the button of
 * a page that keeps the error until the input changes, and on the pages without a toast container
 * (sign-in, the customer page). Mantine-free (styles/signed-out.css), so the signed-out pages can use it.
 * Every other failed call is toasted by the API client; a read that failed is a LoadErrorAlert.
 */
export function ErrorAlert({ children, title, testId }: Props) {
  return (
    <div className="so-alert" role="alert" data-testid={testId}>
      <IconAlertCircle size={18} aria-hidden />
      {title ? (
        <span>
          <strong>{title}</strong>
          <br />
          {children}
        </span>
      ) : (
        <span>{children}</span>
      )}
    </div>
  );
}
