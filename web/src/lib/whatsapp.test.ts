import { describe, expect, it } from 'vitest';
import type { Line } from '../api/types';
import i18n from '../i18n';
import { OFFERED_LINKS, customerLink } from './links';
import { type WhatsAppLine, whatsappMessage, whatsappNumber, whatsappUrl } from './whatsapp';

const t = i18n.getFixedT('pt-BR');
const exp = Math.floor(new Date(2026, 2, 20, 18, 30).getTime() / 1000);
const PLAYLIST = 'http://painel.example/get.php?username=ana&password=s3cret&type=m3u_plus';

/** What a message needs of a line. */
const dashboardRow: WhatsAppLine = { id: 7, username: 'ana', password: 's3cret', exp_date: exp, whatsapp: '(11) 98888-7777' };
/** The same line as /users lists it. */
const usersRow: Line = {
  ...dashboardRow,
  master_username: 'rev',
  max_connections: 1,
  created_at: exp - 30 * 86_400,
  member_id: 2,
  reseller_notes: null,
  email: null,
  opt_out_reminders: 0,
  enabled: 1,
  is_trial: 0,
  system: 1,
  package_id: 1,
  bouquet: [],
  last_extended_at: null,
  sync_state: null,
  sync_error: null,
};

describe('WhatsApp number', () => {
  it('carries the country code 55 once', () => {
    expect(whatsappNumber('(11) 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('+55 11 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('011 98888-7777')).toBe('5511988887777');
    expect(whatsappNumber('55 91234-5678')).toBe('5555912345678'); // area code 55, no country code yet
    expect(whatsappNumber('')).toBeUndefined();
    expect(whatsappNumber(null)).toBeUndefined();
    expect(whatsappNumber('123')).toBeUndefined();
    expect(whatsappUrl('5511988887777', 'Olá & até\nlogo')).toBe('https://wa.me/5511988887777?text=Ol%C3%A1%20%26%20at%C3%A9%0Alogo');
  });
});

describe('WhatsApp message', () => {
  it('"Aviso de vencimento" = não sends the access data with the playlist', () => {
    const text = whatsappMessage('data', usersRow, PLAYLIST, t);
    expect(text).toContain('Usuário: ana');
    expect(text).toContain('Senha: s3cret');
    expect(text).toContain('Vencimento: 20/03/2026 18:30');
    expect(text).toContain(PLAYLIST);
    expect(whatsappMessage('data', usersRow, '', t)).toContain('Lista (M3U): -');
  });

  const before = exp - 4 * 86_400;
  it('"Aviso de vencimento" = sim sends a renewal reminder without the password', () => {
    const text = whatsappMessage('warning', usersRow, PLAYLIST, t, { now: before });
    expect(text).toContain('vence em 20/03/2026 18:30');
    expect(text).toContain('ana');
    expect(text).not.toContain('s3cret');
  });

  it('says an expired line "venceu", not "vence"', () => {
    const text = whatsappMessage('warning', usersRow, PLAYLIST, t, { now: exp + 86_400 });
    expect(text).toContain('venceu em 20/03/2026 18:30');
    expect(text).not.toContain('vence em');
  });

  it('ends with the PIX renewal link when there is one, in either message', () => {
    const renewal = 'https://painel.example/minha-conta?t=7.123.abc';
    for (const kind of ['data', 'warning'] as const) {
      expect(whatsappMessage(kind, usersRow, PLAYLIST, t, { now: before, renewal })).toMatch(/Renove pelo PIX: https:\/\/painel\.example\/minha-conta\?t=7\.123\.abc$/);
      expect(whatsappMessage(kind, usersRow, PLAYLIST, t, { now: before, renewal: null })).not.toContain('minha-conta');
    }
  });

  it('builds the same messages from a dashboard row and a /users row', () => {
    for (const kind of ['data', 'warning'] as const) {
      expect(whatsappMessage(kind, dashboardRow, PLAYLIST, t)).toBe(whatsappMessage(kind, usersRow, PLAYLIST, t));
    }
    expect(whatsappMessage('warning', dashboardRow, '', t)).not.toBe(whatsappMessage('data', dashboardRow, '', t));
  });
});

describe('WhatsApp message link', () => {
  const q = 'username=ana&password=s3cret&type=m3u_plus';
  const links = {
    mpgets: `http://painel.example/get.php?${q}&output=mpegts`,
    m3u8: `http://painel.example/get.php?${q}&output=m3u8`,
    hls: `http://painel.example/get.php?${q}&output=hls`,
    ssiptv: 'http://painel.example/ssiptv/ana/s3cret/playlist.m3u',
  };

  it('is the HLS playlist (output=m3u8), the first link the dialog offers, never MPEG-TS', () => {
    expect(OFFERED_LINKS[0]).toBe('m3u8');
    expect(OFFERED_LINKS).not.toContain('mpgets');
    const text = whatsappMessage('data', usersRow, customerLink(links), t);
    expect(text).toContain(`Lista (M3U): ${links.m3u8}`);
    expect(text).not.toContain('output=mpegts');
  });

  it('is "-" while the links are not loaded', () => {
    expect(customerLink(undefined)).toBe('');
    expect(whatsappMessage('data', usersRow, customerLink(undefined), t)).toContain('Lista (M3U): -');
  });
});
