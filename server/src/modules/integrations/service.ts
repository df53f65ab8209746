// The integrations module's public entry.
export { UpstreamError, fetchLimited } from './http.ts';
