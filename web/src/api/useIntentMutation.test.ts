import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

vi.stubGlobal('window', { isSecureContext: true }); // the key maker asks; Node has randomUUID

const { IntentKeys } = await import('./intentKeys');
const { withIntentKeys } = await import('./useIntentMutation');

describe('intent mutations', () => {
  it('send a double click and a retry after a time-out with one key, a new renewal with another', async () => {
    const sent: string[] = [];
    let fail = true;
    const renew = new MutationObserver(
      new QueryClient(),
      withIntentKeys(new IntentKeys(), {
        mutationFn: async ({ id }: { id: number }, key) => {
          sent.push(key);
          await Promise.resolve();
          if (fail) throw new Error('time-out');
          return id;
        },
      }),
    );
    const clicks = [renew.mutate({ id: 7 }), renew.mutate({ id: 7 })]; // a double click
    await Promise.allSettled(clicks);
    fail = false;
    await renew.mutate({ id: 7 }); // the retry
    await renew.mutate({ id: 7 }); // renewed again, once the first went through
    await renew.mutate({ id: 8 }); // another line
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).toBe(sent[0]);
    expect(new Set(sent.slice(2)).size).toBe(3);
  });
});
