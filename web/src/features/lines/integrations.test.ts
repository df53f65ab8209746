import { describe, expect, it } from 'vitest';
import '../../i18n';
import { lazyPlayerBlocker, lazyPlayerCost, macError } from './lazyPlayer';
import { migrationBlocker, willCap } from './MigratePage';

const DAY = 86_400;
const NOW = 1_800_000_000;

describe('migration rules in the page (the server enforces the same)', () => {
  it('refuses trials and lines with fewer than 5 days left', () => {
    expect(migrationBlocker({ is_trial: true, exp_date: NOW + 20 * DAY }, NOW)).toBe('trial');
    expect(migrationBlocker({ is_trial: false, exp_date: NOW + 4 * DAY }, NOW)).toBe('tooShort');
    expect(migrationBlocker({ is_trial: false, exp_date: NOW + 5 * DAY }, NOW)).toBeNull();
    expect(migrationBlocker({ is_trial: false, exp_date: null }, NOW)).toBeNull();
  });
  it('tells when the expiry will be cut to 30 days', () => {
    expect(willCap({ exp_date: NOW + 30 * DAY }, NOW)).toBe(false);
    expect(willCap({ exp_date: NOW + 31 * DAY }, NOW)).toBe(true);
    expect(willCap({ exp_date: null }, NOW)).toBe(true);
  });
});

describe('Lazy Player dialog', () => {
  it('needs a MAC address of six hex pairs', () => {
    expect(macError('')).toBe('Por favor, insira o endereço MAC!');
    expect(macError('00:1A:2B:3C:4D')).toMatch(/inválido/);
    expect(macError('00:1a:2b:3c:4d:5e')).toBeNull();
    expect(macError('001A2B3C4D5E')).toBeNull();
    expect(macError('00-1A-2B-3C-4D-5E')).toBeNull();
  });
  it('refuses other systems and incomplete lines with the fixed messages', () => {
    const line = { system: 1, username: 'a', password: 'b', exp_date: NOW };
    expect(lazyPlayerBlocker(line)).toBeNull();
    expect(lazyPlayerBlocker({ ...line, system: 2 })).toBe('Usuários em outro sistema não podem ativar o Lazy Player!');
    expect(lazyPlayerBlocker({ ...line, password: '' })).toBe('Dados do usuário estão incompletos!');
  });
  it('estimates the charge as the server does', () => {
    expect(lazyPlayerCost(NOW + 30 * DAY, NOW, 3)).toBe(3);
    expect(lazyPlayerCost(NOW + 31 * DAY, NOW, 3)).toBe(4);
    expect(lazyPlayerCost(NOW - DAY, NOW, 3)).toBe(0);
  });
});
