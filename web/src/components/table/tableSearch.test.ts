import { describe, expect, it } from 'vitest';
import { mergeSearch, parseOrderBy, parseSearchString, stringifySearchObject, tableSearch, textParam } from './tableSearch';

describe('tableSearch', () => {
  const validate = tableSearch(['id', 'package_name'], (raw) => ({ username: textParam(raw.username) }));

  it('keeps valid values and drops defaults and garbage', () => {
    expect(validate({ page: '3', per: '20', order_by: 'id,desc', username: ' bob ' })).toEqual({
      page: 3,
      per: 20,
      order_by: 'id,desc',
      username: 'bob',
    });
    expect(validate({ page: '1', per: '10' })).toEqual({});
    expect(validate({ page: '-2', per: '25', order_by: 'password,asc', username: '' })).toEqual({});
    expect(validate({ order_by: 'id;drop' })).toEqual({});
  });

  it('parses order_by', () => {
    expect(parseOrderBy('package_name,asc')).toEqual({ field: 'package_name', direction: 'asc' });
    expect(parseOrderBy('id,up')).toBeUndefined();
  });
});

describe('mergeSearch', () => {
  it('keeps the page only when the page itself changes', () => {
    expect(mergeSearch({ page: 3, username: 'a' }, { page: 4 })).toEqual({ page: 4, username: 'a' });
    expect(mergeSearch({ page: 3, username: 'a' }, { username: undefined })).toEqual({});
    expect(mergeSearch({ page: 3 }, { per: 50 })).toEqual({ per: 50 });
    expect(mergeSearch({ page: 3, per: 50 }, { per: 10 })).toEqual({});
    expect(mergeSearch({ page: 3 }, { page: 1 })).toEqual({});
  });

  it('keeps a cursor only with the page it came with', () => {
    expect(mergeSearch({ page: 3, after: 'c3', username: 'a' }, { page: 4, after: 'c4', before: undefined })).toEqual({ page: 4, after: 'c4', username: 'a' });
    expect(mergeSearch({ page: 3, after: 'c3' }, { page: 9, after: undefined, before: undefined })).toEqual({ page: 9 });
    expect(mergeSearch({ page: 3, after: 'c3' }, { order_by: 'id,asc' })).toEqual({ order_by: 'id,asc' });
    expect(mergeSearch({ page: 3, before: 'c3' }, { page: 1, before: 'c2' })).toEqual({});
  });

  it('reads a cursor from the URL only past page 1', () => {
    const validate = tableSearch(['id']);
    expect(validate({ page: '4', after: 'abc' })).toEqual({ page: 4, after: 'abc' });
    expect(validate({ after: 'abc' })).toEqual({});
  });
});

describe('plain query strings', () => {
  it('round-trips without JSON quoting', () => {
    const s = stringifySearchObject({ page: 2, order_by: 'id,asc', reseller: '123', empty: undefined });
    expect(s).toBe('?page=2&order_by=id%2Casc&reseller=123');
    expect(parseSearchString(s)).toEqual({ page: '2', order_by: 'id,asc', reseller: '123' });
    expect(stringifySearchObject({})).toBe('');
  });
});
