import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { groupName } from './groupName';

describe('group names', () => {
  it('the seeded English names read in Portuguese; other names stay as they are', async () => {
    await i18n.changeLanguage('pt-BR');
    expect(groupName('Resellers', 'reseller')).toBe('Revendas');
    expect(groupName('Master resellers', 'master')).toBe('Revendas master');
    expect(groupName('Administrators', 'admin')).toBe('Administradores');
    expect(groupName('Revendas VIP', 'reseller')).toBe('Revendas VIP');
    expect(groupName('Resellers', undefined)).toBe('Resellers');
  });
});
