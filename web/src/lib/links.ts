import type { LineLinks, LinkType } from '../api/types';

/**
 * The links the panel offers for a line, the default first. HLS (`output=m3u8`) is the default:
 * the shipped edge sample (docs/nginx-edge.conf) serves HLS only, so an MPEG-TS link (`mpgets`,
 * still answered by the API for old clients) would not play there and is not offered.
 */
export const OFFERED_LINKS = ['m3u8', 'hls', 'ssiptv'] as const satisfies readonly LinkType[];
export type OfferedLink = (typeof OFFERED_LINKS)[number];

/** The link customers get: first in the links dialog and the one inside the WhatsApp message. */
export const DEFAULT_LINK: OfferedLink = OFFERED_LINKS[0];

/** The default link of a line's links, or '' while they are not loaded. */
export const customerLink = (links: Partial<LineLinks> | undefined): string => links?.[DEFAULT_LINK] ?? '';
