import { expect } from 'vitest';
import { type OldPanelStandin, startOldPanelStandin } from '../../standins/old-panel.ts';
import { type P2pStandin, startP2pStandin } from '../../standins/p2p-server.ts';
import type { Config } from '../src/config.ts';
import { type OutboxWorker, startOutboxWorker } from '../src/modules/p2p/worker.ts';
import { balanceOf, createBouquet, createPackage, createSignedInReseller, groupIds, ledgerSumOf } from './fixtures.ts';
import { type TestContext, createTestContext } from './helpers.ts';

// A test world for the P2P tests: the app on a fresh database, the P2P server and old panel
// stand-ins on real sockets, packages, and helpers to make resellers and accounts.

export const PASS = 'Str0ng-pass!';
export const P2P_KEY = 'test-p2p-key';

export interface Actor {
  id: number;
  username: string;
  token: string;
}

export interface P2pWorld {
  t: TestContext;
  admin: string;
  groups: Record<string, number>;
  bouquet: number;
  /** 1 credit, 1 month, 1 screen */
  cheap: number;
  /** 3 credits per screen, 2 screens fixed, 3 months */
  family: number;
  trialPkg: number;
  p2p: P2pStandin;
  old: OldPanelStandin;
  /** started by startWorker() */
  worker?: OutboxWorker;
  reseller(username: string, type: 'master' | 'reseller', credits: number, by?: string): Promise<Actor>;
  /** creates a paid account (201 expected) */
  account(token: string, body?: Record<string, unknown>): Promise<P2pAccount>;
  startWorker(pollMs?: number): OutboxWorker;
  balance(id: number): Promise<number>;
  ledgerSum(id: number): Promise<number>;
  close(): Promise<void>;
}

export interface P2pAccount {
  id: number;
  name: string;
  username: string;
  email: string;
  password: string;
  created: number;
  expiracao: number;
  status: number;
  is_trial: number;
  member_id: number;
  max_connections: number;
  sync_state: 'synced' | 'pending' | 'failed';
  sync_error: string | null;
}

/**
 * `configured: false` leaves P2P_API_URL and OLD_P2P_URL unset (the stand-ins still run, unused).
 * The outbox worker is not started unless the test calls startWorker().
 */
export async function p2pWorld(opts: { configured?: boolean; config?: Partial<Config>; standinDelayMs?: number } = {}): Promise<P2pWorld> {
  const p2p = await startP2pStandin({ key: P2P_KEY, delayMs: opts.standinDelayMs });
  const old = await startOldPanelStandin();
  const configured = opts.configured ?? true;
  const t = await createTestContext({
    ...(configured ? { p2pApiUrl: p2p.url, p2pApiKey: P2P_KEY, oldP2pUrl: old.url } : {}),
    p2pRetryBaseMs: 50,
    p2pRetryMaxMs: 400,
    ...opts.config,
  });
  const admin = await t.login('admin');
  const groups = await groupIds(t, admin);
  const bouquet = await createBouquet(t, admin, 'All');
  const cheap = await createPackage(t, admin, 'One credit', bouquet);
  const family = await createPackage(t, admin, 'Family', bouquet, { max_connections: 2, official_credits: 3, official_duration: 3 });
  const trialPkg = await createPackage(t, admin, 'Trial', bouquet, { is_trial: 1, is_official: 0, trial_duration: 24, trial_duration_in: 'hours' });

  const world: P2pWorld = {
    t,
    admin,
    groups,
    bouquet,
    cheap,
    family,
    trialPkg,
    p2p,
    old,
    async reseller(username, type, credits, by = admin) {
      const { id, token } = await createSignedInReseller(t, by, { username, password: PASS, type, credits, groups });
      return { id, username, token };
    },
    async account(token, body = {}) {
      const res = await t.call(token, { method: 'POST', url: '/api/p2p/users', payload: { name: '', package_id: cheap, ...body } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    },
    startWorker(pollMs = 50) {
      world.worker = startOutboxWorker(t.deps, { pollMs, log: () => {} });
      return world.worker;
    },
    balance: (id) => balanceOf(t.database.db, id),
    ledgerSum: (id) => ledgerSumOf(t.database.db, id),
    async close() {
      await world.worker?.stop();
      await p2p.close();
      await old.close();
      await t.close();
    },
  };
  return world;
}

/** Undelivered outbox rows (pending or failed). */
export async function undelivered(t: TestContext): Promise<number> {
  const row = await t.database.db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('delivered_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Waits until the outbox is empty; the time it took in ms. */
export async function drained(t: TestContext, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while ((await undelivered(t)) > 0) {
    if (Date.now() - started > timeoutMs) throw new Error(`outbox not drained within ${timeoutMs} ms: ${await undelivered(t)} left`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}
