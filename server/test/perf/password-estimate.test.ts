import { describe, expect, it } from 'vitest';
import { estimatePassword } from '../../src/modules/resellers/passwords.ts';

// The password estimate runs on the thread that serves every request (src/modules/resellers/passwords.ts):
// how long a pathological password holds it. That only its first 32 characters are scored is in
// test/password-strength.test.ts.
describe('password strength estimate: time', () => {
  it('a pathological password is estimated in under a second', async () => {
    await estimatePassword('warm-up');
    for (const password of ['abab1212'.repeat(16), 'senhaflamengo2024!'.repeat(7)]) {
      const started = performance.now();
      await estimatePassword(password, ['mariana']);
      const ms = performance.now() - started;
      console.log(`${password.slice(0, 16)}... (${password.length} characters): ${ms.toFixed(0)} ms`);
      expect(ms, password).toBeLessThan(1000); // 1.7 s before the caps
    }
  });
});
