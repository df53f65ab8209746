import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { nowMs } from '../../lib/clock.ts';

export const ISSUER = 'Painel';
const PERIOD = 30;

export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = '') {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD });
}

/** The otpauth:// URI an authenticator app scans. */
export function otpauthUrl(secret: string, username: string): string {
  return totp(secret, username).toString();
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/** The 30-second step the code belongs to (now, or one step either side), or null when it is wrong. */
export function matchingStep(secret: string, code: string, now = nowMs()): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

// Recovery codes: 80 random bits shown as xxxx-xxxx-xxxx-xxxx; only their SHA-256 is stored.
const ALPHABET = 'abcdefghjkmnpqrstvwxyz0123456789'; // 32 letters: 5 bits each, no i/l/o/u

export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (b) => ALPHABET[b & 31]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

export const normaliseCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

export const hashRecoveryCode = (code: string) => createHash('sha256').update(normaliseCode(code)).digest('hex');
