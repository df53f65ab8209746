import { startStandin } from './http-standin.ts';

/** A small TMDB: /search/multi finds titles containing the query (and a person, which the panel drops). */
export const TMDB_KEY = 'test-tmdb-key-3f9a1c';

const CATALOGUE = [
  { id: 550, media_type: 'movie', title: 'Clube da Luta', release_date: '1999-10-15', vote_average: 8.433, poster_path: '/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg' },
  { id: 1399, media_type: 'tv', name: 'A Guerra dos Tronos', first_air_date: '2011-04-17', vote_average: 8.4, poster_path: '/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg' },
  { id: 287, media_type: 'person', name: 'Brad Pitt' },
  { id: 603, media_type: 'movie', title: 'Matrix', release_date: '1999-03-30', vote_average: 8.2, poster_path: null },
];

export const startTmdb = () =>
  startStandin((req) => {
    const url = new URL(req.url, 'http://standin');
    if (url.pathname !== '/3/search/multi') return { status: 404, json: { status_message: 'not found' } };
    if (url.searchParams.get('api_key') !== TMDB_KEY) return { status: 401, json: { status_message: 'Invalid API key' } };
    const q = (url.searchParams.get('query') ?? '').toLowerCase();
    const results = CATALOGUE.filter((c) => (c.title ?? c.name ?? '').toLowerCase().includes(q) || c.media_type === 'person');
    return { json: { page: 1, results, total_results: results.length, total_pages: 1 } };
  });
