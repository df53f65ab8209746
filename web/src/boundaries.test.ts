import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Feature folders do not reach into each other. What two features use lives in a shared place
 * (`api/`, `components/`, `lib/`, `routing/`, `i18n/`, or `features/lines/`, the line
 * screens, whose pieces P2P accounts share too) and both import it from there. The one way in is a feature's public
 * file, `queryKeys.ts`: a feature whose writes change another's data invalidates that feature's keys.
 */
const SRC = path.dirname(new URL(import.meta.url).pathname);
const FEATURES = path.join(SRC, 'features');
/**
 * The shared places import no feature: what they need from one (the user menu's entries, say) is
 * handed to them by the app shell (`routing/`, `router.tsx`), the one place that knows the features.
 */
const SHARED_PLACES = ['api', 'components', 'lib', 'i18n', 'theme'];
/** Feature folders that are shared places (imported by several features, importing none). */
const SHARED_FEATURES = new Set(['lines']);
/** The file of a feature that other features may import: its query keys. */
const PUBLIC_FILE = 'queryKeys.ts';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every relative module a file imports (static, dynamic, re-exports), resolved to its file. */
function importsOf(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']*)'/g)].map((m) => m[1] as string);
  return specs.map((s) => withExtension(path.resolve(path.dirname(file), s)));
}

function withExtension(module: string): string {
  return ['.ts', '.tsx'].map((ext) => module + ext).find((f) => fs.existsSync(f)) ?? module;
}

