import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, evaluated in the page (an inline <script> would break the app's CSP). */
const AXE_SOURCE = fs.readFileSync(path.join(path.dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';
export const IMPACTS: readonly Impact[] = ['critical', 'serious', 'moderate', 'minor'];

export interface AxeViolation {
  id: string;
  impact: Impact;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Waits until the page stops loading: no pending requests, loaders, skeletons or finite animations,
 * dialogs and menus fully opaque, for three checks in a row (Mantine starts transitions on a timer).
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => {
    (window as unknown as { __axeStill?: number }).__axeStill = 0;
  });
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __axeStill?: number };
      const still =
        !document.querySelector('[data-testid="page-loader"], .mantine-Skeleton-root') &&
        // spinners (infinite) do not count
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY) &&
        Array.from(document.querySelectorAll('[role="dialog"], [role="menu"], .mantine-Popover-dropdown')).every((el) => getComputedStyle(el).opacity === '1');
      w.__axeStill = still ? (w.__axeStill ?? 0) + 1 : 0;
      return w.__axeStill >= 3;
    },
    undefined,
    { timeout: 10_000, polling: 100 },
  );
}

/** Runs axe-core (all rules of its default set) on the whole document; returns the violations. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type Node = { target: unknown[]; failureSummary?: string };
    type Result = { id: string; impact: string; help: string; nodes: Node[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
  }) as Promise<AxeViolation[]>;
}

/** Visible h1 texts of the page (one per page is expected). */
export function headingOnes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('h1')).filter((h) => (h as HTMLElement).offsetParent !== null || h.getClientRects().length > 0).map((h) => (h.textContent ?? '').trim()),
  );
}

/** One line per failing node: `[state] rule (impact) help — target: summary`. */
export function describeViolations(state: string, violations: AxeViolation[]): string[] {
  return violations.flatMap((v) => v.nodes.map((n) => `[${state}] ${v.id} (${v.impact}) ${v.help} — ${n.target}: ${n.summary}`));
}
