import { describe, expect, it } from 'vitest';
import enUS from './en-US.json';
import ptBR from './pt-BR.json';
import { detectLanguage } from './lang';

/** Flattens nested translation objects into dotted keys. */
function flatKeys(obj: unknown, prefix = ''): string[] {
  if (obj === null || typeof obj !== 'object') return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

describe('translations', () => {
  it('pt-BR and en-US have exactly the same keys', () => {
    const pt = new Set(flatKeys(ptBR));
    const en = new Set(flatKeys(enUS));
    expect([...pt].filter((k) => !en.has(k)), 'missing in en-US.json').toEqual([]);
    expect([...en].filter((k) => !pt.has(k)), 'missing in pt-BR.json').toEqual([]);
  });

  it('has no empty texts', () => {
    for (const [name, file] of [['pt-BR', ptBR], ['en-US', enUS]] as const) {
      const empty = flatKeys(file).filter((k) => {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], file);
        return typeof v !== 'string' || v.trim() === '';
      });
      expect(empty, `empty texts in ${name}`).toEqual([]);
    }
  });
});

describe('detectLanguage', () => {
  it('defaults to Portuguese, picks English for an en-US browser, honours the stored choice', () => {
    expect(detectLanguage(null, 'pt-BR')).toBe('pt-BR');
    expect(detectLanguage(null, undefined)).toBe('pt-BR');
    expect(detectLanguage(null, 'en-US')).toBe('en-US');
    expect(detectLanguage('pt-BR', 'en-US')).toBe('pt-BR');
    expect(detectLanguage('enUs', 'pt-BR')).toBe('en-US');
    expect(detectLanguage('garbage', 'pt-BR')).toBe('pt-BR');
  });
});

describe('keys used in the code', () => {
  it('exist in the translation files', () => {
    const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    const known = new Set(flatKeys(ptBR).map((k) => k.replace(/_(one|other)$/, '')));
    const missing: string[] = [];
    const literal = /\b(?:t|i18n\.t)\(\s*'([a-zA-Z0-9_.]+)'|labelKey:\s*'([a-zA-Z0-9_.]+)'/g;
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.matchAll(literal)) {
        const key = m[1] ?? m[2];
        if (key && !known.has(key)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
