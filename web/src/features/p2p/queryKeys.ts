import type { P2pUsersQuery } from '../../api/types';

/** The P2P feature's query keys (its public file). The online list's key (api/p2pOnline.ts) is in this family too. */
export const p2pKeys = {
  lists: () => ['p2p', 'list'] as const,
  /** P2pUserPage: GET /p2p/users. */
  list: (query: P2pUsersQuery) => ['p2p', 'list', query] as const,
  /** P2pUser: GET /p2p/users/{id}. */
  one: (id: number) => ['p2p', 'one', id] as const,
  /** P2pImportPreview: GET /p2p/import_preview. */
  importPreview: () => ['p2p', 'importPreview'] as const,
  /** P2pOutboxStatus: GET /admin/p2p/outbox. */
  outbox: () => ['p2p', 'outbox'] as const,
};
