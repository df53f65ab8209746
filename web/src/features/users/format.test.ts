import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { cut, decodeNewsBody, expiryInfo, lineStatus, monthsRemaining, randomCredential, systemLabel, whatsappNumber, whatsappUrl } from './format';
import { usersSearch } from './search';

const now = dayjs('2026-03-10T12:00:00').unix();
const at = (iso: string) => dayjs(iso).unix();

describe('expiry badge', () => {
  it('colours by days left: >7 green, 4-7 purple, 1-3 yellow, today pink, expired red', () => {
    expect(expiryInfo(at('2026-03-20T12:00:00'), now)).toMatchObject({ color: 'green', expiryKind: 'inDays', days: 10, clock: false });
    expect(expiryInfo(at('2026-03-18T08:00:00'), now)).toMatchObject({ color: 'green', days: 8 });
    expect(expiryInfo(at('2026-03-17T08:00:00'), now)).toMatchObject({ color: 'grape', days: 7 });
    expect(expiryInfo(at('2026-03-14T08:00:00'), now)).toMatchObject({ color: 'grape', days: 4 });
    expect(expiryInfo(at('2026-03-13T23:00:00'), now)).toMatchObject({ color: 'yellow', days: 3 });
    expect(expiryInfo(at('2026-03-11T00:30:00'), now)).toMatchObject({ color: 'yellow', days: 1, expiryKind: 'inDays' });
    expect(expiryInfo(at('2026-03-10T23:59:00'), now)).toMatchObject({ color: 'pink', days: 0, expiryKind: 'today', clock: true });
    expect(expiryInfo(now + 1, now)).toMatchObject({ color: 'pink', expiryKind: 'today', expired: false });
    expect(expiryInfo(now, now)).toMatchObject({ color: 'red', expiryKind: 'expired', expired: true, clock: false });
    expect(expiryInfo(now - 86_400 * 40, now)).toMatchObject({ color: 'red', expiryKind: 'expired' });
  });
});

describe('status badge (docs/decisions.md)', () => {
  it('blocked wins, then expired, else active', () => {
    expect(lineStatus({ enabled: 0, exp_date: now + 100 }, now)).toBe('blocked');
    expect(lineStatus({ enabled: 0, exp_date: now - 100 }, now)).toBe('blocked');
    expect(lineStatus({ enabled: 1, exp_date: now }, now)).toBe('expired');
    expect(lineStatus({ enabled: 1, exp_date: now + 1 }, now)).toBe('active');
  });
});

describe('helpers', () => {
  it('months remaining are 30-day months rounded up, 0 once expired', () => {
    expect(monthsRemaining(now + 1, now)).toBe(1);
    expect(monthsRemaining(now + 30 * 86_400, now)).toBe(1);
    expect(monthsRemaining(now + 30 * 86_400 + 1, now)).toBe(2);
    expect(monthsRemaining(now, now)).toBe(0);
  });

  it('cuts at 25 characters', () => {
    expect(cut('a'.repeat(25))).toBe('a'.repeat(25));
    expect(cut('a'.repeat(26))).toBe(`${'a'.repeat(25)}…`);
    expect(cut(null)).toBe('');
  });

  it('generates 6 to 9 letters/digits', () => {
    for (let i = 0; i < 200; i++) expect(randomCredential()).toMatch(/^[a-z0-9]{6,9}$/);
  });

  it('builds the WhatsApp number with country code 55 once', () => {
    expect(whatsappNumber('(11) 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('+55 11 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('011 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('')).toBeUndefined();
    expect(whatsappNumber(null)).toBeUndefined();
    expect(whatsappNumber('123')).toBeUndefined();
    expect(whatsappUrl('5511988887777', 'Olá & até\nlogo')).toBe('https://wa.me/5511988887777?text=Ol%C3%A1%20%26%20at%C3%A9%0Alogo');
  });

  it('labels systems and decodes news bodies as text', () => {
    expect([1, 2, 3, 9].map(systemLabel)).toEqual(['HTTP', 'P2P', 'P2P BR', 'P2P BR']);
    expect(decodeNewsBody('Ol%C3%A1%0A<b>x</b>')).toBe('Olá\n<b>x</b>');
    expect(decodeNewsBody('100% certo')).toBe('100% certo');
  });
});

describe('/users search params', () => {
  it('keeps valid filters and drops garbage', () => {
    expect(
      usersSearch({ id: '12', username: ' ana ', text_search: 'x', reseller: 'rev_1', created: '2026-01-01,2026-01-31', type_user: 'trial', status: '0', page: '2' }),
    ).toEqual({ id: 12, username: 'ana', text_search: 'x', reseller: 'rev_1', created: '2026-01-01,2026-01-31', type_user: 'trial', status: 0, page: 2 });
    expect(usersSearch({ id: '0', reseller: 'a b', created: '2026-02-31x', type_user: 'vip', status: '2' })).toEqual({});
    expect(usersSearch({ created: '2026-01-31,2026-01-01' })).toEqual({});
    expect(usersSearch({ created: '2026-01-05,2026-01-05' })).toEqual({ created: '2026-01-05' });
    expect(usersSearch({ id: '99999999999' })).toEqual({});
  });
});
