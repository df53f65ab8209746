import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, balanceOf, createSignedInReseller, ledgerSumOf } from './fixtures.ts';

// A line's username is decided by its insert (the unique key), not by a lookup before it: a
// generated username that is taken is drawn again, a given one that is taken is a 409, and
// nothing is charged for the draw.

const drawn: string[] = [];
vi.mock('../src/modules/lines/rules.ts', async (original) => {
  const real = await original<typeof import('../src/modules/lines/rules.ts')>();
  return { ...real, randomCredential: () => drawn.shift() ?? real.randomCredential() };
});

const PASS = 'Draw-pass-2026x';

describe(`line usernames decided by the insert (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let reseller: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestContext();
    const start = await adminWithPackage(t);
    admin = start.admin;
    pkg = start.pkg;
    const { id, token } = await createSignedInReseller(t, admin, { username: 'draw_res', password: PASS, type: 'reseller', credits: 10, groups: start.groups });
    reseller = { id, token };
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (payload: object) => t.call(reseller.token, { method: 'POST', url: '/api/users', payload });

  it('a generated username that is taken is drawn again; one line, one charge', async () => {
    expect((await create({ package_id: pkg, username: 'drawtaken1' })).statusCode).toBe(201);
    drawn.push('pw2draw9', 'drawtaken1', 'drawfresh1'); // the password, then a taken username, then a free one
    const res = await create({ package_id: pkg });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ username: 'drawfresh1', password: 'pw2draw9' });
    expect(await balanceOf(t.database.db, reseller.id)).toBe(8);
    expect(await ledgerSumOf(t.database.db, reseller.id)).toBe(8);
    const log = await t.database.db.selectFrom('logs').select('target_user').where('action', '=', 'user_create').where('actor_id', '=', reseller.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.target_user).toBe('drawfresh1');
  });

  it('a given username that is taken is a 409 and changes nothing', async () => {
    const res = await create({ package_id: pkg, username: 'drawtaken1' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
    expect(await balanceOf(t.database.db, reseller.id)).toBe(8);
  });
});
