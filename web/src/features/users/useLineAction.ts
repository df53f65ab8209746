import { useState } from 'react';
import { notifySuccess, showError } from '../../api/notify';
import { newIdempotencyKey } from '../../api/client';
import { reloadProfile } from '../../api/profile';
import { replaceLine } from './api';
import type { Line } from '../../api/types';

/**
 * The common end of a line action in a modal: call the API (with an Idempotency-Key kept across
 * retries of the same submission), put the returned line in the lists, reload the balance, say
 * so, close. `busy` holds the running action's name.
 */
export function useLineAction<K extends string>(onClose: () => void) {
  const [busy, setBusy] = useState<K | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const run = async (kind: K, call: (idempotencyKey: string) => Promise<Line>, success: string) => {
    setBusy(kind);
    try {
      replaceLine(await call(key));
      void reloadProfile();
      setKey(newIdempotencyKey());
      notifySuccess(success);
      onClose();
    } catch (e) {
      showError(e, 'users');
    } finally {
      setBusy(null);
    }
  };
  /** A changed request (another package, another amount) must not reuse the previous key. */
  const resetKey = () => setKey(newIdempotencyKey());
  return { busy, run, resetKey };
}
