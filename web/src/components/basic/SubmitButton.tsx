import type { ReactNode } from 'react';

/** Full-width submit button; while `busy` it shows a spinner and ignores clicks. */
export function SubmitButton({ busy, icon, children, ...rest }: { busy: boolean; icon: ReactNode; children: ReactNode; 'data-testid'?: string }) {
  return (
    <button type="submit" className="so-button" data-full disabled={busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="so-spinner" aria-hidden /> : icon}
      {children}
    </button>
  );
}
