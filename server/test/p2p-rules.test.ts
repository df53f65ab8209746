import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { domainOf, emailOf, isP2pSystem, lineState, localPartOf, retryDelayMs } from '../src/modules/p2p/rules.ts';

// The P2P rules without I/O, and their configuration.

describe('P2P rules', () => {
  it('retries back off exponentially from the base, with +-20 % jitter, never past the cap', () => {
    for (let i = 0; i < 200; i++) {
      const first = retryDelayMs(1, 1000, 300_000);
      expect(first).toBeGreaterThanOrEqual(800);
      expect(first).toBeLessThanOrEqual(1200);
      const fourth = retryDelayMs(4, 1000, 300_000);
      expect(fourth).toBeGreaterThanOrEqual(6400);
      expect(fourth).toBeLessThanOrEqual(9600);
      expect(retryDelayMs(12, 1000, 300_000)).toBeLessThanOrEqual(300_000);
      expect(retryDelayMs(12, 1000, 300_000)).toBeGreaterThanOrEqual(240_000);
      expect(retryDelayMs(10_000, 1000, 300_000)).toBeLessThanOrEqual(300_000);
    }
  });

  it('logins: username@domain; a line on system 2 or 3 is provisioned by its username, active while enabled', () => {
    expect(emailOf('maria', 'p2p.local')).toBe('maria@p2p.local');
    expect(domainOf('maria@old.example')).toBe('old.example');
    expect(localPartOf('maria@old.example')).toBe('maria');
    expect([1, 2, 3].map(isP2pSystem)).toEqual([false, true, true]);
    const line = { id: 1, username: 'joao', password: 'pw', exp_date: 1_800_000_000, enabled: 0, max_connections: 2, is_trial: 1, system: 3 };
    expect(lineState(line)).toEqual({ name: 'joao', password: 'pw', expires_at: 1_800_000_000, status: 0, max_connections: 2, is_trial: true });
  });

  it('configuration: the P2P and old panel URLs must be http(s); the retry settings are whole numbers', () => {
    const base = { DATABASE_URL: 'sqlite::memory:' };
    const c = loadConfig({ ...base, P2P_API_URL: 'http://127.0.0.1:4010/', P2P_API_KEY: 'k', OLD_P2P_URL: 'https://old.example.com' });
    expect(c).toMatchObject({ p2pApiUrl: 'http://127.0.0.1:4010', p2pApiKey: 'k', oldP2pUrl: 'https://old.example.com', p2pRetryBaseMs: 1000, p2pRetryMaxMs: 300_000 });
    expect(loadConfig(base)).toMatchObject({ p2pApiUrl: undefined, oldP2pUrl: undefined });
    expect(() => loadConfig({ ...base, P2P_API_URL: 'ftp://x' })).toThrow(/P2P_API_URL/);
    expect(() => loadConfig({ ...base, OLD_P2P_URL: 'not a url' })).toThrow(/OLD_P2P_URL/);
    expect(() => loadConfig({ ...base, P2P_RETRY_BASE_MS: '0' })).toThrow(/P2P_RETRY_BASE_MS/);
    expect(loadConfig({ ...base, P2P_RETRY_MAX_SECONDS: '60' }).p2pRetryMaxMs).toBe(60_000);
  });
});
