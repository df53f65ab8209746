import type { CatalogueKind } from '../../db/types.ts';

export interface StreamRequest {
  kind: CatalogueKind;
  username: string;
  password: string;
  streamId: number;
}

// The edge and the panel must decide on the same path. nginx serves the NORMALISED path (percent
// escapes decoded, "." and ".." segments resolved, "//" merged) while the panel is asked about the
// raw request line, so only the canonical form is accepted: a raw path whose normalisation can
// move it to another stream (/live/u/p/1/../2.m3u8, /1/%2e%2e/2/..., /1//..//2...) is refused.
//
// /live/{u}/{p}/{id}.{ext}, or a file under /live/{u}/{p}/{id}/ (an HLS stream's segments), each
// of its path segments made of letters, digits, "_", "-" and "." and not starting with a dot; the
// same under /movie/ and /series/. The query string, if any, is ignored.
const STREAM_URI =
  /^\/(live|movie|series)\/([^/?#\\]+)\/([^/?#\\]+)\/([1-9][0-9]{0,9})(?:\.[A-Za-z0-9]{1,10}|(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}){1,4})(?:\?.*)?$/;
/** In a credential: escapes that decode to a separator or a dot could change the path nginx serves. */
const UNSAFE_ESCAPE = /%(2e|2f|5c|00)/i;
const DOT_SEGMENT = /^\.{1,2}$/;

/** The stream request an edge asks about (X-Original-URI), or undefined for anything else. */
export function parseStreamUri(uri: string | undefined): StreamRequest | undefined {
  const m = uri ? STREAM_URI.exec(uri) : null;
  if (!m || Number(m[4]) > 2147483647) return undefined;
  const [username, password] = [m[2], m[3]];
  if (UNSAFE_ESCAPE.test(username) || UNSAFE_ESCAPE.test(password) || DOT_SEGMENT.test(username) || DOT_SEGMENT.test(password)) return undefined;
  try {
    return { kind: m[1] as CatalogueKind, username: decodeURIComponent(username), password: decodeURIComponent(password), streamId: Number(m[4]) };
  } catch {
    return undefined; // malformed percent-encoding
  }
}
