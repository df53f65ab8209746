import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

const idempotentReplies = new AsyncLocalStorage<FastifyReply>();

/**
 * The handler of a route that takes an Idempotency-Key runs where `markReplayed` reaches its reply,
 * so a replayed answer says so (`Idempotent-Replayed: true`) whichever service replayed it.
 */
export function registerReplayHeader(app: FastifyInstance): void {
  app.addHook('preHandler', (request, reply, done) => {
    if (!request.routeOptions.schema?.idempotencyKey) return done();
    // done() runs the handler synchronously: the handler's promises keep this store
    idempotentReplies.run(reply, done);
  });
}

/** Called where a stored answer is sent again for a repeated Idempotency-Key. */
export function markReplayed(): void {
  idempotentReplies.getStore()?.header('Idempotent-Replayed', 'true');
}

/** Where a change stands on an outside system (the P2P server): delivered, waiting, or retrying after an error. */
export const SyncState = Type.Union([Type.Literal('synced'), Type.Literal('pending'), Type.Literal('failed')]);
