import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIST } from './paths.ts';

/** Files of the built web app that contain any of these secrets ("file contains abcd…"); [] when none. */
export function builtAppLeaks(secrets: readonly (string | undefined)[]): string[] {
  const keys = secrets.filter((k): k is string => !!k && k.length >= 8);
  if (keys.length === 0) throw new Error('builtAppLeaks: no secret of 8+ characters to look for');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!/\.(br|gz|png|ico|woff2?)$/.test(e.name)) files.push(p);
    }
  };
  walk(WEB_DIST);
  if (files.length < 5) throw new Error(`builtAppLeaks: ${WEB_DIST} holds no built app`);
  return files.flatMap((f) => {
    const text = fs.readFileSync(f, 'latin1');
    return keys.filter((k) => text.includes(k)).map((k) => `${path.relative(WEB_DIST, f)} contains ${k.slice(0, 4)}…`);
  });
}
