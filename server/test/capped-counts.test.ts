import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginate } from '../src/db/paginate.ts';
import { writeLog } from '../src/modules/logs/write.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// A count that reached its cap shows as "N+" and is kept a few seconds (the pager asks it again on
// every page); a count under the cap is exact on every call.
describe(`capped counts (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(async () => t?.close());

  const signOuts = () => t.database.db.selectFrom('logs').where('action', '=', 'test_capped');
  const page = (countCap: number) =>
    paginate(signOuts(), (q) => q.select(['id']), { db: t.database.db, order: { column: 'id', direction: 'desc' }, tiebreak: 'id', countCap });
  const add = async (n: number) => {
    for (let i = 0; i < n; i++) await writeLog(t.database.db, { type_log: 'auth', action: 'test_capped', target_user: `u${i}` });
  };

  it('keeps a count past its cap, and counts exactly under it', async () => {
    await add(4);
    expect((await page(10)).meta).toMatchObject({ total: 4 });
    await add(1);
    expect((await page(10)).meta).toMatchObject({ total: 5 }); // under the cap: never kept

    expect((await page(3)).meta).toMatchObject({ total: 3, capped: true });
    await t.database.db.deleteFrom('logs').where('action', '=', 'test_capped').execute();
    // the kept "3+" stands for a few seconds ...
    expect((await page(3)).meta).toMatchObject({ total: 3, capped: true });
    // ... while another statement (another cap) counts what is there now
    expect((await page(10)).meta).toMatchObject({ total: 0 });
    expect((await page(10)).meta.capped).toBeUndefined();
  });
});
