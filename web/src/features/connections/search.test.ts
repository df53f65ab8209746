import { describe, expect, it } from 'vitest';
import { connectionsSearch } from './search';

describe('/users/connections query string', () => {
  it("keeps the online list's filters (username, reseller, type_user, status, created), not the user list's id or text search", () => {
    expect(
      connectionsSearch({ username: 'ana', reseller: 'rev1', type_user: 'trial', status: '1', created: '2026-01-01,2026-01-31', id: '5', text_search: 'x', order_by: 'date_start,asc' }),
    ).toEqual({ username: 'ana', reseller: 'rev1', type_user: 'trial', status: 1, created: '2026-01-01,2026-01-31', order_by: 'date_start,asc' });
    expect(connectionsSearch({ order_by: 'password,asc', status: '9' })).toEqual({});
  });
});
