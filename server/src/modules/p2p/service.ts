// The p2p module's service, one file per job: queries (list, read, search, online, outbox
// status), accounts (create, trial, edit, delete, block, renew), imports (the old P2P panel).
// The outbox (outbox.ts) and its worker (worker.ts) keep the P2P server in sync.
export { get, list, online, outboxStatus, selectSearch } from './queries.ts';
export { type CreateInput, create, createTrial, handOverAccounts, remove, renew, setStatus, update } from './accounts.ts';
export { attachLogin, importPreview, migrateClients, migrateReseller } from './imports.ts';
export { kick, queueLineChange } from './outbox.ts';
