import { describe, expect, it } from 'vitest';
import { catalogueSearch } from './search';

describe('/catalogue query string', () => {
  it('keeps the search, a known kind and a category id; drops the rest', () => {
    expect(catalogueSearch({ search: ' news ', kind: 'movie', category_id: '7', page: '2', order_by: 'name,desc' })).toEqual({
      search: 'news',
      kind: 'movie',
      category_id: 7,
      page: 2,
      order_by: 'name,desc',
    });
    expect(catalogueSearch({ kind: 'radio', category_id: '0', order_by: 'source_url,asc' })).toEqual({});
  });
});
