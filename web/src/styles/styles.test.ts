import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const src = path.resolve(here, '..');
const mantineStyles = path.resolve(here, '../../../node_modules/@mantine/core/styles');
const imported = (file: string) =>
  [...fs.readFileSync(path.join(here, file), 'utf8').matchAll(/@import '@mantine\/core\/styles\/([\w-]+)\.layer\.css'/g)].map((m) => m[1]);

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** Names the app imports from @mantine/core (components, hooks and types alike). */
function mantineImports(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(src)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]+)\}\s*from\s*'@mantine\/core'/g)) {
      for (const name of (m[1] ?? '').split(',')) names.add(name.trim().replace(/^type\s+/, ''));
    }
  }
  return names;
}

describe('Mantine CSS (signed-in.css, loaded with the signed-in layout)', () => {
  it('imports the stylesheet of every @mantine/core component the app uses, once each', () => {
    const sheets = fs.readdirSync(mantineStyles).filter((f) => f.endsWith('.layer.css')).map((f) => f.replace('.layer.css', ''));
    const css = imported('signed-in.css');
    expect(new Set(css).size, 'imported twice').toBe(css.length);
    expect(css.filter((s) => !sheets.includes(s ?? '')), 'no such stylesheet').toEqual([]);
    const used = [...mantineImports()].filter((name) => sheets.includes(name));
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((name) => !css.includes(name)), 'used but not styled: add to signed-in.css').toEqual([]);
    expect(css.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
  });

  it('signed-out.css (the entry, and the light pages) uses no Mantine stylesheet, and the entry and light pages no Mantine component', () => {
    expect(imported('signed-out.css')).toEqual([]);
    const lightPages = fs.readdirSync(path.join(src, 'public')).map((f) => `public/${f}`);
    for (const file of ['main.tsx', 'router.tsx', 'components/RouteStates.tsx', ...lightPages]) {
      expect(fs.readFileSync(path.join(src, file), 'utf8'), file).not.toMatch(/from '@mantine\//);
    }
  });
});
