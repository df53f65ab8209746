import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { type Operation, isDocumentedError, isPublic, operations, sample, sampleParams, urlOf, validates } from './security/openapi.ts';
import { type IdKind, type Target, bodyHints, idKind, pathParams, queryHints } from './security/requests.ts';
import { type Snapshot, diff, ledgerProblems, reachable, snapshot } from './security/state.ts';
import { type NodeName, STRONG_PASSWORD, type World, seedWorld, subtreeOf, worldStandins } from './security/world.ts';

// Every operation of the OpenAPI document x every kind of caller, aimed at records outside the
// caller's reach: refused (401 without a valid session, 403/404 with one), nothing changed, and
// no other subtree's data in any answer. Routes added later are covered without touching this file.

interface Caller {
  name: string;
  token: string | null;
  /** the seeded reseller behind the token */
  self?: NodeName;
  targets: { resellers: number[]; lines: number[] };
  /** text that must never appear in this caller's answers */
  markers: string[];
}

interface Verdict {
  op: string;
  caller: string;
  url: string;
  status: number;
  problem?: string;
  /** refused call that went through, another subtree's data shown, or a stray change */
  leak?: boolean;
}

const SIGN_OUT = 'DELETE /api/auth/sign-out';

describe(`authorization matrix (${ENGINE})`, () => {
  let t: TestContext;
  let world: World;
  let ops: Operation[];
  let callers: Caller[];
  let standins: Awaited<ReturnType<typeof worldStandins>>;

  beforeAll(async () => {
    standins = await worldStandins();
    t = await createTestContext(standins.config);
    world = await seedWorld(t);
    ops = operations(t.app);
    const n = world.nodes;
    // markers: usernames and line credentials of everything the caller neither owns nor sits below
    const markersFor = (self?: NodeName) => {
      const own = new Set(self ? subtreeOf(world, self) : []);
      const above = new Set(self ? n[self].ancestors : []);
      return (Object.keys(n) as NodeName[]).flatMap((k) => [
        ...(own.has(k) || above.has(n[k].id) ? [] : [n[k].username]),
        ...(own.has(k) ? [] : [n[k].lineUsername, n[k].linePassword, n[k].p2pUsername, n[k].p2pPassword]),
      ]);
    };
    // keys make hundreds of requests here: no per-minute limit in the way
    expect((await t.call(world.adminToken, { method: 'PUT', url: '/api/admin/settings', payload: { api_key_requests_per_minute: '100000' } })).statusCode).toBe(200);
    const apiKey = async (token: string, scopes: string[]) => {
      const res = await t.call(token, { method: 'POST', url: '/api/api-keys', payload: { name: `matrix ${scopes.join(' ')}`, scopes } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().key as string;
    };
    const revoked = await t.login(n.masterA.username, STRONG_PASSWORD);
    expect((await t.call(revoked, { method: 'DELETE', url: '/api/auth/sign-out' })).statusCode).toBe(204);
    callers = [
      {
        name: 'master',
        token: world.tokens.masterA,
        self: 'masterA',
        targets: { resellers: [n.masterB.id, n.resB1a.id], lines: [n.masterB.lineId, n.resB1a.lineId] },
        markers: markersFor('masterA'),
      },
      {
        name: 'sibling master',
        token: world.tokens.subB2,
        self: 'subB2',
        targets: { resellers: [n.subB1.id, n.masterB.id], lines: [n.subB1.lineId, n.resB1a.lineId] },
        markers: markersFor('subB2'),
      },
      {
        name: 'reseller',
        token: world.tokens.resA2,
        self: 'resA2',
        targets: { resellers: [n.masterA.id, n.subA1.id, n.masterB.id], lines: [n.masterA.lineId, n.resA1a.lineId, n.resB1a.lineId] },
        markers: markersFor('resA2'),
      },
      // API keys act as their owners, never more: the same targets and markers as the owner's session
      {
        name: 'master API key (every scope)',
        token: await apiKey(world.tokens.masterA, ['lines:read', 'lines:write', 'credits:read']),
        self: 'masterA',
        targets: { resellers: [n.masterB.id, n.resB1a.id], lines: [n.masterB.lineId, n.resB1a.lineId] },
        markers: markersFor('masterA'),
      },
      {
        name: 'reseller API key (lines:read)',
        token: await apiKey(world.tokens.resA2, ['lines:read']),
        self: 'resA2',
        targets: { resellers: [n.masterA.id, n.subA1.id, n.masterB.id], lines: [n.masterA.lineId, n.resA1a.lineId, n.resB1a.lineId] },
        markers: markersFor('resA2'),
      },
      { name: 'no token', token: null, targets: { resellers: [n.resB1a.id], lines: [n.resB1a.lineId] }, markers: markersFor() },
      { name: 'revoked token', token: revoked, targets: { resellers: [n.resB1a.id], lines: [n.resB1a.lineId] }, markers: markersFor() },
    ];
  });
  afterAll(async () => {
    await t?.close();
    await standins?.close();
  });

  /** One request; returns its status, answer text, whether the body passed the schema, and what changed. */
  async function send(caller: { token: string | null; self?: NodeName }, op: Operation, target: Target, filtered = true, malformedBody = false) {
    const kind = idKind(op);
    const pathValues = { ...sampleParams(op, 'path', () => undefined), ...pathParams(world, op, target) };
    const query = sampleParams(op, 'query', filtered ? queryHints(op, named(target)) : () => undefined);
    const body = op.body ? sample(op.body, '', bodyHints(world, target, op)) : undefined;
    const bodyValid = !op.body || validates(op.body, body);
    const url = urlOf(op, pathValues, query);
    const before = await snapshot(t.database.db);
    // a spend through an API key must name an Idempotency-Key: send one, so the route itself decides
    const idempotency = caller.token?.startsWith('rk_live_') ? { 'idempotency-key': `matrix-${Math.random()}` } : {};
    const res = await t.call(caller.token, {
      method: op.method as 'GET',
      url,
      ...(malformedBody ? { payload: '[', headers: { 'content-type': 'application/json', ...idempotency } } : body === undefined ? { headers: idempotency } : { payload: body as object, headers: idempotency }),
    });
    const after = await snapshot(t.database.db);
    return { status: res.statusCode, text: res.body, url, bodyValid, before, after, aimsAtTarget: aimsAt(kind, body) };
  }

  /** The P2P account of the reseller that owns `lineId` (targets aim at the same victims' lines and accounts). */
  function p2pOf(lineId: number): number {
    return Object.values(world.nodes).find((x) => x.lineId === lineId)?.p2pId as number;
  }

  /** The target with its reseller's username and its line's username, for text filters. */
  function named(target: Target): Target {
    const nodes = Object.values(world.nodes);
    return {
      ...target,
      resellerName: nodes.find((x) => x.id === target.reseller)?.username,
      lineName: nodes.find((x) => x.lineId === target.line)?.lineUsername,
      p2pName: nodes.find((x) => x.p2pId === target.p2p)?.p2pUsername,
    };
  }

  /** Does the request name a record under attack (path id, or an id field of the body)? */
  function aimsAt(kind: IdKind | undefined, body: unknown): boolean {
    if (kind === 'reseller' || kind === 'line' || kind === 'p2p' || kind === 'apikey' || kind === 'webhook' || kind === 'other') return true;
    const b = body as Record<string, unknown> | undefined;
    return !!b && typeof b === 'object' && ['user_id', 'line_id', 'reseller_id', 'owner', 'owner_id'].some((k) => k in b);
  }

  function leaked(text: string, markers: string[]): string | undefined {
    return markers.find((m) => text.includes(m));
  }

  function strayChanges(before: Snapshot, after: Snapshot, callerId: number | undefined, everything: boolean): string[] {
    const mine = callerId === undefined ? new Set<number>() : reachable(after, callerId);
    return diff(before, after)
      .filter((c) => everything || c.owner === 'global' || !mine.has(c.owner))
      .map((c) => `${c.kind} ${c.key}`);
  }

  it('refuses every operation on records outside the caller, changes nothing, leaks nothing', { timeout: 240_000 }, async () => {
    const started = Date.now();
    const verdicts: Verdict[] = [];
    const invalidBodies = new Set<string>();
    for (const caller of callers) {
      const anonymous = caller.self === undefined;
      const callerId = caller.self ? world.nodes[caller.self].id : undefined;
      for (const op of ops) {
        const opName = `${op.method} ${op.path}`;
        if (isPublic(op)) continue;
        if (!anonymous && opName === SIGN_OUT) continue; // would end the caller's own session
        const kind = idKind(op);
        const pairs: Target[] =
          kind === 'line' || kind === 'p2p'
            ? caller.targets.lines.map((line, i) => ({ line, p2p: p2pOf(line), reseller: caller.targets.resellers[i % caller.targets.resellers.length], recipient: callerId ?? 1 }))
            : kind === 'reseller' || kind === 'other'
              ? caller.targets.resellers.map((reseller, i) => {
                  const line = caller.targets.lines[i % caller.targets.lines.length];
                  return { reseller, line, p2p: p2pOf(line), recipient: callerId ?? 1 };
                })
              : [{ reseller: caller.targets.resellers[0], line: caller.targets.lines[0], p2p: p2pOf(caller.targets.lines[0]), recipient: callerId ?? 1 }];
        // lists: once filtered on the other subtree's records, once unfiltered
        const runs = pairs.flatMap((target) => (op.method === 'GET' && !kind && op.params.some((p) => p.in === 'query') ? [{ target, filtered: true }, { target, filtered: false }] : [{ target, filtered: true }]));
        for (const { target, filtered } of runs) {
          const r = await send(caller, op, target, filtered);
          if (!r.bodyValid) invalidBodies.add(opName);
          const v: Verdict = { op: opName, caller: caller.name, url: r.url, status: r.status };
          const mustRefuse = anonymous || r.aimsAtTarget || op.path.startsWith('/api/admin/');
          const allowed = anonymous ? [401] : mustRefuse ? [403, 404, ...(r.bodyValid ? [] : [400])] : undefined;
          const leak = leaked(r.text, caller.markers);
          const stray = strayChanges(r.before, r.after, callerId, mustRefuse);
          if (r.status >= 500) v.problem = `server error ${r.text}`;
          else if (allowed && !allowed.includes(r.status)) v.problem = `expected ${allowed.join('/')}, got ${r.status} ${r.text.slice(0, 200)}`;
          else if (!anonymous && r.status === 401) v.problem = 'a valid session got 401';
          else if (leak) v.problem = `answer shows ${leak}: ${r.text.slice(0, 200)}`;
          else if (stray.length) v.problem = `changed ${stray.join(', ')}`;
          else if (r.status >= 400 && !isDocumentedError(op, r.status, r.text)) v.problem = `answer not in the OpenAPI document: ${r.status} ${r.text.slice(0, 200)}`;
          v.leak = (mustRefuse && r.status < 300) || leak !== undefined || stray.length > 0;
          verdicts.push(v);
          // refused by role (or without a session): a broken body changes nothing, the role is checked first
          if (op.body && (anonymous || r.status === 403) && filtered) {
            const m = await send(caller, op, target, true, true);
            const mv: Verdict = { op: opName, caller: `${caller.name} (malformed body)`, url: m.url, status: m.status };
            const expected = anonymous ? [401] : [403, 404];
            if (!expected.includes(m.status)) mv.problem = `role must be checked before the body: expected ${expected.join('/')}, got ${m.status} ${m.text.slice(0, 200)}`;
            verdicts.push(mv);
          }
        }
      }
    }

    // Admin may do everything: admin-only routes work, nothing is refused, nothing fails.
    const n = world.nodes;
    const adminTarget: Target = { reseller: n.resB2a.id, line: n.resB2a.lineId, p2p: n.resB2a.p2pId, recipient: n.masterB.id };
    const order = (op: Operation) => (op.method === 'DELETE' ? (op.path.includes('/users/') ? 1 : op.path.includes('/bouquets/') ? 2 : 3) : 0);
    const adminOps = ops.filter((op) => !isPublic(op) && `${op.method} ${op.path}` !== SIGN_OUT).sort((a, b) => order(a) - order(b));
    for (const op of adminOps) {
      const r = await send({ token: world.adminToken }, op, adminTarget);
      const v: Verdict = { op: `${op.method} ${op.path}`, caller: 'admin', url: r.url, status: r.status };
      if (r.status >= 500) v.problem = `server error ${r.text}`;
      else if (r.status === 401 || r.status === 403) v.problem = `admin refused: ${r.text}`;
      else if (op.path.startsWith('/api/admin/') && r.status >= 300) v.problem = `admin-only route failed: ${r.status} ${r.text.slice(0, 200)}`;
      else if (r.status >= 400 && !isDocumentedError(op, r.status, r.text)) v.problem = `answer not in the OpenAPI document: ${r.status} ${r.text.slice(0, 200)}`;
      verdicts.push(v);
    }

    const histogram: Record<string, number> = {};
    for (const v of verdicts) histogram[v.status] = (histogram[v.status] ?? 0) + 1;
    const problems = verdicts.filter((v) => v.problem);
    const leaks = verdicts.filter((v) => v.leak);
    const opCount = ops.filter((op) => !isPublic(op)).length;
    console.log(
      `authz matrix (${ENGINE}): ${opCount} operations x ${callers.length + 1} callers = ${verdicts.length} requests in ${((Date.now() - started) / 1000).toFixed(1)}s; ` +
        `statuses ${JSON.stringify(histogram)}; leaks=${leaks.length}; problems=${problems.length}; ` +
        `public, left out: ${ops.filter(isPublic).map((op) => `${op.method} ${op.path}`).join(', ')}` +
        (invalidBodies.size ? `; bodies the generator could not make valid: ${[...invalidBodies].join(', ')}` : ''),
    );
    for (const v of process.env.MATRIX_VERBOSE ? verdicts : problems) console.log(`  ${v.caller} ${v.op} (${v.url}): ${v.status} ${v.problem ?? ''}`);
    expect(problems).toEqual([]);
    expect(await ledgerProblems(t.database.db)).toEqual([]);
  });
});
