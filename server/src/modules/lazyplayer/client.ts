import type { Config } from '../../config.ts';
import { fetchLimited, UpstreamError } from '../integrations/service.ts';

/**
 * POST {LAZY_PLAYER_URL}/api/playlist_with_mac as form data (docs/integrations.md, "Lazy Player"); 200 means
 * activated. Throws UpstreamError with the status when the service refused, without when it failed.
 */
export async function sendPlaylist(config: Config, input: { name: string; mac: string; url: string }): Promise<void> {
  // multipart/form-data, as the service's own web form sends it
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: input.name, mac: input.mac, url: input.url, is_protected: 'false' })) form.append(k, v);
  const res = await fetchLimited(`${config.lazyPlayerUrl}/api/playlist_with_mac`, { method: 'POST', body: form }, { timeoutMs: config.integrationTimeoutMs, maxBytes: 64_000 });
  if (res.status !== 200) throw new UpstreamError(`refused with status ${res.status}`, res.status);
}
