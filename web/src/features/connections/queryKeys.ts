import type { ConnectionsQuery } from '../../api/types';

/** The connections feature's query keys. */
export const connectionKeys = {
  all: () => ['connections'] as const,
  /** ConnectionPage: GET /users/connections. */
  list: (query: ConnectionsQuery) => ['connections', 'list', query] as const,
};
