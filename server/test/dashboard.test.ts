import { advanceClock, nowSec, resetClock } from '../src/lib/clock.ts';
import { cached, invalidateFor } from '../src/modules/dashboard/cache.ts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';
import type { Dashboard } from '../../web/src/api/types.ts';

// GET /api/dashboard (the activity over time: reports.test.ts).
//
// Tree (argon2 makes each reseller create/sign-in ~50 ms, so it is built once per context):
//
//   admin ─┬─ dm  (master M) ── ds (plain reseller S, created by M)
//          └─ dx  (master X, a sibling of M)
//
// Lines (official package = 2 credits; trials are free):
//   M:  m1 http (created 6 days ago)   m2 P2P (system 2)   m3 P2P (system 3)   m4 blocked
//       m5 expired                     m6 trial http       m7 trial P2P        m8 trial expired
//       m9 trial blocked               m10 deleted         m11 http (created 8 days ago)
//   S:  s1 http   s2 P2P (system 3)   s3 trial http   s4 deleted
//   X:  x1 http (created just after Sao Paulo midnight)  x2 trial  x3 P2P (just before it)

const PASS = 'Dash-pass-2024';
const DAY = 86_400;
/** America/Sao_Paulo has been UTC-3 all year since 2019 (no DST): tz_offset = -180. */
const SP_OFFSET = -180 * 60;
/** Epoch second of today's 00:00 in UTC-3. */
const spMidnight = () => Math.floor((nowSec() + SP_OFFSET) / DAY) * DAY - SP_OFFSET;

type Res = Awaited<ReturnType<TestContext['call']>>;
type Figures = Omit<Dashboard, 'computed_at'>;

/** Shared setup: bouquet, packages, group ids and reseller/line helpers on one context. */
function harness() {
  const h = {
    t: undefined as unknown as TestContext,
    admin: '',
    groups: {} as Record<string, number>,
    pkg: 0,
    trialPkg: 0,
    async expectStatus(token: string | null, opts: InjectOptions, status: number): Promise<Res> {
      const res = await h.t.call(token, opts);
      expect(res.statusCode, `${opts.method} ${opts.url} -> ${res.body.slice(0, 300)}`).toBe(status);
      return res;
    },
    async init(overrides: Parameters<typeof createTestContext>[0]) {
      h.t = await createTestContext(overrides);
      h.admin = await h.t.login('admin');
      h.groups = await groupIds(h.t, h.admin);
      const bq = await createBouquet(h.t, h.admin, 'Main');
      h.pkg = await createPackage(h.t, h.admin, 'Monthly x2', bq, { official_credits: 2 });
      h.trialPkg = await createPackage(h.t, h.admin, 'Trial 24h', bq, { official_credits: 2, is_trial: 1, is_official: 0 });
    },
    async reseller(by: string, username: string, type: 'master' | 'reseller', credits: number) {
      const { id, token } = await createSignedInReseller(h.t, by, { username, password: PASS, type, credits, groups: h.groups });
      return { id, token };
    },
    async line(token: string, trial = false): Promise<{ id: number; username: string }> {
      return createLine(h.t, token, { package_id: trial ? h.trialPkg : h.pkg }, { trial });
    },
    async action(token: string, lineId: number, what: 'block' | 'unblock' | 'p2p2' | 'p2p3' | 'delete') {
      if (what === 'delete') return h.expectStatus(token, { method: 'DELETE', url: `/api/users/${lineId}` }, 204);
      if (what === 'block' || what === 'unblock') return h.expectStatus(token, { method: 'POST', url: `/api/users/${lineId}/${what}` }, 200);
      return h.expectStatus(token, { method: 'POST', url: `/api/users/${lineId}/change_system`, payload: { system_id: what === 'p2p2' ? 2 : 3 } }, 200);
    },
    setLine: (id: number, values: { exp_date?: number; created_at?: number; enabled?: number }) => h.t.database.db.updateTable('lines').set(values).where('id', '=', id).execute(),
    connect: (lineId: number, n = 1) =>
      h.t.database.db
        .insertInto('line_activity')
        .values(
          Array.from({ length: n }, (_, i) => ({
            line_id: lineId,
            user_ip: `10.0.0.${i + 1}`,
            user_agent: 'VLC/3.0',
            date_start: nowSec() - 60,
            last_seen: nowSec(),
          })),
        )
        .execute(),
    async dashboard(token: string): Promise<Dashboard> {
      return (await h.expectStatus(token, { method: 'GET', url: '/api/dashboard' }, 200)).json();
    },
    async figures(token: string): Promise<Figures> {
      const { computed_at, ...rest } = await h.dashboard(token);
      expect(typeof computed_at).toBe('number');
      return rest;
    },
    close: () => h.t?.close(),
  };
  return h;
}

