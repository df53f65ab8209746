// Plain JavaScript (types in json-depth.d.mts): the server's JSON parser (json-body.ts) and the
// catalogue's worker thread (modules/catalogue/m3u-worker.mjs, which runs without TypeScript)
// both refuse too-deep bodies with this one check.

/** No body of this API nests deeper than a few levels; 32 leaves room and stops stack-deep input. */
export const MAX_JSON_DEPTH = 32;

/** The 400's message (field `body`) for a body nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = `body: nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * True when the JSON text opens more than `limit` arrays/objects inside each other. A linear scan
 * of the raw text (strings skipped), so nothing recursive ever sees a too-deep value.
 */
export function nestsDeeperThan(text, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
