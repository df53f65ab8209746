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
  /** `m.mutate(vars, { onSuccess })`: the other calling style, which this codebase does not use. */
  const callsMutate = (src: string) => /\.mutate\(/.test(src);

  it('calls are `mutateAsync`, awaited or chained with `.then(onDone, alreadyShown)`; never `.mutate(`', () => {
    const offenders = filesUnder(SRC)
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .filter((f) => callsMutate(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('the check sees such a call', () => {
    expect(callsMutate('onClick={() => remove.mutate({ id })}')).toBe(true);
    expect(callsMutate('await remove.mutateAsync({ id })')).toBe(false);
  });
});

describe('one form library', () => {
  /** A file that renders a `<form>` keeps its values in `useForm` (@mantine/form), not in useState. */
  const rendersForm = (src: string) => /<form[\s>]/.test(src);
  const usesMantineForm = (src: string) => /from '@mantine\/form'/.test(src);

  /** The signed-out pages load no library beyond React and the router (first load <= 150 KB, scripts/bundle-budget.mjs). */
  const PLAIN_FORMS = ['features/auth/SignInPage.tsx', 'features/auth/TwoFactorStep.tsx'];

  it('every file that renders a <form> uses @mantine/form (but the signed-out pages)', () => {
    const offenders = filesUnder(SRC)
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx') && !PLAIN_FORMS.includes(path.relative(SRC, f)))
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
