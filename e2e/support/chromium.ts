import fs from 'node:fs';

// Kept apart from browser.ts (which imports vitest's test hooks) so the global setup can use it.

/** Debian's Chromium; never downloads a browser. CHROMIUM_PATH overrides the binary. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/** Throws a clear message when the system Chromium is missing. */
export function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
}
