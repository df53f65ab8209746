import { useEffect, useState } from 'react';
import type { PasswordStrength } from './estimator';

type Estimator = typeof import('./estimator');
let loading: Promise<Estimator> | undefined;
/** The estimator chunk, fetched once on first use. */
export const loadEstimator = (): Promise<Estimator> => {
  loading ??= import('./estimator').catch((err) => {
    loading = undefined; // a failed chunk load may be retried later
    throw err;
  });
  return loading;
};

/** Strength of `password` as the user types; null while empty or while the estimator loads. */
export function usePasswordStrength(password: string, userInputs: string[], lang: string): PasswordStrength | null {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const inputsKey = userInputs.join('\n');
  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let live = true;
    loadEstimator()
      .then((m) => {
        if (live) setStrength(m.estimatePassword(password, inputsKey.split('\n'), lang));
      })
      .catch(() => {
        if (live) setStrength(null); // the server still checks
      });
    return () => {
      live = false;
    };
  }, [password, inputsKey, lang]);
  return strength;
}

/** The check on submit: waits for the estimator; true when it cannot load (the server decides then). */
export async function isStrongEnough(password: string, userInputs: string[], lang: string): Promise<boolean> {
  try {
    return (await loadEstimator()).estimatePassword(password, userInputs, lang).ok;
  } catch {
    return true;
  }
}
