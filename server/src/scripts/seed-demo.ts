// `npm run seed:demo`: a living panel for newcomers — a small catalogue, bouquets, packages, a master with
// resellers and credits (moved through the real services, so ledgers add up), a few hundred
// lines with varied expiries, trials and systems, and the dashboard notice.
import { randomInt } from 'node:crypto';
import type { AuthUser } from '../domain/auth-user.ts';
import { update as updateBouquet } from '../modules/bouquets/service.ts';
import { categories, importCatalogue } from '../modules/catalogue/service.ts';
import { create as createReseller } from '../modules/resellers/service.ts';
import { update as updateSettings } from '../modules/settings/admin.ts';
import { openForScript } from './open.ts';

const deps = await openForScript();
const db = deps.database.db;
if (await db.selectFrom('resellers').select('id').where('username', '=', 'demo_master').executeTakeFirst()) {
  console.log('Demo data is already there.');
  process.exit(0);
}
const admin = await db
  .selectFrom('resellers')
  .innerJoin('groups', 'groups.group_id', 'resellers.member_group_id')
  .select(['resellers.id', 'resellers.username', 'resellers.credits', 'groups.type'])
  .where('groups.type', '=', 'admin')
  .orderBy('resellers.id')
  .executeTakeFirstOrThrow();
const adminUser: AuthUser = { ...admin, type: 'admin', sessionId: 0, twoFactorEnabled: false };
const groups = Object.fromEntries((await db.selectFrom('groups').selectAll().execute()).map((g) => [g.type, g.group_id]));

const bouquetIds: string[] = [];
for (const name of ['Canais abertos', 'Esportes', 'Filmes', 'Séries', 'Infantil', 'Adulto']) {
  const b = await db.insertInto('bouquets').values({ bouquet_name: name }).returning('id').executeTakeFirstOrThrow();
  bouquetIds.push(String(b.id));
}
// A small catalogue (imported like an admin's playlist, so re-running adds nothing twice) and what
// each bouquet gives. The sources are placeholders: an edge serving them is the operator's.
const CHANNELS: [string, string, string][] = [
  ['live', 'Abertos', 'TV Aberta 1'],
  ['live', 'Abertos', 'TV Aberta 2'],
  ['live', 'Abertos', 'TV Aberta 3'],
  ['live', 'Notícias', 'Notícias 24h'],
  ['live', 'Notícias', 'Jornal Internacional'],
  ['live', 'Esportes', 'Esporte Total'],
  ['live', 'Esportes', 'Futebol Ao Vivo'],
  ['live', 'Esportes', 'Arena Esportes'],
  ['live', 'Infantil', 'Kids TV'],
  ['live', 'Infantil', 'Desenhos Clássicos'],
  ['movie', 'Ação', 'Missão Final'],
  ['movie', 'Ação', 'Perseguição Noturna'],
  ['movie', 'Comédia', 'Férias Trocadas'],
  ['movie', 'Comédia', 'O Casamento do Ano'],
  ['movie', 'Animação', 'A Floresta Encantada'],
  ['series', 'Drama', 'Família Silva S01E01'],
  ['series', 'Drama', 'Família Silva S01E02'],
  ['series', 'Suspense', 'O Caso Aberto S01E01'],
];
const playlist = ['#EXTM3U', ...CHANNELS.flatMap(([kind, group, name], i) => {
  const ext = kind === 'live' ? 'ts' : 'mp4';
  return [`#EXTINF:-1 tvg-id="demo${i + 1}" tvg-name="${name}" tvg-logo="https://img.example.com/demo/${i + 1}.png" group-title="${group}",${name}`, `http://origem.example.com/${kind}/demo/demo/${i + 1}.${ext}`];
})].join('\n');
await importCatalogue(deps, adminUser, { m3u: playlist });
const categoryId = Object.fromEntries((await categories(deps)).data.map((c) => [c.name, c.id]));
const contents: Record<string, string[]> = {
  'Canais abertos': ['Abertos', 'Notícias'],
  Esportes: ['Esportes'],
  Filmes: ['Ação', 'Comédia', 'Animação'],
  Séries: ['Drama', 'Suspense'],
  Infantil: ['Infantil', 'Animação'],
};
for (const [i, name] of ['Canais abertos', 'Esportes', 'Filmes', 'Séries', 'Infantil'].entries()) {
  await updateBouquet(deps, adminUser, Number(bouquetIds[i]), name, { categories: contents[name].map((c) => categoryId[c]) });
}

