import { DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { accessibleColors, contrast, lightBackgrounds, OWN_TINTS, SHADE_TARGETS } from './palette';

const names = Object.keys(DEFAULT_THEME.colors).filter((n) => n !== 'dark');
function palette(colors: Record<string, MantineColorsTuple | undefined>, name: string): MantineColorsTuple {
  const tuple = colors[name];
  if (!tuple) throw new Error(`no palette ${name}`);
  return tuple;
}
const SHADES = [6, 7, 8, 9] as const;
const gray = palette(accessibleColors, 'gray');

describe('accessible palette', () => {
  it('the default grey (dimmed) is what axe-core flagged: 3.3:1 on white; ours reaches 4.5:1 on an unchecked Switch (grey 3)', () => {
    expect(contrast(DEFAULT_THEME.colors.gray[6], '#ffffff')).toBeLessThan(3.4);
    expect(contrast(gray[6], gray[3])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(names)('%s: shades 6-9 reach their target with white and on white/grey/own tints; shade 9 on shade 1 >= 4.5', (name) => {
    const c = palette(accessibleColors, name);
    const backgrounds = lightBackgrounds(c, OWN_TINTS[name] ?? 2);
    expect(backgrounds).toEqual(expect.arrayContaining(['#ffffff', gray[0], gray[1], c[1]]));
    for (const shade of SHADES) {
      for (const bg of backgrounds) expect(contrast(c[shade], bg)).toBeGreaterThanOrEqual(SHADE_TARGETS[shade]);
    }
    expect(contrast(c[9], c[1])).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps the light shades and only darkens: each shade from 6 up is darker than the one before', () => {
    for (const name of names) {
      const c = palette(accessibleColors, name);
      expect(c.slice(0, 6)).toEqual(palette(DEFAULT_THEME.colors, name).slice(0, 6));
      for (const shade of [7, 8, 9] as const) expect(contrast(c[shade], '#ffffff')).toBeGreaterThan(contrast(c[(shade - 1) as 6 | 7 | 8], '#ffffff'));
    }
  });
});
