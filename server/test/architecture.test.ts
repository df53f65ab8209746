import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Server layering (docs/decisions.md): routes -> service -> repo -> db. SQL lives in repo files
// only (repo.ts or *-repo.ts); a module reaches another module through its service or a public
// helper, never through that module's repo files.

const MODULES = join(import.meta.dirname, '../src/modules');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(MODULES).map((path) => ({ path: relative(MODULES, path), text: readFileSync(path, 'utf8') }));
const isRepo = (path: string) => /(^|[/-])repo\.ts$/.test(path);
const moduleOf = (path: string) => path.split('/')[0];

/** Query builder calls and raw SQL templates: what only a repo may write. */
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\s*\(|\bsql\s*(<[^>]*>)?\s*`|\bsql\.(ref|raw|id|lit|table|val|join)\s*\(/;

/** Imports of another module's repo file: `from '../lines/repo.ts'`, `from '../credits/balance-repo.ts'`. */
const FOREIGN_REPO = /from\s+'\.\.\/([a-z0-9-]+)\/([a-z0-9-]*repo)\.ts'/g;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

describe('server architecture', () => {
  it('finds the modules', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files.some((f) => isRepo(f.path))).toBe(true);
  });

  it('keeps SQL in repo files: no query builder or sql`` in routes, services or helpers', () => {
    const offenders = files
      .filter((f) => !isRepo(f.path))
      .flatMap((f) =>
        f.text.split('\n').flatMap((line, i) => (QUERY.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it("never imports another module's repo files (use its service)", () => {
    const offenders = files.flatMap((f) =>
      [...f.text.matchAll(FOREIGN_REPO)].filter((m) => m[1] !== moduleOf(f.path)).map((m) => `${f.path}:${lineOf(f.text, m.index)}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the checks catch what they are meant to catch', () => {
    for (const bad of ["db.selectFrom('lines')", 'trx.updateTable("x")', 'await sql`SELECT 1`', 'sql<number>`count(*)`', "sql.ref('ln.id')"]) {
      expect(QUERY.test(bad), bad).toBe(true);
    }
    for (const fine of ['import * as repo from "./repo.ts";', 'repo.findLine(db, id)', 'const selectFromList = 1;']) {
      expect(QUERY.test(fine), fine).toBe(false);
    }
    expect([..."import { x } from '../lines/repo.ts';".matchAll(FOREIGN_REPO)]).toHaveLength(1);
    expect([..."import { x } from '../credits/balance-repo.ts';".matchAll(FOREIGN_REPO)]).toHaveLength(1);
    expect([..."import { x } from './repo.ts';".matchAll(FOREIGN_REPO)]).toHaveLength(0);
    expect([..."import { x } from '../lines/service.ts';".matchAll(FOREIGN_REPO)]).toHaveLength(0);
  });
});
