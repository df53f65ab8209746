import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type FuzzRequest, malformed, prng } from './security/fuzz-cases.ts';
import { type Operation, isDocumentedError, isPublic, operations, sample } from './security/openapi.ts';
import { type IdKind, type Target, bodyHints, idKind } from './security/requests.ts';
import { ledgerProblems } from './security/state.ts';
import { STRONG_PASSWORD, type World, seedWorld, worldStandins } from './security/world.ts';

// OpenAPI-driven fuzzer: every operation gets malformed requests (wrong types, huge, fractional and
// negative numbers, 10k+ strings, NUL, lone surrogates, 5,000-deep nesting, arrays for scalars,
// malformed JSON, wrong content types, odd path ids and query strings), as admin, as a master and
// through the master's API key, so they reach the handlers. Any 5xx fails; afterwards every balance still equals its ledger.
// FUZZ_REQUESTS (default 3000) and FUZZ_SEED replay a run; `npm run fuzz` runs 30,000 per engine.

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31));
const SIGN_OUT = 'DELETE /api/auth/sign-out';

interface Caller {
  name: 'admin' | 'master' | 'master API key';
  id: number;
  username: string;
  password: string;
  token: string;
  saved: { password_hash: string; member_group_id: number };
  /** an API key (every scope): revived by putting its owner back, the key itself stays */
  key?: true;
}

