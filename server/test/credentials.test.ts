import { describe, expect, it } from 'vitest';
import { randomCredential } from '../src/modules/lines/rules.ts';

// Generated usernames and passwords: 6 to 9 characters from 32 unambiguous ones (no l, o, 0, 1),
// every length and every character possible, taken from one call for random bytes.
describe('generated credentials', () => {
  it('use every length 6-9 and every one of the 32 characters, nothing else', () => {
    const lengths = new Map<number, number>();
    const chars = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const c = randomCredential();
      lengths.set(c.length, (lengths.get(c.length) ?? 0) + 1);
      for (const ch of c) chars.set(ch, (chars.get(ch) ?? 0) + 1);
    }
    expect([...lengths.keys()].sort()).toEqual([6, 7, 8, 9]);
    for (const n of lengths.values()) expect(n).toBeGreaterThan(4_000); // ~5,000 each
    expect([...chars.keys()].sort().join('')).toBe('23456789abcdefghijkmnpqrstuvwxyz');
    const counts = [...chars.values()];
    expect(Math.min(...counts) / Math.max(...counts)).toBeGreaterThan(0.85); // ~4,700 each
  });
});
