import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/connection.ts';
import { nowSec } from '../src/lib/clock.ts';
import { whatsappNumber } from '../src/modules/reminders/whatsapp.ts';
import { ENGINE } from './helpers.ts';
import { PACKAGE_DEFAULTS } from './fixtures.ts';
import { type FreshDatabase, ServerProcess, freePort, freshDatabase } from './security/server-process.ts';
import { type EvolutionStandin, startEvolution } from './standins/evolution.ts';
import { schedulerRounds } from './wait.ts';

// Expiry reminders from the real server process through an Evolution API stand-in. The server is
// killed (SIGKILL) with one WhatsApp message held unanswered by the gateway and others not started
// yet, and started again: the cut-off message is sent once more after its lease runs out, the
// rest once, and no line gets two. On PostgreSQL two server processes on one database send each of
// two resellers' lines exactly one message, through each reseller's own gateway instance.

const ADMIN_PASSWORD = 'Reminder-crash-admin-4827';
const RESELLER_PASSWORD = 'Kq7.vX2p_Rz9@tLm';
const KEY = 'evo-key-restart-0123456789';

// Stages fall on calendar days in REMINDERS_TIME_ZONE, and this runs on the real clock: a zone where
// it is around noon now keeps "today" from turning into "yesterday" between the setup and the sends.
const utcHour = new Date().getUTCHours();
const shift = 12 - utcHour; // local = UTC + shift, -11..12
const TIME_ZONE = shift === 0 ? 'Etc/GMT' : `Etc/GMT${shift > 0 ? '-' : '+'}${Math.abs(shift)}`; // Etc/GMT signs are inverted

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`reminders across a SIGKILL of the panel (${ENGINE})`, () => {
  let db: FreshDatabase;
  let database: Database | undefined;
  let server: ServerProcess;
  let evo: EvolutionStandin;
  let admin = '';
  let pkg = 0;
  const groups: Record<string, number> = {};
  const env = (url: string) => ({
    DATABASE_URL: url,
    ADMIN_PASSWORD,
    OUTBOUND_ALLOW_NETWORKS: '127.0.0.1/32',
    REMINDERS_TICK_SECONDS: '1',
    INTEGRATION_TIMEOUT_MS: '1000',
    REMINDERS_RETRY_BASE_MS: '200',
    REMINDERS_TIME_ZONE: TIME_ZONE,
  });

  async function api(base: string, method: string, path: string, body: unknown, auth: string) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
  }
  async function ok(base: string, method: string, path: string, body: unknown, auth: string, status = 200) {
    const res = await api(base, method, path, body, auth);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.json;
  }

  /** A reseller with credits, reminders on (stage `day`, no quiet hours) through gateway instance `instance`. */
  async function reminderReseller(username: string, instance: string): Promise<{ id: number; token: string }> {
    const made = await ok(server.base, 'POST', '/api/resellers', { username, password: RESELLER_PASSWORD, member_group_id: groups.reseller, credits: 50 }, admin, 201);
    const token = (await ok(server.base, 'POST', '/api/auth/sign-in', { username, password: RESELLER_PASSWORD }, '')).token;
    const settings = await ok(
      server.base,
      'PUT',
      '/api/reminders/settings',
      { enabled: true, stages: ['day'], quiet_hours: { from: '00:00', to: '00:00' }, channels: { whatsapp: { base_url: evo.url, instance, api_key: KEY } } },
      token,
    );
    expect(settings).toMatchObject({ enabled: true, channels: { whatsapp: { api_key_set: true, ready: true } } });
    return { id: made.id, token };
  }

  /** `n` lines of the reseller with WhatsApp numbers, expiring a month from now (not due yet). */
  async function lines(token: string, first: number, n: number): Promise<{ id: number; number: string }[]> {
    const out: { id: number; number: string }[] = [];
    for (let i = first; i < first + n; i++) {
      const whatsapp = `1191234${String(i).padStart(4, '0')}`;
      const made = await ok(server.base, 'POST', '/api/users', { package_id: pkg, whatsapp }, token, 201);
      out.push({ id: made.id, number: whatsappNumber(whatsapp)! });
    }
    return out;
  }

  /** Makes the lines expire now: due their `day` reminder. */
  async function expireNow(ids: number[]) {
    await database!.db.updateTable('lines').set({ exp_date: nowSec() }).where('id', 'in', ids).execute();
  }

  const messages = (lineIds: number[]) =>
    database!.db.selectFrom('reminder_messages').select(['line_id', 'status', 'attempts', 'recipient']).where('line_id', 'in', lineIds).orderBy('id').execute();
  const deliveredTo = (number: string) => evo.delivered.filter((d) => d.number === number).length;

  async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 100) {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server output:\n${server.output.slice(-20).join('\n')}`);
      await sleep(stepMs);
    }
  }

  beforeAll(async () => {
    db = await freshDatabase('panel_reminder_crash');
    evo = await startEvolution(KEY);
    server = new ServerProcess(await freePort(), env(db.url));
    await server.start();
    database = openDatabase(db.url); // the server has migrated it
    admin = (await ok(server.base, 'POST', '/api/auth/sign-in', { username: 'admin', password: ADMIN_PASSWORD }, '')).token;
    for (const g of (await ok(server.base, 'GET', '/api/datacomplements', undefined, admin)).groups) groups[g.type] ??= g.group_id;
    const bouquet = (await ok(server.base, 'POST', '/api/admin/bouquets', { bouquet_name: 'lembretes' }, admin, 201)).id;
    pkg = (await ok(server.base, 'POST', '/api/admin/packages', { ...PACKAGE_DEFAULTS, package_name: 'lembretes', bouquets: [String(bouquet)] }, admin, 201)).id;
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.close();
    await evo?.close();
    await db?.drop();
  });

  it('sends every due line one message after a SIGKILL with a send in flight', { timeout: 60_000 }, async () => {
    const reseller = await reminderReseller('lembra_crash', 'loja_crash');
    const all = await lines(reseller.token, 0, 6);
    const ids = all.map((l) => l.id);

    // two go out before the crash, and stay delivered once
    await expireNow(ids.slice(0, 2));
    await until('the first two messages', () => evo.delivered.length === 2, 10_000);

    // the gateway now holds what it gets: the next send is in flight, the others wait behind it
    evo.mode = 'hold';
    const before = evo.requests;
    await expireNow(ids.slice(2));
    // kill before the 1 s INTEGRATION_TIMEOUT_MS would turn the held send into a retry
    await until('a send held by the gateway', () => evo.requests > before, 10_000, 5);
    expect((await server.stop('SIGKILL')).signal).toBe('SIGKILL');
    expect(evo.requests).toBe(before + 1);
    const cut = await messages(ids);
    expect(cut.map((m) => m.status)).toEqual(['sent', 'sent', 'sending']);
    const heldLine = cut[2]!.line_id;

    // a held request whose client died is never answered (never counted as delivered)
    evo.mode = 'ok';
    const restarted = Date.now();
    await server.start();
    await until(
      'every line delivered and recorded sent',
      async () => all.every((l) => deliveredTo(l.number) >= 1) && (await messages(ids)).filter((m) => m.status === 'sent').length === ids.length,
      40_000,
    );
    const took = Date.now() - restarted;
    await schedulerRounds(database!.db, 'reminders', 2); // a couple more whole rounds: nothing more goes out
    for (const l of all) expect(deliveredTo(l.number), `line ${l.id}`).toBe(1);
    expect(evo.delivered).toHaveLength(all.length);
    expect(evo.delivered.every((d) => d.instance === 'loja_crash')).toBe(true);
    const rows = await messages(ids);
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((m) => m.status === 'sent')).toBe(true);
    expect(rows.find((m) => m.line_id === heldLine)!.attempts).toBe(2); // sent again once, after its lease
    expect(rows.filter((m) => m.line_id !== heldLine).every((m) => m.attempts === 1)).toBe(true);
    // the dead process's `reminders` lease and the send's lease run out first (12 s and 6 s here)
    expect(took).toBeGreaterThan(5_000);
  });

  it.skipIf(ENGINE !== 'postgres')('two server processes send each line of two resellers one message', { timeout: 60_000 }, async () => {
    const b = await reminderReseller('lembra_b', 'loja_b');
    const c = await reminderReseller('lembra_c', 'loja_c');
    const linesB = await lines(b.token, 100, 15);
    const linesC = await lines(c.token, 200, 15);
    const all = [...linesB, ...linesC];
    const other = new ServerProcess(await freePort(), env(db.url));
    await other.start();
    try {
      evo.delivered.length = 0;
      await expireNow(all.map((l) => l.id));
      // delivered, and each outcome recorded (the row is written after the gateway answered)
      const ids = all.map((l) => l.id);
      await until(
        'all 30 delivered and recorded sent',
        async () => all.every((l) => deliveredTo(l.number) >= 1) && (await messages(ids)).filter((m) => m.status === 'sent').length === ids.length,
        30_000,
      );
      await schedulerRounds(database!.db, 'reminders', 2); // a couple more whole rounds: nothing more goes out
      for (const l of all) expect(deliveredTo(l.number), `line ${l.id}`).toBe(1);
      expect(evo.delivered).toHaveLength(all.length);
      for (const l of linesB) expect(evo.delivered.find((d) => d.number === l.number)!.instance).toBe('loja_b');
      for (const l of linesC) expect(evo.delivered.find((d) => d.number === l.number)!.instance).toBe('loja_c');
      const rows = await messages(all.map((l) => l.id));
      expect(rows).toHaveLength(all.length);
      expect(rows.every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
    } finally {
      await other.stop('SIGKILL');
    }
  });
});
