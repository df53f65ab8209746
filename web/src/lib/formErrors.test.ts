import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors';
import { notifyError } from '../api/notify';
import i18n from '../i18n';
import { showFormError } from './formErrors';

vi.mock('../api/notify', () => ({ notifyError: vi.fn() }));

/** A form's two methods showFormError uses, recording the errors set. */
function fakeForm(values: object) {
  const errors: Record<string, unknown> = {};
  const setFieldError = (path: string, error: unknown) => {
    errors[path] = error;
  };
  return { errors, getValues: () => values, setFieldError };
}

describe('showFormError: a form call failure shown once', () => {
  beforeEach(async () => {
    vi.mocked(notifyError).mockClear();
    await i18n.changeLanguage('pt-BR');
  });

  it("puts a field's reason under its input, in the user's language, mapping nested paths; no toast", () => {
    const form = fakeForm({ base_url: '', templates: { day: { pt: '' } } });
    const notHttps = new ApiError(400, 'VALIDATION', 'channels.whatsapp.base_url: must be https', 'channels.whatsapp.base_url', { reason: 'NOT_HTTPS' });
    showFormError(form, notHttps, { fields: { 'channels.whatsapp.base_url': 'base_url' } });
    expect(form.errors).toEqual({ base_url: i18n.t('errors.reasons.NOT_HTTPS') });
    expect(form.errors.base_url).toContain('https://');
    const long = new ApiError(400, 'VALIDATION', 'x', 'templates.day.pt', { reason: 'TOO_LONG', limits: { max: 500 } });
    showFormError(form, long);
    expect(form.errors['templates.day.pt']).toBe('Longo demais: no máximo 500 caracteres.');
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('toasts what names no input of the form, or shows it under `otherwise`', () => {
    const form = fakeForm({ url: '' });
    const limit = new ApiError(409, 'WEBHOOK_LIMIT', 'at most 10');
    showFormError(form, limit);
    expect(notifyError).toHaveBeenCalledWith(limit);
    showFormError(form, new ApiError(400, 'VALIDATION', 'x', 'other', { reason: 'REQUIRED' }), { otherwise: 'url' });
    expect(form.errors.url).toBe(i18n.t('errors.VALIDATION_REASON', { field: 'other', reason: i18n.t('errors.reasons.REQUIRED') }));
    expect(notifyError).toHaveBeenCalledTimes(1);
  });
});
