import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n, { MISSING_KEY_PREFIX } from './index';

// The browser tests fail on any console error with MISSING_KEY_PREFIX: it must really be logged.
describe('missing i18n keys are reported', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a plural key without count, or an unknown key, logs the prefix; a resolved key does not', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(i18n.t('users.extend.success', { count: 2 })).not.toContain('users.extend');
    expect(errors).not.toHaveBeenCalled();
    i18n.t('users.extend.success', { days: 2 });
    i18n.t('no.such.key');
    const logged = errors.mock.calls.map((c) => String(c[0]));
    expect(logged.filter((m) => m.startsWith(MISSING_KEY_PREFIX))).toEqual([
      expect.stringContaining('users.extend.success'),
      expect.stringContaining('no.such.key'),
    ]);
  });
});
