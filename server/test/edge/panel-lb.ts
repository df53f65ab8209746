import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';

// docs/nginx-panel-lb.conf as the tests use it: its placeholders filled, nothing else changed
// (server/test/nginx-configs.test.ts, server/test/nginx-panel-lb.test.ts).

/** docs/nginx-panel-lb.conf, the sample load balancer in front of several panel hosts. */
export const LB_CONF = path.join(REPO_ROOT, 'docs/nginx-panel-lb.conf');

/** The placeholders a config's header names (`__NAME__`), in order of appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set(text.match(/__[A-Z0-9_]+__/g) ?? [])];
}

/** `text` with every placeholder replaced; throws if one is left or a value names none. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  let out = text;
  for (const [name, value] of Object.entries(values)) {
    if (!out.includes(name)) throw new Error(`the config names no ${name}`);
    out = out.replaceAll(name, value);
  }
  const left = placeholdersOf(out);
  if (left.length) throw new Error(`placeholders left: ${left.join(', ')}`);
  return out;
}

/** A main config in `dir` that includes `http` (an http-level snippet) with the test's own pid, logs and temp paths. */
export function mainConfig(dir: string, http: string): string {
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const snippet = path.join(dir, 'snippet.conf');
  fs.writeFileSync(snippet, http);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  include ${snippet};
}
`,
  );
  return conf;
}

