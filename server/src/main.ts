import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { prepareDatabase } from './bootstrap.ts';
import { isWorker, superviseWorkers } from './cluster.ts';
import { type Config, loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { closeGracefully } from './http/shutdown.ts';
import { createLogger, setProcessLogger } from './lib/logger.ts';
import { startLineCountFolder } from './modules/dashboard/line-counts-folder.ts';
import { startOutboxWorker } from './modules/p2p/worker.ts';
import { startWebhookWorker } from './modules/webhooks/worker.ts';
import { startReminderScheduler } from './modules/reminders/scheduler.ts';
import { startPaymentsWorker } from './modules/payments/worker.ts';
import { startTelegramWorker } from './modules/telegram/service.ts';
import { startBackupScheduler } from './modules/backups/scheduler.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const config = loadConfig();
config.webDist ??= path.resolve(here, '../../web/dist');
// One JSON line per entry (lib/logger.ts): the app's requests, the workers, the pools, the cluster's primary.
const log = createLogger(config.logLevel);
setProcessLogger(log);

/** Migrations and the first admin: once, in the only process or in the cluster's primary. */
async function prepare(database: ReturnType<typeof openDatabase>, config: Config) {
  const admin = await prepareDatabase({ config, database });
  if (admin?.passwordFile) {
    // The password itself is never logged: the file is readable by this user only.
    log.warn({ username: admin.username, passwordFile: admin.passwordFile }, `First admin created (username ${admin.username}): its generated password is in ${admin.passwordFile}; sign in, change it, then delete the file`);
  } else if (admin) {
    log.info({ username: admin.username }, `First admin created (username ${admin.username}, password from ADMIN_PASSWORD)`);
  }
}

if (config.workers > 1 && !isWorker()) {
  // WORKERS > 1 (PostgreSQL): this process prepares the database, then only supervises (cluster.ts).
  const database = openDatabase(config.databaseUrl, config);
  await prepare(database, config);
  await database.close();
  process.exit(await superviseWorkers(config.workers, (msg) => log.error(msg)));
}

const database = openDatabase(config.databaseUrl, config);
if (!isWorker()) await prepare(database, config);
const deps = { config, database };
const app = await buildApp(deps, { logger: log });
if (config.workerPidHeader) app.addHook('onSend', async (_req, reply) => void reply.header('x-worker-pid', String(process.pid)));

await app.listen({ port: config.port, host: config.host });

// Deliveries to the P2P server: without P2P_API_URL they wait in the outbox (nothing is lost).
// With WORKERS every worker runs one: on PostgreSQL they claim rows with FOR UPDATE SKIP LOCKED.
const worker = config.p2pApiUrl ? startOutboxWorker(deps, { log: (msg, err) => app.log.error({ err }, msg) }) : undefined;
if (!config.p2pApiUrl) app.log.warn('P2P_API_URL is not set: changes to P2P accounts wait in the outbox until it is');

// Webhook deliveries: every process runs one; a lease per delivery shares the work (webhooks/worker.ts).
const webhooks = startWebhookWorker(deps, { log: (msg, err) => app.log.error({ err }, msg) });

// Expiry reminders: every process ticks; the one holding the `reminders` lease sends (reminders/scheduler.ts).
const reminders = startReminderScheduler(deps, { log: (msg, err) => app.log.error({ err }, msg) });

// PIX payments: lost notifications asked about, payments waiting for credits applied (payments/worker.ts).
const payments = startPaymentsWorker(deps, { log: (msg, err) => app.log.error({ err }, msg) });

// Telegram bots: every process ticks; the one holding the `telegram` lease sends the queue (telegram/worker.ts).
const telegram = startTelegramWorker(deps, { log: (msg, err) => app.log.error({ err }, msg) });

// Scheduled backups (BACKUP_EVERY_HOURS): every process ticks; the one claiming the due slot takes it (backups/scheduler.ts).
const backups = startBackupScheduler(deps, app.log);

// The lines triggers write the dashboard's count changes; this moves them into the kept counts.
const folder = startLineCountFolder(deps, (err) => app.log.error({ err }, 'folding the line counts failed'));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  try {
    await folder.stop();
    await worker?.stop(); // aborts the deliveries in flight: they stay queued for the next start
    await webhooks.stop();
    await reminders.stop();
    await payments.stop();
    await telegram.stop();
    await backups?.stop();
    await closeGracefully(app); // stops accepting, finishes in-flight requests, no connection reset
    await database.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
