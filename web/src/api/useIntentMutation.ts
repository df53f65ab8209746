import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { type IntentKeys, useIntentKeys } from './intentKeys';

type Options<V, T> = Omit<UseMutationOptions<T, unknown, V>, 'mutationFn'> & {
  /** The call, sent with the intent's Idempotency-Key. */
  mutationFn: (variables: V, idempotencyKey: string) => Promise<T>;
};

/** The mutation options whose calls carry the key `intents` keeps for their variables. */
export function withIntentKeys<V, T>(intents: IntentKeys, { mutationFn, ...options }: Options<V, T>): UseMutationOptions<T, unknown, V> {
  return { ...options, mutationFn: (variables) => intents.send(variables, (key) => mutationFn(variables, key)) };
}

/**
 * The one way to spend: a TanStack mutation whose calls carry an Idempotency-Key per intent
 * (IntentKeys). The intent is the variables: the same values get the same key until they succeed,
 * so a retry after a time-out, a network error or a double click is charged once; other values,
 * or the same values once they succeeded, get a new key.
 */
export function useIntentMutation<V, T>(options: Options<V, T>) {
  const intents = useIntentKeys();
  return useMutation(withIntentKeys(intents, options));
}
