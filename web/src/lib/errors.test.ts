import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import i18n from '../i18n';
import { errorText } from './errors';

describe('errorText: the one wording of a failed call', () => {
  it('a scope own text first, in the order given, then the shared one, then the server message', async () => {
    await i18n.changeLanguage('en-US');
    const conflict = new ApiError(409, 'CONFLICT', 'taken');
    expect(errorText(conflict, 'users')).toBe(i18n.t('users.errors.CONFLICT'));
    expect(errorText(conflict, 'resellers')).toBe(i18n.t('resellers.errors.CONFLICT'));
    expect(errorText(new ApiError(409, 'CREDIT_LIMIT', 'x'), 'p2p', 'users')).toBe(i18n.t('p2p.errors.CREDIT_LIMIT'));
    expect(errorText(new ApiError(409, 'TRIAL_LIMIT_REACHED', 'x'), 'p2p', 'users')).toBe(i18n.t('users.errors.TRIAL_LIMIT_REACHED'));
    expect(errorText(new ApiError(404, 'NOT_FOUND', 'x'), 'users')).toBe(i18n.t('errors.NOT_FOUND', { message: 'x', field: '' }));
    expect(errorText(new ApiError(418, 'NO_SUCH_CODE', 'the server says'))).toBe('the server says');
  });

  it('a field-specific text (`<CODE>_<field>`) comes before the code text', () => {
    expect(errorText(new ApiError(400, 'VALIDATION', 'bad', 'days'), 'users')).toBe(i18n.t('users.extend.invalid'));
  });

  it('anything that is not an API error is UNKNOWN', () => {
    expect(errorText(new Error('boom'), 'users')).toBe(i18n.t('errors.UNKNOWN'));
  });
});
