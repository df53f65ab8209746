import { randomBytes, hash as oneShotHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library default algorithm) with OWASP's minimum cost.
const ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON);
export const verifyPassword = (stored: string, password: string) => verify(stored, password).catch(() => false);

/** 256-bit opaque token; only its SHA-256 is stored. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

// One-shot hashing: a third of createHash().update().digest() on every signed-in request.
export const hashToken = (token: string) => oneShotHash('sha256', token, 'hex');

// A fixed hash to verify against when the username is unknown, so both paths take the same time.
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = () => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
};
