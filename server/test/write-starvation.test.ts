import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, balanceOf, createSignedInReseller, ledgerSumOf } from './fixtures.ts';

// Starvation: a reseller at 0 credits sends paid creations 16 at a time in a loop (each a 409)
// while another reseller creates lines 4 at a time. Each request is its own transaction, so the
// failing ones undo only themselves: every one of the other reseller's creations goes through at
// its first attempt while the flood runs, with exact balances. Its throughput and latency beside
// the flood, against alone, are measured in test/perf/write-starvation.test.ts.

const PASS = 'Starve-pass-2026';
/** the other reseller's creations: 4 loops of 25, as many as its credits */
const LOOPS = 4;
const PER_LOOP = 25;

describe(`starvation: failing spends do not hold up others (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  async function reseller(username: string, credits: number) {
    return createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits, groups });
  }
  const create = (token: string) => t.call(token, { method: 'POST', url: '/api/users', payload: { package_id: pkg } });
  const linesOf = async (id: number) => Number((await t.database.db.selectFrom('lines').select((eb) => eb.fn.countAll().as('n')).where('member_id', '=', id).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, groups, pkg } = await adminWithPackage(t));
  });
  afterAll(() => t?.close());

  it('a reseller at 0 credits sending paid creations 16 at a time: another one\'s 100 creations all go through meanwhile, at the first attempt', async () => {
    const broke = await reseller('st_broke', 0);
    const busy = await reseller('st_busy', LOOPS * PER_LOOP);

    let flood = true;
    const refused: Record<string, number> = {};
    let floodAnswers = 0;
    const flooding = Promise.all(
      Array.from({ length: 16 }, async () => {
        while (flood) {
          const res = await create(broke.token);
          const key = `${res.statusCode} ${res.json().code}`;
          refused[key] = (refused[key] ?? 0) + 1;
          floodAnswers++;
        }
      }),
    );
    try {
      // the flood is under way: each of its 16 loops has had an answer
      await expect.poll(() => floodAnswers, { interval: 5 }).toBeGreaterThanOrEqual(16);
      const floodBefore = floodAnswers;
      const answers = (
        await Promise.all(
          Array.from({ length: LOOPS }, async () => {
            const statuses: number[] = [];
            for (let i = 0; i < PER_LOOP; i++) statuses.push((await create(busy.token)).statusCode);
            return statuses;
          }),
        )
      ).flat();
      expect(floodAnswers, 'the flood went on meanwhile').toBeGreaterThan(floodBefore);
      expect(answers, 'every attempt a creation').toEqual(Array(LOOPS * PER_LOOP).fill(201));
    } finally {
      flood = false;
      await flooding;
    }

    expect(Object.keys(refused), 'every flood request a 409').toEqual(['409 INSUFFICIENT_CREDITS']);
    expect(await balanceOf(t.database.db, broke.id)).toBe(0);
    expect(await ledgerSumOf(t.database.db, broke.id)).toBe(0);
    expect(await linesOf(broke.id)).toBe(0);
    expect(await balanceOf(t.database.db, busy.id)).toBe(0);
    expect(await ledgerSumOf(t.database.db, busy.id)).toBe(0);
    expect(await linesOf(busy.id)).toBe(LOOPS * PER_LOOP);
  });
});
