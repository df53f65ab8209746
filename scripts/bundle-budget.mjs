// Size budget of the first load, per route: gzipped JS + CSS that opening the route fetches.
// That is index.html's script, modulepreloads and stylesheets with the entry's static imports,
// plus the lazy chunk of the route and of each lazy parent route (layouts) with their static
// imports and CSS, read from Vite's .vite/manifest.json. Routes come from the createRoute blocks of
// web/src/routing/base.tsx (layouts) and each feature's web/src/features/*/routes.tsx. The light
// pages (LIGHT_PAGES: sign-in, the customer's page, a trial page) are the second entry, public.html:
// its script, modulepreloads and stylesheets with the entry's static imports.
// Usage: node scripts/bundle-budget.mjs [distDir]   (default web/dist; exits 1 over budget)
//        BUDGET_FILES=/users node scripts/bundle-budget.mjs   (also lists that route's files)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const KB = 1024;
/** The light pages, served public.html (server/src/app.ts), each <= 100 KB. */
const LIGHT_PAGES = ['/auth/sign-in', '/minha-conta', '/teste/$slug'];
/** Targets: each light page <= 100 KB, every panel route <= 300 KB (docs/decisions.md, "First load and size budget"). */
const TARGETS = { ...Object.fromEntries(LIGHT_PAGES.map((p) => [p, 100 * KB])), default: 300 * KB };
/** Enforced (CI): the targets themselves, so a route that grows past them fails `npm test`. */
const BUDGETS = TARGETS;
/** Enforced (CI): JS and CSS files a route's first load fetches (each one a request on a phone's slow link). */
const MAX_FILES = 30;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'web/dist'));
const manifestPath = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`bundle-budget: ${manifestPath} missing (build with build.manifest: true)`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const gzipCache = new Map();

/** Level 9, as the build's precompressed .gz files the server sends (it prefers .br: smaller still). */
function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

function brotliSize(file) {
  const br = path.join(dist, `${file}.br`);
  return fs.existsSync(br) ? fs.statSync(br).size : gzipSize(file);
}

