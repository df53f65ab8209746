import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
const server = '/work/wtA/server';
const out = path.join(server, process.argv[2]);
const inline = process.argv.slice(3);
const pkg = JSON.parse(fs.readFileSync(path.join(server, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !inline.includes(d)).flatMap((d) => [d, `${d}/*`]);
await build({ entryPoints: [path.join(server, 'src', 'main.ts')], outfile: path.join(out, 'main.js'), bundle: true, platform: 'node', format: 'esm', target: 'node20', external, sourcemap: true, logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
fs.copyFileSync(path.join(server, 'src/modules/catalogue/m3u-worker.mjs'), path.join(out, 'm3u-worker.mjs'));