describe(`dashboard counters, scoped (${ENGINE})`, () => {
  const h = harness();
  const L: Record<string, { id: number; username: string }> = {};
  let M: { id: number; token: string };
  let S: { id: number; token: string };
  let X: { id: number; token: string };

  beforeAll(async () => {
    // No cache: direct database changes (expiries, backdating, connections) show on the next call.
    await h.init({ dashboardCacheSeconds: 0 });
    M = await h.reseller(h.admin, 'dash_m', 'master', 100);
    X = await h.reseller(h.admin, 'dash_x', 'master', 50);
    S = await h.reseller(M.token, 'dash_s', 'reseller', 20);

    for (const k of ['m1', 'm2', 'm3', 'm4', 'm5', 'm10', 'm11']) L[k] = await h.line(M.token);
    for (const k of ['m6', 'm7', 'm8', 'm9']) L[k] = await h.line(M.token, true);
    for (const k of ['s1', 's2', 's4']) L[k] = await h.line(S.token);
    L.s3 = await h.line(S.token, true);
    L.x1 = await h.line(X.token);
    L.x3 = await h.line(X.token);
    L.x2 = await h.line(X.token, true);

    await h.action(M.token, L.m2.id, 'p2p2');
    await h.action(M.token, L.m3.id, 'p2p3');
    await h.action(M.token, L.m4.id, 'block');
    await h.action(M.token, L.m7.id, 'p2p2');
    await h.action(M.token, L.m9.id, 'block');
    await h.action(M.token, L.m10.id, 'delete');
    await h.action(S.token, L.s2.id, 'p2p3');
    await h.action(S.token, L.s4.id, 'delete');
    await h.action(X.token, L.x3.id, 'p2p2');

    const now = nowSec();
    await h.setLine(L.m5.id, { exp_date: now - 1 });
    await h.setLine(L.m8.id, { exp_date: now - 3600 });
    await h.setLine(L.m1.id, { created_at: now - 6 * DAY });
    await h.setLine(L.m11.id, { created_at: now - 8 * DAY });
    const midnight = spMidnight();
    await h.setLine(L.x1.id, { created_at: Math.min(midnight + 10, now) });
    await h.setLine(L.x3.id, { created_at: midnight - 10 });
  });
  afterAll(() => h.close());

  const S_FIGURES: Figures = {
    resellers: 0,
    users: 3, // s1 s2 s3
    users_active: 2, // s1 s2
    users_activep2p: 1, // s2
    users_activehttp: 1, // s1
    users_online_of_resellers: 0,
    users_online: 0,
    conections_online: 0,
    users_new: 3,
    users_trial: 1, // s3
    users_trialp2p: 0,
  };
  const M_FIGURES: Figures = {
    resellers: 1, // S
    users: 13, // m1-m9, m11 and S's three
    users_active: 6, // m1 m2 m3 m11 s1 s2
    users_activep2p: 3, // m2 m3 s2
    users_activehttp: 3, // m1 m11 s1
    users_online_of_resellers: 0,
    users_online: 0,
    conections_online: 0,
    users_new: 12, // all but m11 (8 days old)
    users_trial: 2, // m6 s3
    users_trialp2p: 1, // m7
  };
  const X_FIGURES: Figures = {
    resellers: 0,
    users: 3,
    users_active: 2, // x1 x3
    users_activep2p: 1, // x3
    users_activehttp: 1, // x1
    users_online_of_resellers: 0,
    users_online: 0,
    conections_online: 0,
    users_new: 3,
    users_trial: 1, // x2
    users_trialp2p: 0,
  };
  const ADMIN_FIGURES: Figures = {
    resellers: 3, // M S X
    users: 16,
    users_active: 8,
    users_activep2p: 4,
    users_activehttp: 4,
    users_online_of_resellers: 0,
    users_online: 0,
    conections_online: 0,
    users_new: 15,
    users_trial: 3,
    users_trialp2p: 1,
  };

  it('a plain reseller counts only its own lines', async () => {
    expect(await h.figures(S.token)).toEqual(S_FIGURES);
  });

  it("a master counts its own and its sub-reseller's lines, never its sibling's", async () => {
    expect(await h.figures(M.token)).toEqual(M_FIGURES);
  });

  it('the sibling master counts only its own lines', async () => {
    expect(await h.figures(X.token)).toEqual(X_FIGURES);
  });

  it('an admin counts every line and every reseller but itself', async () => {
    expect(await h.figures(h.admin)).toEqual(ADMIN_FIGURES);
  });

  it('returns computed_at (epoch seconds) with the figures', async () => {
    const before = nowSec();
    const d = await h.dashboard(M.token);
    expect(Number.isInteger(d.computed_at)).toBe(true);
    expect(d.computed_at).toBeGreaterThanOrEqual(before);
    expect(d.computed_at).toBeLessThanOrEqual(nowSec());
  });

  it('an expiry (exp_date <= now) leaves users but drops the line from the active cards', async () => {
    // exactly now: expired (the active cards need exp_date > now)
    await h.setLine(L.s1.id, { exp_date: nowSec() });
    try {
      const s = await h.figures(S.token);
      expect(s).toEqual({ ...S_FIGURES, users_active: 1, users_activehttp: 0 });
      const m = await h.figures(M.token);
      expect(m).toEqual({ ...M_FIGURES, users_active: 5, users_activehttp: 2 });
    } finally {
      await h.setLine(L.s1.id, { exp_date: nowSec() + 30 * DAY });
    }
    // an expired trial leaves the trial card
    await h.setLine(L.s3.id, { exp_date: nowSec() - 5 });
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_trial: 0 });
      expect(await h.figures(M.token)).toEqual({ ...M_FIGURES, users_trial: 1 });
    } finally {
      await h.setLine(L.s3.id, { exp_date: nowSec() + DAY });
    }
    expect(await h.figures(S.token)).toEqual(S_FIGURES);
  });

  it('blocking and unblocking through the API moves a line out of and back into the active cards', async () => {
    await h.action(S.token, L.s2.id, 'block');
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_active: 1, users_activep2p: 0 });
      expect(await h.figures(M.token)).toEqual({ ...M_FIGURES, users_active: 5, users_activep2p: 2 });
    } finally {
      await h.action(S.token, L.s2.id, 'unblock');
    }
    // a blocked trial leaves the trial card
    await h.action(S.token, L.s3.id, 'block');
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_trial: 0 });
    } finally {
      await h.action(S.token, L.s3.id, 'unblock');
    }
    expect(await h.figures(S.token)).toEqual(S_FIGURES);
  });

  it('P2P is system 2 or 3; moving a line back to system 1 makes it HTTP again', async () => {
    await h.expectStatus(S.token, { method: 'POST', url: `/api/users/${L.s2.id}/change_system`, payload: { system_id: 1 } }, 200);
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_activep2p: 0, users_activehttp: 2 });
    } finally {
      await h.action(S.token, L.s2.id, 'p2p2');
    }
    // a trial moved to P2P leaves users_trial for users_trialp2p
    await h.action(S.token, L.s3.id, 'p2p3');
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_trial: 0, users_trialp2p: 1 });
      expect(await h.figures(M.token)).toEqual({ ...M_FIGURES, users_trial: 1, users_trialp2p: 2 });
    } finally {
      await h.expectStatus(S.token, { method: 'POST', url: `/api/users/${L.s3.id}/change_system`, payload: { system_id: 1 } }, 200);
    }
    expect(await h.figures(S.token)).toEqual(S_FIGURES);
  });

  it('users_new counts lines created in the last 7 days (boundary one minute either side)', async () => {
    const now = nowSec();
    await h.setLine(L.s1.id, { created_at: now - 7 * DAY + 60 });
    await h.setLine(L.s2.id, { created_at: now - 7 * DAY - 60 });
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_new: 2 });
      expect(await h.figures(M.token)).toEqual({ ...M_FIGURES, users_new: 11 });
    } finally {
      await h.setLine(L.s1.id, { created_at: now });
      await h.setLine(L.s2.id, { created_at: now });
    }
  });

  it('online figures: distinct lines, connection rows, lines of sub-resellers; scoped', async () => {
    await h.connect(L.m1.id, 2);
    await h.connect(L.m6.id, 1); // a trial online counts too
    await h.connect(L.s1.id, 1);
    await h.connect(L.s2.id, 3);
    await h.connect(L.x1.id, 1);
    await h.connect(L.m10.id, 2); // deleted line: never counted
    try {
      expect(await h.figures(S.token)).toEqual({ ...S_FIGURES, users_online: 2, conections_online: 4, users_online_of_resellers: 0 });
      expect(await h.figures(M.token)).toEqual({ ...M_FIGURES, users_online: 4, conections_online: 7, users_online_of_resellers: 2 });
      expect(await h.figures(X.token)).toEqual({ ...X_FIGURES, users_online: 1, conections_online: 1, users_online_of_resellers: 0 });
      // the admin owns no line: every online line belongs to a reseller below it
      expect(await h.figures(h.admin)).toEqual({ ...ADMIN_FIGURES, users_online: 5, conections_online: 8, users_online_of_resellers: 5 });
    } finally {
      await h.t.database.db.deleteFrom('line_activity').execute();
    }
    expect(await h.figures(M.token)).toEqual(M_FIGURES);
  });

  it('a deleted line leaves every count', async () => {
    const line = await h.line(S.token);
    await h.action(S.token, line.id, 'p2p3');
    await h.connect(line.id, 2);
    expect(await h.figures(S.token)).toEqual({
      ...S_FIGURES,
      users: 4,
      users_active: 3,
      users_activep2p: 2,
      users_new: 4,
      users_online: 1,
      conections_online: 2,
    });
    expect(await h.figures(M.token)).toEqual({
      ...M_FIGURES,
      users: 14,
      users_active: 7,
      users_activep2p: 4,
      users_new: 13,
      users_online: 1,
      conections_online: 2,
      users_online_of_resellers: 1,
    });
    await h.action(S.token, line.id, 'delete');
    try {
      expect(await h.figures(S.token)).toEqual(S_FIGURES);
      expect(await h.figures(M.token)).toEqual(M_FIGURES);
      expect(await h.figures(h.admin)).toEqual(ADMIN_FIGURES);
    } finally {
      await h.t.database.db.deleteFrom('line_activity').execute();
    }
  });

  it('requires a session', async () => {
    await h.expectStatus(null, { method: 'GET', url: '/api/dashboard' }, 401);
  });
});

