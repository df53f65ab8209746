import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Feature folders do not reach into each other. What two features use lives in a shared place
 * (`api/`, `components/`, `lib/`, `routing/`, `i18n/`, or `features/lines/`, the pieces IPTV users
 * and P2P accounts share) and both import it from there.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);
const FEATURES = path.join(SRC, 'features');
/** Feature folders that are shared places (imported by several features, importing none). */
const SHARED_FEATURES = new Set(['lines']);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every relative module a file imports (static, dynamic, re-exports). */
function importsOf(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']*)'/g)].map((m) => m[1] as string);
  return specs.map((s) => path.resolve(path.dirname(file), s));
}

/** The feature folder a path is in, or undefined outside features/. */
function featureOf(file: string): string | undefined {
  const rel = path.relative(FEATURES, file);
  return rel.startsWith('..') ? undefined : rel.split(path.sep)[0];
}

describe('feature boundaries', () => {
  it('no feature imports from another feature folder (shared pieces live in a shared place)', () => {
    const crossings: string[] = [];
    for (const file of filesUnder(FEATURES)) {
      const own = featureOf(file);
      for (const target of importsOf(file)) {
        const other = featureOf(target);
        if (!other || other === own) continue;
        if (SHARED_FEATURES.has(other) && !SHARED_FEATURES.has(own ?? '')) continue;
        crossings.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('the check sees imports (it would catch a crossing)', () => {
    const files = filesUnder(FEATURES);
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => importsOf(f).some((t) => featureOf(t) === 'lines'))).toBe(true);
  });
});
