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
