import { useRef } from 'react';

/** Random key for the `Idempotency-Key` header (only IntentKeys makes them: one per intent). */
function newIdempotencyKey(): string {
  // randomUUID needs a secure context; plain-HTTP deployments fall back to getRandomValues.
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

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
   * Sends `call` with the intent's key and forgets the key once it succeeded. The keys of other
   * intents stay (on a list, each row's unfinished intent keeps its own).
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
