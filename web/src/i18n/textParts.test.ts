import { describe, expect, it } from 'vitest';
import ptBR from './pt-BR.json';

/**
 * The pt-BR texts load in parts (first-load budget): the signed-out namespaces with the entry
 * (index.ts), the shared ones with the signed-in layout (signedInTexts.ts), and a feature's own
 * with the files that use them (features/<name>/texts.ts). The light pages (public/, their own
 * entry without i18next) have one part of their own (public/texts.ts) and use nothing else. A text a page shows must be in a part
 * that page has loaded; this checks it from the sources, so a missing part fails here and not on
 * a user's screen.
 */
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const NAMESPACES = Object.keys(ptBR);

/** The namespaces a part's `import { a, b as c } from '…pt-BR.json…'` names. */
function importedNamespaces(file: string): Set<string> {
  const text = sources[file];
  if (!text) throw new Error(`${file} not found`);
  const m = /import\s*\{([^}]*)\}\s*from\s*'[^']*pt-BR\.json[^']*'/.exec(text);
  if (!m?.[1]) throw new Error(`${file} imports no pt-BR namespaces`);
  return new Set(m[1].split(',').map((s) => s.trim().split(/\s+as\s+/)[0] as string).filter(Boolean));
}

/** Namespaces whose keys a source names: 'ns.key' or `ns.${…}` in quotes or backticks, or an error scope (`errorText(e, 'ns')`, a call's `errorScopes: ['ns']`, lib/errors.ts). */
function usedNamespaces(text: string): string[] {
  const scopes = [
    ...[...text.matchAll(/\b(?:errorText|notifyError)\([^;]*?'(\w+)'\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/\berrorScopes:\s*\[([^\]]*)\]/g)].flatMap((m) => [...(m[1] as string).matchAll(/'(\w+)'/g)].map((n) => n[1])),
  ];
  return NAMESPACES.filter((ns) => new RegExp(`['"\`]${ns}\\.[a-zA-Z$]`).test(text) || scopes.includes(ns));
}

const signedOut = importedNamespaces('./index.ts');
const shell = importedNamespaces('./signedInTexts.ts');
const featureParts = new Map(
  Object.keys(sources)
    .map((f) => /^\.\.\/features\/([^/]+)\/texts\.ts$/.exec(f)?.[1])
    .filter((name): name is string => Boolean(name))
    .map((name) => [name, importedNamespaces(`../features/${name}/texts.ts`)]),
);
const loadedEverywhere = (ns: string) => signedOut.has(ns) || shell.has(ns);
const lightPages = importedNamespaces('../public/texts.ts');
const isLightPage = (file: string) => file.startsWith('../public/');

describe('pt-BR texts in parts', () => {
  it('every namespace is in a part', () => {
    const inFeature = new Set([...featureParts.values()].flatMap((s) => [...s]));
    expect(NAMESPACES.filter((ns) => !loadedEverywhere(ns) && !inFeature.has(ns) && !lightPages.has(ns))).toEqual([]);
  });

  it('shared places use only the entry and layout texts', () => {
    const offenders = Object.entries(sources)
      .filter(([file]) => !file.startsWith('../features/') && !isLightPage(file))
      .flatMap(([file, text]) => usedNamespaces(text).filter((ns) => !loadedEverywhere(ns)).map((ns) => `${file}: ${ns}`));
    expect(offenders).toEqual([]);
  });

  it('the light pages use only their own part', () => {
    const offenders = Object.entries(sources)
      .filter(([file]) => isLightPage(file))
      .flatMap(([file, text]) => usedNamespaces(text).filter((ns) => !lightPages.has(ns)).map((ns) => `${file}: ${ns}`));
    expect(offenders).toEqual([]);
  });

  it("a feature's file that uses its own texts imports the part that holds them", () => {
    const offenders: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      const feature = /^\.\.\/features\/([^/]+)\//.exec(file)?.[1];
      if (!feature || file.endsWith('/texts.ts')) continue;
      const own = usedNamespaces(text).filter((ns) => !loadedEverywhere(ns));
      if (own.length === 0) continue;
      const part = featureParts.get(feature);
      const importsPart = /import\s+'(?:\.\/|\.\.\/)+texts';/.test(text);
      for (const ns of own) if (!part?.has(ns) || !importsPart) offenders.push(`${file}: ${ns}`);
    }
    expect(offenders).toEqual([]);
  });
});