/** Files of a manifest chunk with its static imports (recursively) and their CSS. */
function chunkClosure(key, files = new Set(), seen = new Set()) {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle-budget: ${key} is not in the manifest`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const dep of chunk.imports ?? []) chunkClosure(dep, files, seen);
  return files;
}

function htmlFiles(page) {
  const html = fs.readFileSync(path.join(dist, page), 'utf8');
  const files = new Set();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/([^"]+\.(?:js|css))"/g)) files.add(m[1]);
  return files;
}

/** Files declaring routes: the layouts, and each feature's routes.tsx (router.tsx only assembles them). */
function routeFiles() {
  const features = path.join(root, 'web/src/features');
  const own = fs
    .readdirSync(features)
    .map((f) => path.join(features, f, 'routes.tsx'))
    .filter((f) => fs.existsSync(f));
  return [path.join(root, 'web/src/routing/base.tsx'), ...own];
}

/** Route name -> { parent, path, modules } from the createRoute blocks of the route files. */
function parseRoutes() {
  const routes = new Map();
  for (const file of routeFiles()) {
    const src = fs.readFileSync(file, 'utf8');
    const dir = path.relative(path.join(root, 'web'), path.dirname(file)).split(path.sep).join('/');
    for (const block of src.split(/\n(?=(?:export )?const \w+ = )/)) {
      const name = block.match(/^(?:export )?const (\w+) = createRoute\(/)?.[1];
      if (!name) continue;
      routes.set(name, {
        parent: block.match(/getParentRoute: \(\) => (\w+)/)?.[1],
        path: block.match(/path: '([^']+)'/)?.[1],
        // the lazy component and whatever else the route imports on the way (a loader's module)
        modules: [...block.matchAll(/import\('(\.\.?\/[^']+)'\)/g)].map((m) => manifestKeyOf(path.posix.join(dir, m[1]))),
      });
    }
  }
  if (![...routes.values()].some((r) => r.path)) throw new Error('bundle-budget: no routes found');
  return routes;
}

function manifestKeyOf(modulePath) {
  const key = ['.tsx', '.ts', ''].map((ext) => modulePath + ext).find((k) => manifest[k]);
  if (!key) throw new Error(`bundle-budget: no manifest chunk for ${modulePath}`);
  return key;
}

if (!manifest['index.html']?.isEntry || !manifest['public.html']?.isEntry) throw new Error('bundle-budget: index.html and public.html must be the entries');
const initial = new Set([...htmlFiles('index.html'), ...chunkClosure('index.html')]);
const light = new Set([...htmlFiles('public.html'), ...chunkClosure('public.html')]);
const routes = parseRoutes();
const pages = [...LIGHT_PAGES.map((p) => ({ path: p, files: light }))];
for (const [, route] of routes) {
  if (!route.path) continue;
  if (LIGHT_PAGES.includes(route.path)) throw new Error(`bundle-budget: ${route.path} is a light page (public.html), not a panel route`);
  const files = new Set(initial);
  for (let r = route; r; r = routes.get(r.parent)) for (const m of r.modules) chunkClosure(m, files);
  pages.push({ path: route.path, files });
}
// The light pages share nothing heavy with the panel: React's own chunk and small helpers only.
const panelFiles = new Set(pages.filter((p) => p.files !== light).flatMap((p) => [...p.files]));
const sharedHeavy = [...light].filter((f) => panelFiles.has(f) && !/^assets\/react-[\w-]+\.js$/.test(f) && gzipSize(f) > 2 * KB);
const rows = [];
for (const { path: routePath, files } of pages) {
  let js = 0;
  let css = 0;
  let br = 0;
  for (const f of files) {
    if (f.endsWith('.css')) css += gzipSize(f);
    else js += gzipSize(f);
    br += brotliSize(f);
  }
  const budget = BUDGETS[routePath] ?? BUDGETS.default;
  const target = TARGETS[routePath] ?? TARGETS.default;
  rows.push({ path: routePath, list: files, files: files.size, js, css, total: js + css, br, target, budget });
}

// BUDGET_FILES=<route path>: list that route's files, largest first (what to look at when it grows).
const listed = rows.find((r) => r.path === process.env.BUDGET_FILES);
if (listed) for (const f of [...listed.list].sort((a, b) => gzipSize(b) - gzipSize(a))) console.log(`${gzipSize(f)} ${f}`);
const kb = (n) => (n / KB).toFixed(1);
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`first load per route (KB; js, css and total gzip -9, br = brotli as served) — ${dist}`);
console.log(`${pad('route', 34)}${lpad('files', 6)}${lpad('js', 8)}${lpad('css', 7)}${lpad('total', 8)}${lpad('br', 8)}${lpad('target', 8)}${lpad('budget', 8)}`);
let over = 0;
for (const r of rows) {
  const tooMany = r.files > MAX_FILES;
  const bad = r.total > r.budget || tooMany;
  if (bad) over++;
  const mark = tooMany ? `  MORE THAN ${MAX_FILES} FILES` : bad ? '  OVER BUDGET' : r.total > r.target ? '  (over target)' : '';
  console.log(
    `${pad(r.path, 34)}${lpad(r.files, 6)}${lpad(kb(r.js), 8)}${lpad(kb(r.css), 7)}${lpad(kb(r.total), 8)}${lpad(kb(r.br), 8)}${lpad(kb(r.target), 8)}${lpad(kb(r.budget), 8)}${mark}`,
  );
}
for (const f of sharedHeavy) console.log(`${pad(f, 50)}  SHARED BY THE LIGHT PAGES AND THE PANEL (${kb(gzipSize(f))} KB)`);
over += sharedHeavy.length;
console.log(`bundle-budget: ${rows.length + sharedHeavy.length - over} passed, ${over} failed`);
process.exit(over ? 1 : 0);
