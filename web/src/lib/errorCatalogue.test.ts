import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_REASONS } from '../../../server/src/domain/error-codes';
import enUS from '../i18n/en-US.json';
import ptBR from '../i18n/pt-BR.json';

// Every code the server can answer with (its catalogue) has a shared text in both languages, so
// errorText() never falls back to the server's English message.
describe('error catalogue', () => {
  it('every server error code has errors.<CODE> in pt-BR and en-US', () => {
    const codes = Object.keys(ERROR_CODES);
    expect(codes.length).toBeGreaterThan(50);
    for (const [name, texts] of [['pt-BR', ptBR.errors], ['en-US', enUS.errors]] as const) {
      expect(codes.filter((code) => !(code in texts)), `missing in ${name}.json`).toEqual([]);
    }
  });

  it('every reason a 400 VALIDATION can give has errors.reasons.<REASON> in pt-BR and en-US', () => {
    for (const [name, texts] of [['pt-BR', ptBR.errors.reasons], ['en-US', enUS.errors.reasons]] as const) {
      expect(FIELD_REASONS.filter((reason) => !(reason in texts)), `missing in ${name}.json`).toEqual([]);
    }
  });
});
