import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';

/** Schema pieces every module uses. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** An answer of the `select_search` routes: up to 20 matches for a picker. */
export const SearchOptions = Type.Object({
  data: Type.Array(Type.Object({ label: Type.String({ description: 'username' }), value: Type.String({ description: 'id, as text' }) }, { title: 'SearchOption' })),
});

/** `/:id` path parameter: a positive 32-bit integer (the columns are `integer`). */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** The `Idempotency-Key` header of a credit-moving call, when sent. */
export function idempotencyKey(req: FastifyRequest): string | undefined {
  const v = req.headers['idempotency-key'];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Where a change stands on an outside system (the P2P server): delivered, waiting, or retrying after an error. */
export const SyncState = Type.Union([Type.Literal('synced'), Type.Literal('pending'), Type.Literal('failed')]);
