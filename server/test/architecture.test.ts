import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// Server layering (docs/decisions.md): routes -> service -> repo -> db. SQL lives in repo files
// only (repo.ts or *-repo.ts), in every folder of server/src; a module reaches another module
// through its public entry only (MODULE_ENTRIES), never through its internal files. Query
// fragments several modules compose (who may see what, the lines list filters) are the shared
// repos in repos/. db/ is the bottom layer: it imports nothing above it.

const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
const isRepo = (path: string) => /(^|[/-])repo\.ts$/.test(path);
const moduleOf = (path: string) => (path.startsWith('modules/') ? path.split('/')[1] : undefined);

/**
 * The only files besides repos that may write SQL, each for a reason that is not domain logic.
 * Adding to this list needs the same kind of reason.
 */
const SQL_ALLOWED: Record<string, string> = {
  'server/src/db/tx.ts': 'the transaction itself (PostgreSQL lock timeout per transaction)',
  'server/src/db/start-lock.ts': 'the advisory lock around start-up work, on one connection of the pool',
  'server/src/db/paginate.ts': "generic paging: counts and orders whatever query a repo hands it, names no table",
  'server/src/db/migrations/': 'the schema history: each migration is plain SQL and never changes',
  'server/src/scripts/seed-bench.ts': 'command-line tool, never loaded by the server: bulk-fills a bench database',
  'server/src/scripts/seed-demo.ts': 'command-line tool, never loaded by the server: fills a demo database',
  'server/src/scripts/bench-writes.ts': 'command-line tool, never loaded by the server: checks balances after a write bench',
  'server/src/scripts/bench-reminders.ts': 'command-line tool, never loaded by the server: prepares due lines and reminder settings on a bench database, counts what was sent',
  'server/src/scripts/plans.ts': 'command-line tool, never loaded by the server: looks up the reseller whose query plans it prints',
  'server/src/scripts/explain-list.ts': 'command-line tool, never loaded by the server: looks up the caller whose list query it explains',
};
const sqlAllowed = (path: string) => Object.keys(SQL_ALLOWED).some((p) => (p.endsWith('/') ? `server/src/${path}`.startsWith(p) : `server/src/${path}` === p));

