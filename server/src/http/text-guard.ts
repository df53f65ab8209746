import type { FastifyInstance } from 'fastify';
import { validation } from './errors.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first field holding text a database cannot take as is: a NUL character (PostgreSQL text
 * refuses it) or a lone UTF-16 surrogate (not valid Unicode, stored differently per engine).
 * Walks with an explicit stack, so depth cannot overflow the call stack.
 */
function badTextField(root: unknown): { field: string; problem: string } | undefined {
  const stack: Array<[unknown, string]> = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { field: path || 'body', problem: 'must not contain NUL characters' };
      if (LONE_SURROGATE.test(value)) return { field: path || 'body', problem: 'must be valid Unicode text' };
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i];
        stack.push([v, path ? `${path}.${k}` : k]);
      }
    }
  }
  return undefined;
}

/** Bad text is a 400 naming the field on both engines, never a database error. */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const bad = badTextField(request.query) ?? badTextField(request.body) ?? badTextField(request.params);
    done(bad ? validation(bad.field, bad.problem) : undefined);
  });
}
