import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { byTestId, signInWithToken, useE2eSuite } from '../support/index.ts';

const POLL = { timeout: 15_000, interval: 200 };

interface WebManifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  display?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

/** Every request URL the page's Cache Storage holds. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    }
    return urls;
  });
}

// Add to the home screen (resellers on phones): a valid manifest with PNG icons, and a
// service worker that caches the app shell and never the API.
describe('installable panel', () => {
  const s = useE2eSuite();

  test('the page links a valid web app manifest with PNG icons (192, 512 and maskable)', async () => {
    const page = await s.page();
    await page.goto('/auth/sign-in');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href ?? '');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    const manifest = (await res.json()) as WebManifest;
    expect(manifest.name).toBeTruthy();
    expect(manifest.short_name).toBeTruthy();
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    const icons = manifest.icons ?? [];
    const wanted = [
      { sizes: '192x192', purpose: 'any' },
      { sizes: '512x512', purpose: 'any' },
      { sizes: '512x512', purpose: 'maskable' },
    ];
    for (const want of wanted) {
      const icon = icons.find((i) => i.sizes === want.sizes && (i.purpose ?? 'any').split(' ').includes(want.purpose));
      expect(icon, `${want.sizes} ${want.purpose}`).toBeDefined();
      expect(icon?.type).toBe('image/png');
      const img = await page.request.get(icon?.src ?? '');
      expect(img.status(), icon?.src).toBe(200);
      expect(img.headers()['content-type']).toBe('image/png');
      const side = Number(want.sizes.split('x')[0]);
      expect(pngSize(await img.body())).toEqual([side, side]);
    }
  });

  test('the service worker is served uncached, registered by the panel (not the light pages), and controls it after a reload', async () => {
    const sw = await fetch(`${s.server.baseUrl}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toContain('javascript');
    expect(sw.headers.get('cache-control')).toBe('no-cache');

    // the light pages (sign-in, /minha-conta, /teste/<slug>) never register it: the panel does
    const light = await s.page({ serviceWorkers: 'allow' });
    await light.goto('/auth/sign-in');
    await byTestId(light, 'signin-submit').waitFor();
    await light.waitForLoadState('load');
    await light.waitForTimeout(2_500); // past the panel's idle-time registration delay
    expect(await light.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

    const page = await s.page({ serviceWorkers: 'allow' });
    await signInWithToken(page, s.admin.token, '/');
    const script = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
    expect(new URL(script).pathname).toBe('/sw.js');
    await page.reload();
    await byTestId(page, 'user-menu').waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
    // the shell is precached
    await expect.poll(() => cachedUrls(page), POLL).toContain('/index.html');
    // ...but its fallback leaves the light pages alone: they come from the server (public.html)
    await page.goto('/minha-conta');
    await byTestId(page, 'customer-username').waitFor();
    expect(await page.locator('script[src^="/assets/public-"]').count()).toBe(1);
  });

  test('API answers never come from the service worker cache, and the shell opens offline', async () => {
    const page = await s.page({ serviceWorkers: 'allow' });
    await signInWithToken(page, s.admin.token, '/');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), POLL).toBe(true);

    const apiResponses: { url: string; fromSw: boolean }[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) apiResponses.push({ url: r.url(), fromSw: r.fromServiceWorker() });
    });
    await page.reload();
    await byTestId(page, 'dashboard-cards').waitFor();
    await expect.poll(() => apiResponses.length, POLL).toBeGreaterThan(0);
    expect(apiResponses.filter((r) => r.fromSw)).toEqual([]);
    const cached = await cachedUrls(page);
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((u) => u.startsWith('/api'))).toEqual([]);

    // Offline: a page of the app still opens from the cached shell; the API is not faked from a cache.
    await page.context().setOffline(true);
    await page.goto('/users');
    expect(await page.locator('script[src^="/assets/"]').count()).toBeGreaterThan(0);
    const apiOffline = await page.evaluate(() =>
      fetch('/api/profile').then(
        (r) => `status ${r.status}`,
        () => 'network error',
      ),
    );
    expect(apiOffline).toBe('network error');
    await page.context().setOffline(false);
  });
});
