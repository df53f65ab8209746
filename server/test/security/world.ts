import { nowSec } from '../../src/lib/clock.ts';
import { startLazyPlayer } from '../standins/lazy-player.ts';
import { startMercadoPago } from '../standins/mercadopago.ts';
import { startTmdb, TMDB_KEY } from '../standins/tmdb.ts';
import { randomBytes } from 'node:crypto';
import { startOldPanelStandin } from '../../../standins/old-panel.ts';
import { startP2pStandin } from '../../../standins/p2p-server.ts';
import type { Config } from '../../src/config.ts';
import type { TestContext } from '../helpers.ts';
import { createBouquet, createLine, createPackage, createReseller, groupIds } from '../fixtures.ts';

// Two master subtrees seeded through the API, so the authorization matrix and the fuzzer have
// real neighbours to attack:
//
//   admin ─ masterA ─ subA1 (master) ─ resA1a          admin ─ masterB ─ subB1 (master) ─ resB1a
//                   └ resA2                                            └ subB2 (master) ─ resB2a
//
// Every reseller owns one line and one P2P account. Usernames and line passwords carry a random tag so a response
// that shows another subtree's data is found by a text search.

export const STRONG_PASSWORD = 'Kq7.vX2p_Rz9@tLm';
const WORLD_MP_TOKEN = 'APP_USR-world-stand-in';

export interface Node {
  id: number;
  username: string;
  lineId: number;
  lineUsername: string;
  linePassword: string;
  /** the node's P2P account */
  p2pId: number;
  p2pUsername: string;
  p2pPassword: string;
  /** ids of this node and every reseller above it, up to (not including) admin */
  ancestors: number[];
}

export interface World {
  adminId: number;
  adminToken: string;
  groups: Record<string, number>;
  packageId: number;
  trialPackageId: number;
  bouquetId: number;
  /** a bouquet no package uses: admin may delete it */
  spareBouquetId: number;
  newsId: number;
  /** a registered streaming edge */
  serverId: number;
  /** an API key and a webhook endpoint of resB1a's */
  apiKeyId: number;
  webhookId: number;
  /** an open connection of each seeded line: activity id by line id */
  activities: Record<number, number>;
  tokens: Record<NodeName, string>;
  nodes: Record<'masterA' | 'subA1' | 'resA1a' | 'resA2' | 'masterB' | 'subB1' | 'resB1a' | 'subB2' | 'resB2a', Node>;
}

export type NodeName = keyof World['nodes'];

