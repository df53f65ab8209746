import { DEFAULT_THEME, type DefaultMantineColor, type MantineColorsTuple } from '@mantine/core';

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio (1 to 21). */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Mixes the colour towards black by `amount` (0 to 1), keeping its hue. */
function darken(hex: string, amount: number): string {
  return toHex(parseHex(hex).map((v) => v * (1 - amount)) as Rgb);
}

const gray = DEFAULT_THEME.colors.gray;
/**
 * Where coloured text sits: the page, striped/hovered rows, and the colour's own light tints
 * (light variants use shade 1; grey text also sits on grey 2-3, e.g. an unchecked Switch's label).
 */
export function lightBackgrounds(tuple: MantineColorsTuple, ownTints: number): string[] {
  return ['#ffffff', gray[0], gray[1], ...tuple.slice(0, ownTints)];
}

/**
 * Contrast each shade from 6 up must reach on every light background: 6 is the filled colour,
 * text and outline, 7 its hover, 9 the text of light variants. Rising targets keep hovers distinct.
 */
export const SHADE_TARGETS: Record<6 | 7 | 8 | 9, number> = { 6: 4.6, 7: 5.2, 8: 5.8, 9: 6.4 };

/** Darkens shades 6-9 of a palette until white text on them, and they as text, reach WCAG AA (4.5:1). */
export function accessibleTuple(tuple: MantineColorsTuple, ownTints = 2): MantineColorsTuple {
  const out: string[] = [...tuple];
  const backgrounds = lightBackgrounds(tuple, ownTints);
  for (const shade of [6, 7, 8, 9] as const) {
    const previous = out[shade - 1] as string;
    let color = shade > 6 && luminance(tuple[shade]) > luminance(previous) ? previous : tuple[shade];
    while (Math.min(...backgrounds.map((bg) => contrast(color, bg))) < SHADE_TARGETS[shade]) color = darken(color, 0.02);
    out[shade] = color;
  }
  return out as unknown as MantineColorsTuple;
}

/** Tints of its own palette a colour's text may sit on. */
export const OWN_TINTS: Record<string, number> = { gray: 4 };

/** Mantine's default palettes with shades 6-9 made AA-readable (`dimmed` and the placeholder are gray 6). */
export const accessibleColors = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, tuple]) => [name, name === 'dark' ? tuple : accessibleTuple(tuple, OWN_TINTS[name])]),
) as Record<DefaultMantineColor, MantineColorsTuple>;
