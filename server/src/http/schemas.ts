import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';

/** Schema pieces every module uses. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** `/:id` path parameter: a positive 32-bit integer (the columns are `integer`). */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** The `Idempotency-Key` header of a credit-moving call, when sent. */
export function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['idempotency-key'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}
