// The integrations module's public entry.
export { NOT_CONFIGURED, UpstreamError, fetchLimited } from './http.ts';
