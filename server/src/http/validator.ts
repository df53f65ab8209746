import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS; its callable export sits on `default` under ESM.
const addFormats = (formats as unknown as { default: (ajv: Ajv) => Ajv }).default;

// Bodies are validated strictly (a string is never taken for a number); query strings and
// path params arrive as text, so those are coerced.
function make(coerceTypes: boolean | 'array', removeAdditional: 'all' | false = 'all') {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/** How a number must be written in a path or query string: plain decimal, no sign tricks. */
const NUMBER_TEXT = {
  integer: /^-?(0|[1-9][0-9]*)$/,
  number: /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/,
} as const;

type Schema = { type?: unknown; properties?: Record<string, { type?: unknown }> };

/**
 * Ajv would coerce ' 4', '0x1', '1e0' or '004' to a number; an id that arrives as anything but
 * plain decimal text is a 400 naming the field instead.
 */
function plainNumbers(schema: Schema, validate: ValidateFunction) {
  const numeric = Object.entries(schema.properties ?? {}).flatMap(([name, prop]) =>
    prop.type === 'integer' || prop.type === 'number' ? [[name, NUMBER_TEXT[prop.type]] as const] : [],
  );
  if (numeric.length === 0) return validate;
  const check = (data: Record<string, unknown> | null) => {
    for (const [name, pattern] of numeric) {
      const raw = data?.[name];
      const texts = Array.isArray(raw) ? raw : [raw];
      if (texts.some((v) => typeof v === 'string' && !pattern.test(v))) {
        const error: ErrorObject = { instancePath: `/${name}`, schemaPath: '#/pattern', keyword: 'pattern', params: {}, message: 'must be a plain decimal number' };
        check.errors = [error];
        return false;
      }
    }
    const ok = validate(data);
    check.errors = validate.errors;
    return ok;
  };
  check.errors = null as ErrorObject[] | null | undefined;
  return check;
}

export function registerValidators(app: FastifyInstance): void {
  const strict = make(false);
  const coercing = make('array');
  // Headers are validated where they are (the request's own object): removing the ones a route
  // does not list would strip Host and the rest from the request.
  const headers = make('array', false);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    onFirstUse(() => {
      if (httpPart === 'body') return strict.compile(schema);
      return plainNumbers(schema as Schema, (httpPart === 'headers' ? headers : coercing).compile(schema));
    }),
  );
}

/** what Fastify calls: any data in, valid or not out, the failures left on `errors` */
type Validate = ((data: any) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Compiles a route part's schema on its first request rather than at start-up: compiling every
 * route's schemas took ~0.3 s of each start, for routes a process may never
 * serve. Fastify reads `errors` off the function it was given after a failed validation.
 */
function onFirstUse(compile: () => Validate): Validate {
  let validate: Validate | undefined;
  const run: Validate = (data) => {
    validate ??= compile();
    const ok = validate(data);
    run.errors = validate.errors;
    return ok;
  };
  run.errors = null;
  return run;
}