describe(`dashboard cache of a nested master, 30 s TTL (${ENGINE})`, () => {
  const h = harness();
  let C: { id: number; token: string };
  let D: { id: number; token: string };
  const cacheRow = (id: number) => h.t.database.db.selectFrom('dashboard_cache').selectAll().where('reseller_id', '=', id).executeTakeFirst();
  /** Makes the stored answer and its stamps `seconds` older (ms columns), as if that much time had passed. */
  const age = (id: number, seconds: number) =>
    h.t.database.db
      .updateTable('dashboard_cache')
      .set((eb) => ({ computed_at: eb('computed_at', '-', seconds * 1000), invalidated_at: eb('invalidated_at', '-', seconds * 1000) }))
      .where('reseller_id', '=', id)
      .execute();

  beforeAll(async () => {
    await h.init({ dashboardCacheSeconds: 30 });
    // The cache serves nested masters and resellers: admins and top-level masters read kept
    // counts, fresh on every call (dashboard-kept-counts.test.ts).
    const top = await h.reseller(h.admin, 'cache_top', 'master', 100);
    const nested = await h.reseller(top.token, 'cache_m', 'reseller', 50);
    await h.expectStatus(top.token, { method: 'POST', url: `/api/resellers/${nested.id}/to_master` }, 200);
    C = { id: nested.id, token: await h.t.login('cache_m', PASS) };
    D = await h.reseller(C.token, 'cache_s', 'reseller', 10);
  });
  afterAll(async () => {
    await h.close();
    resetClock();
  });

  it('serves the stored answer (same computed_at) within the TTL', async () => {
    const first = await h.dashboard(C.token);
    expect(first).toMatchObject({ users: 0, resellers: 1 });
    expect(Math.floor(Number((await cacheRow(C.id))?.computed_at) / 1000)).toBe(first.computed_at);
    // 5 s later: the stored answer comes back as it was stored (a recompute would say "now")
    await age(C.id, 5);
    const again = await h.dashboard(C.token);
    expect(again).toEqual({ ...first, computed_at: first.computed_at - 5 });
  });

  it('a line created through the API shows at once for the owner, its master and the admin', async () => {
    const before = { c: await h.dashboard(C.token), d: await h.dashboard(D.token), a: await h.dashboard(h.admin) };
    const line = await h.line(D.token);
    expect(await h.figures(D.token)).toMatchObject({ users: before.d.users + 1, users_active: before.d.users_active + 1, users_new: before.d.users_new + 1 });
    expect(await h.figures(C.token)).toMatchObject({ users: before.c.users + 1, users_active: before.c.users_active + 1 });
    expect(await h.figures(h.admin)).toMatchObject({ users: before.a.users + 1, users_active: before.a.users_active + 1 });
    // blocking and deleting through the API also show at once
    await h.action(D.token, line.id, 'block');
    expect(await h.figures(C.token)).toMatchObject({ users: before.c.users + 1, users_active: before.c.users_active });
    await h.action(D.token, line.id, 'delete');
    expect(await h.figures(C.token)).toMatchObject({ users: before.c.users, users_active: before.c.users_active });
    expect(await h.figures(h.admin)).toMatchObject({ users: before.a.users });
  });

  it('a sub-reseller created through the API shows at once in the resellers card', async () => {
    const before = await h.dashboard(C.token);
    const adminBefore = await h.dashboard(h.admin);
    await h.expectStatus(C.token, { method: 'POST', url: '/api/resellers', payload: { username: 'cache_s2', password: PASS, member_group_id: h.groups.reseller } }, 201);
    expect((await h.dashboard(C.token)).resellers).toBe(before.resellers + 1);
    expect((await h.dashboard(h.admin)).resellers).toBe(adminBefore.resellers + 1);
  });

  // A dashboard computed from data read *before* a line was created must not be stored *after*
  // that creation dropped the cache, or the new line stays invisible for the whole TTL. On
  // PostgreSQL the interleaving happens under plain concurrency (GET /api/dashboard racing
  // POST /api/users); here it is made deterministic by holding the cache row's key in an open
  // transaction, so the GET's store waits while the creation commits. (SQLite's single
  // connection makes the same interleaving impractical to force from a test.)
  it('an answer whose computation overlapped a line change is never stored', async () => {
    const db = h.t.database.db;
    await db.deleteFrom('dashboard_cache').where('reseller_id', '=', C.id).execute();
    // A line of C changes (and is stamped) while C's figures are being computed.
    const first = await cached(h.t.deps, C.id, async () => {
      await invalidateFor(db, C.id);
      return { marker: 'computed-before-the-change' };
    });
    expect(first.marker).toBe('computed-before-the-change');
    advanceClock(5); // stamps are in ms; equal ms never stores
    try {
      // The next call recomputes (the overlapping answer was not stored); that answer started
      // after the stamp, so it is stored and served until the next change.
      const second = await cached(h.t.deps, C.id, async () => ({ marker: 'recomputed' }));
      expect(second.marker, 'the overlapping answer must not be served from the cache').toBe('recomputed');
      const third = await cached(h.t.deps, C.id, async () => ({ marker: 'not-called' }));
      expect(third.marker).toBe('recomputed');
    } finally {
      await db.deleteFrom('dashboard_cache').where('reseller_id', '=', C.id).execute();
    }
  });

  it('a line change after an answer was stored makes it stale at once', async () => {
    const before = await h.dashboard(C.token);
    await h.line(C.token);
    const after = await h.dashboard(C.token);
    expect(after.users).toBe(before.users + 1);
  });

  it('a direct database change waits for the TTL', async () => {
    const line = await h.line(C.token);
    // The cache refuses to store an answer computed in the same millisecond as the line's
    // invalidation (it may have overlapped the change); step past it so `fresh` is stored.
    advanceClock(5);
    const fresh = await h.dashboard(C.token);
    expect(fresh.users_active).toBeGreaterThanOrEqual(1);
    await h.setLine(line.id, { exp_date: nowSec() - 1 });
    await h.connect(line.id, 1);

    // 25 s later: still the stored line figures, with their original computed_at; the online
    // cards are counted on every call, so the connection shows at once
    await age(C.id, 25);
    const stale = await h.dashboard(C.token);
    expect(stale.computed_at).toBe(fresh.computed_at - 25);
    const { computed_at: _a, ...staleFigures } = stale;
    const { computed_at: _b, ...freshFigures } = fresh;
    expect(staleFigures).toEqual({ ...freshFigures, users_online: fresh.users_online + 1, conections_online: fresh.conections_online + 1 });

    // past the TTL: recomputed, the expiry is seen, computed_at is new
    await age(C.id, 10);
    const before = nowSec();
    const recomputed = await h.dashboard(C.token);
    expect(recomputed.computed_at).toBeGreaterThanOrEqual(before);
    expect(recomputed.users_active).toBe(fresh.users_active - 1);
    expect(recomputed.users).toBe(fresh.users);
    expect(recomputed.users_online).toBe(fresh.users_online + 1);
    expect(recomputed.conections_online).toBe(fresh.conections_online + 1);
    expect(Math.floor(Number((await cacheRow(C.id))?.computed_at) / 1000)).toBe(recomputed.computed_at);
  });
});
