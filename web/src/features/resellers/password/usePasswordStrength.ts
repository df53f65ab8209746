import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import type { PasswordStrength } from '../../../api/types';

function askStrength(password: string, userInputs: string[], lang: string, signal?: AbortSignal) {
  const user_inputs = userInputs.filter((s) => s && s.length >= 3);
  // The server's verdict: one rule, no dictionaries in the browser.
  return api.POST('/api/password-strength', {
    body: { password, user_inputs, lang: lang.startsWith('en') ? 'en-US' : 'pt-BR' },
    signal,
    silent: true,
  });
}

/**
 * Strength of `password` as the user types, asked 300 ms after the last key (kept out of the
 * query cache: passwords are not cached data); null while empty or unanswered.
 */
export function usePasswordStrength(password: string, userInputs: string[], lang: string): PasswordStrength | null {
  const [debounced] = useDebouncedValue(password, 300);
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const inputsKey = userInputs.filter(Boolean).join('\n');
  useEffect(() => {
    if (!debounced) {
      setStrength(null);
      return;
    }
    const controller = new AbortController();
    askStrength(debounced, inputsKey.split('\n'), lang, controller.signal).then(
      (answer) => setStrength(answer),
      () => undefined, // the server checks again on save
    );
    return () => controller.abort();
  }, [debounced, inputsKey, lang]);
  return password ? strength : null;
}

/** The check on submit; true when the server cannot be asked (it checks again on save). */
export async function isStrongEnough(password: string, userInputs: string[], lang: string): Promise<boolean> {
  try {
    return (await askStrength(password, userInputs, lang)).ok;
  } catch {
    return true;
  }
}
