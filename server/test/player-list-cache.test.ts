import { describe, expect, it } from 'vitest';
import { acceptsGzip, etagMatches } from '../src/modules/player/list-cache.ts';

describe('player list cache: the request headers it reads', () => {
  it('Accept-Encoding: gzip when named with q > 0, or when only * takes it', () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      ['', false],
      ['gzip', true],
      ['gzip, deflate, br', true],
      ['GZIP;q=0.5', true],
      ['gzip;q=0', false],
      ['gzip;q=0, *', false],
      ['*', true],
      ['*;q=0', false],
      ['br, identity', false],
    ];
    for (const [header, expected] of cases) expect(acceptsGzip(header), String(header)).toBe(expected);
  });

  it('If-None-Match: the tag itself, its weak form, one of a list, or *', () => {
    const etag = '"abc"';
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches('"abc"', etag)).toBe(true);
    expect(etagMatches('W/"abc"', etag)).toBe(true);
    expect(etagMatches('"x", "abc"', etag)).toBe(true);
    expect(etagMatches('*', etag)).toBe(true);
    expect(etagMatches('"abcd"', etag)).toBe(false);
  });
});
