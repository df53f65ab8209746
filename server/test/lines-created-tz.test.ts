import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdRange } from '../src/modules/lines/repo.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, createLine } from './fixtures.ts';

describe('created filter in the caller time zone', () => {
  it('maps a local day to its UTC instants', () => {
    // São Paulo (UTC-3): 2026-11-21 local = 03:00Z that day to 03:00Z the next.
    expect(createdRange('2026-11-21', -180)).toEqual([Date.UTC(2026, 10, 21, 3) / 1000, Date.UTC(2026, 10, 22, 3) / 1000]);
    expect(createdRange('2026-11-20,2026-11-21', 0)).toEqual([Date.UTC(2026, 10, 20) / 1000, Date.UTC(2026, 10, 22) / 1000]);
    expect(createdRange('2026-11-22,2026-11-21')).toBeNull();
    expect(createdRange('21/11/2026')).toBeNull();
  });
});

describe(`GET /api/users?created with tz_offset (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, pkg } = await adminWithPackage(t));
  });
  afterAll(() => t.close());

  it('a line created at 01:00Z belongs to the previous local day in UTC-3', async () => {
    const line = await createLine(t, admin, { package_id: pkg });
    await t.database.db.updateTable('lines').set({ created_at: Date.UTC(2026, 10, 21, 1) / 1000 }).where('id', '=', line.id).execute();
    const total = async (q: string) => (await t.call(admin, { method: 'GET', url: `/api/users?${q}` })).json().meta.total;
    expect(await total('created=2026-11-20&tz_offset=-180')).toBe(1);
    expect(await total('created=2026-11-21&tz_offset=-180')).toBe(0);
    expect(await total('created=2026-11-21')).toBe(1);
    expect((await t.call(admin, { method: 'GET', url: '/api/users?created=2026-11-21&tz_offset=9999' })).statusCode).toBe(400);
  });
});
