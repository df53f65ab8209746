import type { CatalogueKind } from '../../db/types.ts';

export interface StreamRequest {
  kind: CatalogueKind;
  username: string;
  password: string;
  streamId: number;
}

// /live/{u}/{p}/{id}.{ext}, and anything under /live/{u}/{p}/{id}/ (an HLS stream's segments);
// the same under /movie/ and /series/. The query string, if any, is ignored.
const STREAM_URI = /^\/(live|movie|series)\/([^/?#]+)\/([^/?#]+)\/([1-9][0-9]{0,9})(?:\.[A-Za-z0-9]{1,10}|\/[^?#]+)(?:[?#].*)?$/;

/** The stream request an edge asks about (X-Original-URI), or undefined for anything else. */
export function parseStreamUri(uri: string | undefined): StreamRequest | undefined {
  const m = uri ? STREAM_URI.exec(uri) : null;
  if (!m || Number(m[4]) > 2147483647) return undefined;
  try {
    return { kind: m[1] as CatalogueKind, username: decodeURIComponent(m[2]), password: decodeURIComponent(m[3]), streamId: Number(m[4]) };
  } catch {
    return undefined; // malformed percent-encoding
  }
}
