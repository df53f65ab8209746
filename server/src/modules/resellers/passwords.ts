import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AppError } from '../../http/errors.ts';

/** zxcvbn score (0..4) a panel account password needs: 3 = about 10^8 guesses or more. */
export const MIN_PASSWORD_SCORE = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** Loaded on first use (the dictionaries are several MB): a module-level singleton. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en, ptBr] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
      import('@zxcvbn-ts/language-pt-br'),
    ]);
    return new ZxcvbnFactory({
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary },
      useLevenshteinDistance: true,
    });
  })();
  return estimator;
}

/** What makes a password too weak (English), or null when it is strong enough. */
export async function passwordWeakness(password: string, userInputs: (string | null | undefined)[] = []): Promise<string | null> {
  const inputs = userInputs
    .filter((s): s is string => typeof s === 'string' && s.length >= 3)
    .flatMap((s) => (s.includes('@') ? [s, s.slice(0, s.indexOf('@'))] : [s]));
  const lower = password.toLowerCase();
  // zxcvbn rates "joao123joao" 3 even with "joao" as an input; a password built on the username is weak anyway.
  if (inputs.some((s) => s.length >= 4 && lower.includes(s.toLowerCase()))) return 'it contains the username or other account data';
  const result = (await loadEstimator()).check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return result.feedback.warning ?? 'it is too easy to guess';
}

/** Throws 400 WEAK_PASSWORD (field `password`) when the password is too weak. */
export async function assertStrongPassword(password: string, userInputs: (string | null | undefined)[] = []): Promise<void> {
  const weakness = await passwordWeakness(password, userInputs);
  if (weakness) {
    throw new AppError(400, 'WEAK_PASSWORD', `password is too weak: ${weakness.replace(/\.$/, '')}. Use a longer password with unrelated words, digits and symbols.`, 'password');
  }
}
