import { useState } from 'react';
import { notifySuccess } from '../../api/notify';

interface Options<T> {
  /** Puts the returned row in the cached list pages. */
  replace: (row: T) => void;
  /** Takes the row out of them (the call answered nothing: the row is gone). */
  drop: (id: number) => void;
  showError: (e: unknown) => void;
}

/**
 * A list's row actions: one busy flag per row; the answer replaces the row (or, when empty, removes
 * it), a success toast, `after` (e.g. reload the balance), and the error shown on failure.
 */
export function useRowRun<T extends { id: number }>({ replace, drop, showError }: Options<T>) {
  const [busy, setBusy] = useState<Record<number, boolean>>({});
  const run = async (row: T, call: () => Promise<T | undefined>, success: string, after?: () => void) => {
    setBusy((b) => ({ ...b, [row.id]: true }));
    try {
      const updated = await call();
      if (updated) replace(updated);
      else drop(row.id);
      after?.();
      notifySuccess(success);
    } catch (e) {
      showError(e);
    } finally {
      setBusy((b) => {
        const { [row.id]: _, ...rest } = b;
        return rest;
      });
    }
  };
  return { busy, run };
}