const packages = [
  { package_name: 'Mensal', is_trial: 0, is_official: 1, max_connections: 1, official_credits: 1, official_duration: 1, official_duration_in: 'months' },
  { package_name: 'Trimestral', is_trial: 0, is_official: 1, max_connections: 1, official_credits: 3, official_duration: 3, official_duration_in: 'months' },
  { package_name: 'Anual', is_trial: 0, is_official: 1, max_connections: 1, official_credits: 10, official_duration: 12, official_duration_in: 'months' },
  { package_name: 'Mensal 2 telas', is_trial: 0, is_official: 1, max_connections: 2, official_credits: 1, official_duration: 1, official_duration_in: 'months' },
  { package_name: 'Teste 4 horas', is_trial: 1, is_official: 0, max_connections: 1, official_credits: 0, official_duration: 0, official_duration_in: 'hours', trial_duration: 4, trial_duration_in: 'hours' },
  { package_name: 'Teste 24 horas', is_trial: 1, is_official: 0, max_connections: 1, official_credits: 0, official_duration: 0, official_duration_in: 'hours', trial_duration: 24, trial_duration_in: 'hours' },
].map((p) => ({ trial_credits: 0, trial_duration: 0, trial_duration_in: 'hours', ...p, bouquets: JSON.stringify(bouquetIds.slice(0, 5)) }));
const packageIds: { id: number; trial: boolean; screens: number }[] = [];
for (const p of packages) {
  const row = await db.insertInto('packages').values(p).returning(['id', 'is_trial', 'max_connections']).executeTakeFirstOrThrow();
  packageIds.push({ id: row.id, trial: row.is_trial === 1, screens: row.max_connections });
}
// The default screen limit is 1 (docs/rules.md, "Settings"); the demo sells a 2-screen package, so
// it raises the limit the way an admin would in /settings (logged), and its lines agree with it.
const screenLimit = Math.max(...packages.map((p) => p.max_connections));
await updateSettings(deps, adminUser, { user_limit_screen: String(screenLimit) });

const PASS = 'demo-panel-2026';
const master = await createReseller(deps, adminUser, { username: 'demo_master', password: PASS, member_group_id: groups.master, credits: 500, email: 'master@example.com', whatsapp: '11999990000' });
const masterUser: AuthUser = { id: master.id, username: master.username, type: 'master', credits: master.credits, sessionId: 0, twoFactorEnabled: false };
const owners = [master.id];
for (let i = 1; i <= 4; i++) {
  const r = await createReseller(deps, masterUser, { username: `demo_revenda${i}`, password: PASS, member_group_id: groups.reseller, credits: 40 + i * 10, notes: `Revenda de demonstração ${i}` });
  owners.push(r.id);
}

const now = Math.floor(Date.now() / 1000);
const normal = packageIds.filter((p) => !p.trial);
const trial = packageIds.filter((p) => p.trial);
const rows = Array.from({ length: 300 }, (_, i) => {
  const isTrial = i % 10 === 0;
  const p = isTrial ? trial[i % trial.length] : normal[i % normal.length];
  return {
    member_id: owners[i % owners.length],
    username: `cliente${String(i + 1).padStart(3, '0')}`,
    password: Math.random().toString(36).slice(2, 10),
    exp_date: isTrial ? now + randomInt(-86_400, 86_400) : now + randomInt(-20, 60) * 86_400,
    created_at: now - randomInt(0, 90) * 86_400,
    enabled: i % 17 === 0 ? 0 : 1,
    is_trial: isTrial ? 1 : 0,
    max_connections: p.screens >= 2 ? p.screens : 1,
    package_id: p.id,
    bouquet: JSON.stringify(bouquetIds.slice(0, 5)),
    reseller_notes: i % 3 === 0 ? `Cliente indicado #${i}` : null,
    whatsapp: i % 2 === 0 ? `119${String(80000000 + i)}` : null,
    system: i % 5 === 0 ? 2 : 1,
  };
});
await db.insertInto('lines').values(rows).execute();
await db
  .updateTable('news')
  .set({ title: 'Avisos', body: 'Bem-vindo ao painel de demonstração!\nOs clientes e revendas aqui são fictícios.', level: 1, status: 1 })
  .where('id', '=', 1)
  .execute();

console.log(`Demo data added: a catalogue of ${CHANNELS.length} channels, films and series; master "demo_master" and resellers "demo_revenda1".."demo_revenda4" (password "${PASS}"), 300 lines; the screen limit set to ${screenLimit}.`);
await deps.database.close();
