import { expect } from 'vitest';
import type { TestContext } from './helpers.ts';

// A small catalogue imported through the API, shared by the player, gateway and edge tests.

export interface Entry {
  name: string;
  group: string;
  url: string;
  tvgId?: string;
  logo?: string;
}

export function m3u(entries: Entry[]): string {
  const lines = ['#EXTM3U'];
  for (const e of entries) {
    lines.push(`#EXTINF:-1 tvg-id="${e.tvgId ?? ''}" tvg-name="${e.name}" tvg-logo="${e.logo ?? ''}" group-title="${e.group}",${e.name}`, e.url);
  }
  return `${lines.join('\n')}\n`;
}

export async function importM3u(t: TestContext, admin: string, text: string, kind?: string) {
  const res = await t.call(admin, { method: 'POST', url: '/api/admin/catalogue/import', payload: { m3u: text, ...(kind ? { kind } : {}) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { added: number; updated: number; unchanged: number; skipped: { line: number; name: string; reason: string }[]; skipped_total: number };
}

export interface Catalogue {
  /** category id by name */
  categories: Record<string, number>;
  /** stream id by name */
  streams: Record<string, number>;
}

/**
 * Live: "News" (2 channels), "Sports" (2); movies: "Action" (2); series: "Drama" (1). Each source
 * URL says its kind, as an Xtream provider's playlist does.
 */
export const SAMPLE: Entry[] = [
  { name: 'News One', group: 'News', url: 'http://origin.example/live/src/src/101.ts', tvgId: 'news1.br', logo: 'http://img.example/n1.png' },
  { name: 'News Two', group: 'News', url: 'http://origin.example/live/src/src/102.ts', tvgId: 'news2.br' },
  { name: 'Sports One', group: 'Sports', url: 'http://origin.example/live/src/src/201.m3u8', tvgId: 'sport1.br' },
  { name: 'Sports Two', group: 'Sports', url: 'http://origin.example/live/src/src/202.m3u8' },
  { name: 'Heist Movie', group: 'Action', url: 'http://origin.example/movie/src/src/301.mp4', logo: 'http://img.example/heist.jpg' },
  { name: 'Chase Movie', group: 'Action', url: 'http://origin.example/movie/src/src/302.mkv' },
  { name: 'Family Saga S01E01', group: 'Drama', url: 'http://origin.example/series/src/src/401.mkv', logo: 'http://img.example/saga.jpg' },
];

export async function seedCatalogue(t: TestContext, admin: string, entries: Entry[] = SAMPLE): Promise<Catalogue> {
  await importM3u(t, admin, m3u(entries));
  const categories: Record<string, number> = {};
  for (const c of (await t.call(admin, { method: 'GET', url: '/api/admin/categories' })).json().data) categories[c.name] = c.id;
  const streams: Record<string, number> = {};
  for (const s of (await t.call(admin, { method: 'GET', url: '/api/admin/streams?per=100' })).json().data) streams[s.name] = s.id;
  return { categories, streams };
}

export async function setBouquet(t: TestContext, admin: string, id: number, contents: { categories?: number[]; streams?: number[] }, name = `bouquet ${id}`) {
  const res = await t.call(admin, { method: 'PUT', url: `/api/admin/bouquets/${id}`, payload: { bouquet_name: name, ...contents } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
