import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const mantineStyles = path.resolve(here, '../../../node_modules/@mantine/core/styles');
const imported = (file: string) =>
  [...fs.readFileSync(path.join(here, file), 'utf8').matchAll(/@import '@mantine\/core\/styles\/([\w-]+)\.layer\.css'/g)].map((m) => m[1]);

describe('Mantine CSS split (signed-out.css in the entry, signed-in.css with the signed-in layout)', () => {
  it('together import every component stylesheet of @mantine/core once', () => {
    const all = fs.readdirSync(mantineStyles).filter((f) => f.endsWith('.layer.css')).map((f) => f.replace('.layer.css', ''));
    const both = [...imported('signed-out.css'), ...imported('signed-in.css')];
    expect(new Set(both).size, 'imported twice').toBe(both.length);
    expect(all.filter((f) => !both.includes(f)), 'missing after a Mantine upgrade: add to signed-in.css').toEqual([]);
  });
});
