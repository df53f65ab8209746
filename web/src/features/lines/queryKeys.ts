import type { LinesQuery } from '../../api/types';

/**
 * The lines feature's query keys (IPTV users: the `users` family) (its public file: other features import its keys from here only).
 * A key names one endpoint and the shape its entry holds; `all` and `lists` exist to invalidate a family.
 */
export const userKeys = {
  all: () => ['users'] as const,
  lists: () => ['users', 'list'] as const,
  /** LinePage: GET /users. */
  list: (query: LinesQuery) => ['users', 'list', query] as const,
  /** Line: GET /users/{id}. */
  one: (id: number) => ['users', 'one', id] as const,
  /** LineLinks: GET /users/{id}/links. */
  links: (id: number) => ['users', 'links', id] as const,
  /** MigrationSourceLine: POST /users/fetch-url-data (a lookup, cached per URL). */
  migrationLookup: (url: string) => ['migrationLookup', url] as const,
};
