import fs from 'node:fs';
import path from 'node:path';
import { E2E_ROOT } from './paths.ts';
import type { UsedSecret } from './secrets.ts';

// The log contract, checked on every server the run started (support/global-setup.ts): each line
// one JSON object, each request line with its request id, and none of the secrets the run used.
// Problems name the secret's kind and the log line, never the secret.

/** Secret literals of the specs and helpers: passwords, tokens, keys and secrets typed or sent by hand. */
export function sourceSecrets(): UsedSecret[] {
  const out: UsedSecret[] = [];
  const patterns: [string, RegExp][] = [
    ['constant', /\bconst\s+([A-Z_]*(?:PASS|PASSWORD|SECRET|TOKEN)|KEY|[A-Z_]*API_KEY)\s*=\s*(['"`])([^'"`$\n]{6,})\2/g],
    ['field', /\b(password|new_password|secret|token|api_key|mercadopago_access_token|mercadopago_webhook_secret):\s*(['"`])([^'"`$\n]{6,})\2/g],
    ['typed', /byTestId\([^,]+,\s*'([^']*(?:password|secret|token|key)[^']*)'\)\.fill\((['"`])([^'"`$\n]{6,})\2/g],
  ];
  for (const folder of ['tests', 'support']) {
    for (const file of fs.readdirSync(path.join(E2E_ROOT, folder)).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(E2E_ROOT, folder, file), 'utf8');
      for (const [what, re] of patterns) for (const m of text.matchAll(re)) out.push({ kind: `${folder}/${file} ${what} ${m[1]}`, value: m[3] as string });
    }
  }
  return out;
}

/** Whether `line` holds `secret`: digits-only secrets (2FA codes) only as a whole number, not inside a timestamp. */
function holds(line: string, secret: string): boolean {
  if (!/^\d+$/.test(secret)) return line.includes(secret);
  for (let i = line.indexOf(secret); i >= 0; i = line.indexOf(secret, i + 1)) {
    if (!/\d/.test(line[i - 1] ?? '') && !/\d/.test(line[i + secret.length] ?? '')) return true;
  }
  return false;
}

/** The problems of one server's whole output (empty: it keeps the contract). */
export function checkLog(name: string, output: string, secrets: UsedSecret[]): string[] {
  const problems: string[] = [];
  const unique = [...new Map(secrets.map((s) => [s.value, s])).values()];
  const lines = output.split('\n');
  let requestLines = 0;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${name} line ${i + 1}`;
    let entry: Record<string, unknown> | undefined;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      problems.push(`${where}: not a JSON line`);
    }
    if (entry && ('req' in entry || 'res' in entry)) {
      requestLines++;
      if (typeof entry.reqId !== 'string' || entry.reqId === '') problems.push(`${where}: a request line without reqId`);
    }
    for (const s of unique) if (holds(line, s.value)) problems.push(`${where}: holds a secret (${s.kind})`);
  });
  if (lines.some((l) => l.trim() !== '') && requestLines === 0) problems.push(`${name}: no request line (is LOG_REQUESTS=1 set?)`);
  return problems;
}
