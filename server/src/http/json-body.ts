import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/** No body of this API nests deeper than a few levels; 32 leaves room and stops stack-deep input. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the JSON text opens more than `limit` arrays/objects inside each other. A linear scan
 * of the raw text (strings skipped), so nothing recursive ever sees a too-deep value.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** JSON bodies go through Fastify's own safe parser, after a depth check on the raw text. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new AppError(400, 'VALIDATION', `body: nested deeper than ${MAX_JSON_DEPTH} levels`, 'body'), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
