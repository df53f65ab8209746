import { startStandin } from './http-standin.ts';

/** The Lazy Player service: POST /api/playlist_with_mac answers 200 (activated). */
export const startLazyPlayer = () =>
  startStandin((req) => (req.method === 'POST' && req.url === '/api/playlist_with_mac' ? { json: { message: 'ok' } } : { status: 404, text: 'not found' }));
