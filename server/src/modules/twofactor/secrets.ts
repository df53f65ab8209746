import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import * as repo from './repo.ts';

/**
 * TOTP secrets (and webhook signing secrets) are kept encrypted (AES-256-GCM, bound to their use and the account id) so a copy of the
 * database alone does not give the codes away. The key comes from TWO_FACTOR_KEY; without it the
 * server generates one and keeps it in `server_keys` (protects backups of single tables only).
 */
const keys = new WeakMap<object, Promise<Buffer>>();

function encryptionKey({ config, database }: Deps): Promise<Buffer> {
  if (config.twoFactorKey) return Promise.resolve(createHash('sha256').update(config.twoFactorKey).digest());
  let key = keys.get(database);
  if (!key) {
    key = repo.serverKey(database.db, 'two_factor', () => randomBytes(32).toString('base64')).then((v) => Buffer.from(v, 'base64'));
    key.catch(() => keys.delete(database));
    keys.set(database, key);
  }
  return key;
}

/** What a sealed secret is bound to: its use and its account (a webhook secret never opens as a TOTP secret). */
const aad = (resellerId: number, purpose: string) => Buffer.from(`${purpose}:${resellerId}`);

export async function sealSecret(deps: Deps, resellerId: number, secret: string, purpose = 'two_factor'): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await encryptionKey(deps), iv).setAAD(aad(resellerId, purpose));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The base32 secret, or null when it cannot be opened (the key changed): codes then fail, recovery codes still work. */
export async function openSecret(deps: Deps, resellerId: number, sealed: string, purpose = 'two_factor'): Promise<string | null> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await encryptionKey(deps), Buffer.from(iv, 'base64url')).setAAD(aad(resellerId, purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A key for signing (not sealing) things of one purpose, derived from the same server key. */
export async function signingKey(deps: Deps, purpose: string): Promise<Buffer> {
  return createHmac('sha256', await encryptionKey(deps)).update(`signing:${purpose}`).digest();
}
