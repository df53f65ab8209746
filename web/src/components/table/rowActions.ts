import { type MutationKey, type UseMutationOptions, useMutation, useMutationState } from '@tanstack/react-query';
import { notifySuccess } from '../../api/notify';

interface Options<V extends { id: number }, T> {
  /** Shared by every row action of one list: usePendingRows finds the busy rows by it. */
  mutationKey: MutationKey;
  /** The call; it answers the changed row, or nothing when the row is gone. */
  mutationFn: (variables: V) => Promise<T | undefined>;
  /** Puts the returned row in the cached list pages. */
  replace: (row: T) => void;
  /** Takes the row out of them. */
  drop: (id: number) => void;
  /** The toast once done. */
  success: (variables: V) => string;
}

/**
 * A list's row action: the answer replaces the row (or, when empty, removes it) and a success toast;
 * a failure is toasted by the API client (the call's `errorScopes`). These are the mutation's own callbacks (not `mutate`'s, which
 * only the latest call gets), so each of several rows acted on at once gets its toast.
 */
export function rowActionOptions<V extends { id: number }, T>({ mutationKey, mutationFn, replace, drop, success }: Options<V, T>): UseMutationOptions<T | undefined, unknown, V> {
  return {
    mutationKey,
    mutationFn,
    onSuccess: (row, variables) => {
      if (row) replace(row);
      else drop(variables.id);
      notifySuccess(success(variables));
    },
  };
}

export function useRowAction<V extends { id: number }, T>(options: Options<V, T>) {
  return useMutation(rowActionOptions(options));
}

/** Which mutations usePendingRows counts, and the row each one names. */
export const pendingRows = (mutationKey: MutationKey) => ({
  filters: { mutationKey, status: 'pending' as const },
  select: (m: { state: { variables: unknown } }) => (m.state.variables as { id: number }).id,
});

/** The ids of the rows with an action under way: the pending mutations under `mutationKey`. */
export function usePendingRows(mutationKey: MutationKey): ReadonlySet<number> {
  return new Set(useMutationState(pendingRows(mutationKey)));
}
