import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { appError } from '../../http/errors.ts';

/** zxcvbn score (0..4) a panel account password needs: 3 = about 10^8 guesses or more. */
export const MIN_PASSWORD_SCORE = 3;

// The estimate runs on the one thread that serves every request, and its time explodes with length,
// l33t variants and fuzzy matching (1.7 s for 'abab1212' x 16). Only the first 32 characters are
// scored (a longer password is at least as strong as its prefix), l33t variants are capped and
// fuzzy (Levenshtein) matching is off: worst case measured ~90 ms, ordinary passwords ~5 ms.
const ESTIMATED_LENGTH = 32;

let estimator: Promise<ZxcvbnFactory> | undefined;
let warnings: Record<'en' | 'pt', Record<string, string>> = { en: {}, pt: {} };

/** Loaded on first use (the dictionaries are several MB): a module-level singleton. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en, ptBr] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
      import('@zxcvbn-ts/language-pt-br'),
    ]);
    warnings = { en: en.translations.warnings, pt: ptBr.translations.warnings };
    // No translations here: feedback comes back as keys, translated per caller's language below.
    return new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      l33tMaxSubstitutions: 10,
      dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary },
      useLevenshteinDistance: false,
    });
  })();
  return estimator;
}

export interface PasswordStrength {
  /** zxcvbn's 0..4 */
  score: number;
  ok: boolean;
  /** Why it is weak, in the asked language; null when the estimator has nothing to say. */
  warning: string | null;
}

/**
 * The one strength rule for panel accounts: the server enforces it and the web form shows it as
 * the user types (POST /api/password-strength), so the dictionaries never reach the browser.
 */
export async function estimatePassword(password: string, userInputs: (string | null | undefined)[] = [], lang: 'en' | 'pt' = 'en'): Promise<PasswordStrength> {
  const zxcvbn = await loadEstimator();
  const texts = warnings[lang];
  const inputs = userInputs
    .filter((s): s is string => typeof s === 'string' && s.length >= 3)
    .flatMap((s) => (s.includes('@') ? [s, s.slice(0, s.indexOf('@'))] : [s]));
  const lower = password.toLowerCase();
  // zxcvbn rates "joao123joao" 3 even with "joao" as an input; a password built on the username is weak anyway.
  if (inputs.some((s) => s.length >= 4 && lower.includes(s.toLowerCase()))) return { score: 0, ok: false, warning: texts.userInputs ?? null };
  const result = zxcvbn.check(password.slice(0, ESTIMATED_LENGTH), inputs);
  const key = result.feedback.warning;
  return { score: result.score, ok: result.score >= MIN_PASSWORD_SCORE, warning: key ? (texts[key] ?? null) : null };
}

/** What makes a password too weak (English), or null when it is strong enough. */
export async function passwordWeakness(password: string, userInputs: (string | null | undefined)[] = []): Promise<string | null> {
  const strength = await estimatePassword(password, userInputs, 'en');
  return strength.ok ? null : (strength.warning ?? 'it is too easy to guess');
}

/** Throws 400 WEAK_PASSWORD (field `password`) when the password is too weak. */
export async function assertStrongPassword(password: string, userInputs: (string | null | undefined)[] = []): Promise<void> {
  const weakness = await passwordWeakness(password, userInputs);
  if (weakness) {
    throw appError('WEAK_PASSWORD', { params: { weakness } });
  }
}
