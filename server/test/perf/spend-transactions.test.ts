import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../../src/db/tx.ts';
import { ENGINE, type TestContext, createTestContext } from '../helpers.ts';

// How soon a withTx inside another is refused. That it is refused, its callback never run and the
// outer transaction rolled back, is in test/spend-transactions.test.ts.
describe(`nested withTx: time to refuse (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t?.close());

  it('a withTx inside another throws within 2 s', async () => {
    const started = Date.now();
    await expect(
      withTx(t.database, async (trx) => {
        await trx.selectFrom('resellers').select('id').execute();
        await withTx(t.database, async () => undefined);
      }),
    ).rejects.toThrow(/inside a transaction/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
