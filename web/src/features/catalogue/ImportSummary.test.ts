import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/en-US.json';
import pt from '../../i18n/pt-BR.json';
import { importFigures } from './ImportSummary';

const result = (added: number, updated: number, unchanged: number, categories_added: number, skipped_total: number) => ({ added, updated, unchanged, categories_added, skipped_total });
const line = (t: typeof i18n.t, r: ReturnType<typeof result>) => importFigures(t, r).map((f) => f.text).join(' · ');

describe('the M3U import summary, with plurals', () => {
  beforeAll(async () => {
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: pt }, 'en-US': { translation: en } } });
  });

  it('says one in the singular, zero and many in the plural (pt-BR)', () => {
    expect(line(i18n.t, result(1, 0, 0, 1, 1))).toBe('1 adicionado · 0 atualizados · 0 sem mudança · 1 categoria nova · 1 ignorado');
    expect(line(i18n.t, result(1500, 2, 3, 4, 0))).toBe('1.500 adicionados · 2 atualizados · 3 sem mudança · 4 categorias novas · 0 ignorados');
  });

  it('in English too, numbers still in the pt-BR format', () => {
    const t = i18n.getFixedT('en-US');
    expect(line(t, result(1, 0, 0, 1, 0))).toBe('1 added · 0 updated · 0 unchanged · 1 new category · 0 skipped');
    expect(line(t, result(1500, 0, 0, 2, 3))).toBe('1.500 added · 0 updated · 0 unchanged · 2 new categories · 3 skipped');
  });
});
