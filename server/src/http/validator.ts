import { Ajv } from 'ajv';
import * as formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS; its callable export sits on `default` under ESM.
const addFormats = (formats as unknown as { default: (ajv: Ajv) => Ajv }).default;

// Bodies are validated strictly (a string is never taken for a number); query strings and
// path params arrive as text, so those are coerced.
function make(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

export function registerValidators(app: FastifyInstance): void {
  const strict = make(false);
  const coercing = make('array');
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strict.compile(schema) : coercing.compile(schema),
  );
}
