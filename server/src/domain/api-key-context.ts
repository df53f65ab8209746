import { AsyncLocalStorage } from 'node:async_hooks';

/** The name of the API key the current request came through, for the action log (set in http/auth.ts). */
export const apiKeyInUse = new AsyncLocalStorage<string>();
