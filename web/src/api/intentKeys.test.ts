import { describe, expect, it, vi } from 'vitest';

vi.stubGlobal('window', { isSecureContext: true }); // newIdempotencyKey asks; Node has randomUUID

const { IntentKeys } = await import('./intentKeys');

describe('IntentKeys', () => {
  it('keeps one key per intent until it succeeds', async () => {
    const keys = new IntentKeys();
    const sent: string[] = [];
    const fail = (key: string) => {
      sent.push(key);
      return Promise.reject(new Error('time-out'));
    };
    const succeed = (key: string) => {
      sent.push(key);
      return Promise.resolve(key);
    };
    await expect(keys.send(['renew', 7], fail)).rejects.toThrow('time-out');
    await keys.send(['renew', 7], succeed); // the retry
    expect(sent[1]).toBe(sent[0]);
    await keys.send(['renew', 7], succeed); // a new renewal after the success
    expect(sent[2]).not.toBe(sent[0]);
    await expect(keys.send({ package_id: 1 }, fail)).rejects.toThrow();
    await keys.send({ package_id: 2 }, succeed); // other values: another intent
    expect(sent[4]).not.toBe(sent[3]);
  });
});
