import { describe, expect, it } from 'vitest';
import { wordChars } from './resellerSearch';

describe('reseller search term', () => {
  it('keeps word characters only, at most 50', () => {
    expect(wordChars('ana maria')).toBe('anamaria');
    expect(wordChars("rev_1'; --")).toBe('rev_1');
    expect(wordChars('a.b@c-d')).toBe('abcd');
    expect(wordChars('x'.repeat(60))).toHaveLength(50);
  });
});
