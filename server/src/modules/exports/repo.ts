import type { Tx } from '../../db/tx.ts';

export async function insertDownloadToken(db: Tx, row: { token_hash: string; session_id: number; url: string; expires_at: number }, now: number): Promise<void> {
  await db.deleteFrom('download_tokens').where('expires_at', '<=', now).execute();
  await db.insertInto('download_tokens').values(row).execute();
}

/** Deletes the token and returns what it was bound to: a token works once, even under a race. */
export function takeDownloadToken(db: Tx, tokenHash: string) {
  return db.deleteFrom('download_tokens').where('token_hash', '=', tokenHash).returning(['session_id', 'url', 'expires_at']).executeTakeFirst();
}
