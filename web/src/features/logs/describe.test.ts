import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../api/types';
import pt from '../../i18n/pt-BR.json';
import { creditsOf, valueText } from './describe';

const entry = (action: string, value: string | null, value_int: number | null) => ({ action, value, value_int }) as LogEntry;

describe('log entries of the P2P and integration actions', () => {
  beforeAll(async () => {
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: pt } } });
  });

  it('counts the credits of P2P creations, renewals, imports and the Lazy Player', () => {
    for (const action of ['p2p_create', 'p2p_renew', 'p2p_import_credits', 'user_migrate', 'user_lazy_player', 'user_lazy_player_refund']) {
      expect(creditsOf(entry(action, null, 3))).toBe(3);
    }
    // a client import's value_int is a count of clients, not credits
    expect(creditsOf(entry('p2p_import_clients', 'velho', 3))).toBeNull();
  });

  it('describes a P2P renewal in months and a client import by count', () => {
    expect(valueText(i18n.t, entry('p2p_renew', '3 months', 3))).toBe('3 meses');
    expect(valueText(i18n.t, entry('p2p_renew', '1 months', 1))).toBe('1 mês');
    expect(valueText(i18n.t, entry('p2p_import_clients', 'velho', 2))).toBe('velho: 2 clientes');
  });
});

describe('catalogue imports in words, in both languages', () => {
  const en = async () => {
    const i = i18n.createInstance();
    await i.init({ lng: 'en-US', resources: { 'en-US': { translation: (await import('../../i18n/en-US.json')).default } } });
    return i;
  };

  beforeAll(async () => {
    await i18n.init({ lng: 'pt-BR', resources: { 'pt-BR': { translation: pt } } });
  });

  it('says what an import of a file or a URL did, with plurals', async () => {
    expect(valueText(i18n.t, entry('catalogue_import', 'file: +20 ~0 =0 skipped 0', 20))).toBe('Arquivo enviado: 20 adicionados, 0 atualizados, 0 sem mudança, 0 ignorados');
    expect(valueText(i18n.t, entry('catalogue_import', 'lista.example.com: +1 ~1 =1500 skipped 1 (4 batches of up to 500)', 1502))).toBe(
      'Lista de lista.example.com: 1 adicionado, 1 atualizado, 1.500 sem mudança, 1 ignorado',
    );
    const english = await en();
    expect(valueText(english.t, entry('catalogue_import', 'file: +20 ~0 =0 skipped 1 (1 batches of up to 500)', 20))).toBe('Uploaded file: 20 added, 0 updated, 0 unchanged, 1 skipped');
  });

  it('says an import stopped midway and how to complete it; an unknown text stays as it is', async () => {
    const stopped = 'file: stopped after 1000 of 1200 entries were stored (SQLITE_FULL); importing the same playlist again completes it';
    expect(valueText(i18n.t, entry('catalogue_import', stopped, 1000))).toBe('Arquivo enviado: interrompida após gravar 1.000 de 1.200 entradas; importe a mesma lista de novo para completar');
    expect(valueText((await en()).t, entry('catalogue_import', stopped, 1000))).toBe('Uploaded file: stopped after 1.000 of 1.200 entries were stored; import the same playlist again to complete it');
    expect(valueText(i18n.t, entry('catalogue_import', 'algo novo', null))).toBe('algo novo');
  });
});
