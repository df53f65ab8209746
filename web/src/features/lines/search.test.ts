import { describe, expect, it } from 'vitest';
import { usersSearch } from './search';

describe('/users search params', () => {
  it('keeps valid filters and drops garbage', () => {
    expect(
      usersSearch({ id: '12', username: ' ana ', text_search: 'x', reseller: 'rev_1', created: '2026-01-01,2026-01-31', type_user: 'trial', status: '0', page: '2' }),
    ).toEqual({ id: 12, username: 'ana', text_search: 'x', reseller: 'rev_1', created: '2026-01-01,2026-01-31', type_user: 'trial', status: 0, page: 2 });
    expect(usersSearch({ id: '0', reseller: 'a b', created: '2026-02-31x', type_user: 'vip', status: '2' })).toEqual({});
    expect(usersSearch({ created: '2026-01-31,2026-01-01' })).toEqual({});
    expect(usersSearch({ created: '2026-01-05,2026-01-05' })).toEqual({ created: '2026-01-05' });
    expect(usersSearch({ id: '99999999999' })).toEqual({});
  });
});
