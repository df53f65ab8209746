import { isDeepStrictEqual } from 'node:util';
import { type CompiledQuery, createQueryId } from 'kysely';
import { planOnceOnPostgres } from './connection.ts';
import type { Tx } from './tx.ts';

const STAND_IN = '\u0000arg\u0000';

interface Shape {
  sql: string;
  query: CompiledQuery['query'];
  /** per parameter: the argument it takes, or undefined for a value fixed in the statement */
  slots: (string | undefined)[];
  fixed: unknown[];
}

/** In tests, every statement is also built the usual way and must come out the same. */
const CROSS_CHECK = process.env.VITEST !== undefined;

/**
 * A hot statement that Kysely builds and compiles once per dialect and shape (the arguments that
 * are not undefined), then runs with new values. Building and compiling cost 7-10 µs of
 * JavaScript per statement, about as much as SQLite's own work for an indexed write, and a line
 * creation sends about ten (issue 13).
 *
 * Only for statements whose plan cannot depend on their values (see planOnceOnPostgres).
 * `build` gets stand-ins for the arguments and must use each one unchanged as a value (compared,
 * inserted, set), never branch on it, transform it or put it in SQL text; in tests every call also
 * builds the statement the usual way and throws on any difference. With plugins on the handle
 * (captureQueries, the plan tests) it builds the usual way, so they see the real statement.
 */
export function compiledOnce<A extends Record<string, unknown>, R>(build: (db: Tx, args: A) => { compile(): CompiledQuery<R> }) {
  const shapes = new WeakMap<object, Map<string, Shape>>();
  return (db: Tx, args: A): CompiledQuery<R> => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) return build(db, args).compile();
    const names = Object.keys(args).filter((k) => args[k] !== undefined);
    const key = names.join(',');
    let byShape = shapes.get(executor.adapter);
    if (!byShape) {
      byShape = new Map();
      shapes.set(executor.adapter, byShape);
    }
    let shape = byShape.get(key);
    if (!shape) {
      const standIns = Object.fromEntries(names.map((k) => [k, `${STAND_IN}${k}`])) as A;
      const c = build(db, standIns).compile();
      const slots = c.parameters.map((p) => (typeof p === 'string' && p.startsWith(STAND_IN) ? p.slice(STAND_IN.length) : undefined));
      shape = { sql: c.sql, query: c.query, slots, fixed: [...c.parameters] };
      byShape.set(key, shape);
      // A fixed statement by key (an insert, an update or lookup by key): its plan cannot depend
      // on its values, so PostgreSQL may keep it prepared (parsing and planning each of a spend's
      // inserts cost the one pipelined connection more than running them; issue 13).
      planOnceOnPostgres(c.sql);
    }
    const { slots, fixed } = shape;
    const parameters = slots.map((name, i) => (name === undefined ? fixed[i] : args[name]));
    const compiled = { sql: shape.sql, query: shape.query, parameters, queryId: createQueryId() } as CompiledQuery<R>;
    if (CROSS_CHECK) {
      const usual = build(db, args).compile();
      if (usual.sql !== compiled.sql || !isDeepStrictEqual(usual.parameters, compiled.parameters)) {
        throw new Error(`compiledOnce: the statement differs from the one built the usual way:\n${usual.sql}\n${compiled.sql}`);
      }
    }
    return compiled;
  };
}
