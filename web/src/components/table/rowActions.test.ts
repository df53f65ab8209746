import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../api/notify', () => ({ notifySuccess: vi.fn() }));
const { notifySuccess } = await import('../../api/notify');
const { pendingRows, rowActionOptions } = await import('./rowActions');

type Row = { id: number; enabled: boolean };

/** A call the test answers when it wants. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('row actions', () => {
  it('marks the acted-on rows busy, and each one replaced or dropped gets its toast', async () => {
    const client = new QueryClient();
    const key = ['lines', 'row-action'];
    const replace = vi.fn();
    const drop = vi.fn();
    const answers = new Map<number, ReturnType<typeof deferred<Row | undefined>>>([
      [1, deferred()],
      [2, deferred()],
      [3, deferred()],
    ]);
    // One observer for every row, as a page holds one hook per action.
    const action = new MutationObserver(
      client,
      rowActionOptions({ mutationKey: key, mutationFn: ({ id }: { id: number }) => answers.get(id)!.promise, replace, drop, success: ({ id }) => `done ${id}` }),
    );
    const busy = () => client.getMutationCache().findAll(pendingRows(key).filters).map(pendingRows(key).select);

    const done = [action.mutate({ id: 1 }), action.mutate({ id: 2 }), action.mutate({ id: 3 })];
    expect(busy()).toEqual([1, 2, 3]);
    answers.get(1)!.resolve({ id: 1, enabled: false });
    answers.get(2)!.resolve(undefined);
    await Promise.all(done.slice(0, 2));
    expect(busy()).toEqual([3]);
    expect(replace).toHaveBeenCalledWith({ id: 1, enabled: false });
    expect(drop).toHaveBeenCalledWith(2);
    expect(vi.mocked(notifySuccess).mock.calls).toEqual([['done 1'], ['done 2']]);
    answers.get(3)!.resolve({ id: 3, enabled: true });
    await done[2];
    expect(busy()).toEqual([]);
  });

  it('leaves the row when an action fails (the API client toasts the error)', async () => {
    const client = new QueryClient();
    const replace = vi.fn();
    const action = new MutationObserver(
      client,
      rowActionOptions({ mutationKey: ['x'], mutationFn: () => Promise.reject(new Error('refused')), replace, drop: vi.fn(), success: () => 'ok' }),
    );
    await expect(action.mutate({ id: 1 })).rejects.toThrow('refused');
    expect(replace).not.toHaveBeenCalled();
  });
});
