import { createRequire } from 'node:module';

// Fastify's own response serializer compiler (fast-json-stringify), taken from fastify's
// dependencies so it is the very one Fastify would use.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
type Serialize = (data: unknown) => string;
type Factory = (externalSchemas: unknown, options: unknown) => (route: { schema?: unknown }) => Serialize;
const defaultFactory = (fromFastify('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => Factory }).SerializerSelector();

/**
 * Response serializers compiled on a status code's first answer rather than at start-up, like
 * the validators (http/validator.ts): most routes' error answers are never sent by a process.
 */
export const lazySerializers: Factory = (externalSchemas, options) => {
  const compile = defaultFactory(externalSchemas, options);
  return (route) => {
    let serialize: Serialize | undefined;
    return (data) => {
      serialize ??= compile(route);
      return serialize(data);
    };
  };
};