describe(`OpenAPI fuzzer (${ENGINE})`, () => {
  let t: TestContext;
  let world: World;
  let ops: Operation[];
  let callers: Caller[];
  let standins: Awaited<ReturnType<typeof worldStandins>>;

  beforeAll(async () => {
    standins = await worldStandins();
    t = await createTestContext(standins.config);
    world = await seedWorld(t);
    ops = operations(t.app).filter((op) => `${op.method} ${op.path}` !== SIGN_OUT);
    const saved = async (id: number) =>
      t.database.db.selectFrom('resellers').select(['password_hash', 'member_group_id']).where('id', '=', id).executeTakeFirstOrThrow();
    const m = world.nodes.masterA;
    callers = [
      { name: 'admin', id: world.adminId, username: 'admin', password: ADMIN_PASSWORD, token: world.adminToken, saved: await saved(world.adminId) },
      { name: 'master', id: m.id, username: m.username, password: STRONG_PASSWORD, token: world.tokens.masterA, saved: await saved(m.id) },
    ];
    const key = await t.call(world.tokens.masterA, { method: 'POST', url: '/api/api-keys', payload: { name: 'fuzz', scopes: ['lines:read', 'lines:write', 'credits:read'] } });
    callers.push({ name: 'master API key', id: m.id, username: m.username, password: STRONG_PASSWORD, token: key.json().key, saved: await saved(m.id), key: true });
    await t.call(world.adminToken, { method: 'PUT', url: '/api/admin/settings', payload: { api_key_requests_per_minute: '100000' } });
  });
  afterAll(async () => {
    await t?.close();
    await standins?.close();
  });

  /** A fuzzed request may block, deactivate or re-password the caller: put it back and sign in again. */
  async function revive(caller: Caller): Promise<void> {
    await t.database.db
      .updateTable('resellers')
      .set({ status: 1, deleted_at: null, password_hash: caller.saved.password_hash, member_group_id: caller.saved.member_group_id })
      .where('id', '=', caller.id)
      .execute();
    if (!caller.key) caller.token = await t.login(caller.username, caller.password);
  }

  function pathIdsFor(kind: IdKind | undefined): number[] {
    const n = world.nodes;
    switch (kind) {
      case undefined:
        return [];
      case 'line':
        return [n.subA1.lineId, n.resA1a.lineId, n.resA2.lineId, n.masterA.lineId, n.resB1a.lineId];
      case 'p2p':
        return [n.subA1.p2pId, n.resA1a.p2pId, n.resA2.p2pId, n.masterA.p2pId, n.resB1a.p2pId];
      case 'package':
        return [world.packageId, world.trialPackageId];
      case 'bouquet':
        return [world.bouquetId, world.spareBouquetId];
      case 'news':
        return [world.newsId];
      case 'server':
        return [world.serverId];
      case 'apikey':
        return [world.apiKeyId];
      case 'webhook':
        return [world.webhookId];
      default:
        return [n.subA1.id, n.resA1a.id, n.resA2.id, n.masterB.id, n.resB1a.id];
    }
  }

  it(`answers ${TOTAL} malformed requests without a 5xx and keeps the ledger exact`, { timeout: 120_000 + TOTAL * 40 }, async () => {
    console.log(`fuzz (${ENGINE}): seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${TOTAL} requests over ${ops.length} operations`);
    const rng = prng(SEED);
    const n = world.nodes;
    const target: Target = { reseller: n.resA2.id, line: n.resA2.lineId, p2p: n.resA2.p2pId, recipient: n.subA1.id };
    const histogram: Record<string, number> = {};
    const failures: { req: FuzzRequest; caller: string; status: number; answer: string }[] = [];
    /** odd path ids ('0x1', '%204', '1e3'...) that were taken for a number */
    const coerced: typeof failures = [];
    /** 4xx answers whose status and code the OpenAPI document does not list for the operation */
    const undocumented: typeof failures = [];
    let clientRejected = 0;
    const timeByOp: Record<string, number> = {};
    const started = Date.now();
    for (let i = 0; i < TOTAL; i++) {
      const op = ops[i % ops.length];
      const anonymous = isPublic(op);
      const caller = anonymous ? undefined : callers[Math.floor(i / ops.length) % callers.length];
      const valid = op.body ? sample(op.body, '', bodyHints(world, target, op)) : undefined;
      const req = malformed(rng, op, valid, pathIdsFor(idKind(op)));
      const send = () =>
        t.app.inject({
          method: req.method as 'GET',
          url: req.url,
          headers: { ...req.headers, ...(caller ? { authorization: `Bearer ${caller.token}` } : {}) },
          ...(req.payload === undefined ? {} : { payload: req.payload }),
          // sign-in probes come from many addresses so they never rate-limit the callers' own sign-ins
          remoteAddress: anonymous ? `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` : '127.0.0.1',
        });
      let res: Awaited<ReturnType<typeof send>>;
      const opStarted = Date.now();
      try {
        res = await send();
        if (res.statusCode === 401 && caller) {
          await revive(caller);
          res = await send();
        }
      } catch {
        clientRejected++; // the HTTP client refused to build it (e.g. an invalid header): never reached the server
        continue;
      }
      histogram[res.statusCode] = (histogram[res.statusCode] ?? 0) + 1;
      const opKey = `${op.method} ${op.path}`;
      timeByOp[opKey] = (timeByOp[opKey] ?? 0) + Date.now() - opStarted;
      if (res.statusCode >= 500) failures.push({ req, caller: caller?.name ?? 'no token', status: res.statusCode, answer: res.body.slice(0, 300) });
      else if (req.oddPath && res.statusCode < 300) coerced.push({ req, caller: caller?.name ?? 'no token', status: res.statusCode, answer: res.body.slice(0, 300) });
      else if (res.statusCode >= 400 && !isDocumentedError(op, res.statusCode, res.body)) undocumented.push({ req, caller: caller?.name ?? 'no token', status: res.statusCode, answer: res.body.slice(0, 300) });
    }
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    const ledger = await ledgerProblems(t.database.db);
    console.log(
      `fuzz (${ENGINE}): ${TOTAL} requests in ${secs}s, seed ${SEED}; statuses ${JSON.stringify(histogram)}; ` +
        `5xx=${failures.length}; odd ids answered 2xx=${coerced.length}; undocumented errors=${undocumented.length}; not sendable=${clientRejected}; ledger mismatches=${ledger.length}`,
    );
    if (process.env.FUZZ_VERBOSE) {
      const slowest = Object.entries(timeByOp).sort((a, b) => b[1] - a[1]).slice(0, 8);
      console.log(`  slowest operations (total ms): ${slowest.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    const shown = process.env.FUZZ_VERBOSE ? failures.length : 25;
    for (const f of failures.slice(0, shown)) {
      const payload = f.req.payload === undefined ? '' : ` body ${JSON.stringify(f.req.payload.toString().slice(0, 160))}`;
      console.log(`  ${f.status} as ${f.caller}: ${f.req.method} ${f.req.url.slice(0, 200)} [${f.req.what}]${payload} -> ${f.answer}`);
    }
    if (failures.length > shown) console.log(`  ... and ${failures.length - shown} more (FUZZ_VERBOSE=1 shows all)`);
    for (const f of coerced.slice(0, 10)) console.log(`  odd id answered ${f.status} as ${f.caller}: ${f.req.method} ${f.req.url.slice(0, 120)}`);
    expect(failures.map((f) => `${f.status} ${f.req.method} ${f.req.url.slice(0, 120)} [${f.req.what}]`)).toEqual([]);
    expect(coerced.map((f) => `${f.status} ${f.req.method} ${f.req.url.slice(0, 120)}`)).toEqual([]);
    expect(undocumented.map((f) => `${f.status} ${f.req.method} ${f.req.url.slice(0, 120)}: ${f.answer}`)).toEqual([]);
    expect(ledger).toEqual([]);
    expect(clientRejected).toBeLessThan(TOTAL / 10);
  });
});