/** Query builder calls and raw SQL templates: what only a repo may write. */
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\s*\(|\bsql\s*(<[^>]*>)?\s*`|\bsql\.(ref|raw|id|lit|table|val|join)\s*\(/;

/** Imports of another module's repo file: `from '../lines/repo.ts'`, `from '../credits/balance-repo.ts'`. */
const FOREIGN_REPO = /from\s+'\.\.\/([a-z0-9-]+)\/([a-z0-9-]*repo)\.ts'/g;

/**
 * A module's public entry: `service.ts` (what it does, re-exporting what others may use), and its
 * HTTP shapes (`schemas.ts`, and `routes.ts` for route registration). Every other file is internal.
 */
const MODULE_ENTRIES = ['service.ts', 'schemas.ts', 'routes.ts'];

/** Relative imports and re-exports: `from './x.ts'`, `from '../db/tx.ts'`. */
const IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+)'/g;

/** The src-relative path an import of `file` points at; undefined for packages. */
function resolveImport(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return posix.normalize(posix.join(posix.dirname(file), spec));
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Where an AppError is built: only appError() in domain/errors.ts, from the catalogue (domain/error-codes.ts). */
const BUILDS_APP_ERROR = /\bnew\s+AppError\s*\(/;

describe('server architecture', () => {
  it('finds every folder of server/src', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const folder of ['db/', 'domain/', 'http/', 'lib/', 'modules/', 'repos/', 'scripts/']) {
      expect(files.some((f) => f.path.startsWith(folder)), folder).toBe(true);
    }
    expect(files.some((f) => !f.path.includes('/')), 'top-level files (app.ts, bootstrap.ts, ...)').toBe(true);
    expect(files.some((f) => isRepo(f.path))).toBe(true);
  });

  it('the SQL allow-list names files that exist', () => {
    for (const p of Object.keys(SQL_ALLOWED)) expect(files.some((f) => (p.endsWith("/") ? `server/src/${f.path}`.startsWith(p) : `server/src/${f.path}` === p)), p).toBe(true);
  });

  it('keeps SQL in repo files: no query builder or sql`` in routes, services, helpers or start-up code', () => {
    const offenders = files
      .filter((f) => !isRepo(f.path) && !sqlAllowed(f.path))
      .flatMap((f) =>
        f.text.split('\n').flatMap((line, i) => (QUERY.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it("never imports another module's repo files (use its service)", () => {
    const offenders = files.flatMap((f) =>
      [...f.text.matchAll(FOREIGN_REPO)].filter((m) => moduleOf(f.path) !== undefined && m[1] !== moduleOf(f.path)).map((m) => `${f.path}:${lineOf(f.text, m.index)}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it("reaches another module through its public entry only (service.ts, schemas.ts, routes.ts), never its internal files", () => {
    const offenders = files
      .filter((f) => moduleOf(f.path) !== undefined)
      .flatMap((f) =>
        [...f.text.matchAll(IMPORT)]
          .filter((m) => {
            const target = resolveImport(f.path, m[1]);
            const other = target && moduleOf(target);
            return other !== undefined && other !== moduleOf(f.path) && !MODULE_ENTRIES.includes(target!.split('/').slice(2).join('/'));
          })
          .map((m) => `${f.path}:${lineOf(f.text, m.index)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it("writes a line's row only through applyLineChange (lines/line-change.ts), where every consequence of a line change is listed", () => {
    const writers = files.filter((f) => /\b(insertLine|updateLine)\(/.test(f.text)).map((f) => f.path);
    expect(writers.sort()).toEqual(['modules/lines/line-change.ts', 'modules/lines/write-repo.ts']);
  });

  it('names the database handle one way above db/: Tx (db/tx.ts), never Kysely<DB> or Transaction<DB>', () => {
    const offenders = files
      .filter((f) => !f.path.startsWith('db/') && !f.path.startsWith('scripts/'))
      .flatMap((f) => f.text.split('\n').flatMap((line, i) => (/\b(Kysely|Transaction)<DB>/.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });

  it('db/ depends on nothing above it: no import from modules/, http/, repos/ or the app (the clock, the calendar and the logger, which import nothing of ours, are everyone\'s)', () => {
    const offenders = files
      .filter((f) => f.path.startsWith('db/'))
      .flatMap((f) =>
        [...f.text.matchAll(IMPORT)]
          .filter((m) => {
            const target = resolveImport(f.path, m[1]);
            return target !== undefined && !target.startsWith('db/') && !target.startsWith('domain/') && target !== 'lib/clock.ts' && target !== 'lib/logger.ts' && target !== 'lib/calendar.ts';
          })
          .map((m) => `${f.path}:${lineOf(f.text, m.index)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it('domain/ (types and errors every layer shares) imports nothing of the project', () => {
    const offenders = files
      .filter((f) => f.path.startsWith('domain/'))
      .flatMap((f) =>
        [...f.text.matchAll(IMPORT)]
          .filter((m) => resolveImport(f.path, m[1]) !== undefined && !resolveImport(f.path, m[1])?.startsWith('domain/'))
          .map((m) => `${f.path}:${lineOf(f.text, m.index)}: ${m[0]}`),
      );
    expect(offenders).toEqual([]);
  });

  it('every error answer comes from the catalogue: only domain/errors.ts builds an AppError', () => {
    const offenders = files
      .filter((f) => f.path !== 'domain/errors.ts')
      .flatMap((f) => f.text.split('\n').flatMap((line, i) => (BUILDS_APP_ERROR.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
    expect(files.find((f) => f.path === 'domain/errors.ts')?.text).toMatch(BUILDS_APP_ERROR);
  });

  it('the checks catch what they are meant to catch', () => {
    expect(resolveImport('db/tx.ts', '../http/errors.ts')).toBe('http/errors.ts');
    expect(resolveImport('db/migrations/002_seed.ts', '../../modules/settings/defaults.ts')).toBe('modules/settings/defaults.ts');
    expect(resolveImport('db/tx.ts', './types.ts')).toBe('db/types.ts');
    expect(resolveImport('db/tx.ts', 'kysely')).toBeUndefined();
    expect([..."import type { X } from '../modules/auth/service.ts';\nexport { y } from './kept.ts';".matchAll(IMPORT)].map((m) => m[1])).toEqual(['../modules/auth/service.ts', './kept.ts']);
    expect(sqlAllowed('db/migrations/001_foundation.ts')).toBe(true);
    expect(sqlAllowed('db/scope.ts')).toBe(false);
    expect(sqlAllowed('bootstrap.ts')).toBe(false);
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
    expect(MODULE_ENTRIES.includes(resolveImport('modules/payments/apply.ts', '../lines/line-change.ts')!.split('/').slice(2).join('/'))).toBe(false);
    expect(MODULE_ENTRIES.includes(resolveImport('modules/payments/apply.ts', '../lines/service.ts')!.split('/').slice(2).join('/'))).toBe(true);
    for (const built of ["throw new AppError(409, 'X', 'y')", 'Object.assign(new AppError (429, code, m), {})']) expect(BUILDS_APP_ERROR.test(built), built).toBe(true);
    for (const fine of ["throw appError('USERNAME_TAKEN')", 'err instanceof AppError', 'class AppError extends Error']) expect(BUILDS_APP_ERROR.test(fine), fine).toBe(false);
  });
});
