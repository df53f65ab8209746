import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appError } from './errors.ts';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE, nestsDeeperThan } from './json-depth.mjs';

export { MAX_JSON_DEPTH };

type Parse = (request: FastifyRequest, text: string, done: (err: Error | null, body?: unknown) => void) => void;

/** Fastify's own safe JSON parser (prototype keys refused), after a depth check on the raw text. */
export function depthCheckedJsonParser(app: FastifyInstance): Parse {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) => {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) done(appError('VALIDATION', { field: 'body', params: { message: TOO_DEEP_MESSAGE } }), undefined);
    else parse(request, text, done);
  };
}

/** JSON bodies go through depthCheckedJsonParser. */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = depthCheckedJsonParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => parse(request, body as string, done));
}
