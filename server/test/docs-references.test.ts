import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';

// The repository stands on its own: README, docs and code comments point only at files that are
// in it. Markdown links and repository paths (`docs/rules.md`, `server/src/...`) must resolve, and
// no text may lean on the documents the project started from, which are not in the repository.

const CODE_DIRS = ['server/src', 'server/test', 'web/src', 'e2e', 'standins', 'scripts'];
const CODE_EXT = /\.(ts|tsx|mjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report']);
const GENERATED = new Set(['web/src/api/schema.d.ts', 'server/openapi.json']);
/** Build and test outputs: named by docs and code, absent until a build or a run makes them. */
const OUTPUTS = ['server/dist/', 'web/dist/', 'e2e/test-results/'];
const SELF = 'server/test/docs-references.test.ts';

/** Names of the outside documents, built from parts so this file does not name them itself. */
const OUTSIDE = [
  ['SPEC', '.md'],
  ['DESIGN', '.md'],
  ['INTEGRATIONS', '.md'],
  ['PERFORMANCE-NOTES', '.md'],
  ['..', '/shared'],
].map((parts) => parts.join(''));
const OUTSIDE_WORD = new RegExp(`\\b${'SP'}EC\\b`);

/** A repository path: a top-level folder, then path characters, ending in a file extension. */
const REPO_PATH = /(?<![\w./@$-])((?:docs|server|web|e2e|standins|scripts|\.ci)\/[\w.\-/]*\.(?:md|conf|ts|tsx|mjs|js|json|sh|yml|yaml|sql|html|css))(?![\w/])/g;
const MD_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;

function walk(dir: string, out: string[]): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (CODE_EXT.test(entry.name)) out.push(full);
  }
}

function filesToCheck(): string[] {
  const files = [path.join(REPO_ROOT, 'README.md')];
  const docs = path.join(REPO_ROOT, 'docs');
  for (const name of fs.readdirSync(docs)) if (name.endsWith('.md')) files.push(path.join(docs, name));
  for (const dir of CODE_DIRS) walk(path.join(REPO_ROOT, dir), files);
  return files.filter((f) => {
    const rel = path.relative(REPO_ROOT, f).split(path.sep).join('/');
    return !GENERATED.has(rel) && rel !== SELF;
  });
}

interface Problem {
  file: string;
  line: number;
  text: string;
}

function problems(): Problem[] {
  const found: Problem[] = [];
  for (const file of filesToCheck()) {
    const rel = path.relative(REPO_ROOT, file).split(path.sep).join('/');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const isMarkdown = file.endsWith('.md');
    lines.forEach((text, i) => {
      const report = (what: string) => found.push({ file: rel, line: i + 1, text: what });
      for (const name of OUTSIDE) if (text.includes(name)) report(`names ${name}, which is not in the repository`);
      if (OUTSIDE_WORD.test(text)) report('cites the outside specification');
      for (const m of text.matchAll(REPO_PATH)) {
        if (OUTPUTS.some((dir) => m[1].startsWith(dir))) continue;
        if (!fs.existsSync(path.join(REPO_ROOT, m[1]))) report(`${m[1]} does not exist`);
      }
      if (!isMarkdown) return;
      for (const m of text.matchAll(MD_LINK)) {
        const target = m[1].replace(/^<|>$/g, '');
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const file = decodeURI(target.split('#')[0]);
        if (!fs.existsSync(path.resolve(path.dirname(path.join(REPO_ROOT, rel)), file))) report(`link to ${target}, which does not exist`);
      }
    });
  }
  return found;
}

describe('references in README, docs and code comments', () => {
  it('point only at files in the repository', () => {
    const list = problems().map((p) => `${p.file}:${p.line}: ${p.text}`);
    expect(list).toEqual([]);
  });

  it('finds what it looks for', () => {
    // the patterns themselves: a path that exists, one that does not, and a markdown link
    expect('see docs/integrations.md and docs/nope.md'.match(REPO_PATH)).toEqual(['docs/integrations.md', 'docs/nope.md']);
    expect([...'[a](docs/rules.md) [b](https://x.test/)'.matchAll(MD_LINK)].map((m) => m[1])).toEqual(['docs/rules.md', 'https://x.test/']);
    expect(OUTSIDE_WORD.test(`${'SP'}EC section 9`)).toBe(true);
  });
});
