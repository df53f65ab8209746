import { useRef } from 'react';
import { newIdempotencyKey } from './client';

/**
 * Idempotency-Keys per user intent. The same intent (what the request asks: the action, its
 * target and its values) gets the same key until it succeeds, so a retry after a time-out, a
 * network error or a double click is charged once; another intent (other values, another line)
 * gets its own key, and so does the same intent once it has succeeded.
 */
export class IntentKeys {
  #keys = new Map<string, string>();

  /** The key of this intent: the one already made for it, or a new one. */
  keyFor(intent: unknown): string {
    const id = JSON.stringify(intent);
    let key = this.#keys.get(id);
    if (!key) {
      key = newIdempotencyKey();
      this.#keys.set(id, key);
    }
    return key;
  }

  /** The intent succeeded: doing it again is a new intent, with a new key. */
  done(intent: unknown): void {
    this.#keys.delete(JSON.stringify(intent));
  }

  /**
   * Sends `call` with the intent's key and forgets the key once it succeeded. Only one intent is
   * kept at a time for a form: starting another (changed values) forgets the others.
   */
  async send<T>(intent: unknown, call: (key: string) => Promise<T>): Promise<T> {
    const answer = await call(this.keyFor(intent));
    this.done(intent);
    return answer;
  }
}

/** IntentKeys kept for the life of the component (a page, a dialog: reopened, it starts afresh). */
export function useIntentKeys(): IntentKeys {
  const keys = useRef<IntentKeys | null>(null);
  keys.current ??= new IntentKeys();
  return keys.current;
}
