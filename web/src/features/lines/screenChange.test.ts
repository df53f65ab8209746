import { describe, expect, it } from 'vitest';
import { screenChange } from './screenChange';

describe('screens modal rule (same as the server)', () => {
  it('1 screen with a limit of 1: nothing to change, no preview of 2 screens or a cost', () => {
    const c = screenChange(1, 1, 1, 6);
    expect(c.stuck).toBe(true);
    expect(c.valid).toBe(false);
    expect(c.cost).toBe(0);
  });

  it('adding within the limit costs amount x months', () => {
    expect(screenChange(1, 2, 3, 6)).toMatchObject({ valid: true, next: 3, cost: 12, min: 0, max: 2, stuck: false });
    expect(screenChange(1, 3, 3, 6)).toMatchObject({ valid: false, cost: 0 });
  });

  it('removing is free and keeps at least one screen', () => {
    expect(screenChange(3, -2, 3, 6)).toMatchObject({ valid: true, next: 1, cost: 0 });
    expect(screenChange(3, -3, 3, 6).valid).toBe(false);
    expect(screenChange(2, 0, 3, 6).valid).toBe(false);
  });

  it('a package above the limit: only removals down to the limit are allowed', () => {
    const c = screenChange(3, -1, 1, 6);
    expect(c).toMatchObject({ valid: false, stuck: false, min: -2, max: -2 });
    expect(screenChange(3, -2, 1, 6)).toMatchObject({ valid: true, next: 1 });
  });

  it('a limit below 1 counts as 1', () => {
    expect(screenChange(1, 1, 0, 1).stuck).toBe(true);
  });
});
