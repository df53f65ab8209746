import { describe, expect, it } from 'vitest';
import { formatNumber, newsLines, whatsappDigits, whatsappLink } from './format';

describe('dashboard formatting', () => {
  it('formats numbers the Brazilian way', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(1234567)).toBe('1.234.567');
  });

  it('prefixes WhatsApp numbers with 55 once', () => {
    expect(whatsappDigits('(11) 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('+55 11 98765-4321')).toBe('5511987654321');
    expect(whatsappDigits('55 91234-5678')).toBe('5555912345678'); // area code 55, no country code yet
    expect(whatsappDigits('')).toBeNull();
    expect(whatsappDigits(null)).toBeNull();
    expect(whatsappDigits('123')).toBeNull();
    expect(whatsappLink('11987654321', 'Olá & até')).toBe('https://wa.me/5511987654321?text=Ol%C3%A1%20%26%20at%C3%A9');
  });

  it('URL-decodes news bodies safely and splits lines', () => {
    expect(newsLines('Ol%C3%A1%0Amundo')).toEqual(['Olá', 'mundo']);
    expect(newsLines('50% off\r\nhoje')).toEqual(['50% off', 'hoje']);
    expect(newsLines('<b>x</b>')).toEqual(['<b>x</b>']);
  });
});