/** A feature's public file (another feature may import it). */
const isPublicFile = (file: string) => path.basename(file) === PUBLIC_FILE && path.dirname(path.dirname(file)) === FEATURES;

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
        if (isPublicFile(target)) continue;
        crossings.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('the shared places (components/, api/, lib/, ...) import nothing from features/', () => {
    const reaching = SHARED_PLACES.flatMap((dir) => filesUnder(path.join(SRC, dir))).flatMap((file) =>
      importsOf(file)
        .filter((target) => featureOf(target) !== undefined)
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(reaching).toEqual([]);
  });

  it('nothing under components/ imports from features/ (features hand the layout what it shows)', () => {
    const reaching = filesUnder(path.join(SRC, 'components')).flatMap((file) =>
      importsOf(file)
        .filter((target) => featureOf(target) !== undefined)
        .map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`),
    );
    expect(reaching).toEqual([]);
  });

  it("a feature's query keys import nothing but types (importing them pulls in no code)", () => {
    const keyFiles = filesUnder(FEATURES).filter(isPublicFile);
    expect(keyFiles.length).toBeGreaterThan(5);
    const code = keyFiles.filter((f) => /^import\s+(?!type\b)/m.test(fs.readFileSync(f, 'utf8')));
    expect(code.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('the check sees imports (it would catch a crossing)', () => {
    const files = filesUnder(FEATURES);
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => importsOf(f).some((t) => featureOf(t) === 'lines'))).toBe(true);
    expect(files.some((f) => importsOf(f).some((t) => featureOf(t) !== featureOf(f) && isPublicFile(t)))).toBe(true);
  });
});

/** NumberField loads Mantine's NumberInput on its own (first-load budget): nothing else may import it. */
const NUMBER_FIELD = ['components/NumberField.tsx', 'components/NumberField.chunk.tsx'];

describe('one number field', () => {
  const importsNumberInput = (src: string) => [...src.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g)].some((m) => /(^|[\s,])NumberInput([\s,]|$)/.test(m[1] as string));

  it("no file but NumberField imports Mantine's NumberInput (or NumberField's chunk)", () => {
    const offenders = filesUnder(SRC)
      .filter((f) => !f.endsWith('.test.ts') && !NUMBER_FIELD.includes(path.relative(SRC, f)))
      .filter((f) => {
        const src = fs.readFileSync(f, 'utf8');
        return importsNumberInput(src) || importsOf(f).some((t) => t.endsWith('NumberField.chunk.tsx'));
      });
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('the check sees such an import', () => {
    expect(importsNumberInput("import { Button, NumberInput, Stack } from '@mantine/core';")).toBe(true);
    expect(importsNumberInput("import { NumberInput } from '@mantine/core';")).toBe(true);
    expect(importsNumberInput("import { type NumberInputProps, TextInput } from '@mantine/core';")).toBe(false);
  });
});

describe('one style of query keys', () => {
  it('no query key is written inline: it comes from a `…Keys` object (a feature\'s queryKeys.ts, or a shared api/ module\'s)', () => {
    const inline = filesUnder(SRC)
      .filter((f) => !f.endsWith('.test.ts'))
      .filter((f) => /queryKey:\s*\[|QueryData\(\s*\[|invalidateQueries\(\{\s*queryKey:\s*\[/.test(fs.readFileSync(f, 'utf8')));
    expect(inline.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});

describe('one way to call a mutation', () => {
  /**
   * What a file does other than the one style: `await m.mutateAsync(vars)` in the handler, the success
   * path after it (or `void m.mutateAsync(vars)` when nothing follows). Not `.mutate(vars, { onSuccess })`,
   * not a `.then`/`.catch` chain on the call, not `mutateAsync` handed to another function.
   */
  function otherStyles(src: string): string[] {
    const found = /\.mutate\(/.test(src) ? ['.mutate('] : [];
    for (const m of src.matchAll(/\.mutateAsync\b/g)) {
      const at = m.index as number;
      const line = src.slice(src.lastIndexOf('\n', at) + 1, at);
      if (!/(?:await|void)\s+[\w.]+$/.test(line)) found.push(`not awaited: ${line.trim()}.mutateAsync`);
      const end = closingParen(src, at + m[0].length);
      if (end !== undefined && /^\s*\.(?:then|catch|finally)\(/.test(src.slice(end + 1))) found.push(`chained: ${line.trim()}.mutateAsync(...).then/catch`);
    }
    return found;
  }

  /** The index of the `)` closing the call whose `(` is at `open` (undefined when there is no call). */
  function closingParen(src: string, open: number): number | undefined {
    if (src[open] !== '(') return undefined;
    let depth = 0;
    for (let i = open; i < src.length; i++) {
      if (src[i] === '(') depth++;
      else if (src[i] === ')' && --depth === 0) return i;
    }
    return undefined;
  }

  it('every call is `await m.mutateAsync(vars)` (or `void m.mutateAsync(vars)`), never `.mutate(` or a `.then`/`.catch` chain', () => {
    const offenders = filesUnder(SRC)
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .flatMap((f) => otherStyles(fs.readFileSync(f, 'utf8')).map((what) => `${path.relative(SRC, f)}: ${what}`));
    expect(offenders).toEqual([]);
  });

  it('the check sees the other styles', () => {
    expect(otherStyles('onClick={() => remove.mutate({ id }, { onSuccess: close })}')).toHaveLength(1);
    expect(otherStyles('void remove.mutateAsync({ id }).then(close, alreadyShown);')).toHaveLength(1);
    expect(otherStyles('await save\n  .mutateAsync({ id })\n  .catch(() => undefined);')).toHaveLength(2);
    expect(otherStyles('void confirmReset(row, reset.mutateAsync);')).toHaveLength(1);
    expect(otherStyles('const r = await remove.mutateAsync({ id: f(x) });\nnotifySuccess(r.message);')).toEqual([]);
    expect(otherStyles('onDone((await signIn.mutateAsync({ link })).token);')).toEqual([]);
    expect(otherStyles('onClick={() => void shorten.mutateAsync({ type })}')).toEqual([]);
  });
});

describe('one form library', () => {
  /** A file that renders a `<form>` keeps its values in `useForm` (@mantine/form), not in useState. */
  const rendersForm = (src: string) => /<form[\s>]/.test(src);
  const usesMantineForm = (src: string) => /from '@mantine\/form'/.test(src);

  /** The light pages (public/) load no library beyond React (first load <= 100 KB, scripts/bundle-budget.mjs). */
  const plainForms = (f: string) => path.relative(SRC, f).startsWith(`public${path.sep}`);

  it('every file that renders a <form> uses @mantine/form (but the light pages)', () => {
    const offenders = filesUnder(SRC)
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx') && !plainForms(f))
      .filter((f) => {
        const src = fs.readFileSync(f, 'utf8');
        return rendersForm(src) && !usesMantineForm(src);
      });
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('the check sees a form', () => {
    expect(rendersForm('<form onSubmit={submit}>')).toBe(true);
    expect(rendersForm('<form\n  onSubmit')).toBe(true);
    expect(rendersForm('<FormPageShell title="x">')).toBe(false);
  });
});

describe('the light pages (public.html)', () => {
  /** What the light pages' entry may load from node_modules: React and single icons, nothing of the panel's libraries. */
  const ALLOWED = /^(react|react-dom\/client|@tabler\/icons-react)$/;

  it('their entry reaches no library but React (no router, UI kit, query cache, i18next, dayjs)', () => {
    const seen = new Set<string>();
    const packages: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file) || !/\.tsx?$/.test(file)) return;
      seen.add(file);
      // type-only imports cost nothing at run time
      const src = fs.readFileSync(file, 'utf8').replace(/^import type .*$/gm, '');
      for (const m of src.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^'.][^']*)'/g)) {
        if (!ALLOWED.test(m[1] as string)) packages.push(`${path.relative(SRC, file)} -> ${m[1]}`);
      }
      for (const target of importsOf(file)) visit(target.replace(/\?.*$/, ''));
    };
    visit(path.join(SRC, 'public', 'main.tsx'));
    expect(seen.size).toBeGreaterThan(10);
    expect(packages).toEqual([]);
  });
});
