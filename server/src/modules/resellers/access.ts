import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import * as repo from './repo.ts';

/** Plain resellers have no sub-resellers: every reseller-management route is closed to them. */
export function requireManager(actor: AuthUser): void {
  if (actor.type === 'reseller') throw appError('FORBIDDEN');
}

/** On routes about one reseller, a plain reseller has nothing in scope: 404 like any outsider. */
export function requireManagerOf(actor: AuthUser): void {
  if (actor.type === 'reseller') throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
}

/** A reseller below the caller, or 404. */
export async function loadVisible(db: Parameters<typeof repo.findVisible>[0], actor: AuthUser, id: number) {
  const row = await repo.findVisible(db, actor, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
  return row;
}
