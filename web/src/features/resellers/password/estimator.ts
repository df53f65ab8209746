// Loaded only through `import('./estimator')` (usePasswordStrength): the dictionaries (a few MB)
// land in their own chunk, never in the sign-in page or the main bundle.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as ptBr from '@zxcvbn-ts/language-pt-br';

/** The server's rule (server/src/modules/resellers/passwords.ts): score 3, nothing built on the account's data. */
export const MIN_PASSWORD_SCORE = 3;

// Without translations the feedback is a key ('commonNames'...), translated below per language.
const zxcvbn = new ZxcvbnFactory({
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary },
  useLevenshteinDistance: true,
});

export interface PasswordStrength {
  /** 0..4 */
  score: number;
  ok: boolean;
  /** The estimator's warning in the given language, if it has one. */
  warning: string | null;
}

export function estimatePassword(password: string, userInputs: string[], lang: string): PasswordStrength {
  const warnings = (lang.startsWith('pt') ? ptBr : en).translations.warnings as Record<string, string>;
  const inputs = userInputs.filter((s) => s.length >= 3).flatMap((s) => (s.includes('@') ? [s, s.slice(0, s.indexOf('@'))] : [s]));
  const lower = password.toLowerCase();
  if (inputs.some((s) => s.length >= 4 && lower.includes(s.toLowerCase()))) return { score: 0, ok: false, warning: warnings.userInputs ?? null };
  const result = zxcvbn.check(password, inputs);
  const key = result.feedback.warning;
  return { score: result.score, ok: result.score >= MIN_PASSWORD_SCORE, warning: key ? (warnings[key] ?? null) : null };
}