async function ok<T = any>(t: TestContext, token: string, method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown): Promise<T> {
  const res = await t.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

export async function seedWorld(t: TestContext): Promise<World> {
  const tag = randomBytes(3).toString('hex');
  const adminToken = await t.login('admin');
  const profile = await ok(t, adminToken, 'GET', '/api/profile');
  const groups = await groupIds(t, adminToken);
  const bouquetId = await createBouquet(t, adminToken, `world bouquet ${tag}`);
  const spareBouquetId = await createBouquet(t, adminToken, `spare bouquet ${tag}`);
  const packageId = await createPackage(t, adminToken, `world package ${tag}`, bouquetId);
  const trialPackageId = await createPackage(t, adminToken, `world trial ${tag}`, bouquetId, { is_trial: 1, is_official: 0, official_credits: 0, official_duration: 0 });
  const news = await ok<{ data: { id: number }[] }>(t, adminToken, 'GET', '/api/news');

  const nodes = {} as World['nodes'];
  const tokens: Partial<Record<NodeName, string>> = {};
  const make = async (name: NodeName, parent: NodeName | null, credits: number, master: boolean) => {
    const username = `${name}_${tag}`;
    const creator = parent ? (tokens[parent] as string) : adminToken;
    // under a master a sub-master is made a reseller first, then promoted
    const r = await createReseller(t, creator, { username, password: STRONG_PASSWORD, type: master && !parent ? 'master' : 'reseller', credits, groups });
    if (master && parent) await ok(t, creator, 'POST', `/api/resellers/${r.id}/to_master`);
    tokens[name] = await t.login(username, STRONG_PASSWORD);
    const lineUsername = `ln_${name}_${tag}`;
    const linePassword = `pw${name}${tag}`;
    const line = await createLine(t, tokens[name] as string, { package_id: packageId, username: lineUsername, password: linePassword });
    const p2pUsername = `p2p_${name}_${tag}`;
    const p2pPassword = `pp${name}${tag}`;
    const p2p = await ok(t, tokens[name] as string, 'POST', '/api/p2p/users', { name: `P2P ${name}`, package_id: packageId, username: p2pUsername, password: p2pPassword });
    nodes[name] = {
      id: r.id,
      username,
      lineId: line.id,
      lineUsername,
      linePassword,
      p2pId: p2p.id,
      p2pUsername,
      p2pPassword,
      ancestors: [r.id, ...(parent ? nodes[parent].ancestors : [])],
    };
  };
  await make('masterA', null, 300, true);
  await make('subA1', 'masterA', 40, true);
  await make('resA1a', 'subA1', 10, false);
  await make('resA2', 'masterA', 20, false);
  await make('masterB', null, 300, true);
  await make('subB1', 'masterB', 40, true);
  await make('resB1a', 'subB1', 10, false);
  await make('subB2', 'masterB', 40, true);
  await make('resB2a', 'subB2', 10, false);

  // some rows in the other tables a leak or a stray write would show in
  await ok(t, tokens.subB1 as string, 'PUT', `/api/resellers/${nodes.resB1a.id}/add_domain`, { dns_reseller: `b1-${tag}.example.com` });
  await ok(t, tokens.subA1 as string, 'PUT', `/api/resellers/${nodes.resA1a.id}/add_domain`, { dns_reseller: `a1-${tag}.example.com` });
  await ok(t, tokens.resB1a as string, 'POST', '/api/shorturl', { user_id: nodes.resB1a.lineId, type: 'm3u8' });
  const serverId = (await ok(t, adminToken, 'POST', '/api/admin/servers', { name: `edge ${tag}`, url: 'https://edge.example.com' })).id;
  // every line online on one connection (as an edge would have reported it)
  const now = nowSec();
  const activities: Record<number, number> = {};
  for (const node of Object.values(nodes)) {
    const row = await t.database.db
      .insertInto('line_activity')
      .values({ line_id: node.lineId, server_id: serverId, user_ip: '192.0.2.10', user_agent: `probe ${tag}`, date_start: now, last_seen: now + 3600 })
      .returning('activity_id')
      .executeTakeFirstOrThrow();
    activities[node.lineId] = Number(row.activity_id);
  }

  // the admin and masterA sell credits (docs/payments.md, "Credit sales"), through the Mercado Pago stand-in
  for (const seller of [adminToken, tokens.masterA as string]) {
    await ok(t, seller, 'PUT', '/api/payments/settings', { mercadopago_access_token: WORLD_MP_TOKEN, mercadopago_webhook_secret: 'world-webhook-secret' });
    await ok(t, seller, 'PUT', '/api/credit-sales/settings', { enabled: true, price_cents_per_credit: 100, min_credits: 1 });
  }

  const apiKeyId = (await ok(t, tokens.resB1a as string, 'POST', '/api/api-keys', { name: `bot ${tag}`, scopes: ['lines:read', 'lines:write'] })).id;
  const webhookId = (await ok(t, tokens.resB1a as string, 'POST', '/api/webhooks', { url: `https://hooks-${tag}.example.com/panel`, events: ['line.created'] })).id;
  return { adminId: profile.id, adminToken, groups, packageId, trialPackageId, bouquetId, spareBouquetId, newsId: news.data[0]?.id ?? 1, serverId, apiKeyId, webhookId, activities, tokens: tokens as World['tokens'], nodes };
}

/** Everything below (and including) `name` in the seeded tree. */
export function subtreeOf(world: World, name: NodeName): NodeName[] {
  const id = world.nodes[name].id;
  return (Object.keys(world.nodes) as NodeName[]).filter((n) => world.nodes[n].ancestors.includes(id));
}

/**
 * The P2P server and old P2P panel stand-ins, so the P2P routes answer for real (a NOT_CONFIGURED
 * 503 would hide what the route does). No outbox worker runs: deliveries stay queued.
 */
/** Every outside system the panel talks to, played on a real socket: no route answers NOT_CONFIGURED here. */
export async function worldStandins(): Promise<{ config: Partial<Config>; close(): Promise<void> }> {
  const p2p = await startP2pStandin();
  const old = await startOldPanelStandin({ accounts: [{ username: 'old_world', password: 'old-world-pass', credits: 3, clients: [] }] });
  const [tmdb, lazy, mp] = await Promise.all([startTmdb(), startLazyPlayer(), startMercadoPago(WORLD_MP_TOKEN)]);
  return {
    config: { p2pApiUrl: p2p.url, oldP2pUrl: old.url, tmdbApiUrl: `${tmdb.url}/3`, tmdbApiKey: TMDB_KEY, lazyPlayerUrl: lazy.url, mercadopagoApiUrl: mp.url, publicUrl: 'https://painel.example' },
    close: async () => {
      await Promise.all([p2p.close(), old.close(), tmdb.close(), lazy.close(), mp.close()]);
    },
  };
}
