import { describe, expect, it } from 'vitest';
import { decodeNewsBody, newsLines } from './newsBody';

describe('news body', () => {
  it('URL-decodes safely, keeps HTML as text and splits lines', () => {
    expect(newsLines('Ol%C3%A1%0Amundo')).toEqual(['Olá', 'mundo']);
    expect(newsLines('50% off\r\nhoje')).toEqual(['50% off', 'hoje']);
    expect(newsLines('<b>x</b>')).toEqual(['<b>x</b>']);
    expect(decodeNewsBody('Ol%C3%A1%0A<b>x</b>')).toBe('Olá\n<b>x</b>');
    expect(decodeNewsBody('100% certo')).toBe('100% certo');
  });
});
