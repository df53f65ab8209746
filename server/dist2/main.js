var __defProp = Object.defineProperty;
var __export = (target2, all2) => {
  for (var name in all2)
    __defProp(target2, name, { get: all2[name], enumerable: true });
};

// src/main.ts
import path4 from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";

// src/app.ts
import fs2 from "node:fs";
import path2 from "node:path";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fastifyStatic from "@fastify/static";
import Fastify2, { LogController } from "fastify";

// src/http/errors.ts
var AppError = class extends Error {
  constructor(statusCode, code, message, field) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.field = field;
  }
  statusCode;
  code;
  field;
};
var notFound = (what = "Resource") => new AppError(404, "NOT_FOUND", `${what} not found`);
var forbidden = () => new AppError(403, "FORBIDDEN", "You are not allowed to do this");
var validation = (field, message) => new AppError(400, "VALIDATION", `${field}: ${message}`, field);
function fieldOf(err) {
  const first = err.validation?.[0];
  if (!first) return void 0;
  const path5 = (first.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
  const missing = first.params?.missingProperty;
  return [path5, missing].filter(Boolean).join(".") || err.validationContext;
}
function registerErrorHandling(app2) {
  app2.setErrorHandler((err, request2, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode === 429 && err.retryAfter) {
        reply.header("Retry-After", String(err.retryAfter));
      }
      return reply.status(err.statusCode).send({ statusCode: err.statusCode, code: err.code, message: err.message, field: err.field });
    }
    if (err.validation) {
      const field = fieldOf(err);
      return reply.status(400).send({ statusCode: 400, code: "VALIDATION", message: err.message, field });
    }
    if (isUniqueViolation(err)) {
      return reply.status(409).send({ statusCode: 409, code: "CONFLICT", message: "This value is already taken" });
    }
    const status3 = err.statusCode ?? 500;
    if (status3 >= 400 && status3 < 500) {
      const codes = { 400: "VALIDATION", 403: "FORBIDDEN", 404: "NOT_FOUND", 413: "PAYLOAD_TOO_LARGE", 414: "URI_TOO_LONG", 415: "UNSUPPORTED_MEDIA_TYPE" };
      const code = codes[status3] ?? "BAD_REQUEST";
      return reply.status(status3).send({ statusCode: status3, code, message: err.message, field: status3 === 400 ? "body" : void 0 });
    }
    request2.log.error({ err }, "unhandled error");
    return reply.status(500).send({ statusCode: 500, code: "INTERNAL", message: "Internal server error" });
  });
}
function rateLimited(retryAfter) {
  const e = new AppError(429, "RATE_LIMITED", "Too many failed attempts, try again later");
  e.retryAfter = retryAfter;
  return e;
}
function isUniqueViolation(err) {
  const e = err;
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

// src/modules/logs/repo.ts
import { sql as sql3 } from "kysely";

// src/db/keyset.ts
async function* keysetRows(fetchAfter, batch = 1e3) {
  let last = 0;
  for (; ; ) {
    const rows = await fetchAfter(last, batch);
    yield* rows;
    if (rows.length < batch) return;
    last = rows[rows.length - 1].id;
  }
}
async function* mapRows(rows, f) {
  for await (const row of rows) yield f(row);
}

// src/db/scope.ts
import { sql } from "kysely";

// src/db/kept.ts
function keptPerHandle(max) {
  const maps = /* @__PURE__ */ new WeakMap();
  return {
    get: (db, key) => maps.get(db)?.get(key),
    set(db, key, value) {
      const map = maps.get(db) ?? /* @__PURE__ */ new Map();
      if (map.size >= max) map.clear();
      map.set(key, value);
      maps.set(db, map);
    },
    delete: (db, key) => void maps.get(db)?.delete(key)
  };
}

// src/db/scope.ts
function subtreeIds(db, ancestorId, includeSelf) {
  return db.selectFrom("reseller_tree").select("reseller_tree.descendant_id").where("reseller_tree.ancestor_id", "=", ancestorId).where("reseller_tree.depth", ">=", includeSelf ? 0 : 1);
}
function inSubtree(db, ancestorId, ref, includeSelf) {
  return (eb) => eb.exists(
    db.selectFrom("reseller_tree").select(sql.lit(1).as("one")).where("reseller_tree.ancestor_id", "=", ancestorId).whereRef("reseller_tree.descendant_id", "=", sql.ref(ref)).where("reseller_tree.depth", ">=", includeSelf ? 0 : 1)
  );
}
async function isInSubtree(db, ancestorId, id, includeSelf) {
  const row = await db.selectFrom("reseller_tree").select("depth").where("ancestor_id", "=", ancestorId).where("descendant_id", "=", id).executeTakeFirst();
  return row !== void 0 && row.depth >= (includeSelf ? 0 : 1);
}
function visibleLines(db, actor, scanInOrder = false, top = false) {
  const q = db.selectFrom("lines as ln").where("ln.deleted_at", "is", null);
  if (top) return q.where("ln.top_reseller_id", "=", actor.id);
  if (actor.type !== "admin") {
    return q.where(scanInOrder ? sql`+ln.member_id` : sql.ref("ln.member_id"), "in", subtreeIds(db, actor.id, true));
  }
  return q;
}
function visibleLine(db, actor, id) {
  const q = db.selectFrom("lines as ln").where("ln.deleted_at", "is", null).where("ln.id", "=", id);
  return actor.type === "admin" ? q : q.where(inSubtree(db, actor.id, "ln.member_id", true));
}
function visibleP2pAccounts(db, actor) {
  let q = db.selectFrom("p2p_accounts as pa").where("pa.deleted_at", "is", null);
  if (actor.type !== "admin") q = q.where("pa.member_id", "in", subtreeIds(db, actor.id, true));
  return q;
}
async function isTopLevel(db, actor) {
  if (actor.topLevel !== void 0) return actor.topLevel;
  const row = await db.selectFrom("reseller_tree").select((eb) => eb.fn.max("depth").as("d")).where("descendant_id", "=", actor.id).executeTakeFirst();
  return Number(row?.d) === 1;
}
var escapeLike = (s) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
var afterPrefix = (prefix) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
async function sumVisibleLines(db, actor) {
  let q = db.selectFrom("resellers").select(sql`coalesce(sum(lines_count), 0)`.as("n"));
  if (actor.type !== "admin") q = q.where("id", "in", subtreeIds(db, actor.id, true));
  return Number((await q.executeTakeFirst())?.n ?? 0);
}
async function countVisibleLines(db, actor) {
  const stamp = await visibleLinesStamp(db, actor);
  const kept = keptTotals.get(db, actor.id);
  if (stamp !== void 0 && kept?.stamp === stamp) return kept.n;
  const n3 = await sumVisibleLines(db, actor);
  if (stamp !== void 0) keptTotals.set(db, actor.id, { stamp, n: n3 });
  return n3;
}
var keptTotals = keptPerHandle(1e4);
async function visibleLinesStamp(db, actor) {
  const row = await db.selectFrom("dashboard_cache").select("invalidated_at").where("reseller_id", "=", actor.id).executeTakeFirst();
  if (row) return Number(row.invalidated_at);
  await db.insertInto("dashboard_cache").values({ reseller_id: actor.id, computed_at: 0, body: null }).onConflict((oc) => oc.column("reseller_id").doNothing()).execute();
  return void 0;
}
async function resellerIdByUsername(db, username2) {
  const row = await db.selectFrom("resellers").select("id").where((eb) => eb(eb.fn("lower", ["username"]), "=", username2.toLowerCase())).executeTakeFirst();
  return row?.id;
}

// src/http/paging.ts
import { sql as sql2 } from "kysely";
import { Type } from "typebox";
var PER_OPTIONS = [10, 20, 30, 50, 100];
var PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1e6, default: 1 })),
  per: Type.Optional(Type.Integer({ enum: [...PER_OPTIONS], default: 10 })),
  order_by: Type.Optional(Type.String({ maxLength: 60 }))
};
var PageMeta = Type.Object({
  page: Type.Integer(),
  per: Type.Integer(),
  count: Type.Integer(),
  pages: Type.Integer(),
  total: Type.Integer(),
  /** true when total stopped at COUNT_CAP: "more than COUNT_CAP" rows match */
  capped: Type.Optional(Type.Boolean())
}, { title: "PageMeta" });
var COUNT_CAP = 1e4;
var TEXT_SEARCH_COUNT_CAP = 1e3;
function Paged(row) {
  return Type.Object({ data: Type.Array(row), meta: PageMeta });
}
function parseOrder(raw2, allowed, fallback) {
  if (!raw2) return fallback;
  const [field, dir = "asc"] = raw2.split(",");
  const column = Object.hasOwn(allowed, field) ? allowed[field] : void 0;
  if (!column || dir !== "asc" && dir !== "desc") {
    throw validation("order_by", `must be one of ${Object.keys(allowed).join(", ")} with asc or desc`);
  }
  return { column, direction: dir };
}
async function paginate(base2, select, opts) {
  const page = opts.page ?? 1;
  const per = opts.per ?? 10;
  const cap = opts.countCap ?? COUNT_CAP;
  const counted = opts.total ? await opts.total() : await countRows(opts.db, opts.countBase ?? base2, cap, opts.countStamp);
  const capped = !opts.total && counted > cap;
  const total = capped ? cap : counted;
  const ordered = (q) => q.orderBy(sql2.ref(opts.order.column), opts.order.direction).orderBy(sql2.ref(opts.tiebreak), opts.order.direction);
  const rows = opts.deferred ? ordered(opts.deferred(opts.keys ? opts.keys((page - 1) * per, per) : ordered(base2.select(sql2.ref(opts.tiebreak).as("page_key"))).limit(per).offset((page - 1) * per))) : ordered(select(base2)).limit(per).offset((page - 1) * per);
  const data = await rows.execute();
  return { data, meta: { page, per, count: data.length, pages: Math.ceil(total / per), total, ...capped ? { capped } : {} } };
}
var CAPPED_COUNT_TTL_MS = 1e4;
var CAPPED_COUNTS_KEPT = 2e3;
var cappedCounts = keptPerHandle(CAPPED_COUNTS_KEPT);
var stampedCounts = keptPerHandle(CAPPED_COUNTS_KEPT);
async function countRows(db, base2, cap, readStamp) {
  const limited = base2.clearSelect().select(sql2`1`.as("one")).limit(cap + 1);
  const statement = db.selectFrom(limited.as("matches")).select(sql2`count(*)`.as("total")).compile();
  const key = `${statement.sql}\0${JSON.stringify(statement.parameters)}`;
  const until = cappedCounts.get(db, key);
  if (until !== void 0 && until > Date.now()) return cap + 1;
  const stamp = await readStamp?.();
  const exact = stamp === void 0 ? void 0 : stampedCounts.get(db, key);
  if (exact && exact.stamp === stamp && exact.until > Date.now()) return exact.n;
  const row = (await db.executeQuery(statement)).rows[0];
  const total = Number(row?.total ?? 0);
  if (total > cap) cappedCounts.set(db, key, Date.now() + CAPPED_COUNT_TTL_MS);
  else {
    cappedCounts.delete(db, key);
    if (stamp !== void 0) stampedCounts.set(db, key, { stamp, n: total, until: Date.now() + CAPPED_COUNT_TTL_MS });
  }
  return total;
}

// src/modules/logs/repo.ts
async function writeLog(db, row) {
  await db.insertInto("logs").values({ ...row, created_at: Date.now() }).execute();
}
function filtered(db, scope2, f, walk = false) {
  let q = db.selectFrom("logs as lg");
  const ref = (c) => walk ? sql3`+${sql3.ref(c)}` : sql3.ref(c);
  if (scope2 && "ids" in scope2) q = q.where((eb) => eb.or([eb(ref("lg.reseller_id"), "in", scope2.ids), eb(ref("lg.target_reseller_id"), "in", scope2.ids)]));
  if (scope2 && "top" in scope2) q = q.where((eb) => eb.or([eb("lg.top_reseller_id", "=", scope2.top), eb("lg.target_top_reseller_id", "=", scope2.top)]));
  return matching(q, f);
}
function matching(q, f) {
  if (f.type) q = q.where("lg.type_log", "=", f.type);
  if (f.actions.length > 0) q = q.where("lg.action", "in", f.actions);
  if (f.reseller !== void 0) q = q.where("lg.reseller_id", "=", f.reseller);
  if (f.toreseller !== void 0) q = q.where("lg.target_reseller_id", "=", f.toreseller);
  if (f.user) q = q.where("lg.type_log", "=", "user").where(sql3`lower(lg.target_user)`, "=", f.user.toLowerCase());
  if (f.dates) q = q.where("lg.created_at", ">=", f.dates[0]).where("lg.created_at", "<=", f.dates[1]);
  return q;
}
function topPageKeys(db, top, f, order, offset, per) {
  const dir = order.direction;
  const arm = (q) => matching(q, f).select(["lg.id as page_key", "lg.created_at"]).orderBy("lg.created_at", dir).orderBy("lg.id", dir).limit(offset + per);
  const mine = arm(db.selectFrom("logs as lg").where("lg.top_reseller_id", "=", top));
  const toMine = arm(db.selectFrom("logs as lg").where("lg.target_top_reseller_id", "=", top).where("lg.top_reseller_id", "is distinct from", top));
  const both2 = db.selectFrom(mine.as("a")).selectAll().unionAll(db.selectFrom(toMine.as("b")).selectAll());
  return db.selectFrom(both2.as("k")).select("k.page_key").orderBy("k.created_at", dir).orderBy("k.page_key", dir).limit(per).offset(offset);
}
var withNames = (q) => q.leftJoin("resellers as a", "a.id", "lg.actor_id").leftJoin("resellers as r", "r.id", "lg.reseller_id").leftJoin("resellers as t", "t.id", "lg.target_reseller_id").select(["lg.id", "lg.type_log", "lg.action", "a.username as user", "r.username as reseller", "t.username as toreseller", "lg.target_user", "lg.value", "lg.value_int", "lg.created_at"]);
function pageLogs(db, scope2, f, paging) {
  const byTime = paging.order.column === "lg.created_at" && f.reseller === void 0 && f.toreseller === void 0;
  const walk = !!paging.walk && !!scope2 && "ids" in scope2 && byTime;
  const base2 = filtered(db, scope2, f, walk);
  const top = scope2 && "top" in scope2 && byTime ? scope2.top : void 0;
  return paginate(base2, (b) => withNames(b), {
    db,
    ...paging,
    tiebreak: "lg.id",
    // The capped count reads the scope through the owner (or top-reseller) indexes (only the matching rows).
    countBase: filtered(db, scope2, f),
    countStamp: () => newestLogId(db),
    ...top !== void 0 ? {
      keys: (offset, per) => topPageKeys(db, top, f, paging.order, offset, per),
      deferred: (keys2) => withNames(db.selectFrom("logs as lg").where("lg.id", "in", keys2))
    } : {}
  });
}
async function newestLogId(db) {
  const row = await db.selectFrom("logs").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
  return Number(row?.id ?? 0);
}
function iterateLogs(db, scope2, f, batch = 1e3) {
  return keysetRows((last, limit) => withNames(filtered(db, scope2, f).where("lg.id", ">", last)).orderBy("lg.id").limit(limit).execute(), batch);
}
async function subtreeIdList(db, resellerId) {
  return (await subtreeIds(db, resellerId, true).execute()).map((r) => r.descendant_id);
}

// src/modules/auth/repo.ts
import { sql as sql4 } from "kysely";

// src/db/connection.ts
import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
var STATEMENT_CACHE = 500;
function keepPreparedStatements(sqlite) {
  const prepare2 = sqlite.prepare.bind(sqlite);
  const cache = /* @__PURE__ */ new Map();
  sqlite.prepare = (source) => {
    const kept = cache.get(source);
    if (kept && !kept.busy) {
      cache.delete(source);
      cache.set(source, kept);
      return kept;
    }
    const fresh = prepare2(source);
    if (kept) return fresh;
    cache.set(source, fresh);
    if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value);
    return fresh;
  };
}
var plannedOnce = /* @__PURE__ */ new Map();
var PLANNED_ONCE_MAX = 64;
function planOnceOnPostgres(sqlText) {
  if (!plannedOnce.has(sqlText) && plannedOnce.size < PLANNED_ONCE_MAX) plannedOnce.set(sqlText, `planned_${plannedOnce.size + 1}`);
}
var NAMED = /* @__PURE__ */ Symbol("named statements");
function namePlannedStatements(client) {
  if (client[NAMED]) return client;
  client[NAMED] = true;
  const query = client.query.bind(client);
  client.query = (text3, values) => {
    const name = typeof text3 === "string" ? plannedOnce.get(text3) : void 0;
    return name ? query({ name, text: text3, values }) : values === void 0 ? query(text3) : query(text3, values);
  };
  return client;
}
var sqliteHandles = /* @__PURE__ */ new WeakMap();
function readNow(db, query) {
  const sqlite = sqliteHandles.get(db);
  if (!sqlite || sqlite.inTransaction) return void 0;
  try {
    return sqlite.prepare(query.sql).all(query.parameters);
  } catch (err) {
    if (err instanceof TypeError && /busy/.test(err.message)) return void 0;
    throw err;
  }
}
function openDatabase(url) {
  if (url.startsWith("sqlite:")) {
    const file3 = url.slice("sqlite:".length) || ":memory:";
    if (file3 !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file3)), { recursive: true });
    const sqlite = new SqliteDatabase(file3);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = FULL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("temp_store = MEMORY");
    keepPreparedStatements(sqlite);
    const db2 = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    sqliteHandles.set(db2, sqlite);
    return { db: db2, dialect: "sqlite", close: () => db2.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10, options: "-c max_parallel_workers_per_gather=0" });
  pool.on("error", (err) => console.error("postgres idle client error:", err.message));
  const naming = { connect: async () => namePlannedStatements(await pool.connect()), end: () => pool.end() };
  const db = new Kysely({ dialect: new PostgresDialect({ pool: naming }) });
  return { db, dialect: "postgres", close: () => db.destroy() };
}

// src/modules/auth/repo.ts
var nowSec = () => Math.floor(Date.now() / 1e3);
function findResellerByUsername(db, username2) {
  return db.selectFrom("resellers").innerJoin("groups", "groups.group_id", "resellers.member_group_id").select(["resellers.id", "resellers.username", "resellers.password_hash", "resellers.status", "resellers.deleted_at", "groups.type"]).where(sql4`lower(resellers.username)`, "=", username2.toLowerCase()).executeTakeFirst();
}
var sessionQuery = (db) => db.selectFrom("sessions").innerJoin("resellers", "resellers.id", "sessions.reseller_id").innerJoin("groups", "groups.group_id", "resellers.member_group_id").leftJoin("two_factor", (join) => join.onRef("two_factor.reseller_id", "=", "sessions.reseller_id").on("two_factor.enabled_at", "is not", null)).select([
  "sessions.id as session_id",
  "sessions.reseller_id",
  "sessions.last_seen_at",
  "sessions.expires_at",
  "sessions.idle_seconds",
  "sessions.revoked_at",
  "resellers.status",
  "resellers.deleted_at",
  "resellers.username",
  "resellers.credits",
  "groups.type",
  sql4`two_factor.reseller_id is not null`.as("two_factor_enabled"),
  sql4`(select max(rt.depth) from reseller_tree rt where rt.descendant_id = sessions.reseller_id) = 1`.as("top_level")
]);
var byTokenCompiled = /* @__PURE__ */ new WeakMap();
function byToken(db, tokenHash) {
  let compiled = byTokenCompiled.get(db);
  if (!compiled) {
    compiled = sessionQuery(db).where("sessions.token_hash", "=", tokenHash).compile();
    if (compiled.parameters.length !== 1) throw new Error("the session statement must take the token hash as its only parameter");
    byTokenCompiled.set(db, compiled);
    planOnceOnPostgres(compiled.sql);
  }
  return { ...compiled, parameters: [tokenHash] };
}
function findSessionById(db, id) {
  return sessionQuery(db).where("sessions.id", "=", id).executeTakeFirst();
}
function findSessionByToken(db, tokenHash) {
  const query = byToken(db, tokenHash);
  const rows = readNow(db, query);
  return rows ? rows[0] : db.executeQuery(query).then((result) => result.rows[0]);
}
async function touchSession(db, id, now5) {
  await db.updateTable("sessions").set({ last_seen_at: now5 }).where("id", "=", id).execute();
}
async function revokeSession(db, id) {
  await db.updateTable("sessions").set({ revoked_at: nowSec() }).where("id", "=", id).where("revoked_at", "is", null).execute();
}
async function revokeAllSessions(db, resellerId) {
  await db.deleteFrom("two_factor_challenges").where("reseller_id", "=", resellerId).execute();
  await db.updateTable("sessions").set({ revoked_at: nowSec() }).where("reseller_id", "=", resellerId).where("revoked_at", "is", null).execute();
}
async function insertSession(db, row) {
  await db.insertInto("sessions").values(row).execute();
}
async function markSignedIn(db, resellerId, at) {
  await db.updateTable("resellers").set({ last_login: at }).where("id", "=", resellerId).execute();
}
var signedInUser = (db, resellerId) => db.selectFrom("resellers").select(["id", "username", "credits"]).where("id", "=", resellerId).executeTakeFirstOrThrow();

// src/modules/auth/throttle-repo.ts
import { sql as sql5 } from "kysely";
var col = (name) => sql5.ref(`login_throttle.${name}`);
function findBlocked(db, keys2, now5) {
  return db.selectFrom("login_throttle").select(["key", "blocked_until"]).where("key", "in", keys2).where("blocked_until", ">", now5).execute();
}
async function countAttempt(db, key, rule2, now5) {
  const n3 = (v) => sql5.lit(Math.floor(v));
  const cap = Math.max(rule2.maxDelaySeconds, rule2.delaySeconds);
  const blocked = sql5`${col("blocked_until")} > ${n3(now5)}`;
  const stale = sql5`${col("last_at")} <= ${n3(now5 - rule2.windowSeconds)}`;
  const count = sql5`(case when ${stale} then 1 else ${col("failures")} + 1 end)`;
  const doubled = sql5`(case when ${stale} then 0 else ${col("delay_seconds")} * 2 end)`;
  const delay2 = sql5`(case when ${count} < ${n3(rule2.limit)} then 0 when ${doubled} < ${n3(rule2.delaySeconds)} then ${n3(rule2.delaySeconds)} when ${doubled} > ${n3(cap)} then ${n3(cap)} else ${doubled} end)`;
  const firstDelay = rule2.limit <= 1 ? rule2.delaySeconds : 0;
  const row = await db.insertInto("login_throttle").values({ key, failures: 1, delay_seconds: firstDelay, blocked_until: now5 + firstDelay, last_at: now5, refused: 0 }).onConflict(
    (oc) => oc.column("key").doUpdateSet({
      failures: sql5`case when ${blocked} then ${col("failures")} else ${count} end`,
      delay_seconds: sql5`case when ${blocked} then ${col("delay_seconds")} else ${delay2} end`,
      blocked_until: sql5`case when ${blocked} then ${col("blocked_until")} else ${n3(now5)} + ${delay2} end`,
      last_at: sql5`case when ${blocked} then ${col("last_at")} else ${n3(now5)} end`,
      refused: sql5`case when ${blocked} then ${col("refused")} + 1 else 0 end`
    })
  ).returning(["refused", "blocked_until"]).executeTakeFirstOrThrow();
  return { refused: row.refused > 0, blockedUntil: row.blocked_until };
}
async function takeBackAttempt(db, key, limit) {
  const below = sql5`${col("failures")} - 1 < ${sql5.lit(Math.floor(limit))}`;
  await db.updateTable("login_throttle").set({
    failures: sql5`case when ${col("failures")} > 0 then ${col("failures")} - 1 else 0 end`,
    delay_seconds: sql5`case when ${below} then 0 else ${col("delay_seconds")} end`,
    blocked_until: sql5`case when ${below} then 0 else ${col("blocked_until")} end`
  }).where("key", "=", key).execute();
}
async function clearThrottle(db, key) {
  await db.deleteFrom("login_throttle").where("key", "=", key).execute();
}
async function pruneThrottle(db, staleBefore, now5) {
  await db.deleteFrom("login_throttle").where("last_at", "<", staleBefore).where("blocked_until", "<=", now5).execute();
}
function findKnownDevice(db, tokenHash, now5) {
  return db.selectFrom("known_devices").innerJoin("resellers", "resellers.id", "known_devices.reseller_id").select(["known_devices.id", "known_devices.reseller_id", "resellers.username"]).where("known_devices.token_hash", "=", tokenHash).where("known_devices.expires_at", ">", now5).executeTakeFirst();
}
async function extendKnownDevice(db, id, now5, expiresAt) {
  await db.updateTable("known_devices").set({ last_used_at: now5, expires_at: expiresAt }).where("id", "=", id).execute();
}
async function addKnownDevice(db, row, keep) {
  await db.insertInto("known_devices").values({ ...row, last_used_at: row.created_at }).execute();
  const newest = db.selectFrom("known_devices").select("id").where("reseller_id", "=", row.reseller_id).orderBy("last_used_at", "desc").orderBy("id", "desc").limit(keep);
  await db.deleteFrom("known_devices").where("reseller_id", "=", row.reseller_id).where((eb) => eb.or([eb("expires_at", "<=", row.created_at), eb("id", "not in", newest)])).execute();
}

// src/modules/auth/tokens.ts
import { randomBytes, hash as oneShotHash } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
var ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1 };
var hashPassword = (password) => hash(password, ARGON);
var verifyPassword = (stored, password) => verify(stored, password).catch(() => false);
function newToken() {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashToken(token) };
}
var hashToken = (token) => oneShotHash("sha256", token, "hex");
var dummyHash;
var dummyPasswordHash = () => {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
};

// src/modules/auth/devices.ts
var DEVICES_PER_RESELLER = 20;
async function knownDeviceFor(db, token, username2) {
  if (!token || token.length > 200) return null;
  const row = await findKnownDevice(db, hashToken(token), nowSec());
  return row && row.username.toLowerCase() === username2.toLowerCase() ? row.id : null;
}
async function rememberDevice({ config: config2, database: database2 }, resellerId, presented) {
  const now5 = nowSec();
  const expiresAt = now5 + config2.loginDeviceDays * 86400;
  if (presented && presented.length <= 200) {
    const row = await findKnownDevice(database2.db, hashToken(presented), now5);
    if (row && row.reseller_id === resellerId) {
      await extendKnownDevice(database2.db, row.id, now5, expiresAt);
      return presented;
    }
  }
  const { token, tokenHash } = newToken();
  await addKnownDevice(database2.db, { reseller_id: resellerId, token_hash: tokenHash, created_at: now5, expires_at: expiresAt }, DEVICES_PER_RESELLER);
  return token;
}

// src/modules/twofactor/service.ts
import QRCode from "qrcode";

// src/db/tx.ts
import { sql as sql6 } from "kysely";
var GROUP_MAX_OPERATIONS = 200;
var GROUP_MAX_MS = 20;
var groupStats = { groups: 0, operations: 0 }; process.on('SIGUSR2', () => console.error('GROUPS', groupStats.groups, groupStats.operations, groupStats.operations / groupStats.groups));
async function withTx(database2, fn) {
  if (database2.dialect === "postgres") {
    for (let attempt = 1; ; attempt++) {
      try {
        return await database2.db.transaction().execute((trx) => fn(trx));
      } catch (err) {
        const code = err.code;
        if (attempt >= 3 || code !== "40P01" && code !== "40001") throw err;
      }
    }
  }
  return new Promise((resolve2, reject) => {
    const q = queueOf(database2.db);
    q.waiting.push({ fn, resolve: resolve2, reject });
    if (!q.scheduled) {
      q.scheduled = true;
      if (process.env.ADAPT) { let seen = 0, turns = 0; const tick = () => { if (q.waiting.length > seen && turns < Number(process.env.ADAPT)) { seen = q.waiting.length; turns++; setImmediate(tick); } else void runGroups(database2.db, q); }; setImmediate(tick); } else setImmediate(() => setImmediate(() => void runGroups(database2.db, q)));
    }
  });
}
var beforeCommit = /* @__PURE__ */ new WeakMap();
async function onceBeforeCommit(trx, key, work) {
  if (!gatherBeforeCommit(trx, key, work)) await work(trx);
}
function gatherBeforeCommit(trx, key, work) {
  const pending = beforeCommit.get(trx);
  if (!pending) return void 0;
  const kept = pending.get(key);
  if (kept) return { items: kept.items, first: false };
  const fresh = { work, items: [] };
  pending.set(key, fresh);
  return { items: fresh.items, first: true };
}
function markOf(pending) {
  return new Map([...pending].map(([key, p]) => [key, p.items.length]));
}
function undoTo(pending, mark) {
  for (const [key, p] of pending) {
    const length = mark.get(key);
    if (length === void 0) pending.delete(key);
    else p.items.length = length;
  }
}
var queues = /* @__PURE__ */ new WeakMap();
function queueOf(db) {
  let q = queues.get(db);
  if (!q) {
    q = { waiting: [], scheduled: false };
    queues.set(db, q);
  }
  return q;
}
async function runGroups(db, q) {
  try {
    while (q.waiting.length > 0) await runGroup(db, q);
  } finally {
    q.scheduled = false;
    if (q.waiting.length > 0) {
      q.scheduled = true;
      setImmediate(() => void runGroups(db, q));
    }
  }
}
async function runGroup(db, q) {
  const settled = [];
  const group = [];
  try {
    await db.connection().execute(async (conn) => {
      await sql6`BEGIN IMMEDIATE`.execute(conn);
      const started = performance.now();
      const pending = /* @__PURE__ */ new Map();
      beforeCommit.set(conn, pending);
      try {
        while (q.waiting.length > 0 && group.length < GROUP_MAX_OPERATIONS && (group.length === 0 || performance.now() - started < GROUP_MAX_MS)) {
          const op = q.waiting.shift();
          group.push(op);
          await sql6`SAVEPOINT op`.execute(conn);
          const mark = markOf(pending);
          try {
            const value = await op.fn(conn);
            await sql6`RELEASE op`.execute(conn);
            settled.push(() => op.resolve(value));
          } catch (err) {
            await sql6`ROLLBACK TO op`.execute(conn);
            await sql6`RELEASE op`.execute(conn);
            undoTo(pending, mark);
            settled.push(() => op.reject(err));
          }
        }
        for (const p of pending.values()) await p.work(conn, p.items);
        await sql6`COMMIT`.execute(conn);
      } catch (err) {
        await sql6`ROLLBACK`.execute(conn).catch(() => void 0);
        throw err;
      } finally {
        beforeCommit.delete(conn);
      }
    });
  } catch (err) {
    for (const op of group) op.reject(err);
    return;
  }
  groupStats.groups++;
  groupStats.operations += group.length;
  for (const settle of settled) settle();
}

// src/modules/auth/sessions.ts
async function startSession({ config: config2, database: database2 }, start) {
  const { reseller: reseller2 } = start;
  const now5 = nowSec();
  const { token, tokenHash } = newToken();
  const lifetime = start.rememberMe ? config2.rememberMeDays * 86400 : config2.sessionMaxHours * 3600;
  const idle = start.rememberMe ? lifetime : config2.sessionIdleMinutes * 60;
  const user = await withTx(database2, async (trx) => {
    await insertSession(trx, {
      token_hash: tokenHash,
      reseller_id: reseller2.id,
      created_at: now5,
      last_seen_at: now5,
      expires_at: now5 + lifetime,
      idle_seconds: idle,
      remember_me: start.rememberMe ? 1 : 0,
      ip: start.ip,
      user_agent: start.userAgent?.slice(0, 300) ?? null
    });
    await markSignedIn(trx, reseller2.id, now5);
    await writeLog(trx, {
      type_log: "auth",
      action: "sign_in",
      actor_id: reseller2.id,
      reseller_id: reseller2.id,
      target_user: reseller2.username,
      ip: start.ip,
      value: start.secondFactor ?? null
    });
    return signedInUser(trx, reseller2.id);
  });
  return { token, user: { ...user, type: reseller2.type } };
}
var revokeAllSessions2 = (db, resellerId) => revokeAllSessions(db, resellerId);

// src/modules/auth/throttle.ts
var PRUNE_CHANCE = 0.02;
function rule(config2, limit) {
  return {
    limit,
    delaySeconds: config2.loginDelaySeconds,
    maxDelaySeconds: config2.loginMaxDelaySeconds,
    windowSeconds: config2.loginWindowSeconds
  };
}
async function refusal(db, refusal2, until, now5) {
  await writeLog(db, { type_log: "auth", action: refusal2.action, reseller_id: refusal2.reseller_id ?? null, target_user: refusal2.target_user, ip: refusal2.ip });
  return rateLimited(Math.max(1, until - now5));
}
async function checkAndCount({ config: config2, database: database2 }, keys2, refused3) {
  const db = database2.db;
  const now5 = nowSec();
  const blocked = await findBlocked(db, keys2.map((k) => k.key), now5);
  if (blocked.length > 0) throw await refusal(db, refused3, Math.max(...blocked.map((b) => b.blocked_until)), now5);
  const counted = [];
  for (const k of keys2) {
    const result = await countAttempt(db, k.key, rule(config2, k.limit), now5);
    if (result.refused) {
      for (const c of counted) await takeBackAttempt(db, c.key, c.limit);
      throw await refusal(db, refused3, result.blockedUntil, now5);
    }
    counted.push(k);
  }
  if (Math.random() < PRUNE_CHANCE) await pruneThrottle(db, now5 - config2.loginWindowSeconds, now5);
}
async function refuseIfBlocked({ database: database2 }, keys2, refused3) {
  const now5 = nowSec();
  const blocked = await findBlocked(database2.db, keys2.map((k) => k.key), now5);
  if (blocked.length > 0) throw await refusal(database2.db, refused3, Math.max(...blocked.map((b) => b.blocked_until)), now5);
}
async function succeeded({ database: database2 }, keys2) {
  for (const k of keys2) {
    if (k.onSuccess === "clear") await clearThrottle(database2.db, k.key);
    else await takeBackAttempt(database2.db, k.key, k.limit);
  }
}
var clearKey = (db, key) => clearThrottle(db, key);
function signInKeys(config2, input) {
  const user = input.username.toLowerCase();
  const ip = clientNetwork(input.ip);
  if (input.knownDeviceId !== null) {
    return [{ key: `device:${input.knownDeviceId}`, limit: config2.loginMaxFailures, onSuccess: "clear" }];
  }
  return [
    { key: `pair:${user}|${ip}`, limit: config2.loginMaxFailures, onSuccess: "clear" },
    { key: `ip:${ip}`, limit: config2.loginIpMaxFailures, onSuccess: "takeBack" },
    { key: `account:${user}`, limit: config2.loginAccountMaxFailures, onSuccess: "takeBack" }
  ];
}
function lineKeys(config2, input) {
  const ip = clientNetwork(input.ip);
  return [
    { key: `line-pair:${input.username.toLowerCase()}|${ip}`, limit: config2.loginMaxFailures, onSuccess: "clear" },
    { key: `line-ip:${ip}`, limit: config2.loginIpMaxFailures, onSuccess: "takeBack" }
  ];
}
function clientNetwork(ip) {
  const address = ip.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(":") || address.includes(".")) return address;
  const [head, tail] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const groups = tail === void 0 ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16)).join(":")}::/64`;
}

// src/modules/credits/idempotency.ts
import { createHash } from "node:crypto";

// src/db/planned.ts
async function firstByKey(db, query) {
  const compiled = query.compile();
  planOnceOnPostgres(compiled.sql);
  return (await db.executeQuery(compiled)).rows[0];
}

// src/modules/credits/idempotency-repo.ts
var findKey = (db, resellerId, key) => firstByKey(
  db,
  // columns named, not `*`: a statement PostgreSQL keeps prepared must not change its result's shape
  db.selectFrom("idempotency_keys").select(["reseller_id", "key", "request_hash", "status_code", "response", "created_at"]).where("reseller_id", "=", resellerId).where("key", "=", key)
);
async function insertKey(db, row) {
  await db.insertInto("idempotency_keys").values(row).execute();
}

// src/modules/credits/idempotency.ts
var conflict = () => new AppError(422, "IDEMPOTENCY_CONFLICT", "This Idempotency-Key was already used with another request");
async function storedOutcome(db, req, hash2) {
  const row = await findKey(db, req.actorId, req.key);
  if (!row) return void 0;
  if (row.request_hash !== hash2) throw conflict();
  return { statusCode: row.status_code, body: JSON.parse(row.response), replayed: true };
}
async function runIdempotent(database2, req, statusCode, operation) {
  if (!req.key) {
    const body = await withTx(database2, operation);
    return { statusCode, body, replayed: false };
  }
  if (req.key.length > 200) throw new AppError(400, "VALIDATION", "Idempotency-Key is too long", "Idempotency-Key");
  const hash2 = createHash("sha256").update(JSON.stringify(req.fingerprint)).digest("hex");
  try {
    return await withTx(database2, async (trx) => {
      const previous = await storedOutcome(trx, req, hash2);
      if (previous) return previous;
      const body = await operation(trx);
      await insertKey(trx, {
        reseller_id: req.actorId,
        key: req.key,
        request_hash: hash2,
        status_code: statusCode,
        response: JSON.stringify(body),
        created_at: Math.floor(Date.now() / 1e3)
      });
      return { statusCode, body, replayed: false };
    });
  } catch (err) {
    if (err instanceof AppError && err.code === "IDEMPOTENCY_CONFLICT") throw err;
    const winner = await storedOutcome(database2.db, req, hash2);
    if (!winner) throw err;
    return winner;
  }
}

// src/modules/dashboard/repo.ts
import { sql as sql7 } from "kysely";
function lineCounts(db, actor, now5, newSince) {
  const active = sql7`ln.enabled = 1 and ln.exp_date > ${now5}`;
  return visibleLines(db, actor).select([
    sql7`sum(case when ${active} and ln.is_trial = 0 then 1 else 0 end)`.as("users_active"),
    sql7`sum(case when ${active} and ln.is_trial = 0 and ln.system <> 1 then 1 else 0 end)`.as("users_activep2p"),
    sql7`sum(case when ${active} and ln.is_trial = 0 and ln.system = 1 then 1 else 0 end)`.as("users_activehttp"),
    sql7`sum(case when ln.created_at >= ${newSince} then 1 else 0 end)`.as("users_new"),
    sql7`sum(case when ${active} and ln.is_trial = 1 and ln.system = 1 then 1 else 0 end)`.as("users_trial"),
    sql7`sum(case when ${active} and ln.is_trial = 1 and ln.system <> 1 then 1 else 0 end)`.as("users_trialp2p")
  ]).executeTakeFirst();
}
function resellerCount(db, actor) {
  let q = db.selectFrom("resellers as r").select(sql7`count(*)`.as("n")).where("r.deleted_at", "is", null).where("r.id", "!=", actor.id);
  if (actor.type !== "admin") q = q.where("r.id", "in", subtreeIds(db, actor.id, false));
  return q.executeTakeFirst();
}
function onlineCounts(db, actor, since) {
  return visibleLines(db, actor, true).innerJoin("line_activity as a", "a.line_id", "ln.id").where("a.ended_at", "is", null).where("a.last_seen", ">", since).select([
    sql7`count(*)`.as("connections"),
    sql7`count(distinct ln.id)`.as("users_online"),
    sql7`count(distinct case when ln.member_id <> ${actor.id} then ln.id end)`.as("users_online_of_resellers")
  ]).executeTakeFirst();
}
function dayOf(dialect, col2, offset) {
  const day = sql7`((${sql7.ref(col2)} + ${offset}) / 86400)`;
  return dialect === "postgres" ? sql7`floor(${day})::int` : sql7`cast(${day} as integer)`;
}
function newLinesPerDay(db, actor, { dialect, offset, since }) {
  return visibleLines(db, actor).select([dayOf(dialect, "ln.created_at", offset).as("day"), sql7`count(*)`.as("n")]).where("ln.created_at", ">=", since).groupBy(sql7`1`).execute();
}
function creditsSpentPerDay(db, actor, { dialect, offset, since }) {
  let q = db.selectFrom("credit_ledger as cl").select([dayOf(dialect, "cl.created_at", offset).as("day"), sql7`sum(-cl.delta)`.as("n")]).where("cl.created_at", ">=", since).where("cl.delta", "<", 0).where("cl.reason", "like", "line_%");
  if (actor.type !== "admin") q = q.where("cl.reseller_id", "in", subtreeIds(db, actor.id, true));
  return q.groupBy(sql7`1`).execute();
}
var cachedAnswer = (db, resellerId) => db.selectFrom("dashboard_cache").selectAll().where("reseller_id", "=", resellerId).executeTakeFirst();
async function storeAnswer(db, resellerId, computedAt, body, basis) {
  if (basis < 0) {
    await db.insertInto("dashboard_cache").values({ reseller_id: resellerId, computed_at: computedAt, body }).onConflict((oc) => oc.column("reseller_id").doNothing()).execute();
    return;
  }
  await db.updateTable("dashboard_cache").set({ computed_at: computedAt, body }).where("reseller_id", "=", resellerId).where("invalidated_at", "=", basis).execute();
}
async function stampInvalidated(db, memberId, at) {
  await sql7`
    INSERT INTO dashboard_cache (reseller_id, computed_at, invalidated_at, body)
    SELECT id, 0, ${at}, NULL FROM (
      SELECT ancestor_id AS id FROM reseller_tree WHERE descendant_id = ${memberId}
      UNION
      SELECT r.id FROM resellers r WHERE r.member_group_id IN (SELECT g.group_id FROM groups g WHERE g.type = 'admin')
    ) AS affected WHERE true ORDER BY id
    ON CONFLICT (reseller_id) DO UPDATE SET body = NULL,
      invalidated_at = CASE WHEN dashboard_cache.invalidated_at >= ${at} THEN dashboard_cache.invalidated_at + 1 ELSE ${at} END`.execute(db);
}

// src/modules/dashboard/cache.ts
var inFlight = /* @__PURE__ */ new Map();
async function cached(deps2, resellerId, compute) {
  const ttlMs = deps2.config.dashboardCacheSeconds * 1e3;
  const db = deps2.database.db;
  const now5 = Date.now();
  const seconds2 = (ms) => Math.floor(ms / 1e3);
  let basis = -1;
  if (ttlMs > 0) {
    const row = await cachedAnswer(db, resellerId);
    if (row?.body && row.computed_at > now5 - ttlMs) {
      return { ...JSON.parse(row.body), computed_at: seconds2(row.computed_at) };
    }
    basis = row ? Number(row.invalidated_at) : -1;
  }
  const running = inFlight.get(resellerId);
  if (running) return { ...await running, computed_at: seconds2(now5) };
  const work = compute();
  inFlight.set(resellerId, work);
  try {
    const body = await work;
    if (ttlMs > 0) await storeAnswer(db, resellerId, now5, JSON.stringify(body), basis);
    return { ...body, computed_at: seconds2(now5) };
  } finally {
    inFlight.delete(resellerId);
  }
}
async function invalidateFor(db, memberId) {
  await onceBeforeCommit(db, `dashboard:${memberId}`, (trx) => stampInvalidated(trx, memberId, Date.now()));
}

// src/modules/settings/defaults.ts
var DEFAULT_SETTINGS = {
  master_min_credit_create: "1",
  user_limit_screen: "1",
  /** empty: links use PUBLIC_URL, else the address the panel was reached at */
  main_domain: "",
  trial_limit_per_day: "5",
  migration_package_adult: "33",
  migration_package_no_adult: "38",
  /** P2P logins are username@this domain */
  p2p_email_domain: "p2p.local",
  /** credits per 30 days of a line's remaining time, charged to activate its Lazy Player */
  lazy_player_monthly_credits: "1",
  /** the resellers' chat group and the manual site, in the sidebar when set */
  chat_group_url: "",
  manual_url: "",
  /** a new connection past a line's max_connections: 'refuse' it, or 'drop_oldest' (ended like a disconnect) */
  max_connections_policy: "refuse"
};

// src/modules/settings/repo.ts
async function allSettings(db) {
  const rows = await db.selectFrom("settings").select(["key", "value"]).execute();
  return { ...DEFAULT_SETTINGS, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
}
async function intSetting(db, key) {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  const n3 = Number(row?.value ?? DEFAULT_SETTINGS[key]);
  return Number.isFinite(n3) ? Math.trunc(n3) : 0;
}
async function textSetting(db, key) {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? DEFAULT_SETTINGS[key] ?? "";
}
async function saveSettings(db, values) {
  for (const [key, value] of Object.entries(values)) {
    await db.insertInto("settings").values({ key, value }).onConflict((oc) => oc.column("key").doUpdateSet({ value })).execute();
  }
}

// src/modules/resellers/repo.ts
import { sql as sql8 } from "kysely";
function visible(db, actor) {
  let q = db.selectFrom("resellers as r").innerJoin("groups as g", "g.group_id", "r.member_group_id").leftJoin("resellers as o", "o.id", "r.owner_id").where("r.deleted_at", "is", null).where("r.id", "!=", actor.id);
  if (actor.type !== "admin") q = q.where("r.id", "in", subtreeIds(db, actor.id, false));
  return q;
}
var rowColumns = (eb) => [
  "r.id",
  "r.username",
  "r.credits",
  "o.username as master_username",
  "r.owner_id",
  "r.last_login",
  "g.group_name",
  "g.type as group_type",
  "r.member_group_id",
  "r.status",
  eb.selectFrom("resellers as c").select(eb.fn.countAll().as("n")).whereRef("c.owner_id", "=", "r.id").where("c.deleted_at", "is", null).as("sub_resellers_count"),
  "r.lines_count as clients_count"
];
var normalise = (r) => ({
  ...r,
  sub_resellers_count: Number(r.sub_resellers_count),
  clients_count: Number(r.clients_count)
});
function filtered2(db, actor, f) {
  let q = visible(db, actor);
  if (f.id !== void 0) q = q.where("r.id", "=", f.id);
  if (f.username) q = q.where(sql8`lower(r.username)`, "like", sql8`${`%${escapeLike(f.username.toLowerCase())}%`} escape '\\'`);
  if (f.reseller) q = q.where(sql8`lower(o.username)`, "=", f.reseller.toLowerCase());
  if (f.group !== void 0) q = q.where("r.member_group_id", "=", f.group);
  if (f.status !== void 0) q = q.where("r.status", "=", f.status);
  return q;
}
async function pageResellers(db, actor, f, paging) {
  const q = filtered2(db, actor, f);
  const res = await paginate(q, (b) => b.select((eb) => rowColumns(eb)), { ...paging, db, tiebreak: "r.id" });
  return { ...res, data: res.data.map(normalise) };
}
function iterateResellers(db, actor, f, batch = 1e3) {
  return mapRows(
    keysetRows(
      (last, limit) => filtered2(db, actor, f).where("r.id", ">", last).select((eb) => rowColumns(eb)).orderBy("r.id").limit(limit).execute(),
      batch
    ),
    normalise
  );
}
async function findVisible(db, actor, id, includeSelf = false) {
  if (!includeSelf && id === actor.id) return void 0;
  if (actor.type !== "admin" && !await isInSubtree(db, actor.id, id, includeSelf)) return void 0;
  const q = db.selectFrom("resellers as r").innerJoin("groups as g", "g.group_id", "r.member_group_id").leftJoin("resellers as o", "o.id", "r.owner_id").where("r.deleted_at", "is", null).where("r.id", "=", id);
  const row = await firstByKey(
    db,
    q.select((eb) => [...rowColumns(eb), "r.email", "r.whatsapp", "r.telegram", "r.notes"])
  );
  return row && { ...normalise(row), email: row.email, whatsapp: row.whatsapp, telegram: row.telegram, notes: row.notes };
}
function searchVisible(db, actor, search2, includeSelf) {
  let q = db.selectFrom("resellers as r").select(["r.id", "r.username"]).where("r.deleted_at", "is", null).where(sql8`lower(r.username)`, "like", sql8`${`%${escapeLike(search2.toLowerCase())}%`} escape '\\'`).orderBy("r.username").limit(20);
  if (actor.type !== "admin") q = q.where("r.id", "in", subtreeIds(db, actor.id, includeSelf));
  else if (!includeSelf) q = q.where("r.id", "!=", actor.id);
  return q.execute();
}
async function usernameTaken(db, username2, exceptId) {
  let q = db.selectFrom("resellers").select("id").where(sql8`lower(username)`, "=", username2.toLowerCase());
  if (exceptId !== void 0) q = q.where("id", "!=", exceptId);
  return await q.executeTakeFirst() !== void 0;
}
async function insertReseller(db, values) {
  const { id } = await db.insertInto("resellers").values({ ...values, credits: 0, status: 1, created_at: Math.floor(Date.now() / 1e3) }).returning("id").executeTakeFirstOrThrow();
  await db.insertInto("reseller_tree").columns(["ancestor_id", "descendant_id", "depth"]).expression(
    (eb) => eb.selectFrom("reseller_tree").select(["ancestor_id", eb.val(id).as("descendant_id"), sql8`depth + 1`.as("depth")]).where("descendant_id", "=", values.owner_id)
  ).execute();
  await db.insertInto("reseller_tree").values({ ancestor_id: id, descendant_id: id, depth: 0 }).execute();
  return id;
}
async function updateReseller(db, id, changes) {
  await db.updateTable("resellers").set(changes).where("id", "=", id).execute();
}
async function balanceOf(db, id) {
  return (await db.selectFrom("resellers").select("credits").where("id", "=", id).executeTakeFirstOrThrow()).credits;
}
async function markDeactivated(db, id, at) {
  await db.updateTable("resellers").set({ deleted_at: at, status: 0 }).where("id", "=", id).execute();
}

// src/modules/resellers/access.ts
function requireManager(actor) {
  if (actor.type === "reseller") throw forbidden();
}
function requireManagerOf(actor) {
  if (actor.type === "reseller") throw notFound("Reseller");
}
async function loadVisible(db, actor, id) {
  const row = await findVisible(db, actor, id);
  if (!row) throw notFound("Reseller");
  return row;
}

// src/modules/credits/balance-repo.ts
import { sql as sql9 } from "kysely";
async function lockRows(db, sortedIds) {
  await db.selectFrom("resellers").select("id").where("id", "in", sortedIds).orderBy("id").forNoKeyUpdate().execute();
}
async function insertLedgerRow(db, row) {
  await db.insertInto("credit_ledger").values(row).execute();
}
async function takeFromBalance(db, resellerId, amount) {
  const row = await db.updateTable("resellers").set({ credits: sql9`credits - ${amount}` }).where("id", "=", resellerId).where("credits", ">=", amount).returning("credits").executeTakeFirst();
  return row?.credits;
}
async function addToBalance(db, resellerId, amount, max) {
  const row = await db.updateTable("resellers").set({ credits: sql9`credits + ${amount}` }).where("id", "=", resellerId).where("credits", "<=", max - amount).returning("credits").executeTakeFirst();
  return row?.credits;
}
async function balanceOf2(db, resellerId) {
  const row = await db.selectFrom("resellers").select("credits").where("id", "=", resellerId).executeTakeFirst();
  return row?.credits ?? 0;
}

// src/modules/credits/ledger.ts
var insufficientCredits = () => new AppError(409, "INSUFFICIENT_CREDITS", "Insufficient credits");
var MAX_BALANCE = 2147483647;
async function lockResellers(trx, dialect, ids) {
  if (dialect !== "postgres") return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await lockRows(trx, sorted);
}
async function writeLedger(trx, m, delta, balanceAfter) {
  await insertLedgerRow(trx, {
    reseller_id: m.resellerId,
    delta,
    balance_after: balanceAfter,
    reason: m.reason,
    counterparty_id: m.counterpartyId ?? null,
    line_id: m.lineId ?? null,
    p2p_account_id: m.p2pAccountId ?? null,
    actor_id: m.actorId,
    idempotency_key: m.idempotencyKey ?? null,
    created_at: Math.floor(Date.now() / 1e3)
  });
}
var currentBalance = (trx, resellerId) => balanceOf2(trx, resellerId);
async function debit(trx, m) {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`debit amount must be a positive integer, got ${m.amount}`);
  const balance = await takeFromBalance(trx, m.resellerId, m.amount);
  if (balance === void 0) throw insufficientCredits();
  await writeLedger(trx, m, -m.amount, balance);
  return balance;
}
async function credit(trx, m) {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${m.amount}`);
  const balance = await addToBalance(trx, m.resellerId, m.amount, MAX_BALANCE);
  if (balance === void 0) throw new AppError(409, "CREDIT_LIMIT", "This balance cannot grow any further");
  await writeLedger(trx, m, m.amount, balance);
  return balance;
}
var chargeable = (actor, amount) => actor.type === "admin" || amount <= 0 ? 0 : amount;
async function chargeCaller(trx, actor, amount, reason, target2, key) {
  if (chargeable(actor, amount) === 0) return 0;
  await debit(trx, { resellerId: actor.id, amount, reason, actorId: actor.id, ...target2, idempotencyKey: key });
  return amount;
}

// src/modules/resellers/credits.ts
async function giveCredits(deps2, trx, actor, targetId, amount, key) {
  if (actor.type === "admin") {
    return credit(trx, { resellerId: targetId, amount, reason: "admin_mint", actorId: actor.id, counterpartyId: actor.id, idempotencyKey: key });
  }
  await lockResellers(trx, deps2.database.dialect, [actor.id, targetId]);
  await debit(trx, { resellerId: actor.id, amount, reason: "transfer_out", actorId: actor.id, counterpartyId: targetId, idempotencyKey: key });
  return credit(trx, { resellerId: targetId, amount, reason: "transfer_in", actorId: actor.id, counterpartyId: actor.id, idempotencyKey: key });
}
async function changeCredits(deps2, actor, id, value, idempotencyKey2) {
  requireManagerOf(actor);
  if (value === 0) throw validation("value", "must not be 0");
  if (value < 0 && actor.type !== "admin") throw validation("value", "must be greater than 0");
  return runIdempotent(deps2.database, { actorId: actor.id, key: idempotencyKey2, fingerprint: ["credits", id, value] }, 200, async (trx) => {
    const log2 = (value_int) => writeLog(trx, { type_log: "credits", action: value > 0 ? "add_credits" : "remove_credits", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value_int });
    if (value > 0) {
      const target3 = await loadVisible(trx, actor, id);
      await log2(value);
      return { ...target3, credits: await giveCredits(deps2, trx, actor, id, value, idempotencyKey2) };
    }
    await lockResellers(trx, deps2.database.dialect, [id]);
    const target2 = await loadVisible(trx, actor, id);
    const burn = Math.min(-value, target2.credits);
    if (burn > 0) await debit(trx, { resellerId: id, amount: burn, reason: "admin_burn", actorId: actor.id, counterpartyId: actor.id, idempotencyKey: idempotencyKey2 });
    await log2(-burn);
    return await findVisible(trx, actor, id);
  });
}

// src/modules/resellers/passwords.ts
var MIN_PASSWORD_SCORE = 3;
var ESTIMATED_LENGTH = 32;
var estimator;
var warnings = { en: {}, pt: {} };
function loadEstimator() {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en, ptBr] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
      import("@zxcvbn-ts/language-pt-br")
    ]);
    warnings = { en: en.translations.warnings, pt: ptBr.translations.warnings };
    return new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      l33tMaxSubstitutions: 10,
      dictionary: { ...common.dictionary, ...en.dictionary, ...ptBr.dictionary },
      useLevenshteinDistance: false
    });
  })();
  return estimator;
}
async function estimatePassword(password, userInputs = [], lang = "en") {
  const zxcvbn = await loadEstimator();
  const texts = warnings[lang];
  const inputs = userInputs.filter((s) => typeof s === "string" && s.length >= 3).flatMap((s) => s.includes("@") ? [s, s.slice(0, s.indexOf("@"))] : [s]);
  const lower = password.toLowerCase();
  if (inputs.some((s) => s.length >= 4 && lower.includes(s.toLowerCase()))) return { score: 0, ok: false, warning: texts.userInputs ?? null };
  const result = zxcvbn.check(password.slice(0, ESTIMATED_LENGTH), inputs);
  const key = result.feedback.warning;
  return { score: result.score, ok: result.score >= MIN_PASSWORD_SCORE, warning: key ? texts[key] ?? null : null };
}
async function passwordWeakness(password, userInputs = []) {
  const strength = await estimatePassword(password, userInputs, "en");
  return strength.ok ? null : strength.warning ?? "it is too easy to guess";
}
async function assertStrongPassword(password, userInputs = []) {
  const weakness = await passwordWeakness(password, userInputs);
  if (weakness) {
    throw new AppError(400, "WEAK_PASSWORD", `password is too weak: ${weakness.replace(/\.$/, "")}. Use a longer password with unrelated words, digits and symbols.`, "password");
  }
}

// src/modules/resellers/groups-repo.ts
var listGroups = (db) => db.selectFrom("groups").selectAll().orderBy("group_id").execute();
var groupById = (db, groupId) => db.selectFrom("groups").selectAll().where("group_id", "=", groupId).executeTakeFirst();
var firstGroupOfType = (db, type) => db.selectFrom("groups").selectAll().where("type", "=", type).orderBy("group_id").executeTakeFirstOrThrow();

// src/modules/lines/repo.ts
import { sql as sql11 } from "kysely";

// src/db/line-filters.ts
import { sql as sql10 } from "kysely";
function createdRange(raw2, tzOffsetMinutes = 0) {
  const parts = raw2.split(",").map((p) => p.trim());
  if (parts.length < 1 || parts.length > 2 || parts.some((p) => !/^\d{4}-\d{2}-\d{2}$/.test(p))) return null;
  const from = Date.parse(`${parts[0]}T00:00:00Z`) / 1e3 - tzOffsetMinutes * 60;
  const to = Date.parse(`${parts[parts.length - 1]}T00:00:00Z`) / 1e3 + 86400 - tzOffsetMinutes * 60;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return null;
  return [from, to];
}
var ftsPhrase = (term) => `"${term.replaceAll('"', '""')}"`;
var SEARCH_INDEX_MAX = 5e3;
var SEARCH_PROBE_ROWS = 2e3;
var COMMON_MATCHES = 100;
async function searchIndexMatches(db, term) {
  if ([...term].length < 3) return void 0;
  const row = await sql10`select count(*) as n from (select 1 from lines_search where lines_search match ${ftsPhrase(term)} limit ${SEARCH_INDEX_MAX + 1})`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}
async function commonInWalk(db, scope2, term) {
  const newest = scope2.select(["ln.username", "ln.reseller_notes", "ln.whatsapp"]).orderBy("ln.id", "desc").limit(SEARCH_PROBE_ROWS);
  const row = await db.selectFrom(newest.as("w")).select(sql10`count(*)`.as("n")).where(textMatch("w", containsPattern(term), true)).executeTakeFirst();
  return Number(row?.n ?? 0) >= COMMON_MATCHES;
}
var SAMPLE_PERCENT = 0.2;
async function sampledMatches(db, term) {
  const row = await sql10`select count(*) as hits from lines m tablesample system (${sql10.lit(SAMPLE_PERCENT)})
    where m.deleted_at is null and ${textMatch("m", containsPattern(term), true)}`.execute(db);
  return Number(row.rows[0]?.hits ?? 0) * (100 / SAMPLE_PERCENT);
}
async function trigramMatches(db, term, limit) {
  const row = await sql10`select count(*) as n from (select 1 from lines m where m.deleted_at is null
    and ${textMatch("m", containsPattern(term), false)} limit ${limit + 1}) as candidates`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}
var containsPattern = (term) => sql10`${`%${escapeLike(term.toLowerCase())}%`} escape '\\'`;
function textMatch(alias, pattern, unindexed) {
  const col2 = (expr) => sql10.raw(unindexed ? `coalesce(${expr}, '')` : expr);
  return sql10`(${col2(`lower(${alias}.username)`)} like ${pattern} or ${col2(`lower(${alias}.reseller_notes)`)} like ${pattern} or ${col2(`${alias}.whatsapp`)} like ${pattern})`;
}
var afterPrefix2 = (prefix) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
function filtered3(db, actor, f, now5, opts = {}) {
  const { createdAt, resellerId } = opts;
  const col2 = (name) => opts.walkOrder ? sql10`+${sql10.ref(name)}` : sql10.ref(name);
  let q = visibleLines(db, actor, !!opts.scanInOrder && resellerId === void 0, !!opts.top && resellerId === void 0);
  if (f.id !== void 0) q = q.where("ln.id", "=", f.id);
  if (f.username) {
    const prefix = f.username.toLowerCase();
    q = q.where(sql10`lower(ln.username)`, ">=", prefix).where(sql10`lower(ln.username)`, "<", afterPrefix2(prefix)).where(sql10`coalesce(lower(ln.username), '')`, "like", sql10`${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (f.text_search) {
    const pattern = containsPattern(f.text_search);
    q = q.where(textMatch("ln", pattern, opts.search === "walk"));
    if (opts.search === "fts") q = q.where("ln.id", "in", sql10`(select rowid from lines_search where lines_search match ${ftsPhrase(f.text_search)})`);
    if (opts.search === "trgm") {
      q = q.where("ln.id", "=", sql10`any(array(select m.id from lines m where m.deleted_at is null and ${textMatch("m", pattern, false)}))`);
    }
  }
  if (resellerId !== void 0) q = q.where("ln.member_id", "=", resellerId);
  if (createdAt) q = q.where(col2("ln.created_at"), ">=", createdAt[0]).where(col2("ln.created_at"), "<", createdAt[1]);
  if (f.type_user === "trial") q = q.where("ln.is_trial", "=", sql10.lit(1));
  if (f.type_user === "normal") q = q.where(col2("ln.is_trial"), "=", sql10.lit(0));
  if (f.status === 1) q = q.where(col2("ln.enabled"), "=", sql10.lit(1)).where(col2("ln.exp_date"), ">", now5);
  if (f.status === 4) q = q.where(col2("ln.exp_date"), ">", now5);
  if (f.status === 3) q = q.where(col2("ln.exp_date"), "<=", now5);
  if (f.status === 0) q = q.where("ln.enabled", "=", sql10.lit(0));
  return q;
}

// src/modules/lines/repo.ts
var allLines = /* @__PURE__ */ new WeakMap();
function totalLines(db) {
  const kept = allLines.get(db);
  if (kept && Date.now() - kept.at < 1e4) return kept.n;
  const n3 = sumVisibleLines(db, { id: 0, username: "", type: "admin", credits: 0, sessionId: 0, twoFactorEnabled: false });
  allLines.set(db, { at: Date.now(), n: n3 });
  n3.catch(() => allLines.delete(db));
  return n3;
}
async function isLargeScope(db, actor) {
  if (actor.type === "admin") return false;
  const [mine, all2] = await Promise.all([countVisibleLines(db, actor), totalLines(db)]);
  return mine * 20 >= all2 && all2 > 1e4;
}
var OWN_COLUMNS = [
  "id",
  "username",
  "password",
  "created_at",
  "exp_date",
  "member_id",
  "reseller_notes",
  "whatsapp",
  "max_connections",
  "enabled",
  "is_trial",
  "system",
  "package_id",
  "bouquet",
  "last_extended_at",
  "p2p_sync_state as sync_state",
  "p2p_sync_error as sync_error"
];
var COLUMNS = [...OWN_COLUMNS.map((c) => `ln.${c}`), "o.username as master_username"];
var toLineRow = (r) => ({ ...r, bouquet: JSON.parse(r.bouquet) });
async function pageLines(db, q, paging) {
  const withOwner2 = (b) => b.leftJoin("resellers as o", "o.id", "ln.member_id").select(COLUMNS);
  const deferred = paging.order.column.startsWith("ln.") ? (keys2) => withOwner2(db.selectFrom("lines as ln").where("ln.id", "in", keys2)) : void 0;
  const res = await paginate(q, (b) => withOwner2(b), {
    ...paging,
    db,
    tiebreak: "ln.id",
    countBase: paging.count,
    deferred
  });
  return { ...res, data: res.data.map(toLineRow) };
}
function iterateLines(db, actor, f, now5, opts, batch = 1e3) {
  const rows = keysetRows(
    (last, limit) => filtered3(db, actor, f, now5, opts).where("ln.id", ">", last).leftJoin("resellers as o", "o.id", "ln.member_id").select(COLUMNS).orderBy("ln.id").limit(limit).execute(),
    batch
  );
  return mapRows(rows, toLineRow);
}
async function findVisibleLine(db, actor, id) {
  const row = await firstByKey(db, visibleLine(db, actor, id).leftJoin("resellers as o", "o.id", "ln.member_id").select(COLUMNS));
  return row ? toLineRow(row) : void 0;
}
async function usernameExists(db, username2) {
  return await db.selectFrom("lines").select("id").where("username", "=", username2).executeTakeFirst() !== void 0;
}
async function trialsSince(db, memberId, since) {
  const row = await db.selectFrom("lines").select((eb) => eb.fn.countAll().as("n")).where("member_id", "=", memberId).where("is_trial", "=", 1).where("created_at", ">=", since).executeTakeFirst();
  return Number(row?.n ?? 0);
}
function searchVisibleLines(db, actor, search2) {
  return visibleLines(db, actor).select(["ln.id", "ln.username"]).where(sql11`lower(ln.username)`, "like", sql11`${`${escapeLike(search2.toLowerCase())}%`} escape '\\'`).orderBy("ln.username").limit(20).execute();
}
var expiringLines = (db, actor, now5, scanInOrder) => visibleLines(db, actor, scanInOrder).where("ln.is_trial", "=", sql11.lit(0)).where("ln.enabled", "=", sql11.lit(1)).where("ln.exp_date", ">", now5);

// src/modules/lines/search-repo.ts
import { sql as sql12 } from "kysely";
async function deferLineSearch(db) {
  const gathered = gatherBeforeCommit(db, "line-search", indexLines);
  if (!gathered) return void 0;
  if (gathered.first) await sql12`UPDATE line_search_deferral SET deferred = 1`.execute(db);
  return gathered.items;
}
async function indexLines(trx, ids) {
  if (ids.length > 0) {
    await sql12`INSERT INTO lines_search (rowid, username, reseller_notes, whatsapp)
      SELECT id, username, reseller_notes, whatsapp FROM lines WHERE id IN (${sql12.join(ids)})`.execute(trx);
  }
  await sql12`UPDATE line_search_deferral SET deferred = 0`.execute(trx);
}

// src/modules/lines/write-repo.ts
async function insertLine(db, values, ownerUsername) {
  const searchLater = await deferLineSearch(db);
  const row = await db.insertInto("lines").values(values).returning(OWN_COLUMNS).executeTakeFirstOrThrow();
  searchLater?.push(row.id);
  return toLineRow({ ...row, master_username: ownerUsername });
}
async function updateLine(db, id, changes) {
  await db.updateTable("lines").set(changes).where("id", "=", id).execute();
}
async function lockLine(db, dialect, id) {
  if (dialect === "postgres") await db.selectFrom("lines").select("id").where("id", "=", id).forUpdate().execute();
}
async function moveLines(db, fromId, toId) {
  await db.updateTable("lines").set({ member_id: toId }).where("member_id", "=", fromId).execute();
}

// src/modules/p2p/outbox-repo.ts
import { sql as sql13 } from "kysely";
async function bumpVersion(db, kind, id, n3) {
  if (kind === "account") {
    const row2 = await db.updateTable("p2p_accounts").set({ sync_version: sql13`sync_version + ${n3}`, sync_state: sql13`case when sync_state = 'failed' then 'failed' else 'pending' end` }).where("id", "=", id).returning("sync_version").executeTakeFirstOrThrow();
    return row2.sync_version;
  }
  const row = await db.updateTable("lines").set({ p2p_sync_version: sql13`p2p_sync_version + ${n3}`, p2p_sync_state: sql13`case when p2p_sync_state = 'failed' then 'failed' else 'pending' end` }).where("id", "=", id).returning("p2p_sync_version").executeTakeFirstOrThrow();
  return row.p2p_sync_version;
}
async function insertDelivery(db, row) {
  await db.insertInto("outbox").values(row).execute();
}
function claimDue(db, nowMs, limit, skipLocked) {
  let q = db.selectFrom("outbox as o").select(["o.id", "o.subject_kind", "o.subject_id", "o.version", "o.login", "o.method", "o.body", "o.attempts"]).where("o.delivered_at", "is", null).where("o.next_attempt_at", "<=", nowMs).where(
    "o.id",
    "=",
    ({ selectFrom }) => selectFrom("outbox as e").select(({ fn }) => fn.min("e.id").as("first")).whereRef("e.subject_kind", "=", "o.subject_kind").whereRef("e.subject_id", "=", "o.subject_id").where("e.delivered_at", "is", null)
  ).orderBy("o.id").limit(limit);
  if (skipLocked) q = q.forUpdate().skipLocked();
  return q.execute();
}
async function markDelivered(db, d, nowMs) {
  await db.updateTable("outbox").set({ delivered_at: nowMs, attempts: d.attempts + 1, last_error: null }).where("id", "=", d.id).execute();
  if (d.subject_kind === "account") {
    await db.updateTable("p2p_accounts").set({
      sync_state: sql13`case when sync_version = ${d.version} then 'synced' else 'pending' end`,
      sync_error: null,
      synced_at: Math.floor(nowMs / 1e3)
    }).where("id", "=", d.subject_id).execute();
  } else {
    await db.updateTable("lines").set({ p2p_sync_state: sql13`case when p2p_sync_version = ${d.version} then 'synced' else 'pending' end`, p2p_sync_error: null }).where("id", "=", d.subject_id).execute();
  }
}
async function markFailed(db, d, nextAttemptAt, error) {
  const message = error.slice(0, 500);
  await db.updateTable("outbox").set({ attempts: d.attempts + 1, next_attempt_at: nextAttemptAt, last_error: message }).where("id", "=", d.id).execute();
  if (d.subject_kind === "account") {
    await db.updateTable("p2p_accounts").set({ sync_state: "failed", sync_error: message }).where("id", "=", d.subject_id).execute();
  } else {
    await db.updateTable("lines").set({ p2p_sync_state: "failed", p2p_sync_error: message }).where("id", "=", d.subject_id).execute();
  }
}
async function queueFigures(db) {
  const row = await db.selectFrom("outbox").select([
    sql13`sum(case when last_error is null then 1 else 0 end)`.as("pending"),
    sql13`sum(case when last_error is null then 0 else 1 end)`.as("failed"),
    sql13`min(created_at)`.as("oldest")
  ]).where("delivered_at", "is", null).executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}
function recentErrors(db, limit) {
  return db.selectFrom("outbox").select(["id", "login", "method", "attempts", "last_error", "next_attempt_at"]).where("delivered_at", "is", null).where("last_error", "is not", null).orderBy("id", "desc").limit(limit).execute();
}
async function pruneDelivered(db, beforeMs, limit = 1e3) {
  const old = db.selectFrom("outbox").select("id").where("delivered_at", "<", beforeMs).limit(limit);
  const res = await db.deleteFrom("outbox").where("id", "in", old).executeTakeFirst();
  return Number(res.numDeletedRows ?? 0);
}

// src/modules/p2p/rules.ts
var RENEW_CREDITS_PER_MONTH = 1;
var emailOf = (username2, domain) => `${username2}@${domain}`;
var domainOf = (email) => email.slice(email.lastIndexOf("@") + 1);
var localPartOf = (email) => email.slice(0, email.lastIndexOf("@"));
var isP2pSystem = (system) => system === 2 || system === 3;
var accountState = (a) => ({
  name: a.name,
  password: a.password,
  expires_at: a.expires_at,
  status: a.status,
  max_connections: a.max_connections,
  is_trial: a.is_trial === 1
});
var lineState = (l) => ({
  name: l.username,
  password: l.password,
  expires_at: l.exp_date,
  status: l.enabled === 1 ? 1 : 0,
  max_connections: l.max_connections,
  is_trial: l.is_trial === 1
});
function retryDelayMs(attempts, baseMs, maxMs) {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  return Math.min(maxMs, Math.round(exp * (0.8 + Math.random() * 0.4)));
}

// src/modules/p2p/outbox.ts
async function queue(trx, kind, id, deliveries) {
  if (deliveries.length === 0) return;
  const version = await bumpVersion(trx, kind, id, deliveries.length);
  const now5 = Date.now();
  let v = version - deliveries.length;
  for (const d of deliveries) {
    v += 1;
    await insertDelivery(trx, {
      subject_kind: kind,
      subject_id: id,
      version: v,
      login: d.login,
      method: d.method,
      body: d.method === "PUT" ? JSON.stringify(d.state) : null,
      created_at: Math.floor(now5 / 1e3),
      next_attempt_at: now5
    });
  }
}
function queueAccount(trx, account, change, oldEmail) {
  const put = { login: account.email, method: "PUT", state: accountState(account) };
  if (change === "delete") return queue(trx, "account", account.id, [{ login: account.email, method: "DELETE" }]);
  if (oldEmail && oldEmail.toLowerCase() !== account.email.toLowerCase()) {
    return queue(trx, "account", account.id, [{ login: oldEmail, method: "DELETE" }, put]);
  }
  return queue(trx, "account", account.id, [put]);
}
async function queueLineChange(trx, before, after, force = false) {
  const wasP2p = isP2pSystem(before.system);
  const isP2p = after !== void 0 && isP2pSystem(after.system);
  let deliveries = [];
  if (isP2p) {
    const state = lineState(after);
    const changed3 = !wasP2p || JSON.stringify(state) !== JSON.stringify(lineState(before));
    if (changed3 || force) deliveries = [{ login: after.username, method: "PUT", state }];
  } else if (wasP2p) {
    deliveries = [{ login: before.username, method: "DELETE" }];
  }
  await queue(trx, "line", before.id, deliveries);
  return deliveries.length > 0;
}
var listeners = /* @__PURE__ */ new Set();
function kick() {
  for (const listener of listeners) listener();
}
function onKick(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
async function queueStatus(db) {
  const [figures, errors] = await Promise.all([queueFigures(db), recentErrors(db, 10)]);
  return { ...figures, errors };
}

// src/modules/lines/change.ts
var now = () => Math.floor(Date.now() / 1e3);
var trialNotAllowed = () => new AppError(409, "TRIAL_NOT_ALLOWED", "Not available for trial lines");
var charge = (trx, actor, amount, reason, lineId, key) => chargeCaller(trx, actor, amount, reason, { lineId }, key);
async function loadLineForChange(deps2, trx, actor, id) {
  await lockLine(trx, deps2.database.dialect, id);
  const row = await findVisibleLine(trx, actor, id);
  if (!row) throw notFound("User");
  return row;
}
async function mutate(deps2, actor, id, change, key, fingerprint, opts = {}) {
  let queued = false;
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: [id, fingerprint] }, 200, async (trx) => {
    const line = await loadLineForChange(deps2, trx, actor, id);
    await change(trx, line);
    const after = await findVisibleLine(trx, actor, id);
    queued = await queueLineChange(trx, line, after, opts.resync);
    const result = queued && after ? await findVisibleLine(trx, actor, id) : after;
    await invalidateFor(trx, line.member_id);
    return result;
  });
  if (queued) kick();
  return outcome.body;
}
var logChange = (trx, actor, line, action, value, value_int) => writeLog(trx, { type_log: "user", action, actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: value ?? null, value_int: value_int ?? null });

// src/modules/lines/queries.ts
var ORDER_FIELDS = {
  id: "ln.id",
  username: "ln.username",
  password: "ln.password",
  created_at: "ln.created_at",
  exp_date: "ln.exp_date",
  master_username: "o.username",
  reseller_notes: "ln.reseller_notes",
  whatsapp: "ln.whatsapp",
  max_connections: "ln.max_connections",
  enabled: "ln.enabled",
  is_trial: "ln.is_trial",
  system: "ln.system"
};
var DEFAULT_ORDER = { column: "ln.id", direction: "desc" };
var isLarge = ({ database: database2 }, actor) => database2.dialect === "sqlite" && isLargeScope(database2.db, actor);
async function resolveFilters(deps2, actor, q, byId) {
  let createdAt;
  if (q.created) {
    const range = createdRange(q.created, q.tz_offset ?? 0);
    if (!range) throw validation("created", "must be YYYY-MM-DD or YYYY-MM-DD,YYYY-MM-DD");
    createdAt = range;
  }
  let resellerId;
  if (q.reseller) {
    resellerId = await resellerIdByUsername(deps2.database.db, q.reseller) ?? -1;
  }
  const scanInOrder = await isLarge(deps2, actor);
  const topLevel = actor.type === "master" && resellerId === void 0 && await isTopLevel(deps2.database.db, actor);
  const search2 = q.text_search ? await textSearchPath(deps2, actor, q.text_search, topLevel) : void 0;
  const selective = q.id !== void 0 || !!q.username || resellerId !== void 0 || search2 === "fts";
  const walkOrder = deps2.database.dialect === "sqlite" && byId && !selective;
  return { createdAt, resellerId, scanInOrder, walkOrder, search: search2, top: byId && topLevel };
}
async function textSearchPath(deps2, actor, term, topLevel) {
  const db = deps2.database.db;
  const key = `${actor.id}\0${term.toLowerCase()}`;
  const kept = searchPaths.get(db, key);
  if (kept && kept.until > Date.now()) return kept.path;
  const path5 = chooseSearchPath(deps2, actor, term, topLevel);
  searchPaths.set(db, key, { path: path5, until: Date.now() + SEARCH_PATH_KEPT_MS });
  path5.catch(() => {
    if (searchPaths.get(db, key)?.path === path5) searchPaths.delete(db, key);
  });
  return path5;
}
var SEARCH_PATH_KEPT_MS = 1e4;
var searchPaths = keptPerHandle(1e3);
async function chooseSearchPath({ database: database2 }, actor, term, topLevel) {
  if (database2.dialect === "sqlite") {
    const n3 = await searchIndexMatches(database2.db, term);
    return n3 !== void 0 && n3 <= SEARCH_INDEX_MAX ? "fts" : void 0;
  }
  if ([...term].length < 3) return "walk";
  if (await commonInWalk(database2.db, visibleLines(database2.db, actor, false, topLevel), term)) return "walk";
  const limit = Math.max(SEARCH_INDEX_MAX, Math.floor(await countVisibleLines(database2.db, actor) / 10));
  if (await sampledMatches(database2.db, term) > 2 * limit) return "walk";
  return await trigramMatches(database2.db, term, limit) <= limit ? "trgm" : "walk";
}
async function list(deps2, actor, q) {
  const db = deps2.database.db;
  const order = parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER);
  const opts = await resolveFilters(deps2, actor, q, order.column === "ln.id");
  const unfiltered = [q.id, q.username, q.text_search, q.reseller, q.created, q.type_user, q.status].every((v) => v === void 0 || v === "");
  const at = now();
  const page = filtered3(db, actor, q, at, opts);
  return pageLines(db, page, {
    page: q.page,
    per: q.per,
    order,
    total: unfiltered ? () => countVisibleLines(db, actor) : void 0,
    // The capped count takes no walk hints: it reads the matches through the narrowest index
    // (an owner's range, a partial index), where the page walks the sort order. Text search reads
    // every candidate row anyway, so its count walks like the page (rows in id order, not one
    // random read per line of each owner).
    count: q.text_search ? page : filtered3(db, actor, q, at, { ...opts, scanInOrder: false, walkOrder: false, top: false }),
    countCap: q.text_search ? TEXT_SEARCH_COUNT_CAP : void 0,
    // an exact count under the cap (an owner's lines, a username prefix) is kept until a line in
    // the caller's scope changes
    countStamp: () => visibleLinesStamp(db, actor)
  });
}
async function exportRows(deps2, actor, q) {
  const db = deps2.database.db;
  const opts = await resolveFilters(deps2, actor, q, true);
  return iterateLines(db, actor, q, now(), opts);
}
async function get({ database: database2 }, actor, id) {
  const row = await findVisibleLine(database2.db, actor, id);
  if (!row) throw notFound("User");
  return row;
}
async function selectSearch({ database: database2 }, actor, search2) {
  const rows = await searchVisibleLines(database2.db, actor, search2);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}
async function expiring(deps2, actor, q) {
  const db = deps2.database.db;
  const at = now();
  const base2 = expiringLines(db, actor, at, await isLarge(deps2, actor));
  const count = expiringLines(db, actor, at, false);
  return pageLines(db, base2, { page: q.page, per: q.per, order: { column: "ln.exp_date", direction: q.order ?? "asc" }, count });
}

// src/modules/bouquets/items-repo.ts
import { sql as sql14 } from "kysely";
var CHUNK = 500;
async function itemsOf(db, bouquetId) {
  const rows = await db.selectFrom("bouquet_items").select(["category_id", "stream_id"]).where("bouquet_id", "=", bouquetId).execute();
  const ids = (pick) => rows.map(pick).filter((v) => v !== null).sort((a, b) => a - b);
  return { categories: ids((r) => r.category_id), streams: ids((r) => r.stream_id) };
}
function itemCounts(db) {
  return db.selectFrom("bouquet_items").select(["bouquet_id", sql14`count(category_id)`.as("categories"), sql14`count(stream_id)`.as("streams")]).groupBy("bouquet_id").execute();
}
async function countExistingIn(db, table, ids) {
  let n3 = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const row = await db.selectFrom(table).select(sql14`count(*)`.as("n")).where("id", "in", ids.slice(i, i + CHUNK)).executeTakeFirst();
    n3 += Number(row?.n ?? 0);
  }
  return n3;
}
async function replaceItems(db, bouquetId, column, ids) {
  await db.deleteFrom("bouquet_items").where("bouquet_id", "=", bouquetId).where(column, "is not", null).execute();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = ids.slice(i, i + CHUNK).map((id) => ({ bouquet_id: bouquetId, category_id: column === "category_id" ? id : null, stream_id: column === "stream_id" ? id : null }));
    await db.insertInto("bouquet_items").values(rows).execute();
  }
}

// src/modules/bouquets/repo.ts
var listBouquets = (db) => db.selectFrom("bouquets").selectAll().orderBy("id").execute();
var findBouquet = (db, id) => db.selectFrom("bouquets").selectAll().where("id", "=", id).executeTakeFirst();
async function countExisting(db, ids) {
  if (ids.length === 0) return 0;
  const row = await db.selectFrom("bouquets").select((eb) => eb.fn.countAll().as("n")).where("id", "in", ids).executeTakeFirst();
  return Number(row?.n ?? 0);
}
async function insertBouquet(db, bouquet_name) {
  return db.insertInto("bouquets").values({ bouquet_name }).returningAll().executeTakeFirstOrThrow();
}
async function updateBouquet(db, id, bouquet_name) {
  return db.updateTable("bouquets").set({ bouquet_name }).where("id", "=", id).returningAll().executeTakeFirst();
}
async function deleteBouquet(db, id) {
  const res = await db.deleteFrom("bouquets").where("id", "=", id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
async function usedByPackages(db, id) {
  const row = await db.selectFrom("packages").select("id").where("bouquets", "like", `%"${id}"%`).limit(1).executeTakeFirst();
  return row !== void 0;
}

// src/modules/bouquets/service.ts
async function list2({ database: database2 }) {
  const [rows, counts] = await Promise.all([listBouquets(database2.db), itemCounts(database2.db)]);
  const byId = new Map(counts.map((c) => [c.bouquet_id, c]));
  return rows.map((b) => ({ ...b, categories_count: Number(byId.get(b.id)?.categories ?? 0), streams_count: Number(byId.get(b.id)?.streams ?? 0) }));
}
async function get2({ database: database2 }, id) {
  const row = await findBouquet(database2.db, id);
  if (!row) throw notFound("Bouquet");
  return { ...row, ...await itemsOf(database2.db, id) };
}
async function assertBouquetIds(db, ids, field) {
  if (ids.length === 0) throw new AppError(400, "BOUQUET_REQUIRED", "You must select at least 1 bouquet", field);
  if (ids.some((id) => !/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2147483647)) {
    throw validation(field, "bouquet ids must be positive integers");
  }
  const numbers = [...new Set(ids.map(Number))];
  if (await countExisting(db, numbers) !== numbers.length) throw validation(field, "unknown bouquet id");
  return numbers.map(String);
}
async function create(deps2, actor, name) {
  return withTx(deps2.database, async (trx) => {
    const row = await insertBouquet(trx, name);
    await writeLog(trx, { type_log: "admin", action: "bouquet_create", actor_id: actor.id, reseller_id: actor.id, value: name });
    return row;
  });
}
async function update(deps2, actor, id, name, contents = {}) {
  return withTx(deps2.database, async (trx) => {
    const row = await updateBouquet(trx, id, name);
    if (!row) throw notFound("Bouquet");
    const parts = [["categories", "category_id", contents.categories], ["streams", "stream_id", contents.streams]];
    for (const [field, column, ids] of parts) {
      if (ids === void 0) continue;
      const unique = [...new Set(ids)];
      if (await countExistingIn(trx, field, unique) !== unique.length) throw validation(field, `unknown ${field === "categories" ? "category" : "stream"} id`);
      await replaceItems(trx, id, column, unique);
    }
    const changed3 = ["name", ...parts.filter((p) => p[2] !== void 0).map((p) => `${p[0]} ${p[2]?.length}`)].join(", ");
    await writeLog(trx, { type_log: "admin", action: "bouquet_update", actor_id: actor.id, reseller_id: actor.id, value: `${name} (${changed3})`.slice(0, 500), value_int: id });
    return { ...row, ...await itemsOf(trx, id) };
  });
}
async function remove(deps2, actor, id) {
  return withTx(deps2.database, async (trx) => {
    if (!await findBouquet(trx, id)) throw notFound("Bouquet");
    if (await usedByPackages(trx, id)) throw new AppError(409, "BOUQUET_IN_USE", "This bouquet is used by a package");
    await deleteBouquet(trx, id);
    await writeLog(trx, { type_log: "admin", action: "bouquet_delete", actor_id: actor.id, reseller_id: actor.id, value_int: id });
  });
}

// src/modules/packages/repo.ts
var toPackageOut = (p) => ({
  ...p,
  official_duration_in: p.official_duration_in,
  trial_duration_in: p.trial_duration_in,
  bouquets: JSON.parse(p.bouquets)
});
async function pagePackages(db, opts) {
  const res = await paginate(db.selectFrom("packages"), (q) => q.selectAll(), { ...opts, db, tiebreak: "id" });
  return { ...res, data: res.data.map(toPackageOut) };
}
async function allPackages(db) {
  return (await db.selectFrom("packages").selectAll().orderBy("id").execute()).map(toPackageOut);
}
var PACKAGE_COLUMNS = [
  "id",
  "package_name",
  "is_trial",
  "is_official",
  "max_connections",
  "official_credits",
  "official_duration",
  "official_duration_in",
  "trial_credits",
  "trial_duration",
  "trial_duration_in",
  "bouquets"
];
async function findPackage(db, id) {
  const row = await firstByKey(db, db.selectFrom("packages").select(PACKAGE_COLUMNS).where("id", "=", id));
  return row && toPackageOut(row);
}
async function insertPackage(db, values) {
  return toPackageOut(await db.insertInto("packages").values(values).returningAll().executeTakeFirstOrThrow());
}
async function updatePackage(db, id, values) {
  const row = await db.updateTable("packages").set(values).where("id", "=", id).returningAll().executeTakeFirst();
  return row && toPackageOut(row);
}

// src/modules/packages/schemas.ts
import { Type as Type2 } from "typebox";
var Unit = Type2.Union([Type2.Literal("hours"), Type2.Literal("days"), Type2.Literal("months"), Type2.Literal("years")]);
var Flag = Type2.Integer({ minimum: 0, maximum: 1 });
var Count = (max) => Type2.Integer({ minimum: 0, maximum: max });
var PackageOut = Type2.Object({
  id: Type2.Integer(),
  package_name: Type2.String(),
  is_trial: Type2.Integer(),
  is_official: Type2.Integer(),
  max_connections: Type2.Integer(),
  official_credits: Type2.Integer(),
  official_duration: Type2.Integer(),
  official_duration_in: Unit,
  trial_credits: Type2.Integer(),
  trial_duration: Type2.Integer(),
  trial_duration_in: Unit,
  bouquets: Type2.Array(Type2.String())
}, { title: "Package" });
var PackageBody = Type2.Object({
  package_name: Type2.String({ minLength: 1, maxLength: 100, pattern: "\\S" }),
  is_trial: Flag,
  is_official: Flag,
  max_connections: Type2.Integer({ minimum: 1, maximum: 100 }),
  official_credits: Count(1e4),
  official_duration: Count(120),
  official_duration_in: Unit,
  trial_credits: Count(1e4),
  trial_duration: Count(720),
  trial_duration_in: Unit,
  bouquets: Type2.Array(Type2.String({ maxLength: 12 }), { minItems: 1, maxItems: 500 })
});
var PackageUpdateBody = Type2.Object({
  package_name: PackageBody.properties.package_name,
  bouquets: PackageBody.properties.bouquets,
  is_trial: Type2.Optional(Flag),
  is_official: Type2.Optional(Flag),
  max_connections: Type2.Optional(PackageBody.properties.max_connections),
  official_credits: Type2.Optional(Count(1e4)),
  official_duration: Type2.Optional(Count(120)),
  official_duration_in: Type2.Optional(Unit),
  trial_credits: Type2.Optional(Count(1e4)),
  trial_duration: Type2.Optional(Count(720)),
  trial_duration_in: Type2.Optional(Unit)
});

// src/modules/packages/service.ts
var ORDER_FIELDS2 = { id: "id", package_name: "package_name", is_trial: "is_trial", is_official: "is_official" };
var DEFAULT_ORDER2 = { column: "id", direction: "asc" };
function list3({ database: database2 }, q) {
  return pagePackages(database2.db, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS2, DEFAULT_ORDER2) });
}
var all = ({ database: database2 }) => allPackages(database2.db);
var findPackage2 = (db, id) => findPackage(db, id);
async function get3({ database: database2 }, id) {
  const row = await findPackage(database2.db, id);
  if (!row) throw notFound("Package");
  return row;
}
function packageFields(input) {
  return Object.fromEntries(Object.entries(input).filter(([k]) => Object.hasOwn(PackageBody.properties, k)));
}
async function create2(deps2, actor, input) {
  return withTx(deps2.database, async (trx) => {
    const bouquets = await assertBouquetIds(trx, input.bouquets, "bouquets");
    const row = await insertPackage(trx, { ...packageFields(input), package_name: input.package_name.trim(), bouquets: JSON.stringify(bouquets) });
    await writeLog(trx, { type_log: "admin", action: "package_create", actor_id: actor.id, reseller_id: actor.id, value: row.package_name, value_int: row.id });
    return row;
  });
}
async function update2(deps2, actor, id, input) {
  return withTx(deps2.database, async (trx) => {
    const bouquets = await assertBouquetIds(trx, input.bouquets, "bouquets");
    const row = await updatePackage(trx, id, { ...packageFields(input), package_name: input.package_name.trim(), bouquets: JSON.stringify(bouquets) });
    if (!row) throw notFound("Package");
    await writeLog(trx, { type_log: "admin", action: "package_update", actor_id: actor.id, reseller_id: actor.id, value: row.package_name, value_int: id });
    return row;
  });
}

// src/modules/lines/rules.ts
import { randomInt } from "node:crypto";
var DAY = 86400;
var MONTH = 30 * DAY;
function addDuration(fromSec, amount, unit) {
  const d = new Date(fromSec * 1e3);
  switch (unit) {
    case "hours":
      return fromSec + amount * 3600;
    case "days":
      return fromSec + amount * DAY;
    case "years":
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return Math.floor(d.getTime() / 1e3);
    default: {
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + amount);
      const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, last));
      return Math.floor(d.getTime() / 1e3);
    }
  }
}
function monthsRemaining(expDate, now5) {
  return expDate > now5 ? Math.ceil((expDate - now5) / MONTH) : 0;
}
var renewalBase = (expDate, now5) => Math.max(expDate, now5);
var ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
function randomCredential() {
  const length = randomInt(6, 10);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
async function uniqueCredentials(input, taken) {
  let username2 = input.username?.trim();
  if (username2) {
    if (await taken(username2)) throw new AppError(409, "USERNAME_TAKEN", "This username is already taken", "username");
  } else {
    do
      username2 = randomCredential();
    while (await taken(username2));
  }
  return { username: username2, password: input.password?.trim() || randomCredential() };
}

// src/modules/lines/create.ts
var credentials = (trx, input) => uniqueCredentials(input, (username2) => usernameExists(trx, username2));
async function insertNewLine(trx, actor, input, line) {
  const { username: username2, password } = await credentials(trx, input);
  const values = {
    ...line,
    member_id: actor.id,
    username: username2,
    password,
    enabled: 1,
    bouquet: JSON.stringify(line.bouquet),
    reseller_notes: input.reseller_notes?.trim() || null,
    whatsapp: input.whatsapp?.trim() || null,
    system: 1
  };
  return insertLine(trx, values, actor.username);
}
async function paidTerms(trx, packageId, requestedScreens, from) {
  const pkg = await findPackage2(trx, packageId);
  if (!pkg || pkg.is_trial === 1) throw validation("package_id", "choose an existing non-trial package");
  const screens2 = pkg.max_connections >= 2 ? pkg.max_connections : requestedScreens ?? 1;
  if (pkg.max_connections < 2 && screens2 !== 1) {
    const limit = Math.max(1, await intSetting(trx, "user_limit_screen"));
    if (!Number.isInteger(screens2) || screens2 < 1 || screens2 > limit) throw validation("max_connections", `must be between 1 and ${limit}`);
  }
  return { pkg, screens: screens2, cost: screens2 * pkg.official_credits, expiresAt: addDuration(from, pkg.official_duration, pkg.official_duration_in) };
}
async function trialTerms(trx, packageId, from) {
  const pkg = await findPackage2(trx, packageId);
  if (pkg?.is_trial !== 1 || pkg.is_official !== 0) throw validation("package_id", "choose an existing trial package");
  return { pkg, screens: Math.max(1, pkg.max_connections), expiresAt: addDuration(from, pkg.trial_duration, pkg.trial_duration_in) };
}
async function assertTrialAllowed(trx, dialect, actor, now5, countSince) {
  if (actor.type === "admin") return;
  await lockResellers(trx, dialect, [actor.id]);
  const limit = await intSetting(trx, "trial_limit_per_day");
  if (await countSince(now5 - DAY) >= limit) throw new AppError(409, "TRIAL_LIMIT_REACHED", `Trial limit reached: ${limit} per day`);
}
async function create3(deps2, actor, input, key) {
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: ["create-line", input] }, 201, async (trx) => {
    const t = now();
    const { pkg, screens: screens2, cost, expiresAt } = await paidTerms(trx, input.package_id, input.max_connections, t);
    const bouquet = input.bouquet ? await assertBouquetIds(trx, input.bouquet, "bouquet") : pkg.bouquets;
    const line = await insertNewLine(trx, actor, input, {
      package_id: pkg.id,
      created_at: t,
      exp_date: expiresAt,
      is_trial: 0,
      max_connections: screens2,
      bouquet
    });
    await writeLog(trx, { type_log: "user", action: "user_create", actor_id: actor.id, reseller_id: actor.id, target_user: line.username, value: pkg.package_name, value_int: chargeable(actor, cost) });
    await charge(trx, actor, cost, "line_create", line.id, key);
    await invalidateFor(trx, actor.id);
    return line;
  });
  return outcome.body;
}
async function createTrial(deps2, actor, input) {
  const line = await withTx(deps2.database, async (trx) => {
    const t = now();
    const { pkg, screens: screens2, expiresAt } = await trialTerms(trx, input.package_id, t);
    await assertTrialAllowed(trx, deps2.database.dialect, actor, t, (since) => trialsSince(trx, actor.id, since));
    const line2 = await insertNewLine(trx, actor, input, {
      package_id: pkg.id,
      created_at: t,
      exp_date: expiresAt,
      is_trial: 1,
      max_connections: screens2,
      bouquet: pkg.bouquets
    });
    await writeLog(trx, { type_log: "user", action: "trial_create", actor_id: actor.id, reseller_id: actor.id, target_user: line2.username, value: pkg.package_name });
    await invalidateFor(trx, actor.id);
    return line2;
  });
  return line;
}
async function createMigrated(deps2, actor, input, note, key) {
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: ["migrate-line", input] }, 201, async (trx) => {
    const pkg = await findPackage2(trx, input.package_id);
    if (!pkg || pkg.is_trial === 1) throw validation("package_id", "choose one of the migration packages");
    const screens2 = Math.max(1, pkg.max_connections);
    const line = await insertNewLine(trx, actor, { username: input.username, password: input.password, package_id: pkg.id }, {
      package_id: pkg.id,
      created_at: now(),
      exp_date: input.exp_date,
      is_trial: 0,
      max_connections: screens2,
      bouquet: pkg.bouquets
    });
    const cost = await charge(trx, actor, screens2 * pkg.official_credits, "line_migrate", line.id, key);
    await writeLog(trx, { type_log: "user", action: "user_migrate", actor_id: actor.id, reseller_id: actor.id, target_user: line.username, value: `${pkg.package_name}; ${note}`.slice(0, 250), value_int: cost });
    await invalidateFor(trx, actor.id);
    return line;
  });
  return outcome.body;
}

// src/modules/lines/renew.ts
function renew(deps2, actor, id, body, key) {
  return mutate(
    deps2,
    actor,
    id,
    async (trx, line) => {
      const t = now();
      if (body.package_id === void 0) {
        if (line.is_trial === 1) throw trialNotAllowed();
        const cost2 = await charge(trx, actor, line.max_connections, "line_flash_renew", line.id, key);
        await updateLine(trx, line.id, { exp_date: addDuration(renewalBase(line.exp_date, t), 1, "months") });
        await logChange(trx, actor, line, "user_flash_renew", "1 month", cost2);
        return;
      }
      const pkg = await findPackage2(trx, body.package_id);
      if (!pkg || pkg.is_trial === 1) throw validation("package_id", "choose an existing non-trial package");
      const screens2 = pkg.max_connections >= 2 ? pkg.max_connections : line.max_connections;
      const cost = await charge(trx, actor, screens2 * pkg.official_credits, "line_renew", line.id, key);
      await updateLine(trx, line.id, {
        exp_date: addDuration(renewalBase(line.exp_date, t), pkg.official_duration, pkg.official_duration_in),
        package_id: pkg.id,
        is_trial: 0,
        // a renewed trial becomes a paid line
        max_connections: screens2,
        ...pkg.id !== line.package_id ? { bouquet: JSON.stringify(pkg.bouquets) } : {}
      });
      await logChange(trx, actor, line, "user_renew", pkg.package_name, cost);
    },
    key,
    ["renew", body]
  );
}
function extendDays(deps2, actor, id, days) {
  if (!Number.isInteger(days) || days < 1 || days > 3) {
    throw new AppError(400, "VALIDATION", "Please enter the days correctly (between 1 and 3).", "days");
  }
  return mutate(deps2, actor, id, async (trx, line) => {
    if (line.is_trial === 1) throw trialNotAllowed();
    const t = now();
    if (line.last_extended_at !== null && line.last_extended_at > t - 30 * DAY) {
      throw new AppError(409, "EXTEND_LIMIT_REACHED", "extend limit reached");
    }
    await updateLine(trx, line.id, { exp_date: renewalBase(line.exp_date, t) + days * DAY, last_extended_at: t });
    await logChange(trx, actor, line, "user_extend", `${days} days`, days);
  });
}

// src/modules/lines/screens.ts
function screens(deps2, actor, id, amount, key) {
  if (amount === 0) throw validation("amount", "must not be 0");
  return mutate(
    deps2,
    actor,
    id,
    async (trx, line) => {
      if (line.is_trial === 1) throw trialNotAllowed();
      const limit = Math.max(1, await intSetting(trx, "user_limit_screen"));
      const next = line.max_connections + amount;
      if (next < 1 || next > limit) throw validation("amount", `screens must stay between 1 and ${limit}`);
      const cost = amount > 0 ? await charge(trx, actor, amount * monthsRemaining(line.exp_date, now()), "line_screens", line.id, key) : 0;
      await updateLine(trx, line.id, { max_connections: next });
      await logChange(trx, actor, line, "user_screens", `${line.max_connections}->${next}`, cost);
    },
    key,
    ["screens", amount]
  );
}

// src/modules/connections/repo.ts
import { sql as sql15 } from "kysely";
var byKey = (k) => (eb) => eb.and([eb("line_id", "=", k.lineId), eb("stream_id", "=", k.streamId), eb("user_ip", "=", k.ip), eb("user_agent", "=", k.userAgent)]);
function findConnection(db, k) {
  return db.selectFrom("line_activity").select(["activity_id", "last_seen", "ended_at", "banned_until"]).where(byKey(k)).executeTakeFirst();
}
async function touch(db, activityId, now5, serverId) {
  await db.updateTable("line_activity").set({ last_seen: now5, server_id: serverId }).where("activity_id", "=", activityId).execute();
}
async function countOnline(db, lineId, since) {
  const row = await db.selectFrom("line_activity").select(sql15`count(*)`.as("n")).where("line_id", "=", lineId).where("ended_at", "is", null).where("last_seen", ">", since).executeTakeFirst();
  return Number(row?.n ?? 0);
}
function oldestOnline(db, lineId, since) {
  return db.selectFrom("line_activity").select("activity_id").where("line_id", "=", lineId).where("ended_at", "is", null).where("last_seen", ">", since).orderBy("date_start").orderBy("activity_id").executeTakeFirst();
}
async function open(db, k, now5, serverId) {
  await db.insertInto("line_activity").values({ line_id: k.lineId, stream_id: k.streamId, user_ip: k.ip, user_agent: k.userAgent, server_id: serverId, date_start: now5, last_seen: now5 }).onConflict(
    (oc) => oc.columns(["line_id", "stream_id", "user_ip", "user_agent"]).doUpdateSet({ date_start: now5, last_seen: now5, ended_at: null, banned_until: null, server_id: serverId })
  ).execute();
}
async function end(db, activityId, now5, bannedUntil) {
  const res = await db.updateTable("line_activity").set({ ended_at: now5, banned_until: bannedUntil }).where("activity_id", "=", activityId).where("ended_at", "is", null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
async function clientBanned(db, k, now5) {
  const row = await db.selectFrom("line_activity").select("activity_id").where("line_id", "=", k.lineId).where("user_ip", "=", k.ip).where("user_agent", "=", k.userAgent).where("banned_until", ">", now5).executeTakeFirst();
  return row !== void 0;
}
async function endClientsOtherStreams(db, k, now5) {
  await db.updateTable("line_activity").set({ ended_at: now5 }).where("line_id", "=", k.lineId).where("user_ip", "=", k.ip).where("user_agent", "=", k.userAgent).where("stream_id", "!=", k.streamId).where("ended_at", "is", null).execute();
}
async function endAll(db, lineId, now5, bannedUntil) {
  await db.updateTable("line_activity").set({ ended_at: now5, banned_until: bannedUntil }).where("line_id", "=", lineId).where("ended_at", "is", null).execute();
}
async function prune(db, before, now5) {
  await db.deleteFrom("line_activity").where("last_seen", "<", before).where((eb) => eb.or([eb("banned_until", "is", null), eb("banned_until", "<=", now5)])).execute();
}
function pageConnections(db, actor, f, opts, paging) {
  const base2 = filtered3(db, actor, f, opts.now, { createdAt: opts.createdAt, resellerId: opts.resellerId }).innerJoin("line_activity as a", "a.line_id", "ln.id").where("a.ended_at", "is", null).where("a.last_seen", ">", opts.since);
  return paginate(
    base2,
    (q) => q.leftJoin("resellers as o", "o.id", "ln.member_id").leftJoin("streams as s", "s.id", "a.stream_id").leftJoin("servers as sv", "sv.id", "a.server_id").select([
      "a.activity_id",
      "ln.id",
      "ln.username",
      "ln.is_trial",
      "ln.created_at",
      "o.username as master_username",
      "a.stream_id",
      "s.name as stream_display_name",
      "sv.name as server_name",
      "a.user_ip",
      "a.user_agent",
      "a.date_start",
      "a.last_seen"
    ]),
    { ...paging, db, tiebreak: "a.activity_id" }
  );
}
function findVisibleConnection(db, actor, lineId, activityId, since) {
  return visibleLines(db, actor).innerJoin("line_activity as a", "a.line_id", "ln.id").select(["a.activity_id", "ln.id as line_id", "ln.username", "ln.member_id"]).where("ln.id", "=", lineId).where("a.activity_id", "=", activityId).where("a.ended_at", "is", null).where("a.last_seen", ">", since).executeTakeFirst();
}

// src/modules/connections/end.ts
async function endLineConnections({ config: config2 }, trx, lineId) {
  const now5 = Math.floor(Date.now() / 1e3);
  await endAll(trx, lineId, now5, now5 + config2.disconnectBanSeconds);
}

// src/modules/lines/edit.ts
function update3(deps2, actor, id, input) {
  return mutate(deps2, actor, id, async (trx, line) => {
    const changes = {};
    if (input.password !== void 0 && input.password.trim() !== "") changes.password = input.password.trim();
    if (input.whatsapp !== void 0) changes.whatsapp = input.whatsapp.trim() || null;
    if (input.reseller_notes !== void 0) changes.reseller_notes = input.reseller_notes.trim() || null;
    if (input.bouquet !== void 0) changes.bouquet = JSON.stringify(await assertBouquetIds(trx, input.bouquet, "bouquet"));
    if (Object.keys(changes).length > 0) await updateLine(trx, line.id, changes);
    await logChange(trx, actor, line, "user_update", Object.keys(changes).join(","));
  });
}
async function remove2(deps2, actor, id) {
  await mutate(deps2, actor, id, async (trx, line) => {
    await updateLine(trx, line.id, { deleted_at: now() });
    await endLineConnections(deps2, trx, line.id);
    await logChange(trx, actor, line, "user_delete");
  });
}
function setEnabled(deps2, actor, id, enabled) {
  return mutate(deps2, actor, id, async (trx, line) => {
    await updateLine(trx, line.id, { enabled });
    if (!enabled) await endLineConnections(deps2, trx, line.id);
    await logChange(trx, actor, line, enabled ? "user_unblock" : "user_block");
  });
}
function changeSystem(deps2, actor, id, system) {
  return mutate(deps2, actor, id, async (trx, line) => {
    if (line.enabled !== 1) throw new AppError(409, "LINE_BLOCKED", "Unblock the user before changing its system");
    await updateLine(trx, line.id, { system });
    if (system !== 1) await endLineConnections(deps2, trx, line.id);
    await logChange(trx, actor, line, "user_change_system", String(system), system);
  });
}
function resyncP2p(deps2, actor, id) {
  return mutate(
    deps2,
    actor,
    id,
    async (trx, line) => {
      if (line.system === 1) throw new AppError(409, "NOT_P2P", "Only lines on a P2P system can be resynced");
      await logChange(trx, actor, line, "user_resync_p2p");
    },
    void 0,
    void 0,
    { resync: true }
  );
}

// src/modules/lines/service.ts
var findVisibleLine2 = (db, actor, id) => findVisibleLine(db, actor, id);
var handOverLines = (trx, fromId, toId) => moveLines(trx, fromId, toId);
var lockLineRow = (trx, dialect, id) => lockLine(trx, dialect, id);

// src/http/outbound.ts
var UPSTREAM_TIMEOUT_MS = 5e3;
var UPSTREAM_MAX_BYTES = 1024 * 1024;
var notConfigured = (what) => new AppError(503, "NOT_CONFIGURED", `${what} is not configured`);
var upstreamError = (what, detail) => new AppError(502, "UPSTREAM_ERROR", `${what}: ${detail}`);
async function readCapped(res, system) {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks2 = [];
  let size = 0;
  for (; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > UPSTREAM_MAX_BYTES) {
      await reader.cancel();
      throw upstreamError(system, "answer larger than 1 MB");
    }
    chunks2.push(value);
  }
  return Buffer.concat(chunks2).toString("utf8");
}
async function callUpstream(req) {
  const timeout = AbortSignal.timeout(UPSTREAM_TIMEOUT_MS);
  const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
  let res;
  let text3;
  try {
    res = await fetch(req.url, {
      method: req.method,
      headers: { accept: "application/json", ...req.json === void 0 ? {} : { "content-type": "application/json" }, ...req.headers },
      body: req.json === void 0 ? void 0 : JSON.stringify(req.json),
      redirect: "manual",
      signal
    });
    text3 = await readCapped(res, req.system);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const reason = timeout.aborted ? `no answer within ${UPSTREAM_TIMEOUT_MS / 1e3} s` : describe(err);
    throw upstreamError(req.system, reason);
  }
  if (text3.trim() === "") return { status: res.status, body: void 0 };
  try {
    return { status: res.status, body: JSON.parse(text3) };
  } catch {
    if (res.status >= 400) return { status: res.status, body: void 0 };
    throw upstreamError(req.system, `answered ${res.status} with a body that is not JSON`);
  }
}
function describe(err) {
  const e = err;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

// src/modules/p2p/p2p-client.ts
var SYSTEM = "P2P server";
function target(config2, path5) {
  if (!config2.p2pApiUrl) throw notConfigured(SYSTEM);
  return {
    url: `${config2.p2pApiUrl}${path5}`,
    headers: config2.p2pApiKey ? { authorization: `Bearer ${config2.p2pApiKey}` } : {}
  };
}
var accountPath = (login2) => `/accounts/${encodeURIComponent(login2)}`;
async function putAccount(config2, login2, state, idempotencyKey2, signal) {
  const { url, headers } = target(config2, accountPath(login2));
  const res = await callUpstream({ system: SYSTEM, url, method: "PUT", headers: { ...headers, "idempotency-key": idempotencyKey2 }, json: state, signal });
  if (res.status !== 200 && res.status !== 201) throw upstreamError(SYSTEM, `PUT answered ${res.status}`);
}
async function deleteAccount(config2, login2, idempotencyKey2, signal) {
  const { url, headers } = target(config2, accountPath(login2));
  const res = await callUpstream({ system: SYSTEM, url, method: "DELETE", headers: { ...headers, "idempotency-key": idempotencyKey2 }, signal });
  if (res.status !== 204 && res.status !== 200 && res.status !== 404) throw upstreamError(SYSTEM, `DELETE answered ${res.status}`);
}
var text = (v) => typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
async function online(config2) {
  const { url, headers } = target(config2, "/online");
  const res = await callUpstream({ system: SYSTEM, url, method: "GET", headers });
  if (res.status !== 200) throw upstreamError(SYSTEM, `GET /online answered ${res.status}`);
  if (!Array.isArray(res.body)) throw upstreamError(SYSTEM, "GET /online did not answer a list");
  return res.body.flatMap((r) => {
    if (typeof r !== "object" || r === null || typeof r.username !== "string" || r.username === "") return [];
    const duration = Number(r.duration);
    return [
      {
        username: r.username,
        channel_name: text(r.channel_name),
        duration: Number.isFinite(duration) && duration > 0 ? Math.floor(duration) : 0,
        external_ip: text(r.external_ip),
        app_version: text(r.app_version),
        app_name: text(r.app_name)
      }
    ];
  });
}

// src/modules/p2p/repo.ts
import { sql as sql16 } from "kysely";
var COLUMNS2 = [
  "pa.id",
  "pa.name",
  "pa.username",
  "pa.email",
  "pa.password",
  "pa.external_password as externo_senha",
  "pa.created_at as created",
  "pa.expires_at as expiracao",
  "pa.status",
  "pa.is_trial",
  "pa.member_id",
  "o.username as master_username",
  "pa.package_id",
  "pa.max_connections",
  "pa.whatsapp",
  "pa.notes",
  "pa.sync_state",
  "pa.sync_error",
  "pa.synced_at"
];
var ORDER_FIELDS3 = {
  id: "pa.id",
  name: "pa.name",
  username: "pa.username",
  email: "pa.email",
  password: "pa.password",
  externo_senha: "pa.external_password",
  created: "pa.created_at",
  expiracao: "pa.expires_at",
  status: "pa.status",
  is_trial: "pa.is_trial",
  member_id: "pa.member_id",
  master_username: "o.username",
  package_id: "pa.package_id",
  max_connections: "pa.max_connections",
  whatsapp: "pa.whatsapp",
  notes: "pa.notes",
  sync_state: "pa.sync_state",
  sync_error: "pa.sync_error",
  synced_at: "pa.synced_at"
};
var withOwner = (q) => q.leftJoin("resellers as o", "o.id", "pa.member_id").select(COLUMNS2);
function filtered4(db, actor, f, now5, resellerId) {
  let q = visibleP2pAccounts(db, actor);
  if (f.id !== void 0) q = q.where("pa.id", "=", f.id);
  if (f.username) {
    const prefix = f.username.toLowerCase();
    q = q.where(sql16`lower(pa.username)`, ">=", prefix).where(sql16`lower(pa.username)`, "<", afterPrefix(prefix)).where(sql16`lower(pa.username)`, "like", sql16`${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (resellerId !== void 0) q = q.where("pa.member_id", "=", resellerId);
  if (f.type_user) q = q.where("pa.is_trial", "=", f.type_user === "trial" ? 1 : 0);
  if (f.status === 1) q = q.where("pa.status", "=", 1).where("pa.expires_at", ">", now5);
  if (f.status === 0 || f.status === -1) q = q.where("pa.status", "=", f.status);
  if (f.status === 3) q = q.where("pa.expires_at", "<=", now5);
  return q;
}
function pageAccounts(db, q, paging) {
  return paginate(q, (b) => withOwner(b), { ...paging, db, tiebreak: "pa.id" });
}
async function findVisible2(db, actor, id) {
  return await withOwner(visibleP2pAccounts(db, actor)).where("pa.id", "=", id).executeTakeFirst();
}
var findRow = (db, id) => db.selectFrom("p2p_accounts").selectAll().where("id", "=", id).executeTakeFirst();
async function lockAccount(db, dialect, id) {
  if (dialect === "postgres") await db.selectFrom("p2p_accounts").select("id").where("id", "=", id).forUpdate().execute();
}
async function loginTaken(db, username2, email, exceptId) {
  let q = db.selectFrom("p2p_accounts").select("id").where((eb) => eb.or([eb(sql16`lower(username)`, "=", username2.toLowerCase()), eb(sql16`lower(email)`, "=", email.toLowerCase())]));
  if (exceptId !== void 0) q = q.where("id", "!=", exceptId);
  if (await q.executeTakeFirst()) return true;
  return await db.selectFrom("lines").select("id").where("username", "=", email).executeTakeFirst() !== void 0;
}
async function takenAmong(db, emails, usernames) {
  const taken = { emails: /* @__PURE__ */ new Set(), usernames: /* @__PURE__ */ new Set() };
  for (let i = 0; i < emails.length; i += 500) {
    const part = emails.slice(i, i + 500);
    const accounts = await db.selectFrom("p2p_accounts").select(sql16`lower(email)`.as("e")).where(sql16`lower(email)`, "in", part).execute();
    const lines = await db.selectFrom("lines").select(sql16`lower(username)`.as("e")).where(sql16`lower(username)`, "in", part).execute();
    for (const r of [...accounts, ...lines]) taken.emails.add(r.e);
  }
  for (let i = 0; i < usernames.length; i += 500) {
    const part = usernames.slice(i, i + 500);
    const rows = await db.selectFrom("p2p_accounts").select(sql16`lower(username)`.as("u")).where(sql16`lower(username)`, "in", part).execute();
    for (const r of rows) taken.usernames.add(r.u);
  }
  return taken;
}
async function insertAccount(db, values) {
  const { id } = await db.insertInto("p2p_accounts").values(values).returning("id").executeTakeFirstOrThrow();
  return id;
}
async function updateAccount(db, id, changes) {
  await db.updateTable("p2p_accounts").set(changes).where("id", "=", id).execute();
}
async function trialsSince2(db, memberId, since) {
  const row = await db.selectFrom("p2p_accounts").select((eb) => eb.fn.countAll().as("n")).where("member_id", "=", memberId).where("is_trial", "=", 1).where("created_at", ">=", since).executeTakeFirst();
  return Number(row?.n ?? 0);
}
function searchVisible2(db, actor, search2) {
  return visibleP2pAccounts(db, actor).select(["pa.id", "pa.username", "pa.email"]).where(sql16`lower(pa.username)`, "like", sql16`${`${escapeLike(search2.toLowerCase())}%`} escape '\\'`).orderBy("pa.username").limit(20).execute();
}
async function visibleLogins(db, actor, logins) {
  const seen = /* @__PURE__ */ new Set();
  for (let i = 0; i < logins.length; i += 500) {
    const part = logins.slice(i, i + 500);
    const lower = part.map((l) => l.toLowerCase());
    const accounts = await visibleP2pAccounts(db, actor).select("pa.email as login").where(sql16`lower(pa.email)`, "in", lower).execute();
    const lines = await visibleLines(db, actor).select("ln.username as login").where("ln.username", "in", part).where("ln.system", "in", [2, 3]).execute();
    for (const r of accounts) seen.add(r.login.toLowerCase());
    for (const r of lines) seen.add(r.login);
  }
  return seen;
}
async function moveAccounts(db, fromId, toId) {
  await db.updateTable("p2p_accounts").set({ member_id: toId }).where("member_id", "=", fromId).execute();
}

// src/modules/p2p/queries.ts
var DEFAULT_ORDER3 = { column: "pa.id", direction: "desc" };
var now2 = () => Math.floor(Date.now() / 1e3);
async function list4(deps2, actor, q) {
  const db = deps2.database.db;
  const order = parseOrder(q.order_by, ORDER_FIELDS3, DEFAULT_ORDER3);
  const resellerId = q.reseller ? await resellerIdByUsername(db, q.reseller) ?? -1 : void 0;
  return pageAccounts(db, filtered4(db, actor, q, now2(), resellerId), { page: q.page, per: q.per, order });
}
async function get4({ database: database2 }, actor, id) {
  const row = await findVisible2(database2.db, actor, id);
  if (!row) throw notFound("P2P user");
  return row;
}
async function selectSearch2({ database: database2 }, actor, search2) {
  const rows = await searchVisible2(database2.db, actor, search2);
  return { data: rows.map((r) => ({ label: r.email, value: String(r.id) })) };
}
var ONLINE_CACHE_MS = 1e4;
var onlineCache;
function onlineRows(deps2) {
  const url = deps2.config.p2pApiUrl ?? "";
  if (onlineCache && onlineCache.url === url && Date.now() - onlineCache.at < ONLINE_CACHE_MS) return onlineCache.rows;
  const rows = online(deps2.config);
  const entry = { url, at: Date.now(), rows };
  onlineCache = entry;
  rows.catch(() => {
    if (onlineCache === entry) onlineCache = void 0;
  });
  return rows;
}
async function online2(deps2, actor) {
  const rows = await onlineRows(deps2);
  if (actor.type === "admin") return { data: rows };
  const visible2 = await visibleLogins(deps2.database.db, actor, rows.map((r) => r.username));
  return { data: rows.filter((r) => visible2.has(r.username) || visible2.has(r.username.toLowerCase())) };
}
async function outboxStatus(deps2) {
  return { configured: deps2.config.p2pApiUrl !== void 0, ...await queueStatus(deps2.database.db) };
}

// src/modules/p2p/accounts.ts
var now3 = () => Math.floor(Date.now() / 1e3);
var DEFAULT_DOMAIN = "p2p.local";
async function loginDomain(trx) {
  const domain = (await textSetting(trx, "p2p_email_domain")).trim().toLowerCase();
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(domain) && domain.length <= 60 ? domain : DEFAULT_DOMAIN;
}
var log = (trx, actor, account, action, value, value_int) => writeLog(trx, { type_log: "p2p", action, actor_id: actor.id, reseller_id: account.member_id, target_user: account.email, value: value ?? null, value_int: value_int ?? null });
async function insertNew(trx, actor, input, terms) {
  const domain = await loginDomain(trx);
  const { username: username2, password } = await uniqueCredentials(input, (u) => loginTaken(trx, u, emailOf(u, domain)));
  const row = {
    member_id: actor.id,
    name: input.name.trim() || username2,
    username: username2,
    email: emailOf(username2, domain),
    password,
    external_password: null,
    status: 1,
    whatsapp: input.whatsapp?.trim() || null,
    notes: input.notes?.trim() || null,
    ...terms
  };
  const id = await insertAccount(trx, row);
  await queueAccount(trx, { id, ...row }, "put");
  return { id, ...row };
}
async function create4(deps2, actor, input, key) {
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: ["create-p2p", input] }, 201, async (trx) => {
    const t = now3();
    const { pkg, screens: screens2, cost, expiresAt } = await paidTerms(trx, input.package_id, input.max_connections, t);
    const account = await insertNew(trx, actor, input, { package_id: pkg.id, created_at: t, expires_at: expiresAt, is_trial: 0, max_connections: screens2 });
    const charged = await chargeCaller(trx, actor, cost, "p2p_create", { p2pAccountId: account.id }, key);
    await log(trx, actor, account, "p2p_create", pkg.package_name, charged);
    return await findVisible2(trx, actor, account.id);
  });
  kick();
  return outcome.body;
}
async function createTrial2(deps2, actor, input) {
  const account = await withTx(deps2.database, async (trx) => {
    const t = now3();
    const { pkg, screens: screens2, expiresAt } = await trialTerms(trx, input.package_id, t);
    await assertTrialAllowed(trx, deps2.database.dialect, actor, t, (since) => trialsSince2(trx, actor.id, since));
    const row = await insertNew(trx, actor, input, { package_id: pkg.id, created_at: t, expires_at: expiresAt, is_trial: 1, max_connections: screens2 });
    await log(trx, actor, row, "p2p_trial_create", pkg.package_name);
    return await findVisible2(trx, actor, row.id);
  });
  kick();
  return account;
}
async function mutate2(deps2, actor, id, change, key, fingerprint) {
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: ["p2p", id, fingerprint] }, 200, async (trx) => {
    await lockAccount(trx, deps2.database.dialect, id);
    if (!await findVisible2(trx, actor, id)) throw notFound("P2P user");
    await change(trx, await findRow(trx, id));
    return await findVisible2(trx, actor, id);
  });
  kick();
  return outcome.body;
}
function update4(deps2, actor, id, input) {
  return mutate2(deps2, actor, id, async (trx, row) => {
    const changes = {};
    const name = input.name?.trim();
    const username2 = input.username?.trim();
    const password = input.password?.trim();
    if (name && name !== row.name) changes.name = name;
    if (password && password !== row.password) changes.password = password;
    if (username2 && username2 !== row.username) {
      const email = emailOf(username2, domainOf(row.email));
      if (await loginTaken(trx, username2, email, row.id)) throw new AppError(409, "USERNAME_TAKEN", "This username is already taken", "username");
      Object.assign(changes, { username: username2, email });
    }
    if (Object.keys(changes).length === 0) return;
    await updateAccount(trx, row.id, changes);
    await queueAccount(trx, { ...row, ...changes }, "put", row.email);
    await log(trx, actor, row, "p2p_update", Object.keys(changes).join(","));
  });
}
async function remove3(deps2, actor, id) {
  await mutate2(deps2, actor, id, async (trx, row) => {
    await updateAccount(trx, row.id, { deleted_at: now3() });
    await queueAccount(trx, row, "delete");
    await log(trx, actor, row, "p2p_delete");
  });
}
function setStatus(deps2, actor, id, status3) {
  return mutate2(deps2, actor, id, async (trx, row) => {
    if (row.status === status3) return;
    await updateAccount(trx, row.id, { status: status3 });
    await queueAccount(trx, { ...row, status: status3 }, "put");
    await log(trx, actor, row, status3 === 1 ? "p2p_unblock" : "p2p_block");
  });
}
function renew2(deps2, actor, id, months, key) {
  return mutate2(
    deps2,
    actor,
    id,
    async (trx, row) => {
      const cost = await chargeCaller(trx, actor, months * RENEW_CREDITS_PER_MONTH, "p2p_renew", { p2pAccountId: row.id }, key);
      const changes = { expires_at: addDuration(renewalBase(row.expires_at, now3()), months, "months"), is_trial: 0, status: row.status === -1 ? 1 : row.status };
      await updateAccount(trx, row.id, changes);
      await queueAccount(trx, { ...row, ...changes }, "put");
      await log(trx, actor, row, "p2p_renew", `${months} months`, cost);
    },
    key,
    ["renew", months]
  );
}
var handOverAccounts = (trx, fromId, toId) => moveAccounts(trx, fromId, toId);

// src/modules/p2p/import-repo.ts
var findImport = (db, oldUsername) => db.selectFrom("p2p_imports").select(["id", "reseller_id", "created_at"]).where("old_username", "=", oldUsername).executeTakeFirst();
async function insertImport(db, row) {
  await db.insertInto("p2p_imports").values(row).execute();
}
var findOldLogin = (db, resellerId) => db.selectFrom("p2p_old_logins").selectAll().where("reseller_id", "=", resellerId).executeTakeFirst();
async function saveOldLogin(db, row) {
  await db.deleteFrom("p2p_old_logins").where("reseller_id", "=", row.reseller_id).execute();
  await db.insertInto("p2p_old_logins").values(row).execute();
}
async function deleteOldLogin(db, resellerId) {
  await db.deleteFrom("p2p_old_logins").where("reseller_id", "=", resellerId).execute();
}

// src/modules/p2p/old-panel-client.ts
var SYSTEM2 = "Old P2P panel";
function base(config2) {
  if (!config2.oldP2pUrl) throw notConfigured(SYSTEM2);
  return config2.oldP2pUrl;
}
async function login(config2, username2, password) {
  const res = await callUpstream({ system: SYSTEM2, url: `${base(config2)}/api/login`, method: "POST", json: { username: username2, password } });
  if (res.status === 401 || res.status === 403) return null;
  if (res.status !== 200) throw upstreamError(SYSTEM2, `login answered ${res.status}`);
  const body = res.body;
  const credits = body?.reseller?.credits;
  if (typeof body?.token !== "string" || body.token === "" || typeof credits !== "number" || !Number.isSafeInteger(credits) || credits < 0) {
    throw upstreamError(SYSTEM2, "login answer without a token or a whole, non-negative balance");
  }
  return { token: body.token, username: typeof body.reseller?.username === "string" ? body.reseller.username : username2, credits };
}
function epoch(v) {
  if (typeof v === "number" && Number.isFinite(v)) return Math.floor(v > 1e11 ? v / 1e3 : v);
  if (typeof v === "string" && v.trim() !== "") {
    if (/^\d+$/.test(v.trim())) return epoch(Number(v));
    const ms = Date.parse(v);
    if (Number.isFinite(ms)) return Math.floor(ms / 1e3);
  }
  return void 0;
}
async function clients(config2, token) {
  const res = await callUpstream({ system: SYSTEM2, url: `${base(config2)}/api/clients`, method: "GET", headers: { authorization: `Bearer ${token}` } });
  if (res.status === 401 || res.status === 403) return null;
  if (res.status !== 200) throw upstreamError(SYSTEM2, `clients answered ${res.status}`);
  if (!Array.isArray(res.body)) throw upstreamError(SYSTEM2, "clients did not answer a list");
  return res.body.map((c, i) => {
    const created2 = epoch(c?.created);
    const expiracao = epoch(c?.expiracao);
    const status3 = Number(c?.status);
    if (typeof c?.email !== "string" || created2 === void 0 || expiracao === void 0 || ![-1, 0, 1].includes(status3)) {
      throw upstreamError(SYSTEM2, `client #${i + 1} lacks an email, dates or a status of -1, 0 or 1`);
    }
    return {
      id: Number.isSafeInteger(c.id) ? c.id : i + 1,
      name: typeof c.name === "string" ? c.name : "",
      email: c.email,
      password: typeof c.password === "string" ? c.password : String(c.password ?? ""),
      created: created2,
      expiracao,
      status: status3
    };
  });
}

// src/modules/p2p/imports.ts
var now4 = () => Math.floor(Date.now() / 1e3);
var notAttached = () => new AppError(409, "NOT_ATTACHED", "Sign in to the old P2P panel first");
async function attachLogin(deps2, actor, input) {
  const session = await login(deps2.config, input.username, input.password);
  if (!session) return { login: false, message: "Usu\xE1rio ou senha inv\xE1lidos" };
  await withTx(deps2.database, async (trx) => {
    await saveOldLogin(trx, { reseller_id: actor.id, old_username: session.username, token: session.token, created_at: now4() });
    await writeLog(trx, { type_log: "p2p", action: "p2p_attach_login", actor_id: actor.id, reseller_id: actor.id, value: session.username });
  });
  return { login: true, message: "Login efetuado com sucesso", username: session.username, credits: session.credits };
}
async function migrateReseller(deps2, actor, input, key) {
  const session = await login(deps2.config, input.username, input.password);
  if (!session) throw new AppError(400, "OLD_LOGIN_FAILED", "The old P2P panel refused this username or password", "password");
  const oldUsername = session.username.trim().toLowerCase();
  try {
    const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key, fingerprint: ["p2p-migrate-reseller", oldUsername] }, 200, async (trx) => {
      if (await findImport(trx, oldUsername)) throw alreadyImported();
      await insertImport(trx, { reseller_id: actor.id, old_username: oldUsername, credits: session.credits, created_at: now4() });
      const balance = session.credits > 0 ? await credit(trx, { resellerId: actor.id, amount: session.credits, reason: "import", actorId: actor.id }) : await currentBalance(trx, actor.id);
      await writeLog(trx, { type_log: "credits", action: "p2p_import_credits", actor_id: actor.id, reseller_id: actor.id, value: oldUsername, value_int: session.credits });
      return { old_username: oldUsername, credits_imported: session.credits, credits: balance };
    });
    return outcome.body;
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyImported();
    throw err;
  }
}
var alreadyImported = () => new AppError(409, "ALREADY_IMPORTED", "The credits of this old account were already imported");
var USABLE_EMAIL = /^[^@\s]{1,50}@[^@\s]+$/;
async function withConflicts(db, clients2) {
  const rows = clients2.map((c) => {
    const email = c.email.trim();
    const username2 = email.includes("@") ? localPartOf(email) : "";
    return { ...c, email, username: username2 };
  });
  const taken = await takenAmong(
    db,
    rows.map((r) => r.email.toLowerCase()),
    rows.map((r) => r.username.toLowerCase())
  );
  const seen = /* @__PURE__ */ new Set();
  return rows.map((r) => {
    let reason = null;
    const valid = USABLE_EMAIL.test(r.email) && r.email.length <= 120 && r.password.length <= 50;
    if (!valid) reason = "invalid";
    else if (taken.emails.has(r.email.toLowerCase())) reason = "email_taken";
    else if (taken.usernames.has(r.username.toLowerCase())) reason = "username_taken";
    else if (seen.has(r.email.toLowerCase()) || seen.has(r.username.toLowerCase())) reason = "duplicate";
    seen.add(r.email.toLowerCase());
    seen.add(r.username.toLowerCase());
    return { ...r, import: reason === null, reason };
  });
}
async function oldClients(deps2, actor) {
  const attached = await findOldLogin(deps2.database.db, actor.id);
  if (!attached) return null;
  const clients2 = await clients(deps2.config, attached.token);
  if (!clients2) {
    await withTx(deps2.database, (trx) => deleteOldLogin(trx, actor.id));
    return null;
  }
  return { oldUsername: attached.old_username, clients: clients2 };
}
async function importPreview(deps2, actor) {
  const found = await oldClients(deps2, actor);
  if (!found) return { attached: false, old_username: null, data: [], conflicts: 0 };
  const data = await withConflicts(deps2.database.db, found.clients);
  return { attached: true, old_username: found.oldUsername, data, conflicts: data.filter((r) => !r.import).length };
}
async function migrateClients(deps2, actor) {
  const found = await oldClients(deps2, actor);
  if (!found) throw notAttached();
  const imported = await withTx(deps2.database, async (trx) => {
    const rows = await withConflicts(trx, found.clients);
    const conflicts = rows.filter((r) => !r.import).length;
    if (conflicts > 0) throw new AppError(409, "IMPORT_CONFLICTS", `${conflicts} of the old clients conflict with existing accounts: nothing was imported`);
    for (const r of rows) {
      const password = r.password !== "" && r.password !== "0" ? r.password : randomCredential();
      const account = {
        member_id: actor.id,
        name: (r.name.trim() || r.username).slice(0, 100),
        username: r.username,
        email: r.email,
        password,
        external_password: r.password || null,
        created_at: r.created,
        expires_at: r.expiracao,
        status: r.status,
        is_trial: 0,
        package_id: null,
        max_connections: 1
      };
      const id = await insertAccount(trx, account);
      await queueAccount(trx, { id, ...account }, "put");
    }
    await writeLog(trx, { type_log: "p2p", action: "p2p_import_clients", actor_id: actor.id, reseller_id: actor.id, value: found.oldUsername, value_int: rows.length });
    return rows.length;
  });
  kick();
  return { imported };
}

// src/modules/resellers/tree-repo.ts
import { sql as sql17 } from "kysely";
async function isBelow(db, id, ancestorId) {
  const row = await db.selectFrom("reseller_tree").select("depth").where("ancestor_id", "=", ancestorId).where("descendant_id", "=", id).where("depth", ">=", 1).executeTakeFirst();
  return row !== void 0;
}
async function moveChildren(db, fromId, toId) {
  const below = await db.selectFrom("reseller_tree").select(["descendant_id", "depth"]).where("ancestor_id", "=", fromId).where("depth", ">=", 1).execute();
  if (below.length === 0) return;
  const aboveTarget = await db.selectFrom("reseller_tree").select(["ancestor_id", "depth"]).where("descendant_id", "=", toId).execute();
  const aboveFrom = await db.selectFrom("reseller_tree").select("ancestor_id").where("descendant_id", "=", fromId).execute();
  const belowIds = below.map((b) => b.descendant_id);
  for (let i = 0; i < belowIds.length; i += 500) {
    await db.deleteFrom("reseller_tree").where("descendant_id", "in", belowIds.slice(i, i + 500)).where("ancestor_id", "in", aboveFrom.map((a) => a.ancestor_id)).execute();
  }
  const rows = aboveTarget.flatMap((a) => below.map((b) => ({ ancestor_id: a.ancestor_id, descendant_id: b.descendant_id, depth: a.depth + b.depth })));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto("reseller_tree").values(rows.slice(i, i + 500)).execute();
  await db.updateTable("resellers").set({ owner_id: toId }).where("owner_id", "=", fromId).execute();
  for (let i = 0; i < belowIds.length; i += 500) await refreshTops(db, belowIds.slice(i, i + 500));
}
async function refreshTops(db, ids) {
  await db.updateTable("lines").set({ top_reseller_id: topOf("lines.member_id") }).where("member_id", "in", ids).execute();
  await db.updateTable("logs").set({ top_reseller_id: topOf("logs.reseller_id") }).where("reseller_id", "in", ids).execute();
  await db.updateTable("logs").set({ target_top_reseller_id: topOf("logs.target_reseller_id") }).where("target_reseller_id", "in", ids).execute();
}
var topOf = (column) => sql17`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${sql17.ref(column)}
    and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${sql17.ref(column)}) - 1), ${sql17.ref(column)})`;

// src/modules/resellers/deactivate.ts
async function deactivate(deps2, actor, id, targetId) {
  if (actor.type !== "admin") throw forbidden();
  if (targetId === id) throw validation("target_id", "must be another reseller");
  const result = await withTx(deps2.database, async (trx) => {
    const row = await loadVisible(trx, actor, id);
    const target2 = await findVisible(trx, actor, targetId, true);
    if (!target2) throw notFound("Target reseller");
    if (await isBelow(trx, targetId, id)) {
      throw validation("target_id", "must not be below the reseller being removed");
    }
    if (row.sub_resellers_count > 0 && target2.group_type === "reseller") {
      throw validation("target_id", "sub-resellers can only move to a master or an admin");
    }
    await lockResellers(trx, deps2.database.dialect, [id, targetId]);
    await moveChildren(trx, id, targetId);
    await handOverLines(trx, id, targetId);
    await handOverAccounts(trx, id, targetId);
    const credits = await balanceOf(trx, id);
    if (credits > 0) {
      await debit(trx, { resellerId: id, amount: credits, reason: "deactivate_out", actorId: actor.id, counterpartyId: targetId });
      await credit(trx, { resellerId: targetId, amount: credits, reason: "deactivate_in", actorId: actor.id, counterpartyId: id });
    }
    await markDeactivated(trx, id, Math.floor(Date.now() / 1e3));
    await revokeAllSessions2(trx, id);
    await writeLog(trx, { type_log: "reseller", action: "reseller_deactivate", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: `transferall:${targetId}`, value_int: credits });
    await invalidateFor(trx, id);
    await invalidateFor(trx, targetId);
    return { id, target_id: targetId, credits_moved: credits, sub_resellers_moved: row.sub_resellers_count, clients_moved: row.clients_count };
  });
  return result;
}

// src/modules/resellers/service.ts
var ORDER_FIELDS4 = {
  id: "r.id",
  username: "r.username",
  credits: "r.credits",
  master_username: "o.username",
  last_login: "r.last_login",
  group_name: "g.group_name",
  status: "r.status"
};
var DEFAULT_ORDER4 = { column: "r.id", direction: "desc" };
var clean = (s) => {
  const v = s?.trim();
  return v ? v : null;
};
function list5({ database: database2 }, actor, q) {
  requireManager(actor);
  return pageResellers(database2.db, actor, q, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS4, DEFAULT_ORDER4) });
}
function exportRows2({ database: database2 }, actor, q) {
  requireManager(actor);
  return iterateResellers(database2.db, actor, q);
}
async function get5({ database: database2 }, actor, id) {
  const row = await findVisible(database2.db, actor, id, true);
  if (!row) throw notFound("Reseller");
  return row;
}
async function selectSearch3({ database: database2 }, actor, search2) {
  requireManager(actor);
  const rows = await searchVisible(database2.db, actor, search2, false);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}
async function create5(deps2, actor, input, idempotencyKey2) {
  requireManager(actor);
  await assertStrongPassword(input.password, [input.username, input.email, input.whatsapp, input.telegram]);
  const password_hash = await hashPassword(input.password);
  const outcome = await runIdempotent(deps2.database, { actorId: actor.id, key: idempotencyKey2, fingerprint: ["create-reseller", { ...input, password: void 0 }] }, 201, async (trx) => {
    const group = await groupById(trx, input.member_group_id);
    if (!group) throw validation("member_group_id", "unknown group");
    if (actor.type !== "admin" && group.type !== "reseller") throw validation("member_group_id", "masters can only create resellers");
    if (await usernameTaken(trx, input.username)) throw new AppError(409, "USERNAME_TAKEN", "This username is already taken", "username");
    const id = await insertReseller(trx, {
      username: input.username,
      password_hash,
      email: clean(input.email),
      whatsapp: clean(input.whatsapp),
      telegram: clean(input.telegram),
      notes: clean(input.notes),
      member_group_id: group.group_id,
      owner_id: actor.id
    });
    const amount = input.credits ?? 0;
    if (amount > 0) await giveCredits(deps2, trx, actor, id, amount, idempotencyKey2);
    await writeLog(trx, { type_log: "reseller", action: "reseller_create", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: input.username, value_int: amount });
    const created2 = await findVisible(trx, actor, id);
    await invalidateFor(trx, id);
    return created2;
  });
  return outcome.body;
}
async function update5(deps2, actor, id, input) {
  requireManagerOf(actor);
  let password_hash;
  if (input.password) {
    const current = await loadVisible(deps2.database.db, actor, id);
    await assertStrongPassword(input.password, [input.username ?? current.username, input.email ?? current.email, input.whatsapp ?? current.whatsapp, input.telegram ?? current.telegram]);
    password_hash = await hashPassword(input.password);
  }
  return withTx(deps2.database, async (trx) => {
    await loadVisible(trx, actor, id);
    if (input.username !== void 0 && await usernameTaken(trx, input.username, id)) {
      throw new AppError(409, "USERNAME_TAKEN", "This username is already taken", "username");
    }
    const changes = {
      ...input.username !== void 0 ? { username: input.username } : {},
      ...password_hash ? { password_hash } : {},
      ...input.email !== void 0 ? { email: clean(input.email) } : {},
      ...input.whatsapp !== void 0 ? { whatsapp: clean(input.whatsapp) } : {},
      ...input.telegram !== void 0 ? { telegram: clean(input.telegram) } : {},
      ...input.notes !== void 0 ? { notes: clean(input.notes) } : {}
    };
    if (Object.keys(changes).length > 0) await updateReseller(trx, id, changes);
    if (password_hash) await revokeAllSessions2(trx, id);
    await writeLog(trx, { type_log: "reseller", action: "reseller_update", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value: Object.keys(changes).join(",") });
    return await findVisible(trx, actor, id);
  });
}
async function setStatus2(deps2, actor, id, status3) {
  requireManagerOf(actor);
  return withTx(deps2.database, async (trx) => {
    await loadVisible(trx, actor, id);
    await updateReseller(trx, id, { status: status3 });
    if (status3 === 0) await revokeAllSessions2(trx, id);
    await writeLog(trx, { type_log: "reseller", action: status3 === 0 ? "reseller_block" : "reseller_unblock", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id });
    return await findVisible(trx, actor, id);
  });
}
async function toMaster(deps2, actor, id) {
  requireManagerOf(actor);
  return withTx(deps2.database, async (trx) => {
    const row = await loadVisible(trx, actor, id);
    if (row.group_type !== "reseller") throw new AppError(409, "ALREADY_MASTER", "This reseller is already a master");
    const minimum = await intSetting(trx, "master_min_credit_create");
    if (row.credits < minimum) {
      throw new AppError(409, "INSUFFICIENT_CREDITS", "O revendedor n\xE3o tem cr\xE9ditos suficientes para se tornar um revendedor master");
    }
    const master = await firstGroupOfType(trx, "master");
    await updateReseller(trx, id, { member_group_id: master.group_id });
    await writeLog(trx, { type_log: "reseller", action: "reseller_to_master", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, value_int: row.credits });
    return await findVisible(trx, actor, id);
  });
}
var findVisibleReseller = (db, actor, id, includeSelf = false) => findVisible(db, actor, id, includeSelf);

// src/modules/twofactor/codes.ts
import { createHash as createHash2, randomBytes as randomBytes2 } from "node:crypto";
import { Secret, TOTP } from "otpauth";
var ISSUER = "Painel";
var PERIOD = 30;
function newSecret() {
  return new Secret({ size: 20 }).base32;
}
function totp(secret, label = "") {
  return new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: PERIOD });
}
function otpauthUrl(secret, username2) {
  return totp(secret, username2).toString();
}
var isTotpCode = (code) => /^\d{6}$/.test(code);
function matchingStep(secret, code, now5 = Date.now()) {
  const delta = totp(secret).validate({ token: code, timestamp: now5, window: 1 });
  return delta === null ? null : Math.floor(now5 / 1e3 / PERIOD) + delta;
}
var ALPHABET2 = "abcdefghjkmnpqrstvwxyz0123456789";
function newRecoveryCodes(count = 10) {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes2(16);
    const chars = Array.from(bytes, (b) => ALPHABET2[b & 31]).join("");
    return chars.match(/.{4}/g).join("-");
  });
}
var normaliseCode = (code) => code.toLowerCase().replace(/[\s-]/g, "");
var hashRecoveryCode = (code) => createHash2("sha256").update(normaliseCode(code)).digest("hex");

// src/modules/twofactor/repo.ts
var changed = (res) => Number(res.numUpdatedRows) > 0;
async function serverKey(db, name, make2) {
  await db.insertInto("server_keys").values({ name, value: make2() }).onConflict((oc) => oc.column("name").doNothing()).execute();
  const row = await db.selectFrom("server_keys").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}
function findTwoFactor(db, resellerId) {
  return db.selectFrom("two_factor").selectAll().where("reseller_id", "=", resellerId).executeTakeFirst();
}
async function isEnabled(db, resellerId) {
  const row = await db.selectFrom("two_factor").select("reseller_id").where("reseller_id", "=", resellerId).where("enabled_at", "is not", null).executeTakeFirst();
  return row !== void 0;
}
async function savePending(db, resellerId, secretEnc, now5) {
  const res = await db.insertInto("two_factor").values({ reseller_id: resellerId, secret_enc: secretEnc, enabled_at: null, last_step: null, created_at: now5 }).onConflict(
    (oc) => oc.column("reseller_id").doUpdateSet({ secret_enc: secretEnc, last_step: null, created_at: now5 }).where("two_factor.enabled_at", "is", null)
  ).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}
async function enable(db, resellerId, step, now5) {
  const res = await db.updateTable("two_factor").set({ enabled_at: now5, last_step: step }).where("reseller_id", "=", resellerId).where("enabled_at", "is", null).executeTakeFirst();
  return changed(res);
}
async function claimStep(db, resellerId, step) {
  const res = await db.updateTable("two_factor").set({ last_step: step }).where("reseller_id", "=", resellerId).where("enabled_at", "is not", null).where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)])).executeTakeFirst();
  return changed(res);
}
async function replaceRecoveryCodes(db, resellerId, hashes) {
  await db.deleteFrom("two_factor_recovery_codes").where("reseller_id", "=", resellerId).execute();
  await db.insertInto("two_factor_recovery_codes").values(hashes.map((code_hash) => ({ reseller_id: resellerId, code_hash, used_at: null }))).execute();
}
async function useRecoveryCode(db, resellerId, codeHash, now5) {
  const res = await db.updateTable("two_factor_recovery_codes").set({ used_at: now5 }).where("reseller_id", "=", resellerId).where("code_hash", "=", codeHash).where("used_at", "is", null).executeTakeFirst();
  return changed(res);
}
async function recoveryCodesLeft(db, resellerId) {
  const row = await db.selectFrom("two_factor_recovery_codes").select((eb) => eb.fn.countAll().as("n")).where("reseller_id", "=", resellerId).where("used_at", "is", null).executeTakeFirstOrThrow();
  return Number(row.n);
}
async function removeTwoFactor(db, resellerId) {
  await db.deleteFrom("two_factor_recovery_codes").where("reseller_id", "=", resellerId).execute();
  await db.deleteFrom("two_factor_challenges").where("reseller_id", "=", resellerId).execute();
  const res = await db.deleteFrom("two_factor").where("reseller_id", "=", resellerId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
async function createChallenge(db, row) {
  await db.deleteFrom("two_factor_challenges").where("expires_at", "<", row.created_at - 3600).execute();
  await db.insertInto("two_factor_challenges").values(row).execute();
}
function findChallenge(db, tokenHash) {
  return db.selectFrom("two_factor_challenges").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
}
async function takeChallengeAttempt(db, id, maxAttempts, now5) {
  const res = await db.updateTable("two_factor_challenges").set((eb) => ({ attempts: eb("attempts", "+", 1) })).where("id", "=", id).where("attempts", "<", maxAttempts).where("used_at", "is", null).where("expires_at", ">", now5).executeTakeFirst();
  return changed(res);
}
async function useChallenge(db, id, now5) {
  const res = await db.updateTable("two_factor_challenges").set({ used_at: now5 }).where("id", "=", id).where("used_at", "is", null).executeTakeFirst();
  return changed(res);
}
async function passwordHash(db, resellerId) {
  const row = await db.selectFrom("resellers").select("password_hash").where("id", "=", resellerId).executeTakeFirst();
  return row?.password_hash;
}
function activeReseller(db, resellerId) {
  return db.selectFrom("resellers").innerJoin("groups", "groups.group_id", "resellers.member_group_id").select(["resellers.id", "resellers.username", "groups.type"]).where("resellers.id", "=", resellerId).where("resellers.status", "=", 1).where("resellers.deleted_at", "is", null).executeTakeFirst();
}

// src/modules/twofactor/secrets.ts
import { createCipheriv, createDecipheriv, createHash as createHash3, randomBytes as randomBytes3 } from "node:crypto";
var keys = /* @__PURE__ */ new WeakMap();
function encryptionKey({ config: config2, database: database2 }) {
  if (config2.twoFactorKey) return Promise.resolve(createHash3("sha256").update(config2.twoFactorKey).digest());
  let key = keys.get(database2);
  if (!key) {
    key = serverKey(database2.db, "two_factor", () => randomBytes3(32).toString("base64")).then((v) => Buffer.from(v, "base64"));
    key.catch(() => keys.delete(database2));
    keys.set(database2, key);
  }
  return key;
}
var aad = (resellerId) => Buffer.from(`two_factor:${resellerId}`);
async function sealSecret(deps2, resellerId, secret) {
  const iv = randomBytes3(12);
  const cipher = createCipheriv("aes-256-gcm", await encryptionKey(deps2), iv).setAAD(aad(resellerId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => typeof p === "string" ? p : p.toString("base64url")).join(".");
}
async function openSecret(deps2, resellerId, sealed) {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", await encryptionKey(deps2), Buffer.from(iv, "base64url")).setAAD(aad(resellerId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

// src/modules/twofactor/service.ts
var CHALLENGE_SECONDS = 300;
var CHALLENGE_MAX_ATTEMPTS = 5;
var invalidCode = (status3) => new AppError(status3, "INVALID_2FA_CODE", "The code is wrong or was already used", status3 === 400 ? "code" : void 0);
var challengeExpired = () => new AppError(401, "TWO_FACTOR_CHALLENGE_EXPIRED", "The sign-in took too long, start again");
var nowSec2 = () => Math.floor(Date.now() / 1e3);
var accountKey = (resellerId) => `2fa:${resellerId}`;
var mustEnrol = ({ config: config2 }, user) => enrolmentRequired(config2, user) && !user.twoFactorEnabled;
var enrolmentRequired = (config2, user) => config2.requireAdmin2fa && user.type === "admin";
var profileFlags = ({ config: config2 }, user) => ({
  two_factor_enabled: user.twoFactorEnabled,
  two_factor_required: enrolmentRequired(config2, user) && !user.twoFactorEnabled
});
async function status(deps2, user) {
  const enabled = await isEnabled(deps2.database.db, user.id);
  return {
    enabled,
    recovery_codes_left: enabled ? await recoveryCodesLeft(deps2.database.db, user.id) : 0,
    required: enrolmentRequired(deps2.config, user)
  };
}
async function setup(deps2, user) {
  const secret = newSecret();
  const saved = await savePending(deps2.database.db, user.id, await sealSecret(deps2, user.id, secret), nowSec2());
  if (!saved) throw new AppError(409, "TWO_FACTOR_ALREADY_ENABLED", "Two-factor sign-in is already on");
  const url = otpauthUrl(secret, user.username);
  const svg = await QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauth_url: url, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}
async function enable2(deps2, user, code) {
  const db = deps2.database.db;
  const row = await findTwoFactor(db, user.id);
  if (!row) throw new AppError(409, "TWO_FACTOR_NOT_PENDING", "Start the set-up first");
  if (row.enabled_at !== null) throw new AppError(409, "TWO_FACTOR_ALREADY_ENABLED", "Two-factor sign-in is already on");
  const secret = await openSecret(deps2, user.id, row.secret_enc);
  const step = secret && isTotpCode(normaliseCode(code)) ? matchingStep(secret, normaliseCode(code)) : null;
  if (step === null) throw invalidCode(400);
  const codes = newRecoveryCodes();
  await withTx(deps2.database, async (trx) => {
    if (!await enable(trx, user.id, step, nowSec2())) throw new AppError(409, "TWO_FACTOR_ALREADY_ENABLED", "Two-factor sign-in is already on");
    await replaceRecoveryCodes(trx, user.id, codes.map(hashRecoveryCode));
    await writeLog(trx, { type_log: "auth", action: "two_factor_enable", actor_id: user.id, reseller_id: user.id, target_user: user.username });
  });
  return { recovery_codes: codes };
}
async function disable(deps2, user, input) {
  const db = deps2.database.db;
  if (!await isEnabled(db, user.id)) throw new AppError(409, "TWO_FACTOR_NOT_ENABLED", "Two-factor sign-in is off");
  await countAccountAttempt(deps2, user, input.ip);
  const hash2 = await passwordHash(db, user.id);
  if (!hash2 || !await verifyPassword(hash2, input.password)) {
    await writeLog(db, { type_log: "auth", action: "two_factor_failed", actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip, value: "disable" });
    throw new AppError(400, "INVALID_PASSWORD", "The password is wrong", "password");
  }
  if (!await checkCode(deps2, user.id, input.code)) {
    await writeLog(db, { type_log: "auth", action: "two_factor_failed", actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip, value: "disable" });
    throw invalidCode(400);
  }
  await succeeded(deps2, accountKeys(deps2, user.id));
  await withTx(deps2.database, async (trx) => {
    await removeTwoFactor(trx, user.id);
    await writeLog(trx, { type_log: "auth", action: "two_factor_disable", actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip });
  });
}
async function reset(deps2, actor, id) {
  if (actor.type !== "admin") throw forbidden();
  await withTx(deps2.database, async (trx) => {
    const target2 = await findVisibleReseller(trx, actor, id);
    if (!target2) throw notFound("Reseller");
    if (!await removeTwoFactor(trx, id)) throw new AppError(409, "TWO_FACTOR_NOT_ENABLED", "This account has no two-factor sign-in");
    await clearKey(trx, accountKey(id));
    await revokeAllSessions2(trx, id);
    await writeLog(trx, { type_log: "auth", action: "two_factor_reset", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, target_user: target2.username });
  });
  return { reset: true };
}
async function challengeIfEnrolled(deps2, reseller2, rememberMe) {
  if (!await isEnabled(deps2.database.db, reseller2.id)) return void 0;
  const { token, tokenHash } = newToken();
  const now5 = nowSec2();
  await createChallenge(deps2.database.db, {
    token_hash: tokenHash,
    reseller_id: reseller2.id,
    remember_me: rememberMe ? 1 : 0,
    expires_at: now5 + CHALLENGE_SECONDS,
    created_at: now5
  });
  return { two_factor_required: true, challenge: token, expires_in: CHALLENGE_SECONDS };
}
async function completeSignIn(deps2, input) {
  const db = deps2.database.db;
  const now5 = nowSec2();
  const challenge = await findChallenge(db, hashToken(input.challenge));
  if (!challenge || challenge.used_at !== null || challenge.expires_at <= now5) throw challengeExpired();
  const reseller2 = await activeReseller(db, challenge.reseller_id);
  if (!reseller2) throw challengeExpired();
  if (!await takeChallengeAttempt(db, challenge.id, CHALLENGE_MAX_ATTEMPTS, now5)) {
    await logRateLimited(deps2, reseller2, input.ip);
    throw rateLimited(Math.max(1, challenge.expires_at - now5));
  }
  await countAccountAttempt(deps2, reseller2, input.ip);
  const how = await checkCode(deps2, reseller2.id, input.code);
  if (!how) {
    await writeLog(db, { type_log: "auth", action: "two_factor_failed", reseller_id: reseller2.id, target_user: reseller2.username, ip: input.ip, value: "sign_in" });
    throw invalidCode(401);
  }
  if (!await useChallenge(db, challenge.id, nowSec2())) throw challengeExpired();
  await succeeded(deps2, accountKeys(deps2, reseller2.id));
  const session = await startSession(deps2, { reseller: reseller2, rememberMe: challenge.remember_me === 1, ip: input.ip, userAgent: input.userAgent, secondFactor: how });
  return { ...session, device_token: await rememberDevice(deps2, reseller2.id, input.device_token) };
}
var accountKeys = ({ config: config2 }, resellerId) => [
  { key: accountKey(resellerId), limit: config2.loginMaxFailures, onSuccess: "clear" }
];
function countAccountAttempt(deps2, reseller2, ip) {
  return checkAndCount(deps2, accountKeys(deps2, reseller2.id), { action: "two_factor_rate_limited", reseller_id: reseller2.id, target_user: reseller2.username, ip });
}
function logRateLimited({ database: database2 }, reseller2, ip) {
  return writeLog(database2.db, { type_log: "auth", action: "two_factor_rate_limited", reseller_id: reseller2.id, target_user: reseller2.username, ip });
}
async function checkCode(deps2, resellerId, raw2) {
  const db = deps2.database.db;
  const code = normaliseCode(raw2);
  if (isTotpCode(code)) {
    const row = await findTwoFactor(db, resellerId);
    const secret = row?.enabled_at != null ? await openSecret(deps2, resellerId, row.secret_enc) : null;
    const step = secret ? matchingStep(secret, code) : null;
    return step !== null && await claimStep(db, resellerId, step) ? "totp" : null;
  }
  if (code.length !== 16) return null;
  return await useRecoveryCode(db, resellerId, hashRecoveryCode(code), nowSec2()) ? "recovery" : null;
}

// src/modules/auth/service.ts
var invalid = () => new AppError(401, "INVALID_CREDENTIALS", "Invalid username or password");
async function signIn(deps2, input) {
  const db = deps2.database.db;
  const knownDeviceId = await knownDeviceFor(db, input.device_token, input.username);
  const keys2 = signInKeys(deps2.config, { username: input.username, ip: input.ip, knownDeviceId });
  await checkAndCount(deps2, keys2, { action: "sign_in_rate_limited", target_user: input.username, ip: input.ip });
  const found = await findResellerByUsername(db, input.username);
  const ok = await verifyPassword(found?.password_hash ?? await dummyPasswordHash(), input.password);
  const allowed = found && ok && found.status === 1 && found.deleted_at === null;
  if (!allowed) {
    await writeLog(db, {
      type_log: "auth",
      action: "sign_in_failed",
      reseller_id: found?.id ?? null,
      target_user: input.username,
      ip: input.ip
    });
    throw invalid();
  }
  await succeeded(deps2, keys2);
  const reseller2 = { id: found.id, username: found.username, type: found.type };
  const challenge = await challengeIfEnrolled(deps2, reseller2, input.remember_me === true);
  if (challenge) return challenge;
  const session = await startSession(deps2, { reseller: reseller2, rememberMe: input.remember_me === true, ip: input.ip, userAgent: input.userAgent });
  return { ...session, device_token: await rememberDevice(deps2, found.id, input.device_token) };
}
var SEEN_RESOLUTION = 60;
function authenticate(deps2, token) {
  if (!token || token.length > 200) throw unauthorized();
  const row = findSessionByToken(deps2.database.db, hashToken(token));
  return row instanceof Promise ? row.then((found) => signedIn(deps2, found)) : signedIn(deps2, row);
}
var authenticateSession = async (deps2, sessionId) => signedIn(deps2, await findSessionById(deps2.database.db, sessionId));
var unauthorized = () => new AppError(401, "UNAUTHORIZED", "Sign in to continue");
function signedIn({ database: database2 }, row) {
  const now5 = nowSec();
  if (!row || row.revoked_at !== null || row.expires_at <= now5 || row.last_seen_at + row.idle_seconds <= now5 || row.status !== 1 || row.deleted_at !== null) {
    throw unauthorized();
  }
  const user = {
    id: row.reseller_id,
    username: row.username,
    type: row.type,
    credits: row.credits,
    sessionId: row.session_id,
    twoFactorEnabled: Boolean(row.two_factor_enabled),
    topLevel: Boolean(row.top_level)
  };
  if (now5 - row.last_seen_at >= SEEN_RESOLUTION) return touchSession(database2.db, row.session_id, now5).then(() => user);
  return user;
}
async function signOut({ database: database2 }, user) {
  await revokeSession(database2.db, user.sessionId);
  await writeLog(database2.db, { type_log: "auth", action: "sign_out", actor_id: user.id, reseller_id: user.id, target_user: user.username });
}

// src/modules/credits/repo.ts
var ledgerOf = (db, resellerId) => db.selectFrom("credit_ledger as l").where("l.reseller_id", "=", resellerId);
var withNames2 = (q) => q.leftJoin("resellers as c", "c.id", "l.counterparty_id").leftJoin("resellers as a", "a.id", "l.actor_id").select(["l.id", "l.delta", "l.balance_after", "l.reason", "l.line_id", "l.p2p_account_id", "l.created_at", "c.username as counterparty", "a.username as actor"]);
async function pageLedger(db, resellerId, page, per) {
  const countRow = await ledgerOf(db, resellerId).select((eb) => eb.fn.countAll().as("n")).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const data = await withNames2(ledgerOf(db, resellerId)).orderBy("l.id", "desc").limit(per).offset((page - 1) * per).execute();
  return { data, meta: { page, per, count: data.length, pages: Math.ceil(total / per), total } };
}
function iterateLedger(db, resellerId, batch = 1e3) {
  return keysetRows((last, limit) => withNames2(ledgerOf(db, resellerId)).where("l.id", ">", last).orderBy("l.id").limit(limit).execute(), batch);
}

// src/modules/credits/service.ts
async function assertReadable({ database: database2 }, actor, resellerId) {
  if (!await findVisibleReseller(database2.db, actor, resellerId, true)) throw notFound("Reseller");
}
async function history(deps2, actor, resellerId, page = 1, per = 10) {
  await assertReadable(deps2, actor, resellerId);
  return pageLedger(deps2.database.db, resellerId, page, per);
}
async function exportRows3(deps2, actor, resellerId) {
  await assertReadable(deps2, actor, resellerId);
  return iterateLedger(deps2.database.db, resellerId);
}

// src/modules/logs/actions.ts
var LOG_TYPES = ["auth", "admin", "reseller", "credits", "user", "export", "p2p", "vod"];
var LOG_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "sign_in_rate_limited",
  "line_auth_rate_limited",
  "sign_out",
  "package_create",
  "package_update",
  "bouquet_create",
  "bouquet_update",
  "bouquet_delete",
  "catalogue_import",
  "server_create",
  "server_delete",
  "news_update",
  "reseller_create",
  "reseller_update",
  "reseller_block",
  "reseller_unblock",
  "reseller_to_master",
  "reseller_deactivate",
  "domain_add",
  "domain_clear",
  "add_credits",
  "remove_credits",
  "user_create",
  "trial_create",
  "user_update",
  "user_delete",
  "user_renew",
  "user_flash_renew",
  "user_extend",
  "user_screens",
  "user_block",
  "user_unblock",
  "user_change_system",
  "user_shorturl",
  "user_resync_p2p",
  "p2p_create",
  "p2p_trial_create",
  "p2p_update",
  "p2p_delete",
  "p2p_block",
  "p2p_unblock",
  "p2p_renew",
  "p2p_attach_login",
  "p2p_import_credits",
  "p2p_import_clients",
  "user_disconnect",
  "data_export",
  "user_migrate",
  "user_lazy_player",
  "user_lazy_player_refund",
  "vod_request",
  "vod_status",
  "vod_remove",
  "settings_update"
];

// src/modules/logs/service.ts
var ORDER_FIELDS5 = { id: "lg.id", created_at: "lg.created_at", type_log: "lg.type_log", action: "lg.action", value_int: "lg.value_int" };
var DEFAULT_ORDER5 = { column: "lg.created_at", direction: "desc" };
function parseDates(raw2) {
  const texts = raw2.split(",").map((p) => p.trim());
  const parts = texts.map(Number);
  if (parts.length !== 2 || texts.some((t) => !/^\d+$/.test(t)) || parts.some((n3) => !Number.isSafeInteger(n3)) || parts[0] > parts[1]) {
    throw validation("dates", 'must be two epoch-ms values "from,to" with from <= to');
  }
  return [parts[0], parts[1]];
}
function filters(q) {
  return {
    type: q.type,
    actions: (q.actions ?? "").split(",").map((a) => a.trim()).filter(Boolean),
    reseller: q.reseller,
    toreseller: q.toreseller,
    user: q.user,
    dates: q.dates ? parseDates(q.dates) : void 0
  };
}
async function scope(deps2, actor) {
  if (actor.type === "admin") return null;
  const db = deps2.database.db;
  if (await isTopLevel(db, actor)) return { top: actor.id };
  return { ids: await subtreeIdList(db, actor.id) };
}
async function list6(deps2, actor, q) {
  const f = filters(q);
  const order = parseOrder(q.order_by, ORDER_FIELDS5, DEFAULT_ORDER5);
  return pageLogs(deps2.database.db, await scope(deps2, actor), f, { page: q.page, per: q.per, order, walk: deps2.database.dialect === "sqlite" });
}
async function exportRows4(deps2, actor, q) {
  const f = filters(q);
  return iterateLogs(deps2.database.db, await scope(deps2, actor), f);
}
var options = () => ({ types: [...LOG_TYPES], actions: [...LOG_ACTIONS] });

// src/modules/exports/columns.ts
var both = (pt, en) => ({ "pt-BR": pt, "en-US": en });
var words = {
  active: both("Ativo", "Active"),
  blocked: both("Bloqueado", "Blocked"),
  expired: both("Expirado", "Expired"),
  yes: both("Sim", "Yes"),
  no: both("N\xE3o", "No")
};
var say = (w, r) => words[w][r.lang];
var SYSTEMS = { 1: "HTTP", 2: "P2P" };
var lineColumns = [
  { header: both("ID", "ID"), kind: "number", width: 10, value: (l) => l.id },
  { header: both("Usu\xE1rio", "Username"), width: 18, value: (l) => l.username },
  { header: both("Senha", "Password"), width: 14, value: (l) => l.password },
  { header: both("Criado em", "Created"), kind: "date", width: 20, value: (l) => l.created_at },
  { header: both("Expira em", "Expires"), kind: "date", width: 20, value: (l) => l.exp_date },
  { header: both("Revendedor", "Reseller"), width: 16, value: (l) => l.master_username },
  { header: both("Observa\xE7\xF5es", "Notes"), width: 30, value: (l) => l.reseller_notes },
  { header: both("WhatsApp", "WhatsApp"), width: 16, value: (l) => l.whatsapp },
  { header: both("Telas", "Screens"), kind: "number", width: 8, value: (l) => l.max_connections },
  { header: both("Status", "Status"), width: 12, value: (l, r) => say(l.enabled !== 1 ? "blocked" : l.exp_date <= r.now ? "expired" : "active", r) },
  { header: both("Teste", "Trial"), width: 8, value: (l, r) => say(l.is_trial === 1 ? "yes" : "no", r) },
  { header: both("Sistema", "System"), width: 10, value: (l) => SYSTEMS[l.system] ?? "P2P BR" },
  { header: both("Pacote", "Package"), kind: "number", width: 8, value: (l) => l.package_id },
  { header: both("Bouquets", "Bouquets"), width: 20, value: (l) => l.bouquet.join(",") }
];
var resellerColumns = [
  { header: both("ID", "ID"), kind: "number", width: 10, value: (x) => x.id },
  { header: both("Usu\xE1rio", "Username"), width: 18, value: (x) => x.username },
  { header: both("Cr\xE9ditos", "Credits"), kind: "number", width: 10, value: (x) => x.credits },
  { header: both("Master", "Master"), width: 16, value: (x) => x.master_username },
  { header: both("\xDAltimo acesso", "Last sign-in"), kind: "date", width: 20, value: (x) => x.last_login },
  { header: both("Grupo", "Group"), width: 18, value: (x) => x.group_name },
  { header: both("Sub-revendas", "Sub-resellers"), kind: "number", width: 12, value: (x) => x.sub_resellers_count },
  { header: both("Clientes", "Clients"), kind: "number", width: 10, value: (x) => x.clients_count },
  { header: both("Status", "Status"), width: 12, value: (x, r) => say(x.status === 1 ? "active" : "blocked", r) }
];
var ledgerColumns = [
  { header: both("ID", "ID"), kind: "number", width: 10, value: (x) => x.id },
  { header: both("Data", "Date"), kind: "date", width: 20, value: (x) => x.created_at },
  { header: both("Cr\xE9ditos", "Credits"), kind: "number", width: 10, value: (x) => x.delta },
  { header: both("Saldo ap\xF3s", "Balance after"), kind: "number", width: 12, value: (x) => x.balance_after },
  { header: both("Motivo", "Reason"), width: 18, value: (x) => x.reason },
  { header: both("Contraparte", "Counterparty"), width: 16, value: (x) => x.counterparty },
  { header: both("Feito por", "Done by"), width: 16, value: (x) => x.actor },
  { header: both("Usu\xE1rio (ID)", "Line (ID)"), kind: "number", width: 12, value: (x) => x.line_id },
  { header: both("Usu\xE1rio P2P (ID)", "P2P user (ID)"), kind: "number", width: 14, value: (x) => x.p2p_account_id }
];
var logColumns = [
  { header: both("ID", "ID"), kind: "number", width: 10, value: (x) => x.id },
  // log times are epoch milliseconds
  { header: both("Data", "Date"), kind: "date", width: 20, value: (x) => Math.floor(x.created_at / 1e3) },
  { header: both("Tipo", "Type"), width: 10, value: (x) => x.type_log },
  { header: both("A\xE7\xE3o", "Action"), width: 18, value: (x) => x.action },
  { header: both("Feito por", "Done by"), width: 16, value: (x) => x.user },
  { header: both("Revendedor", "Reseller"), width: 16, value: (x) => x.reseller },
  { header: both("Para revendedor", "To reseller"), width: 16, value: (x) => x.toreseller },
  { header: both("Usu\xE1rio", "Line"), width: 16, value: (x) => x.target_user },
  { header: both("Valor", "Value"), width: 20, value: (x) => x.value },
  { header: both("Valor num\xE9rico", "Amount"), kind: "number", width: 12, value: (x) => x.value_int }
];
function zoneName(tzOffset) {
  const sign = tzOffset < 0 ? "-" : "+";
  const abs = Math.abs(tzOffset);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
function headerOf(c, r) {
  const text3 = c.header[r.lang];
  return c.kind === "date" ? `${text3} (${zoneName(r.tzOffset)})` : text3;
}
function formatDate(epochSeconds, r) {
  const d = new Date((epochSeconds + r.tzOffset * 60) * 1e3);
  const p = (n3) => String(n3).padStart(2, "0");
  const time = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  const [y, m, day] = [d.getUTCFullYear(), p(d.getUTCMonth() + 1), p(d.getUTCDate())];
  return r.lang === "pt-BR" ? `${day}/${m}/${y} ${time}` : `${y}-${m}-${day} ${time}`;
}

// src/modules/exports/repo.ts
async function insertDownloadToken(db, row, now5) {
  await db.deleteFrom("download_tokens").where("expires_at", "<=", now5).execute();
  await db.insertInto("download_tokens").values(row).execute();
}
function takeDownloadToken(db, tokenHash) {
  return db.deleteFrom("download_tokens").where("token_hash", "=", tokenHash).returning(["session_id", "url", "expires_at"]).executeTakeFirst();
}

// src/modules/exports/writers.ts
import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
function csvStream(rows, columns, r) {
  const options2 = { delimiter: ";", record_delimiter: "windows" };
  async function* chunks2() {
    yield stringify([columns.map((c) => headerOf(c, r))], { ...options2, bom: true });
    let batch = [];
    for await (const row of rows) {
      batch.push(columns.map((c) => csvCell(c, row, r)));
      if (batch.length === 500) {
        yield stringify(batch, options2);
        batch = [];
      }
    }
    if (batch.length) yield stringify(batch, options2);
  }
  return Readable.from(chunks2(), { objectMode: false });
}
function csvCell(c, row, r) {
  const v = c.value(row, r);
  if (v === null) return "";
  if (c.kind === "date") return formatDate(Number(v), r);
  if (typeof v === "number") return v;
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}
var excel;
var loadExcel = () => {
  excel ??= import("exceljs").then((m) => m.default);
  return excel;
};
function xlsxStream(rows, columns, r, sheetName) {
  const out = new PassThrough();
  const write = async () => {
    const iterator = rows[Symbol.asyncIterator]();
    try {
      const ExcelJS = await loadExcel();
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
      const sheet = book.addWorksheet(sheetName);
      sheet.columns = columns.map((c, i) => ({
        key: String(i),
        header: headerOf(c, r),
        width: c.width ?? 14,
        ...c.kind === "date" ? { style: { numFmt: r.lang === "pt-BR" ? "dd/mm/yyyy hh:mm:ss" : "yyyy-mm-dd hh:mm:ss" } } : {}
      }));
      let n3 = 0;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (out.destroyed) return;
        sheet.addRow(columns.map((c) => xlsxCell(c, next.value, r))).commit();
        if (++n3 % 200 === 0 && out.writableNeedDrain) await Promise.race([once(out, "drain"), once(out, "close")]);
      }
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err);
    } finally {
      await iterator.return?.();
    }
  };
  void write();
  return out;
}
function xlsxCell(c, row, r) {
  const v = c.value(row, r);
  if (v === null || c.kind !== "date") return v;
  return new Date((Number(v) + r.tzOffset * 60) * 1e3);
}

// src/modules/exports/service.ts
var CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
};
var FILE_PARAMS = /* @__PURE__ */ new Set(["lang", "tz_offset", "download_token", "page", "per", "order_by"]);
async function exportLines(deps2, actor, q, o) {
  return file(deps2, actor, "users", q, o, lineColumns, await exportRows(deps2, actor, { ...q, tz_offset: o.tz_offset }), "Usuarios");
}
async function exportResellers(deps2, actor, q, o) {
  return file(deps2, actor, "resellers", q, o, resellerColumns, exportRows2(deps2, actor, q), "Revendedores");
}
async function exportLedger(deps2, actor, resellerId, o) {
  return file(deps2, actor, `ledger-${resellerId}`, {}, o, ledgerColumns, await exportRows3(deps2, actor, resellerId), "Creditos", resellerId);
}
async function exportLogs(deps2, actor, q, o) {
  return file(deps2, actor, "logs", q, o, logColumns, await exportRows4(deps2, actor, q), "Logs");
}
function file(deps2, actor, name, filters2, o, columns, rows, sheet, targetId) {
  const r = { lang: o.lang ?? "pt-BR", tzOffset: o.tz_offset ?? 0, now: Math.floor(Date.now() / 1e3) };
  const what = `${name}.${o.format}${describe2(filters2)}`;
  const audited = logged(
    rows,
    (count, complete) => writeLog(deps2.database.db, {
      type_log: "export",
      action: "data_export",
      actor_id: actor.id,
      reseller_id: actor.id,
      target_reseller_id: targetId ?? null,
      value: `${what}${complete ? "" : " (interrupted)"}`.slice(0, 500),
      value_int: count
    })
  );
  const day = new Date((r.now + r.tzOffset * 60) * 1e3).toISOString().slice(0, 10);
  return {
    filename: `${name}-${day}.${o.format}`,
    contentType: CONTENT_TYPES[o.format],
    stream: o.format === "csv" ? csvStream(audited, columns, r) : xlsxStream(audited, columns, r, sheet)
  };
}
var FORMED = /* @__PURE__ */ new Set(["created", "dates", "type_user"]);
var LOG_TYPES2 = options().types;
var LOG_ACTIONS2 = options().actions;
function shown(key, value) {
  if (typeof value !== "string" || FORMED.has(key)) return String(value);
  if (key === "type" && LOG_TYPES2.includes(value)) return value;
  if (key === "actions" && value.split(",").every((a) => LOG_ACTIONS2.includes(a.trim()))) return value;
  return "*";
}
function describe2(filters2) {
  const pairs = Object.entries(filters2).filter(([k, v]) => v !== void 0 && v !== "" && !FILE_PARAMS.has(k)).map(([k, v]) => `${k}=${shown(k, v)}`);
  return pairs.length ? `?${pairs.join("&")}` : "";
}
async function* logged(rows, done) {
  let count = 0;
  let complete = false;
  try {
    for await (const row of rows) {
      yield row;
      count++;
    }
    complete = true;
  } finally {
    await done(count, complete).catch(() => {
    });
  }
}
var TOKEN_SECONDS = 60;
var EXPORT_PATH = /^\/api\/(users\/export\.(csv|xlsx)|resellers\/export\.csv|resellers\/[1-9]\d{0,9}\/ledger\/export\.csv|logs\/export\.csv)$/;
var TOKEN_PARAM = "download_token";
var refused = () => new AppError(401, "UNAUTHORIZED", "This download link is invalid or has expired");
function boundUrl(raw2) {
  const u = new URL(raw2, "http://panel.invalid");
  const token = u.searchParams.get(TOKEN_PARAM);
  u.searchParams.delete(TOKEN_PARAM);
  const query = u.searchParams.toString();
  return { path: u.pathname, url: `${u.pathname}${query ? `?${query}` : ""}`, token };
}
async function downloadLink(deps2, actor, path5) {
  const bound = boundUrl(path5);
  if (!path5.startsWith("/api/") || !EXPORT_PATH.test(bound.path) || bound.token !== null) throw validation("path", "must be an export URL of this API");
  const { token, tokenHash } = newToken();
  const now5 = Math.floor(Date.now() / 1e3);
  await insertDownloadToken(deps2.database.db, { token_hash: tokenHash, session_id: actor.sessionId, url: bound.url, expires_at: now5 + TOKEN_SECONDS }, now5);
  const sep = bound.url.includes("?") ? "&" : "?";
  return { url: `${bound.url}${sep}${TOKEN_PARAM}=${token}`, expires_at: now5 + TOKEN_SECONDS };
}
async function authenticateDownload(deps2, requestUrl) {
  const bound = boundUrl(requestUrl);
  if (!bound.token || bound.token.length > 200) throw refused();
  const row = await takeDownloadToken(deps2.database.db, hashToken(bound.token));
  if (!row || row.url !== bound.url || row.expires_at <= Math.floor(Date.now() / 1e3)) throw refused();
  return authenticateSession(deps2, row.session_id);
}

// src/http/auth.ts
var ENROLMENT_ROUTES = /* @__PURE__ */ new Set(["/api/profile", "/api/profile/2fa", "/api/profile/2fa/setup", "/api/profile/2fa/enable", "/api/auth/sign-out"]);
function requireSession(scope2, deps2) {
  scope2.decorateRequest("user", null);
  scope2.addHook("onRequest", (request2, _reply, done) => {
    const signedIn2 = (user2) => {
      request2.user = user2;
      if (deps2.config.requireAdmin2fa && !ENROLMENT_ROUTES.has(request2.routeOptions.url ?? "") && mustEnrol(deps2, user2)) {
        throw new AppError(403, "TWO_FACTOR_REQUIRED", "Turn on two-factor sign-in first");
      }
    };
    let user;
    try {
      const header = request2.headers.authorization;
      const token = header?.startsWith("Bearer ") ? header.slice(7).trim() : void 0;
      const byLink = token === void 0 && request2.routeOptions.config?.downloadable === true && request2.url.includes("download_token=");
      user = byLink ? authenticateDownload(deps2, request2.url) : authenticate(deps2, token);
      if (!(user instanceof Promise)) signedIn2(user);
    } catch (err) {
      done(err);
      return;
    }
    if (user instanceof Promise) user.then(signedIn2).then(() => done(), done);
    else done();
  });
}
function registerRoleChecks(app2) {
  app2.addHook("onRoute", (route) => {
    const roles = route.config?.roles;
    if (!roles) return;
    const hideAs = route.config?.hideAs;
    const check = async (request2) => {
      if (!request2.user || !roles.includes(request2.user.type)) throw denied(hideAs);
    };
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...own, check];
  });
}
function denied(hideAs) {
  return hideAs ? notFound(hideAs) : forbidden();
}

// src/http/json-body.ts
var MAX_JSON_DEPTH = 32;
function nestsDeeperThan(text3, limit) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text3.length; i++) {
    const c = text3.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
function registerJsonBody(app2) {
  const parse = app2.getDefaultJsonParser("error", "error");
  app2.removeContentTypeParser("application/json");
  app2.addContentTypeParser("application/json", { parseAs: "string" }, (request2, body, done) => {
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(new AppError(400, "VALIDATION", `body: nested deeper than ${MAX_JSON_DEPTH} levels`, "body"), void 0);
      return;
    }
    parse(request2, body, done);
  });
}

// src/http/openapi.ts
import { STATUS_CODES } from "node:http";
import { Type as Type3 } from "typebox";
var ApiError = Type3.Object(
  {
    statusCode: Type3.Integer(),
    code: Type3.String({ description: "stable code the web app translates; each answer lists the codes it can carry" }),
    message: Type3.String({ description: "English text" }),
    field: Type3.Optional(Type3.String({ description: "the input at fault" }))
  },
  { title: "ApiError" }
);
var IdempotencyHeader = Type3.Object({
  "idempotency-key": Type3.Optional(
    Type3.String({
      maxLength: 200,
      description: "one random key per user intent, sent again on retry: a repeated key replays the first answer instead of spending twice"
    })
  )
});
var DESCRIPTION = [
  "Errors answer `{statusCode, code, message, field?}` (schema `ApiError`); each operation lists the codes it can give.",
  "Any call may also answer 413 `PAYLOAD_TOO_LARGE`, 415 `UNSUPPORTED_MEDIA_TYPE`, 500 `INTERNAL` or, while the server stops, 503 `SHUTTING_DOWN`."
].join(" ");
function errorResponses(schema, route) {
  const codes = /* @__PURE__ */ new Map();
  const add2 = (status3, ...list12) => codes.set(status3, /* @__PURE__ */ new Set([...codes.get(status3) ?? [], ...list12]));
  const isPublic = schema.security?.length === 0;
  add2(400, "VALIDATION");
  if (!isPublic) add2(401, "UNAUTHORIZED");
  if (!isPublic && !ENROLMENT_ROUTES.has(route.url)) add2(403, "TWO_FACTOR_REQUIRED");
  if (route.config?.roles) add2(route.config.hideAs ? 404 : 403, route.config.hideAs ? "NOT_FOUND" : "FORBIDDEN");
  if (route.url.includes(":id")) add2(404, "NOT_FOUND");
  if (schema.idempotencyKey) add2(422, "IDEMPOTENCY_CONFLICT");
  for (const [status3, list12] of Object.entries(schema.errors ?? {})) add2(Number(status3), ...list12);
  return Object.fromEntries(
    [...codes].map(([status3, list12]) => [status3, { description: `${STATUS_CODES[status3]}: ${[...list12].join(", ")}`, content: { "application/json": { schema: ApiError } } }])
  );
}
var transform = ({ schema, url, route }) => {
  if (!schema || schema.hide) return { schema, url };
  const { errors: _errors, idempotencyKey: idempotencyKey2, ...rest } = schema;
  return {
    url,
    schema: {
      ...rest,
      ...idempotencyKey2 ? { headers: IdempotencyHeader } : {},
      response: { ...rest.response, ...errorResponses(schema, route) }
    }
  };
};
function nameTitledSchemas(doc) {
  const named = {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== "object") return node;
    const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, visit(v)]));
    if (typeof out.title !== "string") return out;
    const name = out.title;
    if (named[name] && JSON.stringify(named[name]) !== JSON.stringify(out)) throw new Error(`two different schemas are titled ${name}`);
    named[name] = out;
    return { $ref: `#/components/schemas/${name}` };
  };
  const paths = visit(doc.paths);
  const components = doc.components;
  const sorted = Object.fromEntries(Object.keys(named).sort().map((k) => [k, named[k]]));
  return { ...doc, paths, components: { ...components, schemas: { ...components.schemas, ...sorted } } };
}
var swaggerOptions = {
  openapi: {
    info: { title: "Reseller panel API", version: "1.0.0", description: DESCRIPTION },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }]
  },
  transform,
  transformObject: (documentObject) => nameTitledSchemas(documentObject.openapiObject)
};

// src/http/serializers.ts
import { createRequire } from "node:module";
var fromFastify = createRequire(createRequire(import.meta.url).resolve("fastify"));
var defaultFactory = fromFastify("@fastify/fast-json-stringify-compiler").SerializerSelector();
var lazySerializers = (externalSchemas, options2) => {
  const compile = defaultFactory(externalSchemas, options2);
  return (route) => {
    let serialize;
    return (data) => {
      serialize ??= compile(route);
      return serialize(data);
    };
  };
};

// src/http/security-headers.ts
import helmet from "@fastify/helmet";
import Fastify from "fastify";
async function registerSecurityHeaders(app2, publicUrl2, posterOrigin) {
  const headers = await helmetHeaders(publicUrl2, posterOrigin);
  app2.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
async function helmetHeaders(publicUrl2, posterOrigin) {
  const https2 = publicUrl2?.toLowerCase().startsWith("https://") ?? false;
  const probe = Fastify();
  await probe.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Content-request posters come from the movie catalogue's image host (no key in those URLs).
        imgSrc: ["'self'", "data:", ...posterOrigin ? [posterOrigin] : []],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        workerSrc: ["'self'"],
        // the service worker (installable panel)
        manifestSrc: ["'self'"],
        ...https2 ? { upgradeInsecureRequests: [] } : {}
      }
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: https2 ? { maxAge: 31536e3, includeSubDomains: false } : false
  });
  probe.get("/", (_request, reply) => reply.send());
  const res = await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  const own = /* @__PURE__ */ new Set(["content-length", "content-type", "date", "connection", "keep-alive"]);
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !own.has(name)).map(([name, value]) => [name, String(value)]));
}

// src/http/shutdown.ts
import net from "node:net";
import { setTimeout as delay } from "node:timers/promises";
var draining = /* @__PURE__ */ new WeakSet();
function registerShutdownGate(app2) {
  app2.addHook("onRequest", (_request, reply, done) => {
    if (!draining.has(app2)) return done();
    reply.header("Connection", "close").header("Retry-After", "5");
    reply.status(503).send({ statusCode: 503, code: "SHUTTING_DOWN", message: "The server is restarting, try again" });
  });
  app2.addHook("onSend", (_request, reply, payload, done) => {
    if (draining.has(app2)) reply.header("Connection", "close");
    done(null, payload);
  });
}
async function closeGracefully(app2, { drainMs = 1e3, graceMs = 3e4 } = {}) {
  draining.add(app2);
  const server = app2.server;
  const allClosed = new Promise((resolve2) => net.Server.prototype.close.call(server, () => resolve2()));
  await Promise.race([allClosed, delay(drainMs)]);
  server.closeIdleConnections();
  const finished = await Promise.race([allClosed.then(() => true), delay(graceMs).then(() => false)]);
  if (!finished) {
    app2.log.warn({ graceMs }, "requests still running after the grace period: closing their connections");
    server.closeAllConnections();
  }
  await app2.close();
}

// src/http/text-guard.ts
var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function badTextField(root) {
  const stack = [[root, ""]];
  while (stack.length > 0) {
    const [value, path5] = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\0")) return { field: path5 || "body", problem: "must not contain NUL characters" };
      if (LONE_SURROGATE.test(value)) return { field: path5 || "body", problem: "must be valid Unicode text" };
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i];
        stack.push([v, path5 ? `${path5}.${k}` : k]);
      }
    }
  }
  return void 0;
}
function registerTextGuard(app2) {
  app2.addHook("preValidation", (request2, _reply, done) => {
    const bad = badTextField(request2.query) ?? badTextField(request2.body) ?? badTextField(request2.params);
    done(bad ? new AppError(400, "VALIDATION", `${bad.field}: ${bad.problem}`, bad.field) : void 0);
  });
}

// src/http/validator.ts
import { Ajv } from "ajv";
import * as formats from "ajv-formats";
var addFormats = formats.default;
function make(coerceTypes, removeAdditional = "all") {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}
var NUMBER_TEXT = {
  integer: /^-?(0|[1-9][0-9]*)$/,
  number: /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/
};
function plainNumbers(schema, validate) {
  const numeric = Object.entries(schema.properties ?? {}).flatMap(
    ([name, prop]) => prop.type === "integer" || prop.type === "number" ? [[name, NUMBER_TEXT[prop.type]]] : []
  );
  if (numeric.length === 0) return validate;
  const check = (data) => {
    for (const [name, pattern] of numeric) {
      const raw2 = data?.[name];
      const texts = Array.isArray(raw2) ? raw2 : [raw2];
      if (texts.some((v) => typeof v === "string" && !pattern.test(v))) {
        const error = { instancePath: `/${name}`, schemaPath: "#/pattern", keyword: "pattern", params: {}, message: "must be a plain decimal number" };
        check.errors = [error];
        return false;
      }
    }
    const ok = validate(data);
    check.errors = validate.errors;
    return ok;
  };
  check.errors = null;
  return check;
}
function registerValidators(app2) {
  const strict = make(false);
  const coercing = make("array");
  const headers = make("array", false);
  app2.setValidatorCompiler(
    ({ schema, httpPart }) => onFirstUse(() => {
      if (httpPart === "body") return strict.compile(schema);
      return plainNumbers(schema, (httpPart === "headers" ? headers : coercing).compile(schema));
    })
  );
}
function onFirstUse(compile) {
  let validate;
  const run = (data) => {
    validate ??= compile();
    const ok = validate(data);
    run.errors = validate.errors;
    return ok;
  };
  run.errors = null;
  return run;
}

// src/modules/auth/routes.ts
import { Type as Type6 } from "typebox";

// src/modules/twofactor/routes.ts
import { Type as Type5 } from "typebox";

// src/http/schemas.ts
import { Type as Type4 } from "typebox";
var Nullable = (t) => Type4.Union([t, Type4.Null()]);
var SearchOptions = Type4.Object({
  data: Type4.Array(Type4.Object({ label: Type4.String({ description: "username" }), value: Type4.String({ description: "id, as text" }) }, { title: "SearchOption" }))
});
var IdParams = Type4.Object({ id: Type4.Integer({ minimum: 1, maximum: 2147483647 }) });
function idempotencyKey(req) {
  const v = req.headers["idempotency-key"];
  return typeof v === "string" && v !== "" ? v : void 0;
}
var SyncState = Type4.Union([Type4.Literal("synced"), Type4.Literal("pending"), Type4.Literal("failed")]);

// src/modules/twofactor/routes.ts
var tags = ["two-factor"];
var Code = Type5.String({ minLength: 1, maxLength: 40, description: "6-digit code from the app, or a recovery code" });
var SessionUser = Type5.Object(
  { id: Type5.Integer(), username: Type5.String(), type: Type5.Union([Type5.Literal("admin"), Type5.Literal("master"), Type5.Literal("reseller")]), credits: Type5.Integer() },
  { title: "SessionUser" }
);
var SignedIn = Type5.Object(
  {
    token: Type5.String(),
    user: SessionUser,
    device_token: Type5.Optional(Type5.String({ description: "keep it on this browser and send it with later sign-ins" }))
  },
  { title: "SignedIn" }
);
var TwoFactorChallenge = Type5.Object(
  {
    two_factor_required: Type5.Literal(true),
    challenge: Type5.String(),
    expires_in: Type5.Integer({ description: "seconds" })
  },
  { title: "TwoFactorChallenge" }
);
function publicTwoFactorRoutes(app2, deps2) {
  app2.withTypeProvider().post(
    "/auth/sign-in/2fa",
    {
      schema: {
        tags: ["auth"],
        security: [],
        errors: { 401: ["TWO_FACTOR_CHALLENGE_EXPIRED", "INVALID_2FA_CODE"], 429: ["RATE_LIMITED"] },
        body: Type5.Object({
          challenge: Type5.String({ minLength: 1, maxLength: 200 }),
          code: Code,
          device_token: Type5.Optional(Type5.String({ maxLength: 200, description: "as for /auth/sign-in" }))
        }),
        response: { 200: SignedIn }
      }
    },
    (req) => completeSignIn(deps2, { ...req.body, ip: req.ip, userAgent: req.headers["user-agent"] })
  );
}
function twoFactorRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  r.get(
    "/profile/2fa",
    {
      schema: {
        tags,
        response: {
          200: Type5.Object(
            {
              enabled: Type5.Boolean(),
              recovery_codes_left: Type5.Integer(),
              required: Type5.Boolean({ description: "REQUIRE_ADMIN_2FA applies to this account" })
            },
            { title: "TwoFactorStatus" }
          )
        }
      }
    },
    (req) => status(deps2, req.user)
  );
  r.post(
    "/profile/2fa/setup",
    {
      schema: {
        tags,
        errors: { 409: ["TWO_FACTOR_ALREADY_ENABLED"] },
        response: {
          200: Type5.Object({
            secret: Type5.String({ description: "base32, for typing into the app" }),
            otpauth_url: Type5.String(),
            qr: Type5.String({ description: "data: URL of an SVG QR code of otpauth_url" })
          }, { title: "TwoFactorSetup" })
        }
      }
    },
    (req) => setup(deps2, req.user)
  );
  r.post(
    "/profile/2fa/enable",
    {
      schema: {
        tags,
        errors: { 400: ["INVALID_2FA_CODE"], 409: ["TWO_FACTOR_NOT_PENDING", "TWO_FACTOR_ALREADY_ENABLED"] },
        body: Type5.Object({ code: Code }),
        response: { 200: Type5.Object({ recovery_codes: Type5.Array(Type5.String(), { description: "shown once" }) }) }
      }
    },
    (req) => enable2(deps2, req.user, req.body.code)
  );
  r.post(
    "/profile/2fa/disable",
    {
      schema: {
        tags,
        errors: { 400: ["INVALID_PASSWORD", "INVALID_2FA_CODE"], 409: ["TWO_FACTOR_NOT_ENABLED"], 429: ["RATE_LIMITED"] },
        body: Type5.Object({ password: Type5.String({ minLength: 1, maxLength: 200 }), code: Code }),
        response: { 204: Type5.Null() }
      }
    },
    async (req, reply) => {
      await disable(deps2, req.user, { ...req.body, ip: req.ip });
      return reply.status(204).send(null);
    }
  );
  r.post(
    "/resellers/:id/2fa/reset",
    {
      config: { roles: ["admin"] },
      schema: { tags, params: IdParams, errors: { 409: ["TWO_FACTOR_NOT_ENABLED"] }, response: { 200: Type5.Object({ reset: Type5.Boolean() }) } }
    },
    (req) => reset(deps2, req.user, req.params.id)
  );
}

// src/modules/auth/routes.ts
function publicAuthRoutes(app2, deps2) {
  app2.withTypeProvider().post(
    "/auth/sign-in",
    {
      schema: {
        tags: ["auth"],
        security: [],
        errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"] },
        body: Type6.Object({
          username: Type6.String({ minLength: 1, maxLength: 50 }),
          password: Type6.String({ minLength: 1, maxLength: 200 }),
          remember_me: Type6.Optional(Type6.Boolean()),
          device_token: Type6.Optional(Type6.String({ maxLength: 200, description: "from an earlier sign-in on this browser: skips the per-IP and per-account limits" }))
        }),
        response: { 200: Type6.Union([SignedIn, TwoFactorChallenge]) }
      }
    },
    async (request2) => {
      return signIn(deps2, { ...request2.body, ip: request2.ip, userAgent: request2.headers["user-agent"] });
    }
  );
}
function authRoutes(app2, deps2) {
  app2.delete("/auth/sign-out", { schema: { tags: ["auth"], response: { 204: Type6.Null() } } }, async (request2, reply) => {
    await signOut(deps2, request2.user);
    return reply.status(204).send();
  });
  const ProfileOut = Type6.Object(
    {
      ...SessionUser.properties,
      two_factor_enabled: Type6.Boolean(),
      two_factor_required: Type6.Boolean({ description: "REQUIRE_ADMIN_2FA: enrol before anything else" })
    },
    { title: "Profile" }
  );
  app2.get("/profile", { schema: { tags: ["auth"], response: { 200: ProfileOut } } }, async (request2) => {
    const { id, username: username2, type, credits } = request2.user;
    return { id, username: username2, type, credits, ...profileFlags(deps2, request2.user) };
  });
}

// src/modules/bouquets/routes.ts
import { Type as Type7 } from "typebox";
var Bouquet = Type7.Object({ id: Type7.Integer(), bouquet_name: Type7.String() }, { title: "Bouquet" });
var Name = Type7.String({ minLength: 1, maxLength: 100, pattern: "\\S" });
var Body = Type7.Object({ bouquet_name: Name });
var Ids = (maxItems) => Type7.Array(Type7.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems });
var UpdateBody = Type7.Object({ bouquet_name: Name, categories: Type7.Optional(Ids(1e4)), streams: Type7.Optional(Ids(1e5)) });
var Listed = Type7.Object({ ...Bouquet.properties, categories_count: Type7.Integer(), streams_count: Type7.Integer() }, { title: "BouquetListed" });
var WithContents = Type7.Object({ ...Bouquet.properties, categories: Type7.Array(Type7.Integer()), streams: Type7.Array(Type7.Integer()) }, { title: "BouquetWithContents" });
function bouquetRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["bouquets"];
  const config2 = { roles: ["admin"] };
  r.get("/admin/bouquets", { config: config2, schema: { tags: tags2, response: { 200: Type7.Object({ data: Type7.Array(Listed) }) } } }, async () => {
    return { data: await list2(deps2) };
  });
  r.get("/admin/bouquets/:id", { config: config2, schema: { tags: tags2, params: IdParams, response: { 200: WithContents } } }, (req) => get2(deps2, req.params.id));
  r.post("/admin/bouquets", { config: config2, schema: { tags: tags2, body: Body, response: { 201: Bouquet } } }, async (req, reply) => {
    return reply.status(201).send(await create(deps2, req.user, req.body.bouquet_name.trim()));
  });
  r.put("/admin/bouquets/:id", { config: config2, bodyLimit: 2 * 1024 * 1024, schema: { tags: tags2, params: IdParams, body: UpdateBody, response: { 200: WithContents } } }, async (req) => {
    const { bouquet_name, categories: categories2, streams: streams2 } = req.body;
    return update(deps2, req.user, req.params.id, bouquet_name.trim(), { categories: categories2, streams: streams2 });
  });
  r.delete("/admin/bouquets/:id", { config: config2, schema: { tags: tags2, params: IdParams, errors: { 409: ["BOUQUET_IN_USE"] }, response: { 204: Type7.Null() } } }, async (req, reply) => {
    await remove(deps2, req.user, req.params.id);
    return reply.status(204).send(null);
  });
}

// src/modules/catalogue/routes.ts
import { Type as Type9 } from "typebox";

// src/modules/catalogue/schemas.ts
import { Type as Type8 } from "typebox";
var Kind = Type8.Union([Type8.Literal("live"), Type8.Literal("movie"), Type8.Literal("series")]);
var Id = Type8.Integer({ minimum: 1, maximum: 2147483647 });
var CategoryOut = Type8.Object({
  id: Type8.Integer(),
  kind: Kind,
  name: Type8.String(),
  streams_count: Type8.Integer()
});
var StreamOut = Type8.Object({
  id: Type8.Integer(),
  kind: Kind,
  name: Type8.String(),
  category_id: Type8.Integer(),
  category_name: Type8.String(),
  icon: Nullable(Type8.String()),
  added: Type8.Integer(),
  container_ext: Type8.String(),
  source_url: Type8.String(),
  epg_id: Nullable(Type8.String()),
  rating: Nullable(Type8.Number())
});
var CategoriesQuery = Type8.Object({ kind: Type8.Optional(Kind) });
var StreamsQuery = Type8.Object({
  ...PageQuery,
  kind: Type8.Optional(Kind),
  category_id: Type8.Optional(Id),
  /** case-insensitive part of the name */
  search: Type8.Optional(Type8.String({ maxLength: 100 })),
  /** only these streams: up to 100 comma-separated ids (names of a bouquet's chosen streams) */
  ids: Type8.Optional(Type8.String({ maxLength: 1100, pattern: "^[0-9]{1,10}(,[0-9]{1,10}){0,99}$" }))
});
var MAX_PLAYLIST_BYTES = 32 * 1024 * 1024;
var ImportBody = Type8.Object({
  /** the playlist's text (an uploaded file) */
  m3u: Type8.Optional(Type8.String({ minLength: 1, maxLength: MAX_PLAYLIST_BYTES })),
  /** or where to fetch it (through the SSRF guard) */
  url: Type8.Optional(Type8.String({ minLength: 1, maxLength: 2048 })),
  /** every entry is of this kind; by default each entry's URL says (/movie/, /series/, a video file) */
  kind: Type8.Optional(Kind)
});
var Skipped = Type8.Object({ line: Type8.Integer(), name: Type8.String(), reason: Type8.String() });
var ImportResult = Type8.Object({
  added: Type8.Integer(),
  updated: Type8.Integer(),
  unchanged: Type8.Integer(),
  /** entries left out, with the reason (the first 1,000) */
  skipped: Type8.Array(Skipped),
  skipped_total: Type8.Integer(),
  categories_added: Type8.Integer()
});
var LatestQuery = Type8.Object({ type: Type8.Union([Type8.Literal("movie"), Type8.Literal("series")]) });
var LatestItem = Type8.Object({
  id: Type8.Integer(),
  name: Type8.String(),
  added: Type8.Integer(),
  category_name: Type8.String(),
  stream_icon: Nullable(Type8.String()),
  cover: Nullable(Type8.String())
});

// src/modules/catalogue/repo.ts
import { sql as sql18 } from "kysely";
var CHUNK2 = 500;
function chunks(items, size = CHUNK2) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
function listCategories(db, kind) {
  let q = db.selectFrom("categories as c").select(["c.id", "c.kind", "c.name", (eb) => eb.selectFrom("streams as s").select(sql18`count(*)`.as("n")).whereRef("s.category_id", "=", "c.id").as("streams_count")]);
  if (kind) q = q.where("c.kind", "=", kind);
  return q.orderBy("c.kind").orderBy("c.name").execute();
}
async function addCategories(db, rows, now5) {
  let added = 0;
  for (const part of chunks(rows)) {
    const res = await db.insertInto("categories").values(part.map((r) => ({ ...r, created_at: now5 }))).onConflict((oc) => oc.columns(["kind", "name"]).doNothing()).executeTakeFirst();
    added += Number(res.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
async function categoryIds(db, kind, names) {
  const out = [];
  for (const part of chunks(names)) out.push(...await db.selectFrom("categories").select(["id", "name"]).where("kind", "=", kind).where("name", "in", part).execute());
  return out;
}
async function streamsBySource(db, urls) {
  const out = [];
  for (const part of chunks(urls)) {
    out.push(
      ...await db.selectFrom("streams").select(["id", "source_url", "kind", "name", "category_id", "icon", "epg_id", "container_ext"]).where("source_url", "in", part).execute()
    );
  }
  return out;
}
async function upsertStreams(db, rows) {
  for (const part of chunks(rows)) {
    await db.insertInto("streams").values(part).onConflict(
      (oc) => oc.column("source_url").doUpdateSet((eb) => ({
        kind: eb.ref("excluded.kind"),
        name: eb.ref("excluded.name"),
        category_id: eb.ref("excluded.category_id"),
        icon: eb.ref("excluded.icon"),
        epg_id: eb.ref("excluded.epg_id"),
        container_ext: eb.ref("excluded.container_ext")
      }))
    ).execute();
  }
}
function pageStreams(db, f, paging) {
  let q = db.selectFrom("streams as s");
  if (f.kind) q = q.where("s.kind", "=", f.kind);
  if (f.category_id !== void 0) q = q.where("s.category_id", "=", f.category_id);
  if (f.ids) q = q.where("s.id", "in", f.ids.length ? f.ids : [0]);
  if (f.search) q = q.where(sql18`lower(s.name)`, "like", sql18`${`%${escapeLike(f.search.toLowerCase())}%`} escape '\\'`);
  return paginate(
    q,
    (b) => b.innerJoin("categories as c", "c.id", "s.category_id").select(["s.id", "s.kind", "s.name", "s.category_id", "c.name as category_name", "s.icon", "s.added", "s.container_ext", "s.source_url", "s.epg_id", "s.rating"]),
    { ...paging, db, tiebreak: "s.id" }
  );
}
function latest(db, kind, limit) {
  return db.selectFrom("streams as s").innerJoin("categories as c", "c.id", "s.category_id").select(["s.id", "s.name", "s.added", "s.icon", "c.name as category_name"]).where("s.kind", "=", kind).orderBy("s.added", "desc").orderBy("s.id", "desc").limit(limit).execute();
}

// src/lib/ssrf/safe-fetch.ts
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP as isIP2 } from "node:net";

// src/lib/ssrf/addresses.ts
import { BlockList, isIP } from "node:net";
var NOT_PUBLIC_V4 = [
  ["0.0.0.0", 8],
  // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  // IETF protocol assignments
  ["192.0.2.0", 24],
  // documentation
  ["192.88.99.0", 24],
  // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  // multicast
  ["240.0.0.0", 4]
  // reserved, broadcast
];
var NOT_PUBLIC_V6 = [
  ["::", 96],
  // unspecified, loopback, IPv4-compatible (deprecated)
  ["64:ff9b:1::", 48],
  // local-use NAT64
  ["100::", 64],
  // discard
  ["2001::", 23],
  // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ["2001:db8::", 32],
  // documentation
  ["2002::", 16],
  // 6to4: embeds an IPv4 address of any kind
  ["3fff::", 20],
  // documentation
  ["5f00::", 16],
  // segment routing
  ["fc00::", 7],
  // unique local
  ["fe80::", 10],
  // link-local
  ["fec0::", 10],
  // site-local (deprecated)
  ["ff00::", 8]
  // multicast
];
var notPublic = new BlockList();
for (const [net2, bits] of NOT_PUBLIC_V4) notPublic.addSubnet(net2, bits, "ipv4");
for (const [net2, bits] of NOT_PUBLIC_V6) notPublic.addSubnet(net2, bits, "ipv6");
function ipv6Groups(ip) {
  if (isIP(ip) !== 6) return void 0;
  let text3 = ip.replace(/%.*$/, "").toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text3);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text3 = `${text3.slice(0, quad.index)}${(a << 8 | b).toString(16)}:${(c << 8 | d).toString(16)}`;
  }
  const [head, tail] = text3.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === void 0 ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.map((g) => Number.parseInt(g, 16));
}
function embeddedIpv4(ip) {
  const g = ipv6Groups(ip);
  if (!g) return void 0;
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 65535;
  const nat64 = g[0] === 100 && g[1] === 65435 && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return void 0;
  return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".");
}
function isPublicAddress(ip) {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return !notPublic.check(ip, "ipv4");
  const inner = embeddedIpv4(ip);
  if (inner !== void 0) return isPublicAddress(inner);
  return !notPublic.check(ip.replace(/%.*$/, ""), "ipv6");
}
function networkMatcher(entries) {
  const list12 = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === void 0) list12.addAddress(address, family);
    else list12.addSubnet(address, Number(bits), family);
  }
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && list12.check(ip.replace(/%.*$/, ""), family === 6 ? "ipv6" : "ipv4");
  };
}

// src/lib/ssrf/safe-fetch.ts
var OutboundError = class extends Error {
  constructor(reason, message, status3) {
    super(message);
    this.reason = reason;
    this.status = status3;
  }
  reason;
  status;
};
var systemResolve = (host) => lookup(host, { all: true, verbatim: true });
function checkUrl(raw2) {
  let url;
  try {
    url = new URL(raw2);
  } catch {
    throw new OutboundError("invalid_url", "not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundError("scheme", "only http and https URLs are fetched");
  if (url.username || url.password) throw new OutboundError("credentials", "URLs with a user name or password are not fetched");
  return url;
}
async function resolveChecked(url, allowed, resolve2) {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses;
  if (isIP2(host)) addresses = [{ address: host, family: isIP2(host) }];
  else {
    try {
      addresses = await (resolve2 ?? systemResolve)(host);
    } catch {
      throw new OutboundError("dns", `host ${host} not found`);
    }
  }
  if (addresses.length === 0) throw new OutboundError("dns", `host ${host} not found`);
  const refused3 = addresses.find((a) => !allowed(a.address));
  if (refused3) throw new OutboundError("address", `${host} is not a public address (${refused3.address})`);
  return addresses;
}
async function safeFetch(raw2, opts = {}) {
  const url = checkUrl(raw2);
  const timeoutMs = opts.timeoutMs ?? 5e3;
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const listed = networkMatcher(opts.allow ?? []);
  const allowed = (ip) => isPublicAddress(ip) || listed(ip);
  const deadline = AbortSignal.timeout(timeoutMs);
  const addresses = await Promise.race([resolveChecked(url, allowed, opts.resolve), aborted(deadline, timeoutMs)]);
  const pinned = (_host, options2, callback) => {
    if (options2.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve2, reject) => {
    const req = client.get(url, { agent: false, lookup: pinned, signal: deadline, headers: { "user-agent": "reseller-panel", ...opts.headers } }, (res) => {
      const status3 = res.statusCode ?? 0;
      const fail = (err) => {
        reject(err);
        res.destroy();
      };
      if (status3 >= 300 && status3 < 400) return fail(new OutboundError("redirect", `the server answered a redirect (${status3}); redirects are not followed`, status3));
      if (status3 < 200 || status3 >= 300) return fail(new OutboundError("status", `the server answered ${status3}`, status3));
      if (Number(res.headers["content-length"] ?? 0) > maxBytes) return fail(tooLarge(maxBytes));
      const chunks2 = [];
      let size = 0;
      res.on("data", (chunk) => {
        size += chunk.length;
        if (size > maxBytes) fail(tooLarge(maxBytes));
        else chunks2.push(chunk);
      });
      res.on("end", () => resolve2({ status: status3, headers: res.headers, body: Buffer.concat(chunks2) }));
      res.on("error", (err) => reject(networkError(err, deadline, timeoutMs)));
    });
    req.on("error", (err) => reject(err instanceof OutboundError ? err : networkError(err, deadline, timeoutMs)));
  });
}
var tooLarge = (maxBytes) => new OutboundError("too_large", `the answer is larger than ${maxBytes} bytes`);
function networkError(err, deadline, timeoutMs) {
  if (deadline.aborted) return new OutboundError("timeout", `no complete answer within ${timeoutMs} ms`);
  return new OutboundError("network", `could not fetch: ${err.code ?? err.message}`);
}
function aborted(signal, timeoutMs) {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(new OutboundError("timeout", `no complete answer within ${timeoutMs} ms`)), { once: true });
  });
}

// src/lib/ssrf/index.ts
function outboundAppError(err, field) {
  if (!(err instanceof OutboundError)) return err;
  if (["invalid_url", "scheme", "credentials", "address"].includes(err.reason)) return new AppError(400, "URL_NOT_ALLOWED", `${field}: ${err.message}`, field);
  return new AppError(502, "UPSTREAM_ERROR", err.message);
}

// src/modules/catalogue/m3u.ts
import { Worker } from "node:worker_threads";
var MAX_ENTRIES = 1e5;
var DEFAULT_CATEGORY = "Uncategorized";
var PARSE_TIMEOUT_MS = 2e4;
var SOURCE_SCHEMES = /* @__PURE__ */ new Set(["http:", "https:", "rtmp:", "rtmps:", "rtsp:", "udp:", "rtp:", "srt:"]);
var VIDEO_FILES = /* @__PURE__ */ new Set(["mp4", "mkv", "avi", "mov", "m4v", "wmv", "flv", "webm", "mpg", "mpeg", "3gp", "ogv", "divx", "vob"]);
var invalid2 = (field, why) => new AppError(400, "M3U_INVALID", `${field}: ${why}; nothing was imported`, field);
async function readPlaylist(raw2, field) {
  if (raw2.includes("\0")) throw invalid2(field, "not a text playlist");
  const text3 = raw2.replace(/^\uFEFF/, "");
  let start = 0;
  let offset = 0;
  for (let nl = text3.indexOf("\n"); nl !== -1 && text3.slice(start, nl).trim() === ""; nl = text3.indexOf("\n", start)) {
    start = nl + 1;
    offset++;
  }
  const body = text3.slice(start);
  if (!body.startsWith("#EXTM3U")) throw invalid2(field, "an M3U playlist starts with #EXTM3U");
  const answer = await inWorker(body);
  if (!answer.ok) throw invalid2(field, answer.message);
  if (answer.entries.length + answer.orphans.length === 0) throw invalid2(field, "the playlist has no #EXTINF entries");
  if (answer.entries.length > MAX_ENTRIES) throw invalid2(field, `more than ${MAX_ENTRIES} entries`);
  return { parsed: answer.entries, orphans: answer.orphans, offset };
}
function inWorker(text3) {
  return new Promise((resolve2, reject) => {
    const worker2 = new Worker(new URL("./m3u-worker.mjs", import.meta.url), { workerData: text3, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    let settled = false;
    const settle = (done) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
      void worker2.terminate();
    };
    const timer = setTimeout(() => settle(() => resolve2({ ok: false, message: `could not be read within ${PARSE_TIMEOUT_MS / 1e3} s` })), PARSE_TIMEOUT_MS);
    worker2.once("message", (answer) => settle(() => resolve2(answer)));
    worker2.once(
      "error",
      (err) => settle(() => err.code === "ERR_WORKER_OUT_OF_MEMORY" ? resolve2({ ok: false, message: "too large to read" }) : reject(err))
    );
    worker2.once("exit", (code) => settle(() => reject(new Error(`the playlist parser stopped (exit code ${code})`))));
  });
}
var extOf = (pathname) => /\.([a-z0-9]{1,10})$/i.exec(pathname)?.[1].toLowerCase() ?? "";
function kindOf(url) {
  const path5 = url.pathname.toLowerCase();
  if (path5.includes("/series/")) return "series";
  if (path5.includes("/movie/")) return "movie";
  if (path5.includes("/live/")) return "live";
  return VIDEO_FILES.has(extOf(path5)) ? "movie" : "live";
}
function httpUrl(raw2, max) {
  try {
    const url = new URL(raw2.trim());
    return (url.protocol === "http:" || url.protocol === "https:") && url.href.length <= max ? url.href : null;
  } catch {
    return null;
  }
}
function toEntries(read2, kind) {
  const skipped = read2.orphans.map((line) => ({ line: line + read2.offset, name: "", reason: "no stream URL after this #EXTINF" }));
  const entries = [];
  const seen = /* @__PURE__ */ new Map();
  for (const p of read2.parsed) {
    const line = p.line + read2.offset;
    const name = (p.name.trim() || p.tvgName.trim()).slice(0, 300);
    const skip = (reason) => skipped.push({ line, name, reason });
    if (!name) {
      skip("no name");
      continue;
    }
    let url;
    try {
      url = new URL(p.url.trim());
    } catch {
      skip(p.url.trim() ? "the stream URL is not a valid URL" : "no stream URL");
      continue;
    }
    if (!SOURCE_SCHEMES.has(url.protocol)) {
      skip(`unsupported stream URL scheme ${url.protocol}`);
      continue;
    }
    if (url.href.length > 2048) {
      skip("the stream URL is longer than 2048 characters");
      continue;
    }
    const first = seen.get(url.href);
    if (first !== void 0) {
      skip(`same stream URL as line ${first}`);
      continue;
    }
    seen.set(url.href, line);
    const entryKind = kind ?? kindOf(url);
    const ext = extOf(url.pathname) || (entryKind === "live" ? "ts" : "mp4");
    entries.push({
      line,
      name,
      kind: entryKind,
      group: p.group.trim().slice(0, 200) || DEFAULT_CATEGORY,
      sourceUrl: url.href,
      icon: httpUrl(p.logo, 1e3),
      epgId: p.tvgId.trim().slice(0, 200) || null,
      ext
    });
  }
  skipped.sort((a, b) => a.line - b.line);
  return { entries, skipped };
}

// src/modules/catalogue/import.ts
var SKIPS_SHOWN = 1e3;
var FETCH_TIMEOUT_MS = 3e4;
async function importCatalogue(deps2, actor, input) {
  if (input.m3u === void 0 === (input.url === void 0)) throw validation("m3u", "send either m3u (the playlist text) or url");
  const field = input.m3u !== void 0 ? "m3u" : "url";
  const text3 = input.m3u ?? await fetchPlaylist(deps2, input.url);
  const { entries, skipped } = toEntries(await readPlaylist(text3, field), input.kind);
  if (entries.length === 0) {
    const first = skipped[0];
    throw new AppError(400, "M3U_INVALID", `${field}: no entry can be imported (line ${first.line}: ${first.reason}); nothing was imported`, field);
  }
  const counts = await withTx(deps2.database, async (trx) => {
    const stored = await store(trx, entries, Math.floor(Date.now() / 1e3));
    const value = `${field === "url" ? new URL(input.url).host : "file"}: +${stored.added} ~${stored.updated} =${stored.unchanged} skipped ${skipped.length}`;
    await writeLog(trx, { type_log: "admin", action: "catalogue_import", actor_id: actor.id, reseller_id: actor.id, value, value_int: entries.length });
    return stored;
  });
  return { ...counts, skipped: skipped.slice(0, SKIPS_SHOWN), skipped_total: skipped.length };
}
async function fetchPlaylist({ config: config2 }, url) {
  try {
    const res = await safeFetch(url, { timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_PLAYLIST_BYTES, allow: config2.outboundAllowNetworks });
    return res.body.toString("utf8");
  } catch (err) {
    throw outboundAppError(err, "url");
  }
}
var categoryKey = (kind, name) => `${kind}\0${name}`;
async function store(trx, entries, now5) {
  const wanted = new Map(entries.map((e) => [categoryKey(e.kind, e.group), { kind: e.kind, name: e.group }]));
  const categories_added = await addCategories(trx, [...wanted.values()], now5);
  const categoryOf = /* @__PURE__ */ new Map();
  for (const kind of ["live", "movie", "series"]) {
    const names = [...wanted.values()].filter((c) => c.kind === kind).map((c) => c.name);
    for (const c of await categoryIds(trx, kind, names)) categoryOf.set(categoryKey(kind, c.name), c.id);
  }
  const existing = new Map((await streamsBySource(trx, entries.map((e) => e.sourceUrl))).map((s) => [s.source_url, s]));
  const writes = [];
  let added = 0;
  let updated = 0;
  for (const e of entries) {
    const values = {
      source_url: e.sourceUrl,
      kind: e.kind,
      name: e.name,
      category_id: categoryOf.get(categoryKey(e.kind, e.group)),
      icon: e.icon,
      epg_id: e.epgId,
      container_ext: e.ext,
      added: now5
    };
    const old = existing.get(e.sourceUrl);
    if (!old) added++;
    else if (changed2(old, values)) updated++;
    else continue;
    writes.push(values);
  }
  await upsertStreams(trx, writes);
  return { added, updated, unchanged: entries.length - added - updated, categories_added };
}
var FIELDS = ["kind", "name", "category_id", "icon", "epg_id", "container_ext"];
var changed2 = (old, next) => FIELDS.some((f) => old[f] !== next[f]);

// src/modules/catalogue/service.ts
var ORDER_FIELDS6 = { id: "s.id", name: "s.name", added: "s.added", kind: "s.kind", category_id: "s.category_id" };
var DEFAULT_ORDER6 = { column: "s.id", direction: "asc" };
var n = (v) => Number(v ?? 0);
async function categories({ database: database2 }, kind) {
  const rows = await listCategories(database2.db, kind);
  return { data: rows.map((r) => ({ ...r, streams_count: n(r.streams_count) })) };
}
async function streams({ database: database2 }, query) {
  const q = { ...query, ids: query.ids?.split(",").map(Number) };
  const res = await pageStreams(database2.db, q, { page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS6, DEFAULT_ORDER6) });
  return { ...res, data: res.data.map((r) => ({ ...r, added: n(r.added), rating: r.rating === null ? null : Number(r.rating) })) };
}
async function latest2({ database: database2 }, type) {
  const rows = await latest(database2.db, type, 10);
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      added: n(r.added),
      category_name: r.category_name,
      stream_icon: type === "movie" ? r.icon : null,
      cover: type === "series" ? r.icon : null
    }))
  };
}

// src/modules/catalogue/routes.ts
function catalogueRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["catalogue"];
  const config2 = { roles: ["admin"] };
  r.post(
    "/admin/catalogue/import",
    // the playlist text travels in the body: 20,000 entries are ~4 MB
    { config: config2, bodyLimit: MAX_PLAYLIST_BYTES + 64 * 1024, schema: { tags: tags2, errors: { 400: ["M3U_INVALID", "URL_NOT_ALLOWED"], 502: ["UPSTREAM_ERROR"] }, body: ImportBody, response: { 200: ImportResult } } },
    (req) => importCatalogue(deps2, req.user, req.body)
  );
  r.get(
    "/admin/categories",
    { config: config2, schema: { tags: tags2, querystring: CategoriesQuery, response: { 200: Type9.Object({ data: Type9.Array(CategoryOut) }) } } },
    (req) => categories(deps2, req.query.kind)
  );
  r.get("/admin/streams", { config: config2, schema: { tags: tags2, querystring: StreamsQuery, response: { 200: Paged(StreamOut) } } }, (req) => streams(deps2, req.query));
  r.get(
    "/vods/latest",
    { schema: { tags: tags2, querystring: LatestQuery, response: { 200: Type9.Object({ data: Type9.Array(LatestItem) }) } } },
    (req) => latest2(deps2, req.query.type)
  );
}

// src/modules/complements/routes.ts
import { Type as Type10 } from "typebox";

// src/modules/resellers/groups.ts
var listGroups2 = ({ database: database2 }) => listGroups(database2.db);

// src/modules/complements/service.ts
async function complements(deps2) {
  const [groups, settings, packageRows, bouquetRows] = await Promise.all([listGroups2(deps2), allSettings(deps2.database.db), all(deps2), list2(deps2)]);
  return { groups, settings, packages: packageRows, bouquets: bouquetRows, server_time: Math.floor(Date.now() / 1e3), public_url: deps2.config.publicUrl ?? null };
}

// src/modules/complements/routes.ts
var Complements = Type10.Object({
  groups: Type10.Array(Type10.Object({ group_id: Type10.Integer(), group_name: Type10.String(), type: Type10.String() }, { title: "ResellerGroup" })),
  settings: Type10.Record(Type10.String(), Type10.String()),
  packages: Type10.Array(PackageOut),
  bouquets: Type10.Array(Bouquet),
  server_time: Type10.Integer(),
  /** PUBLIC_URL; with it and main_domain both unset, links use the address the panel is reached at */
  public_url: Type10.Union([Type10.String(), Type10.Null()])
}, { title: "Complements" });
function complementRoutes(app2, deps2) {
  app2.get("/datacomplements", { schema: { tags: ["general"], response: { 200: Complements } } }, () => complements(deps2));
}

// src/modules/connections/routes.ts
import { Type as Type12 } from "typebox";

// src/modules/lines/schemas.ts
import { Type as Type11 } from "typebox";
var Credential = Type11.String({ maxLength: 50, pattern: "^[A-Za-z0-9_.@-]*$" });
var Whatsapp = Type11.String({ maxLength: 20, pattern: "^[0-9+() -]*$" });
var Notes = Type11.String({ maxLength: 500 });
var Bouquet2 = Type11.Array(Type11.String({ maxLength: 12 }), { maxItems: 500 });
var PackageId = Type11.Integer({ minimum: 1, maximum: 2147483647 });
var LineRow = Type11.Object({
  id: Type11.Integer(),
  username: Type11.String(),
  password: Type11.String(),
  created_at: Type11.Integer(),
  exp_date: Type11.Integer(),
  master_username: Nullable(Type11.String()),
  member_id: Type11.Integer(),
  reseller_notes: Nullable(Type11.String()),
  whatsapp: Nullable(Type11.String()),
  max_connections: Type11.Integer(),
  enabled: Type11.Integer(),
  is_trial: Type11.Integer(),
  system: Type11.Integer(),
  package_id: Nullable(Type11.Integer()),
  bouquet: Type11.Array(Type11.String()),
  last_extended_at: Nullable(Type11.Integer()),
  /** P2P lines (system 2/3, or just left it): delivery state on the P2P server; null when never P2P */
  sync_state: Nullable(SyncState),
  sync_error: Nullable(Type11.String())
}, { title: "Line" });
var ListQuery = Type11.Object({
  ...PageQuery,
  id: Type11.Optional(Type11.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type11.Optional(Type11.String({ maxLength: 50 })),
  text_search: Type11.Optional(Type11.String({ maxLength: 100 })),
  reseller: Type11.Optional(Type11.String({ maxLength: 50 })),
  created: Type11.Optional(Type11.String({ maxLength: 30 })),
  tz_offset: Type11.Optional(Type11.Integer({ minimum: -840, maximum: 840 })),
  type_user: Type11.Optional(Type11.Union([Type11.Literal("normal"), Type11.Literal("trial")])),
  status: Type11.Optional(Type11.Integer({ enum: [0, 1, 3, 4] }))
});
var CreateBody = Type11.Object({
  username: Type11.Optional(Credential),
  password: Type11.Optional(Credential),
  package_id: PackageId,
  max_connections: Type11.Optional(Type11.Integer({ minimum: 1, maximum: 100 })),
  whatsapp: Type11.Optional(Whatsapp),
  reseller_notes: Type11.Optional(Notes),
  bouquet: Type11.Optional(Bouquet2)
});
var TrialBody = Type11.Object({
  username: Type11.Optional(Credential),
  password: Type11.Optional(Credential),
  package_id: PackageId,
  whatsapp: Type11.Optional(Whatsapp),
  reseller_notes: Type11.Optional(Notes)
});
var UpdateBody2 = Type11.Object({
  password: Type11.Optional(Credential),
  whatsapp: Type11.Optional(Whatsapp),
  reseller_notes: Type11.Optional(Notes),
  bouquet: Type11.Optional(Bouquet2)
});
var RenewBody = Type11.Object({
  package_id: Type11.Optional(PackageId),
  months: Type11.Optional(Type11.Literal(1)),
  mounth: Type11.Optional(Type11.Literal(1))
});
var ExtendBody = Type11.Object({ days: Type11.Integer({ minimum: -1e3, maximum: 1e3 }) });
var ScreensBody = Type11.Object({ amount: Type11.Integer({ minimum: -100, maximum: 100 }) });
var SystemBody = Type11.Object({ system_id: Type11.Integer({ enum: [1, 2, 3] }) });
var SearchBody = Type11.Object({ search: Type11.String({ maxLength: 50, pattern: "^\\w*$" }) });
var ExpiringQuery = Type11.Object({
  page: PageQuery.page,
  per: PageQuery.per,
  order: Type11.Optional(Type11.Union([Type11.Literal("asc"), Type11.Literal("desc")]))
});

// src/modules/connections/service.ts
var nowSec3 = () => Math.floor(Date.now() / 1e3);
var ORDER_FIELDS7 = { activity_id: "a.activity_id", username: "ln.username", date_start: "a.date_start", master_username: "o.username", created_at: "ln.created_at" };
var DEFAULT_ORDER7 = { column: "a.activity_id", direction: "desc" };
var SEEN_RESOLUTION2 = 10;
var FLUSH_MS = 5e3;
var PRUNE_CHANCE2 = 0.01;
var PRUNE_AFTER_SECONDS = 86400;
async function list7(deps2, actor, q) {
  const order = parseOrder(q.order_by, ORDER_FIELDS7, DEFAULT_ORDER7);
  const { createdAt, resellerId } = await resolveFilters(deps2, actor, q, false);
  const now5 = nowSec3();
  const since = now5 - deps2.config.onlineWindowSeconds;
  const res = await pageConnections(deps2.database.db, actor, q, { now: now5, since, createdAt, resellerId }, { page: q.page, per: q.per, order });
  return {
    ...res,
    data: res.data.map((r) => ({ ...r, user_id: r.id, watching: r.stream_display_name, server_time: now5, elapsed: Math.max(0, now5 - Number(r.date_start)) }))
  };
}
async function disconnect(deps2, actor, lineId, activityId) {
  const now5 = nowSec3();
  return withTx(deps2.database, async (trx) => {
    const found = await findVisibleConnection(trx, actor, lineId, activityId, now5 - deps2.config.onlineWindowSeconds);
    if (!found || !await end(trx, activityId, now5, now5 + deps2.config.disconnectBanSeconds)) throw notFound("Connection");
    await writeLog(trx, { type_log: "user", action: "user_disconnect", actor_id: actor.id, reseller_id: found.member_id, target_user: found.username, value_int: activityId });
    return { message: "user disconnected successfully" };
  });
}
async function admit(deps2, a) {
  const { config: config2, database: database2 } = deps2;
  const now5 = nowSec3();
  const since = now5 - config2.onlineWindowSeconds;
  const key = { lineId: a.lineId, streamId: a.streamId, ip: a.ip, userAgent: a.userAgent };
  const isOpen = (row) => row !== void 0 && row.ended_at === null && row.last_seen > since;
  const seen = await findConnection(database2.db, key);
  if (isOpen(seen) && seen) {
    if (now5 - seen.last_seen >= SEEN_RESOLUTION2) seenLater(deps2, seen.activity_id, now5, a.serverId);
    return "allowed";
  }
  if (seen?.banned_until && seen.banned_until > now5) return "disconnected";
  const result = await withTx(database2, async (trx) => {
    await lockLineRow(trx, database2.dialect, a.lineId);
    const row = await findConnection(trx, key);
    if (!isOpen(row) && await clientBanned(trx, key, now5)) return "disconnected";
    if (!isOpen(row)) await endClientsOtherStreams(trx, key, now5);
    if (!isOpen(row) && await countOnline(trx, a.lineId, since) >= a.maxConnections) {
      if ((await allSettings(trx)).max_connections_policy !== "drop_oldest") return "limit";
      const oldest = await oldestOnline(trx, a.lineId, since);
      if (oldest) await end(trx, oldest.activity_id, now5, now5 + config2.disconnectBanSeconds);
    }
    await open(trx, key, now5, a.serverId);
    return "allowed";
  });
  if (Math.random() < PRUNE_CHANCE2) await prune(database2.db, now5 - PRUNE_AFTER_SECONDS, now5);
  return result;
}
var pendingSeen = /* @__PURE__ */ new WeakMap();
function seenLater(deps2, activityId, at, serverId) {
  let pending = pendingSeen.get(deps2.database);
  if (!pending) {
    pending = /* @__PURE__ */ new Map();
    pendingSeen.set(deps2.database, pending);
  }
  const first = pending.size === 0;
  pending.set(activityId, { at, serverId });
  if (first) setTimeout(() => void flushSeen(deps2).catch(() => {
  }), FLUSH_MS).unref();
}
async function flushSeen(deps2) {
  const pending = pendingSeen.get(deps2.database);
  if (!pending?.size) return;
  const batch = [...pending];
  pending.clear();
  await withTx(deps2.database, async (trx) => {
    for (const [id, seen] of batch) await touch(trx, id, seen.at, seen.serverId);
  });
}
var onlineCount = ({ config: config2, database: database2 }, lineId) => countOnline(database2.db, lineId, nowSec3() - config2.onlineWindowSeconds);

// src/modules/connections/routes.ts
var { username, reseller, created, tz_offset, type_user, status: status2 } = ListQuery.properties;
var ConnectionsQuery = Type12.Object({ ...PageQuery, username, reseller, created, tz_offset, type_user, status: status2 });
var Connection = Type12.Object({
  activity_id: Type12.Integer(),
  id: Type12.Integer(),
  user_id: Type12.Integer(),
  username: Type12.String(),
  is_trial: Type12.Integer(),
  created_at: Type12.Integer(),
  master_username: Nullable(Type12.String()),
  stream_id: Nullable(Type12.Integer()),
  watching: Nullable(Type12.String()),
  stream_display_name: Nullable(Type12.String()),
  server_name: Nullable(Type12.String()),
  user_ip: Type12.String(),
  user_agent: Type12.String(),
  date_start: Type12.Integer(),
  last_seen: Type12.Integer(),
  server_time: Type12.Integer(),
  /** seconds since date_start */
  elapsed: Type12.Integer()
});
var Id2 = Type12.Integer({ minimum: 1, maximum: 2147483647 });
var DisconnectParams = Type12.Object({ line_id: Id2, activity_id: Type12.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
function connectionRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["users"];
  r.get(
    "/users/connections",
    { schema: { tags: tags2, querystring: ConnectionsQuery, response: { 200: Paged(Connection) } } },
    (req) => list7(deps2, req.user, req.query)
  );
  r.post(
    "/users/connections/:line_id/:activity_id/disconnect",
    { schema: { tags: tags2, params: DisconnectParams, errors: { 404: ["NOT_FOUND"] }, response: { 200: Type12.Object({ message: Type12.String() }) } } },
    (req) => disconnect(deps2, req.user, req.params.line_id, req.params.activity_id)
  );
}

// src/modules/dashboard/routes.ts
import { Type as Type13 } from "typebox";

// src/modules/dashboard/service.ts
var n2 = (v) => Number(v ?? 0);
async function counters({ database: database2 }, actor) {
  const db = database2.db;
  const now5 = Math.floor(Date.now() / 1e3);
  const [lines, res, users] = await Promise.all([lineCounts(db, actor, now5, now5 - 7 * 86400), resellerCount(db, actor), countVisibleLines(db, actor)]);
  return {
    resellers: n2(res?.n),
    users,
    users_active: n2(lines?.users_active),
    users_activep2p: n2(lines?.users_activep2p),
    users_activehttp: n2(lines?.users_activehttp),
    users_new: n2(lines?.users_new),
    users_trial: n2(lines?.users_trial),
    users_trialp2p: n2(lines?.users_trialp2p)
  };
}
async function online3({ config: config2, database: database2 }, actor) {
  const on = await onlineCounts(database2.db, actor, Math.floor(Date.now() / 1e3) - config2.onlineWindowSeconds);
  return { users_online_of_resellers: n2(on?.users_online_of_resellers), users_online: n2(on?.users_online), conections_online: n2(on?.connections) };
}
async function activity({ database: database2 }, actor, tzOffsetMinutes, days = 30) {
  const db = database2.db;
  const offset = tzOffsetMinutes * 60;
  const now5 = Math.floor(Date.now() / 1e3);
  const today = Math.floor((now5 + offset) / 86400);
  const perDay = { dialect: database2.dialect, offset, since: (today - days + 1) * 86400 - offset };
  const [lines, credits] = await Promise.all([newLinesPerDay(db, actor, perDay), creditsSpentPerDay(db, actor, perDay)]);
  const byDay = (rows) => new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  const l = byDay(lines);
  const c = byDay(credits);
  return {
    data: Array.from({ length: days }, (_, i) => {
      const d = today - days + 1 + i;
      return { date: new Date(d * 864e5).toISOString().slice(0, 10), new_lines: l.get(d) ?? 0, credits_spent: c.get(d) ?? 0 };
    })
  };
}

// src/modules/dashboard/routes.ts
var Counter = Type13.Integer();
var Dashboard = Type13.Object({
  resellers: Counter,
  users: Counter,
  users_active: Counter,
  users_activep2p: Counter,
  users_activehttp: Counter,
  users_online_of_resellers: Counter,
  users_online: Counter,
  conections_online: Counter,
  users_new: Counter,
  users_trial: Counter,
  users_trialp2p: Counter,
  computed_at: Type13.Integer()
}, { title: "Dashboard" });
var ActivityDay = Type13.Object(
  { date: Type13.String({ description: "YYYY-MM-DD in the caller's time zone" }), new_lines: Type13.Integer(), credits_spent: Type13.Integer() },
  { title: "ActivityDay" }
);
function dashboardRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["dashboard"];
  r.get("/dashboard", { schema: { tags: tags2, response: { 200: Dashboard } } }, async (req) => {
    const [lines, online4] = await Promise.all([cached(deps2, req.user.id, () => counters(deps2, req.user)), online3(deps2, req.user)]);
    return { ...lines, ...online4 };
  });
  r.get(
    "/dashboard/activity",
    {
      schema: {
        tags: tags2,
        querystring: Type13.Object({ tz_offset: Type13.Optional(Type13.Integer({ minimum: -840, maximum: 840, default: 0 })) }),
        response: {
          200: Type13.Object({ data: Type13.Array(ActivityDay) })
        }
      }
    },
    (req) => activity(deps2, req.user, req.query.tz_offset ?? 0)
  );
}

// src/modules/exports/routes.ts
import { Type as Type16 } from "typebox";

// src/modules/logs/routes.ts
import { Type as Type14 } from "typebox";
var LogRow = Type14.Object({
  id: Type14.Integer(),
  type_log: Type14.String(),
  action: Type14.String(),
  user: Nullable(Type14.String()),
  reseller: Nullable(Type14.String()),
  toreseller: Nullable(Type14.String()),
  target_user: Nullable(Type14.String()),
  value: Nullable(Type14.String()),
  value_int: Nullable(Type14.Integer()),
  created_at: Type14.Integer()
}, { title: "LogEntry" });
var LogFilters = {
  type: Type14.Optional(Type14.String({ maxLength: 30 })),
  actions: Type14.Optional(Type14.String({ maxLength: 1e3 })),
  reseller: Type14.Optional(Type14.Integer({ minimum: 1, maximum: 2147483647 })),
  toreseller: Type14.Optional(Type14.Integer({ minimum: 1, maximum: 2147483647 })),
  user: Type14.Optional(Type14.String({ maxLength: 50 })),
  dates: Type14.Optional(Type14.String({ maxLength: 40 }))
};
function logRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["logs"];
  r.get(
    "/logs",
    {
      schema: {
        tags: tags2,
        querystring: Type14.Object({ ...PageQuery, ...LogFilters }),
        response: { 200: Paged(LogRow) }
      }
    },
    async (req) => list6(deps2, req.user, req.query)
  );
  r.get(
    "/logs/getoptions",
    { schema: { tags: tags2, response: { 200: Type14.Object({ types: Type14.Array(Type14.String()), actions: Type14.Array(Type14.String()) }) } } },
    async () => options()
  );
}

// src/modules/resellers/schemas.ts
import { Type as Type15 } from "typebox";
var Username = Type15.String({ minLength: 3, maxLength: 50, pattern: "^[A-Za-z0-9_.@-]+$" });
var Password = Type15.String({ minLength: 8, maxLength: 128 });
var Text = (max) => Type15.String({ maxLength: max });
var ResellerRow = Type15.Object({
  id: Type15.Integer(),
  username: Type15.String(),
  credits: Type15.Integer(),
  master_username: Nullable(Type15.String()),
  owner_id: Nullable(Type15.Integer()),
  last_login: Nullable(Type15.Integer()),
  group_name: Type15.String(),
  group_type: Type15.String(),
  member_group_id: Type15.Integer(),
  sub_resellers_count: Type15.Integer(),
  clients_count: Type15.Integer(),
  status: Type15.Integer()
}, { title: "Reseller" });
var ResellerDetail = Type15.Object({
  ...ResellerRow.properties,
  email: Nullable(Type15.String()),
  whatsapp: Nullable(Type15.String()),
  telegram: Nullable(Type15.String()),
  notes: Nullable(Type15.String())
}, { title: "ResellerDetail" });
var ListQuery2 = Type15.Object({
  ...PageQuery,
  id: Type15.Optional(Type15.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type15.Optional(Text(50)),
  reseller: Type15.Optional(Text(50)),
  group: Type15.Optional(Type15.Integer({ minimum: 1, maximum: 2147483647 })),
  status: Type15.Optional(Type15.Integer({ minimum: 0, maximum: 1 }))
});
var CreateBody2 = Type15.Object({
  username: Username,
  password: Password,
  member_group_id: Type15.Integer({ minimum: 1, maximum: 2147483647 }),
  email: Type15.Optional(Type15.Union([Type15.String({ maxLength: 255, format: "email" }), Type15.Literal("")])),
  credits: Type15.Optional(Type15.Integer({ minimum: 0, maximum: 1e6 })),
  whatsapp: Type15.Optional(Type15.String({ maxLength: 30, pattern: "^[0-9+() -]*$" })),
  telegram: Type15.Optional(Text(100)),
  notes: Type15.Optional(Text(1e3))
});
var UpdateBody3 = Type15.Object({
  username: Type15.Optional(Username),
  password: Type15.Optional(Type15.Union([Password, Type15.Literal("")])),
  email: CreateBody2.properties.email,
  whatsapp: CreateBody2.properties.whatsapp,
  telegram: CreateBody2.properties.telegram,
  notes: CreateBody2.properties.notes
});
var CreditsBody = Type15.Object({ value: Type15.Integer({ minimum: -1e6, maximum: 1e6 }) });
var DeleteBody = Type15.Object({
  reseller_id: Type15.Optional(Type15.Integer({ minimum: 1, maximum: 2147483647 })),
  type: Type15.Literal("transferall"),
  target_id: Type15.Integer({ minimum: 1, maximum: 2147483647 })
});
var SearchBody2 = Type15.Object({ search: Type15.String({ maxLength: 50, pattern: "^\\w*$" }) });
var DomainBody = Type15.Object({
  dns_reseller: Type15.String({ maxLength: 255 }),
  username: Type15.Optional(Text(50)),
  token_id: Type15.Optional(Text(100)),
  owner: Type15.Optional(Type15.Union([Text(50), Type15.Integer(), Type15.Null()]))
});
var LedgerRow = Type15.Object({
  id: Type15.Integer(),
  delta: Type15.Integer(),
  balance_after: Type15.Integer(),
  reason: Type15.String(),
  line_id: Nullable(Type15.Integer()),
  /** the P2P account a P2P charge paid for */
  p2p_account_id: Nullable(Type15.Integer()),
  created_at: Type15.Integer(),
  counterparty: Nullable(Type15.String()),
  actor: Nullable(Type15.String())
}, { title: "LedgerEntry" });
var DomainRow = Type15.Object({
  id: Nullable(Type15.Integer()),
  dns_reseller: Nullable(Type15.String()),
  token_id: Nullable(Type15.String()),
  created_at: Nullable(Type15.Integer()),
  username: Type15.String(),
  owner: Nullable(Type15.String())
}, { title: "Domain" });
var StrengthBody = Type15.Object({
  password: Type15.String({ maxLength: 128 }),
  /** username, e-mail, WhatsApp, Telegram: a password built on them is weak */
  user_inputs: Type15.Optional(Type15.Array(Type15.String({ maxLength: 255 }), { maxItems: 6 })),
  lang: Type15.Optional(Type15.Union([Type15.Literal("pt-BR"), Type15.Literal("en-US")]))
});
var StrengthAnswer = Type15.Object({
  score: Type15.Integer({ minimum: 0, maximum: 4 }),
  ok: Type15.Boolean(),
  warning: Type15.Union([Type15.String(), Type15.Null()])
}, { title: "PasswordStrength" });
var DeactivateResult = Type15.Object(
  { id: Type15.Integer(), target_id: Type15.Integer(), credits_moved: Type15.Integer(), sub_resellers_moved: Type15.Integer(), clients_moved: Type15.Integer() },
  { title: "DeactivateResult" }
);

// src/modules/exports/routes.ts
var FileParams = {
  lang: Type16.Optional(Type16.Union([Type16.Literal("pt-BR"), Type16.Literal("en-US")])),
  /** minutes east of UTC: dates are written in the caller's time zone */
  tz_offset: Type16.Optional(Type16.Integer({ minimum: -840, maximum: 840 })),
  /** from POST /api/exports/token, for a browser download without the Authorization header */
  download_token: Type16.Optional(Type16.String({ maxLength: 200 }))
};
function filtersOf(props) {
  const { page: _p, per: _n, order_by: _o, ...filters2 } = props;
  return Type16.Object({ ...filters2, ...FileParams });
}
var LineExportQuery = filtersOf(ListQuery.properties);
var ResellerExportQuery = filtersOf(ListQuery2.properties);
var LogExportQuery = Type16.Object({ ...LogFilters, ...FileParams });
var file2 = (format) => ({
  produces: [CONTENT_TYPES[format]],
  response: { 200: Type16.String({ format: "binary", description: `the ${format.toUpperCase()} file, every matching row` }) }
});
async function send(reply, file3) {
  const { filename, contentType, stream } = await file3;
  return reply.header("Content-Type", contentType).header("Content-Disposition", `attachment; filename="${filename}"`).header("Cache-Control", "no-store").send(stream);
}
function exportRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["exports"];
  const anyone = { downloadable: true };
  const managers = { downloadable: true, roles: ["admin", "master"] };
  const opts = (q, format) => ({ format, lang: q.lang, tz_offset: q.tz_offset });
  for (const format of ["csv", "xlsx"]) {
    r.get(
      `/users/export.${format}`,
      { config: anyone, schema: { tags: tags2, querystring: LineExportQuery, ...file2(format) } },
      (req, reply) => send(reply, exportLines(deps2, req.user, req.query, opts(req.query, format)))
    );
  }
  r.get(
    "/resellers/export.csv",
    { config: managers, schema: { tags: tags2, querystring: ResellerExportQuery, ...file2("csv") } },
    (req, reply) => send(reply, exportResellers(deps2, req.user, req.query, opts(req.query, "csv")))
  );
  r.get(
    "/resellers/:id/ledger/export.csv",
    { config: anyone, schema: { tags: tags2, params: IdParams, querystring: Type16.Object(FileParams), ...file2("csv") } },
    (req, reply) => send(reply, exportLedger(deps2, req.user, req.params.id, opts(req.query, "csv")))
  );
  r.get(
    "/logs/export.csv",
    { config: anyone, schema: { tags: tags2, querystring: LogExportQuery, ...file2("csv") } },
    (req, reply) => send(reply, exportLogs(deps2, req.user, req.query, opts(req.query, "csv")))
  );
  r.post(
    "/exports/token",
    {
      schema: {
        tags: tags2,
        body: Type16.Object({ path: Type16.String({ minLength: 1, maxLength: 2e3 }) }),
        response: { 201: Type16.Object({ url: Type16.String(), expires_at: Type16.Integer() }, { title: "DownloadLink" }) }
      }
    },
    async (req, reply) => reply.status(201).send(await downloadLink(deps2, req.user, req.body.path))
  );
}

// src/modules/gateway/routes.ts
import { Type as Type17 } from "typebox";

// src/modules/gateway/service.ts
import { isIP as isIP3 } from "node:net";

// src/modules/domains/service.ts
import { randomBytes as randomBytes4 } from "node:crypto";

// src/modules/domains/repo.ts
var COLUMNS3 = ["id", "dns_reseller", "token_id", "created_at"];
var listDomains = (db, resellerId) => db.selectFrom("reseller_domains").select(COLUMNS3).where("reseller_id", "=", resellerId).orderBy("id").execute();
var insertDomain = (db, values) => db.insertInto("reseller_domains").values(values).returning(COLUMNS3).executeTakeFirstOrThrow();
async function deleteDomains(db, resellerId) {
  await db.deleteFrom("reseller_domains").where("reseller_id", "=", resellerId).execute();
}
async function newestDomain(db, resellerId) {
  const row = await db.selectFrom("reseller_domains").select("dns_reseller").where("reseller_id", "=", resellerId).orderBy("id", "desc").executeTakeFirst();
  return row?.dns_reseller;
}

// src/modules/domains/service.ts
var HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
function normaliseDomain(raw2) {
  const text3 = raw2.trim();
  if (/^https?:\/\//i.test(text3)) {
    let url;
    try {
      url = new URL(text3);
    } catch {
      throw validation("dns_reseller", "must be a host name or an http(s) URL");
    }
    if (!HOST.test(url.hostname) || url.username || url.password) throw validation("dns_reseller", "must be a host name or an http(s) URL");
    const origin = `${url.protocol}//${url.host}`;
    if (origin.length > 255) throw validation("dns_reseller", "is too long");
    return origin;
  }
  if (!HOST.test(text3)) throw validation("dns_reseller", "must be a host name or an http(s) URL");
  return text3.toLowerCase();
}
async function visibleOr404(deps2, actor, id) {
  const row = await findVisibleReseller(deps2.database.db, actor, id, true);
  if (!row) throw notFound("Reseller");
  return row;
}
async function list8(deps2, actor, resellerId) {
  const owner = await visibleOr404(deps2, actor, resellerId);
  const rows = await listDomains(deps2.database.db, resellerId);
  return { data: rows.map((r) => ({ ...r, username: owner.username, owner: owner.master_username })) };
}
async function add(deps2, actor, resellerId, dns) {
  const owner = actor.type === "reseller" ? void 0 : await findVisibleReseller(deps2.database.db, actor, resellerId, false);
  if (!owner) throw notFound("Reseller");
  if (dns.trim() === "" || dns.trim().toUpperCase() === "NULL") return clear(deps2, actor, resellerId, owner);
  const dns_reseller = normaliseDomain(dns);
  return withTx(deps2.database, async (trx) => {
    const row = await insertDomain(trx, {
      reseller_id: resellerId,
      dns_reseller,
      token_id: randomBytes4(16).toString("hex"),
      created_by: actor.id,
      created_at: Math.floor(Date.now() / 1e3)
    });
    await writeLog(trx, { type_log: "reseller", action: "domain_add", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: resellerId, value: dns_reseller });
    return { ...row, username: owner.username, owner: owner.master_username };
  });
}
async function clear(deps2, actor, resellerId, owner) {
  return withTx(deps2.database, async (trx) => {
    await deleteDomains(trx, resellerId);
    await writeLog(trx, { type_log: "reseller", action: "domain_clear", actor_id: actor.id, reseller_id: actor.id, target_reseller_id: resellerId });
    return { id: null, dns_reseller: null, token_id: null, created_at: null, username: owner.username, owner: owner.master_username };
  });
}
var withScheme = (domain) => (/^https?:\/\//i.test(domain) ? domain : `http://${domain}`).replace(/\/+$/, "");
async function playlistBase(db, ownerId, fallback) {
  return withScheme(await newestDomain(db, ownerId) || (await allSettings(db)).main_domain.trim() || fallback);
}

// src/modules/shortlinks/service.ts
import { randomBytes as randomBytes5 } from "node:crypto";

// src/modules/shortlinks/repo.ts
import { sql as sql19 } from "kysely";
async function insertShortLink(db, values) {
  await db.insertInto("short_links").values({ ...values, hits: 0 }).execute();
}
async function findLinkWithLine(db, code) {
  return db.selectFrom("short_links as s").innerJoin("lines as l", "l.id", "s.line_id").select(["s.id", "s.type", "l.member_id", "l.username", "l.password", "l.enabled", "l.exp_date"]).where("s.code", "=", code).where("l.deleted_at", "is", null).executeTakeFirst();
}
async function countHit(db, id) {
  await db.updateTable("short_links").set((eb) => ({ hits: eb("hits", "+", 1) })).where("id", "=", id).execute();
}
async function reserveLookup(db, ip, now5, windowSeconds) {
  const row = await db.insertInto("short_link_misses").values({ ip, misses: 1, window_start: now5 }).onConflict(
    (oc) => oc.column("ip").doUpdateSet({
      misses: sql19`case when short_link_misses.window_start <= ${now5 - windowSeconds} then 1 else short_link_misses.misses + 1 end`,
      window_start: sql19`case when short_link_misses.window_start <= ${now5 - windowSeconds} then ${now5} else short_link_misses.window_start end`
    })
  ).returning(["misses", "window_start"]).executeTakeFirstOrThrow();
  return { misses: Number(row.misses), window_start: Number(row.window_start) };
}
async function releaseLookup(db, ip) {
  const gone = await db.deleteFrom("short_link_misses").where("ip", "=", ip).where("misses", "<=", 1).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) {
    await db.updateTable("short_link_misses").set((eb) => ({ misses: eb("misses", "-", 1) })).where("ip", "=", ip).execute();
  }
}
async function purgeExpiredMisses(db, before) {
  await db.deleteFrom("short_link_misses").where("window_start", "<=", before).execute();
}

// src/modules/shortlinks/service.ts
var LINK_TYPES = ["mpgets", "m3u8", "hls", "ssiptv"];
var CODE_BYTES = 12;
var CODE_PATTERN = /^[A-Za-z0-9_-]{16}$/;
var MAX_MISSES = 20;
var MISS_WINDOW_SECONDS = 600;
var nowSec4 = () => Math.floor(Date.now() / 1e3);
var panelOrigin = (config2, requestOrigin2) => (config2.publicUrl ?? requestOrigin2).replace(/\/+$/, "");
async function originalLinks(db, line, fallback) {
  const domain = await playlistBase(db, line.member_id, fallback);
  const q = `username=${encodeURIComponent(line.username)}&password=${encodeURIComponent(line.password)}`;
  return {
    mpgets: `${domain}/get.php?${q}&type=m3u_plus&output=mpegts`,
    m3u8: `${domain}/get.php?${q}&type=m3u_plus&output=m3u8`,
    hls: `${domain}/get.php?${q}&type=m3u_plus&output=hls`,
    ssiptv: `${domain}/ssiptv/${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}/playlist.m3u`
  };
}
async function linksOf({ config: config2, database: database2 }, actor, lineId, requestOrigin2) {
  const line = await findVisibleLine2(database2.db, actor, lineId);
  if (!line) throw notFound("User");
  return originalLinks(database2.db, line, panelOrigin(config2, requestOrigin2));
}
async function shorten(deps2, actor, lineId, type, origin) {
  return withTx(deps2.database, async (trx) => {
    const line = await findVisibleLine2(trx, actor, lineId);
    if (!line) throw notFound("User");
    const code = randomBytes5(CODE_BYTES).toString("base64url");
    await insertShortLink(trx, { code, line_id: line.id, type, created_by: actor.id, created_at: nowSec4() });
    await writeLog(trx, { type_log: "user", action: "user_shorturl", actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: type });
    const base2 = panelOrigin(deps2.config, origin);
    return { url: `${base2}/s/${code}`, original: (await originalLinks(trx, line, base2))[type] };
  });
}
async function resolve({ config: config2, database: database2 }, code, ip, requestOrigin2) {
  const db = database2.db;
  const now5 = nowSec4();
  const { misses, window_start } = await reserveLookup(db, clientNetwork(ip).slice(0, 64), now5, MISS_WINDOW_SECONDS);
  if (misses > MAX_MISSES) return { kind: "rate_limited", retryAfter: Math.max(1, window_start + MISS_WINDOW_SECONDS - now5) };
  const link = CODE_PATTERN.test(code) ? await findLinkWithLine(db, code) : void 0;
  if (!link) {
    await purgeExpiredMisses(db, now5 - MISS_WINDOW_SECONDS);
    return { kind: "not_found" };
  }
  await releaseLookup(db, clientNetwork(ip).slice(0, 64));
  await countHit(db, link.id);
  if (link.enabled !== 1) return { kind: "blocked" };
  if (link.exp_date <= now5) return { kind: "expired" };
  return { kind: "redirect", url: (await originalLinks(db, link, panelOrigin(config2, requestOrigin2)))[link.type] };
}

// src/modules/player/access.ts
import { createHash as createHash4, timingSafeEqual } from "node:crypto";

// src/modules/player/repo.ts
function findLineByUsername(db, username2) {
  return db.selectFrom("lines").select(["id", "member_id", "username", "password", "exp_date", "created_at", "enabled", "is_trial", "max_connections", "bouquet", "system", "deleted_at"]).where("username", "=", username2).executeTakeFirst();
}
var entitled = (bouquets) => (eb) => eb.or([
  eb.exists(eb.selectFrom("bouquet_items as bi").select("bi.bouquet_id").where("bi.bouquet_id", "in", bouquets).whereRef("bi.category_id", "=", "s.category_id")),
  eb.exists(eb.selectFrom("bouquet_items as bi").select("bi.bouquet_id").where("bi.bouquet_id", "in", bouquets).whereRef("bi.stream_id", "=", "s.id"))
]);
function categoriesFor(db, bouquets, kind) {
  const streamCategories = db.selectFrom("streams as s").select("s.category_id").where("s.id", "in", db.selectFrom("bouquet_items").select("stream_id").where("bouquet_id", "in", bouquets).where("stream_id", "is not", null));
  return db.selectFrom("categories as c").select(["c.id", "c.name"]).where("c.kind", "=", kind).where(
    (eb) => eb.or([
      eb("c.id", "in", db.selectFrom("bouquet_items").select("category_id").where("bouquet_id", "in", bouquets).where("category_id", "is not", null)),
      eb("c.id", "in", streamCategories)
    ])
  ).orderBy("c.name").orderBy("c.id").execute();
}
var STREAM_COLUMNS = ["s.id", "s.kind", "s.name", "s.category_id", "c.name as category_name", "s.icon", "s.added", "s.container_ext", "s.epg_id", "s.rating", "s.source_url"];
function streamsAfter(db, bouquets, kind, categoryId, afterId, limit) {
  let q = db.selectFrom("streams as s").innerJoin("categories as c", "c.id", "s.category_id").select(STREAM_COLUMNS).where("s.kind", "=", kind).where("s.id", ">", afterId).where(entitled(bouquets));
  if (categoryId !== void 0) q = q.where("s.category_id", "=", categoryId);
  return q.orderBy("s.id").limit(limit).execute();
}
function streamFor(db, bouquets, id, kind) {
  let q = db.selectFrom("streams as s").innerJoin("categories as c", "c.id", "s.category_id").select(STREAM_COLUMNS).where("s.id", "=", id).where(entitled(bouquets));
  if (kind) q = q.where("s.kind", "=", kind);
  return q.executeTakeFirst();
}

// src/modules/player/access.ts
function lineStatus(line, now5) {
  if (line.deleted_at !== null || line.system !== 1) return "Disabled";
  if (line.enabled !== 1) return "Banned";
  if (line.exp_date <= now5) return "Expired";
  return "Active";
}
function bouquetIds(line) {
  try {
    const ids = JSON.parse(line.bouquet);
    return Array.isArray(ids) ? ids.map(Number).filter((n3) => Number.isInteger(n3) && n3 > 0 && n3 <= 2147483647) : [];
  } catch {
    return [];
  }
}
var digest = (s) => createHash4("sha256").update(s).digest();
var samePassword = (stored, given) => timingSafeEqual(digest(stored), digest(given));
async function authenticateLine(deps2, c) {
  const keys2 = lineKeys(deps2.config, c);
  const refusal2 = { action: "line_auth_rate_limited", target_user: c.username.slice(0, 100), ip: c.ip };
  await refuseIfBlocked(deps2, keys2, refusal2);
  const line = await findLineByUsername(deps2.database.db, c.username);
  const right = samePassword(line?.password ?? "\0", c.password);
  if (line && right) return line;
  await checkAndCount(deps2, keys2, refusal2);
  return null;
}

// src/modules/player/listing.ts
import { Readable as Readable2 } from "node:stream";
var BATCH = 1e3;
function entitledStreams(db, bouquets, kind, categoryId) {
  return keysetRows((last, limit) => streamsAfter(db, bouquets, kind, categoryId, last, limit), BATCH);
}
function jsonArray(rows, shape) {
  async function* chunks2() {
    yield "[";
    let num = 0;
    let batch = [];
    for await (const row of rows) {
      batch.push(JSON.stringify(shape(row, ++num)));
      if (batch.length === 500) {
        yield (num > 500 ? "," : "") + batch.join(",");
        batch = [];
      }
    }
    if (batch.length) yield (num > batch.length ? "," : "") + batch.join(",");
    yield "]";
  }
  return Readable2.from(chunks2(), { objectMode: false });
}

// src/modules/player/xtream.ts
var text2 = (v) => v === null || v === void 0 ? "" : String(v);
var rating5 = (r) => r === null ? 0 : Math.round(r / 2 * 10) / 10;
function userInfo(line, status3, activeCons) {
  return {
    username: line.username,
    password: line.password,
    message: "",
    auth: 1,
    status: status3,
    exp_date: text2(line.exp_date),
    is_trial: line.is_trial === 1 ? "1" : "0",
    active_cons: text2(activeCons),
    created_at: text2(line.created_at),
    max_connections: text2(line.max_connections),
    allowed_output_formats: ["m3u8", "ts"]
  };
}
function serverInfo(base2, now5) {
  const url = new URL(base2);
  const https2 = url.protocol === "https:";
  const port = url.port || (https2 ? "443" : "80");
  return {
    url: url.hostname,
    port: https2 ? "80" : port,
    https_port: https2 ? port : "443",
    server_protocol: https2 ? "https" : "http",
    rtmp_port: "0",
    timezone: "UTC",
    timestamp_now: now5,
    time_now: new Date(now5 * 1e3).toISOString().slice(0, 19).replace("T", " "),
    process: true
  };
}
var category = (c) => ({ category_id: text2(c.id), category_name: c.name, parent_id: 0 });
var liveStream = (s, num) => ({
  num,
  name: s.name,
  stream_type: "live",
  stream_id: s.id,
  stream_icon: s.icon ?? "",
  epg_channel_id: s.epg_id ?? "",
  added: text2(s.added),
  custom_sid: "",
  tv_archive: 0,
  direct_source: "",
  tv_archive_duration: 0,
  category_id: text2(s.category_id),
  category_ids: [s.category_id],
  thumbnail: ""
});
var vodStream = (s, num) => ({
  num,
  name: s.name,
  title: s.name,
  year: "",
  stream_type: "movie",
  stream_id: s.id,
  stream_icon: s.icon ?? "",
  rating: text2(s.rating),
  rating_5based: rating5(s.rating),
  added: text2(s.added),
  category_id: text2(s.category_id),
  category_ids: [s.category_id],
  container_extension: s.container_ext,
  custom_sid: "",
  direct_source: ""
});
var seriesInfo = (s) => ({
  name: s.name,
  title: s.name,
  year: "",
  cover: s.icon ?? "",
  plot: "",
  cast: "",
  director: "",
  genre: "",
  releaseDate: "",
  release_date: "",
  last_modified: text2(s.added),
  rating: text2(s.rating),
  rating_5based: rating5(s.rating),
  backdrop_path: [],
  youtube_trailer: "",
  episode_run_time: "",
  category_id: text2(s.category_id),
  category_ids: [s.category_id]
});
var series = (s, num) => ({ num, series_id: s.id, stream_type: "series", ...seriesInfo(s) });
function seriesDetail(s) {
  const episode = {
    id: text2(s.id),
    episode_num: 1,
    title: s.name,
    container_extension: s.container_ext,
    info: { movie_image: s.icon ?? "", plot: "", duration_secs: 0, duration: "00:00:00", rating: s.rating ?? 0, season: 1 },
    custom_sid: "",
    added: text2(s.added),
    season: 1,
    direct_source: ""
  };
  const season = { id: 1, name: "Season 1", episode_count: 1, overview: "", air_date: "", cover: s.icon ?? "", season_number: 1, cover_big: s.icon ?? "", vote_average: 0 };
  return { seasons: [season], info: { ...seriesInfo(s), series_id: s.id }, episodes: { "1": [episode] } };
}
function vodDetail(s) {
  return {
    info: {
      name: s.name,
      o_name: s.name,
      cover_big: s.icon ?? "",
      movie_image: s.icon ?? "",
      tmdb_id: "",
      release_date: "",
      releasedate: "",
      youtube_trailer: "",
      director: "",
      actors: "",
      cast: "",
      description: "",
      plot: "",
      age: "",
      country: "",
      genre: "",
      backdrop_path: [],
      duration_secs: 0,
      duration: "00:00:00",
      bitrate: 0,
      rating: text2(s.rating)
    },
    movie_data: {
      stream_id: s.id,
      name: s.name,
      title: s.name,
      year: "",
      added: text2(s.added),
      category_id: text2(s.category_id),
      category_ids: [s.category_id],
      container_extension: s.container_ext,
      custom_sid: "",
      direct_source: ""
    }
  };
}
var NO_VOD = { info: [], movie_data: [] };
var NO_SERIES = { seasons: [], info: { name: null }, episodes: {} };
var NO_EPG = { epg_listings: [] };

// src/modules/player/playlist.ts
import { Readable as Readable3 } from "node:stream";
var REFUSED = {
  Banned: new AppError(403, "LINE_BLOCKED", "This line is blocked"),
  Expired: new AppError(403, "LINE_EXPIRED", "This line has expired"),
  Disabled: new AppError(403, "LINE_DISABLED", "This line is not active")
};
var PATHS = { live: "live", movie: "movie", series: "series" };
var attr = (s) => s.replace(/["\r\n]/g, " ");
var title = (s) => s.replace(/[\r\n]/g, " ");
async function playlist(deps2, q, ip, requestOrigin2) {
  const line = await authenticateLine(deps2, { username: q.username, password: q.password, ip });
  if (!line) throw new AppError(401, "INVALID_CREDENTIALS", "Invalid username or password");
  const status3 = lineStatus(line, Math.floor(Date.now() / 1e3));
  if (status3 !== "Active") throw REFUSED[status3];
  const db = deps2.database.db;
  const base2 = await playlistBase(db, line.member_id, panelOrigin(deps2.config, requestOrigin2));
  const credentials2 = `${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}`;
  const liveExt = q.output === "m3u8" || q.output === "hls" ? "m3u8" : "ts";
  const plus = (q.type ?? "m3u_plus") === "m3u_plus";
  const bouquets = bouquetIds(line);
  const entry = (s) => {
    const url = `${base2}/${PATHS[s.kind]}/${credentials2}/${s.id}.${s.kind === "live" ? liveExt : s.container_ext}`;
    const info = plus ? `#EXTINF:-1 tvg-id="${attr(s.epg_id ?? "")}" tvg-name="${attr(s.name)}" tvg-logo="${attr(s.icon ?? "")}" group-title="${attr(s.category_name)}",${title(s.name)}` : `#EXTINF:-1,${title(s.name)}`;
    return `${info}
${url}
`;
  };
  async function* text3() {
    yield "#EXTM3U\n";
    if (!bouquets.length) return;
    for (const kind of ["live", "movie", "series"]) {
      let chunk = "";
      let n3 = 0;
      for await (const s of entitledStreams(db, bouquets, kind)) {
        chunk += entry(s);
        if (++n3 % 500 === 0) {
          yield chunk;
          chunk = "";
        }
      }
      if (chunk) yield chunk;
    }
  }
  return Readable3.from(text3(), { objectMode: false });
}

// src/modules/player/service.ts
var entitledStream = ({ database: database2 }, line, id, kind) => streamFor(database2.db, bouquetIds(line), id, kind);
var CATEGORIES = { get_live_categories: "live", get_vod_categories: "movie", get_series_categories: "series" };
var LISTS = {
  get_live_streams: ["live", liveStream],
  get_vod_streams: ["movie", vodStream],
  get_series: ["series", series]
};
var AUTH_ACTIONS = /* @__PURE__ */ new Set(["", "get_profile", "get_server_info"]);
var EPG_ACTIONS = /* @__PURE__ */ new Set(["get_short_epg", "get_simple_data_table"]);
var idParam = (raw2) => raw2 && /^[1-9][0-9]{0,9}$/.test(raw2) && Number(raw2) <= 2147483647 ? Number(raw2) : void 0;
async function playerApi(deps2, q, ip, requestOrigin2) {
  const line = await authenticateLine(deps2, { username: q.username, password: q.password, ip });
  if (!line) return { json: { user_info: { auth: 0 } } };
  const db = deps2.database.db;
  const now5 = Math.floor(Date.now() / 1e3);
  const status3 = lineStatus(line, now5);
  const action = q.action ?? "";
  if (AUTH_ACTIONS.has(action)) {
    const base2 = await playlistBase(db, line.member_id, panelOrigin(deps2.config, requestOrigin2));
    return { json: { user_info: userInfo(line, status3, await onlineCount(deps2, line.id)), server_info: serverInfo(base2, now5) } };
  }
  const bouquets = status3 === "Active" ? bouquetIds(line) : [];
  const categoryId = q.category_id ? idParam(q.category_id) : void 0;
  if (action in CATEGORIES) {
    return { json: bouquets.length ? (await categoriesFor(db, bouquets, CATEGORIES[action])).map(category) : [] };
  }
  if (action in LISTS) {
    const [kind, shape] = LISTS[action];
    if (!bouquets.length || q.category_id && categoryId === void 0) return { json: [] };
    return { stream: jsonArray(entitledStreams(db, bouquets, kind, categoryId), shape) };
  }
  if (action === "get_vod_info") {
    const id = idParam(q.vod_id);
    const s = bouquets.length && id ? await streamFor(db, bouquets, id, "movie") : void 0;
    return { json: s ? vodDetail(s) : NO_VOD };
  }
  if (action === "get_series_info") {
    const id = idParam(q.series_id);
    const s = bouquets.length && id ? await streamFor(db, bouquets, id, "series") : void 0;
    return { json: s ? seriesDetail(s) : NO_SERIES };
  }
  if (EPG_ACTIONS.has(action)) return { json: NO_EPG };
  return { json: [] };
}

// src/modules/servers/repo.ts
var PUBLIC = ["id", "name", "url", "created_at"];
var listServers = (db) => db.selectFrom("servers").select(PUBLIC).orderBy("id").execute();
var insertServer = (db, values) => db.insertInto("servers").values(values).returning(PUBLIC).executeTakeFirstOrThrow();
async function deleteServer(db, id) {
  const res = await db.deleteFrom("servers").where("id", "=", id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
var serverByKeyHash = (db, keyHash) => db.selectFrom("servers").select(["id", "name"]).where("key_hash", "=", keyHash).executeTakeFirst();

// src/modules/servers/service.ts
var list9 = async ({ database: database2 }) => ({ data: await listServers(database2.db) });
function publicUrl(raw2) {
  let url;
  try {
    url = new URL(raw2.trim());
  } catch {
    throw validation("url", "must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:" || url.username || url.password) throw validation("url", "must be an http(s) URL");
  return url.href.replace(/\/+$/, "");
}
async function create6(deps2, actor, input) {
  const url = publicUrl(input.url);
  const { token: key, tokenHash } = newToken();
  return withTx(deps2.database, async (trx) => {
    const row = await insertServer(trx, { name: input.name.trim(), url, key_hash: tokenHash, created_by: actor.id, created_at: Math.floor(Date.now() / 1e3) });
    await writeLog(trx, { type_log: "admin", action: "server_create", actor_id: actor.id, reseller_id: actor.id, value: `${row.name} ${url}`.slice(0, 500), value_int: row.id });
    return { ...row, key };
  });
}
async function remove4(deps2, actor, id) {
  await withTx(deps2.database, async (trx) => {
    if (!await deleteServer(trx, id)) throw notFound("Server");
    await writeLog(trx, { type_log: "admin", action: "server_delete", actor_id: actor.id, reseller_id: actor.id, value_int: id });
  });
}
async function serverByKey({ database: database2 }, key) {
  if (!key || key.length > 200) return void 0;
  return serverByKeyHash(database2.db, hashToken(key));
}

// src/modules/gateway/uri.ts
var STREAM_URI = /^\/(live|movie|series)\/([^/?#]+)\/([^/?#]+)\/([1-9][0-9]{0,9})(?:\.[A-Za-z0-9]{1,10}|\/[^?#]+)(?:[?#].*)?$/;
function parseStreamUri(uri) {
  const m = uri ? STREAM_URI.exec(uri) : null;
  if (!m || Number(m[4]) > 2147483647) return void 0;
  try {
    return { kind: m[1], username: decodeURIComponent(m[2]), password: decodeURIComponent(m[3]), streamId: Number(m[4]) };
  } catch {
    return void 0;
  }
}

// src/modules/gateway/service.ts
var refuse = (reason) => ({ allow: false, status: 403, reason });
async function authorize(deps2, q) {
  const server = await serverByKey(deps2, q.key);
  if (!server) return { allow: false, status: 401, reason: "unknown edge key" };
  const target2 = parseStreamUri(q.uri);
  if (!target2) return refuse("not a stream URI");
  const ip = q.ip?.trim() ?? "";
  if (!isIP3(ip)) return refuse("no client address (X-Real-IP)");
  let line;
  try {
    line = await authenticateLine(deps2, { username: target2.username, password: target2.password, ip });
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 429) return refuse("too many wrong passwords from this address");
    throw err;
  }
  if (!line) return refuse("wrong username or password");
  const status3 = lineStatus(line, Math.floor(Date.now() / 1e3));
  if (status3 !== "Active") return refuse(`line ${status3.toLowerCase()}`);
  const stream = await entitledStream(deps2, line, target2.streamId, target2.kind);
  if (!stream) return refuse("stream not in the line's bouquets");
  const admission = await admit(deps2, {
    lineId: line.id,
    maxConnections: line.max_connections,
    streamId: stream.id,
    ip,
    userAgent: (q.userAgent ?? "").slice(0, 300),
    serverId: server.id
  });
  if (admission === "limit") return refuse("max_connections reached");
  if (admission === "disconnected") return refuse("connection ended by a disconnect");
  return { allow: true, source: stream.source_url };
}

// src/modules/gateway/routes.ts
var Header = (description) => Type17.Optional(Type17.String({ description }));
var Headers = Type17.Object({
  "x-edge-key": Header("the edge's key, from POST /api/admin/servers"),
  "x-original-uri": Header("what the client asked for: /live/{username}/{password}/{stream_id}.{ts|m3u8}, a segment under /live/{username}/{password}/{stream_id}/, or /movie/..., /series/..."),
  "x-real-ip": Header("the client's address"),
  "user-agent": Header("the client's user agent")
});
function gatewayRoutes(app2, deps2) {
  app2.get(
    "/gateway/auth",
    {
      // asked for every segment of every player: the edge's own access log has these requests
      logLevel: "warn",
      schema: {
        tags: ["gateway"],
        security: [],
        headers: Headers,
        response: {
          204: { description: "allowed; X-Stream-Source holds the stream source URL", type: "null" },
          401: { description: "unknown edge key", type: "null" },
          403: { description: "refused (X-Refused-Reason)", type: "null" }
        }
      }
    },
    async (req, reply) => {
      const header = (name) => typeof req.headers[name] === "string" ? req.headers[name] : void 0;
      const verdict = await authorize(deps2, { key: header("x-edge-key"), uri: header("x-original-uri"), ip: header("x-real-ip"), userAgent: header("user-agent") });
      reply.header("Cache-Control", "no-store");
      if (verdict.allow) return reply.status(204).header("X-Stream-Source", verdict.source).send();
      return reply.status(verdict.status).header("X-Refused-Reason", verdict.reason).send();
    }
  );
}

// src/modules/lazyplayer/routes.ts
import { Type as Type18 } from "typebox";

// src/http/origin.ts
var requestOrigin = (req) => `${req.protocol}://${req.host}`;

// src/modules/integrations/http.ts
var NOT_CONFIGURED = notConfigured;
var UpstreamError = class extends Error {
  constructor(message, status3) {
    super(message);
    this.status = status3;
  }
  status;
};
async function fetchLimited(url, init, { timeoutMs = 1e4, maxBytes = 1e6 } = {}) {
  let res;
  try {
    res = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = err.name === "TimeoutError";
    throw new UpstreamError(timedOut ? `no answer within ${timeoutMs} ms` : `unreachable (${err.message})`);
  }
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new UpstreamError(`answer over ${maxBytes} bytes`, res.status);
  }
  const chunks2 = [];
  let size = 0;
  try {
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new UpstreamError(`answer over ${maxBytes} bytes`, res.status);
      chunks2.push(chunk);
    }
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError(`answer cut short (${err.message})`, res.status);
  }
  return { status: res.status, text: Buffer.concat(chunks2).toString("utf8") };
}

// src/modules/lazyplayer/client.ts
async function sendPlaylist(config2, input) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: input.name, mac: input.mac, url: input.url, is_protected: "false" })) form.append(k, v);
  const res = await fetchLimited(`${config2.lazyPlayerUrl}/api/playlist_with_mac`, { method: "POST", body: form }, { timeoutMs: config2.integrationTimeoutMs, maxBytes: 64e3 });
  if (res.status !== 200) throw new UpstreamError(`refused with status ${res.status}`, res.status);
}

// src/modules/lazyplayer/repo.ts
async function insertActivation(db, row) {
  const { id } = await db.insertInto("lazy_player_activations").values({ ...row, error: null, finished_at: null }).returning("id").executeTakeFirstOrThrow();
  return id;
}
function findByKey(db, resellerId, key) {
  return db.selectFrom("lazy_player_activations").selectAll().where("reseller_id", "=", resellerId).where("idempotency_key", "=", key).executeTakeFirst();
}
async function finishActivation(db, id, status3, error, at) {
  await db.updateTable("lazy_player_activations").set({ status: status3, error, finished_at: at }).where("id", "=", id).execute();
}

// src/modules/lazyplayer/service.ts
var MONTH2 = 30 * 86400;
var MAC = /^[0-9A-F]{2}([:-]?)[0-9A-F]{2}(\1[0-9A-F]{2}){4}$/i;
function normaliseMac(raw2) {
  const mac = raw2.trim();
  if (!mac) throw new AppError(400, "MAC_REQUIRED", "Enter the MAC address", "mac");
  if (!MAC.test(mac)) throw validation("mac", "a MAC address has six pairs of hex digits, e.g. 00:1A:2B:3C:4D:5E");
  return mac.replace(/[:-]/g, "").toUpperCase().match(/../g).join(":");
}
function proportionalCharge(expDate, at, monthlyCredits) {
  return Math.max(0, Math.ceil((expDate - at) / MONTH2 * monthlyCredits - 1e-9));
}
function assertActivatable(line, at) {
  if (line.system !== 1) throw new AppError(409, "LAZY_PLAYER_WRONG_SYSTEM", "Lines on another system cannot activate the Lazy Player");
  if (!line.username || !line.password || !line.exp_date || line.enabled !== 1) {
    throw new AppError(409, "LINE_INCOMPLETE", "The line's data is incomplete");
  }
  if (line.exp_date <= at) throw new AppError(409, "LINE_EXPIRED", "The line has expired: renew it first");
}
var refused2 = (status3) => new AppError(409, "LAZY_PLAYER_REFUSED", `The Lazy Player service refused the activation (status ${status3}); nothing was charged`);
var failed = () => new AppError(409, "LAZY_PLAYER_FAILED", "The Lazy Player service could not be reached; nothing was charged");
function replay(previous) {
  if (previous.status === "active") return { total_charged: previous.charged, mac: previous.mac };
  if (previous.status === "pending") throw new AppError(409, "IN_PROGRESS", "This activation is still running");
  throw previous.error?.startsWith("status ") ? refused2(Number(previous.error.slice(7))) : failed();
}
async function activate(deps2, actor, lineId, rawMac, key, requestOrigin2) {
  if (!await findVisibleLine2(deps2.database.db, actor, lineId)) throw notFound("User");
  const mac = normaliseMac(rawMac);
  if (!deps2.config.lazyPlayerUrl) throw NOT_CONFIGURED("The Lazy Player service (LAZY_PLAYER_URL)");
  if (key && key.length > 200) throw validation("Idempotency-Key", "at most 200 characters");
  const previous = key ? await findByKey(deps2.database.db, actor.id, key) : void 0;
  if (previous) return replay(previous);
  let started;
  try {
    started = await withTx(deps2.database, async (trx) => {
      const line2 = await loadLineForChange(deps2, trx, actor, lineId);
      const at = now();
      assertActivatable(line2, at);
      const price = proportionalCharge(line2.exp_date, at, await intSetting(trx, "lazy_player_monthly_credits"));
      const charged2 = await charge(trx, actor, price, "lazy_player", line2.id, key);
      const id2 = await insertActivation(trx, { line_id: line2.id, reseller_id: actor.id, mac, charged: charged2, status: "pending", idempotency_key: key ?? null, created_at: at });
      await logChange(trx, actor, line2, "user_lazy_player", mac, charged2);
      const url2 = (await originalLinks(trx, line2, panelOrigin(deps2.config, requestOrigin2))).mpgets;
      return { id: id2, line: line2, charged: charged2, url: url2 };
    });
  } catch (err) {
    const winner = key ? await findByKey(deps2.database.db, actor.id, key) : void 0;
    if (winner) return replay(winner);
    throw err;
  }
  const { id, line, charged, url } = started;
  try {
    await sendPlaylist(deps2.config, { name: line.username, mac, url });
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const reason = err.status !== void 0 ? `status ${err.status}` : err.message.slice(0, 280);
    await withTx(deps2.database, async (trx) => {
      if (charged > 0) await credit(trx, { resellerId: actor.id, amount: charged, reason: "lazy_player_refund", actorId: actor.id, lineId: line.id });
      await finishActivation(trx, id, "failed", reason, now());
      await logChange(trx, actor, line, "user_lazy_player_refund", reason, charged);
      await invalidateFor(trx, line.member_id);
    });
    throw err.status !== void 0 ? refused2(err.status) : failed();
  }
  await withTx(deps2.database, async (trx) => {
    await finishActivation(trx, id, "active", null, now());
    await invalidateFor(trx, line.member_id);
  });
  return { total_charged: charged, mac };
}

// src/modules/lazyplayer/routes.ts
var Body2 = Type18.Object({ mac: Type18.String({ maxLength: 40 }) });
var Answer = Type18.Object({ total_charged: Type18.Integer(), mac: Type18.String() }, { title: "LazyPlayerActivation" });
function lazyPlayerRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  r.post(
    "/users/:id/activesmart",
    {
      schema: {
        tags: ["users"],
        params: IdParams,
        idempotencyKey: true,
        errors: {
          400: ["MAC_REQUIRED"],
          503: ["NOT_CONFIGURED"],
          409: ["LAZY_PLAYER_WRONG_SYSTEM", "LINE_INCOMPLETE", "LINE_EXPIRED", "INSUFFICIENT_CREDITS", "LAZY_PLAYER_REFUSED", "LAZY_PLAYER_FAILED", "IN_PROGRESS"]
        },
        body: Body2,
        response: { 200: Answer }
      }
    },
    (req) => activate(deps2, req.user, req.params.id, req.body.mac, idempotencyKey(req), requestOrigin(req))
  );
}

// src/modules/lines/routes.ts
import { Type as Type19 } from "typebox";
function lineRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["users"];
  const params = IdParams;
  const one = { 200: LineRow };
  r.get(
    "/users",
    { schema: { tags: tags2, querystring: ListQuery, response: { 200: Paged(LineRow) } } },
    (req) => list(deps2, req.user, req.query)
  );
  r.get(
    "/users/expiring",
    { schema: { tags: tags2, querystring: ExpiringQuery, response: { 200: Paged(LineRow) } } },
    (req) => expiring(deps2, req.user, req.query)
  );
  r.post("/users/select_search", { schema: { tags: tags2, body: SearchBody, response: { 200: SearchOptions } } }, (req) => selectSearch(deps2, req.user, req.body.search));
  r.get("/users/:id", { schema: { tags: tags2, params, response: one } }, (req) => get(deps2, req.user, req.params.id));
  r.post(
    "/users",
    { schema: { tags: tags2, idempotencyKey: true, errors: { 400: ["BOUQUET_REQUIRED"], 409: ["USERNAME_TAKEN", "INSUFFICIENT_CREDITS"] }, body: CreateBody, response: { 201: LineRow } } },
    async (req, reply) => reply.status(201).send(await create3(deps2, req.user, req.body, idempotencyKey(req)))
  );
  r.post(
    "/trial_users",
    { schema: { tags: tags2, errors: { 409: ["USERNAME_TAKEN", "TRIAL_LIMIT_REACHED"] }, body: TrialBody, response: { 201: LineRow } } },
    async (req, reply) => reply.status(201).send(await createTrial(deps2, req.user, req.body))
  );
  r.put("/users/:id", { schema: { tags: tags2, params, errors: { 400: ["BOUQUET_REQUIRED"] }, body: UpdateBody2, response: one } }, (req) => update3(deps2, req.user, req.params.id, req.body));
  r.delete("/users/:id", { schema: { tags: tags2, params, response: { 204: Type19.Null() } } }, async (req, reply) => {
    await remove2(deps2, req.user, req.params.id);
    return reply.status(204).send(null);
  });
  r.post("/users/:id/renew", { schema: { tags: tags2, params, idempotencyKey: true, errors: { 409: ["INSUFFICIENT_CREDITS", "TRIAL_NOT_ALLOWED"] }, body: RenewBody, response: one } }, (req) => {
    const { package_id, months, mounth } = req.body;
    const flash = months === 1 || mounth === 1;
    if (package_id === void 0 === !flash) throw validation("package_id", "send either package_id or months: 1");
    return renew(deps2, req.user, req.params.id, flash ? {} : { package_id }, idempotencyKey(req));
  });
  r.post(
    "/users/:id/extenddays",
    { schema: { tags: tags2, params, errors: { 409: ["TRIAL_NOT_ALLOWED", "EXTEND_LIMIT_REACHED"] }, body: ExtendBody, response: one } },
    (req) => extendDays(deps2, req.user, req.params.id, req.body.days)
  );
  r.post(
    "/users/:id/screens",
    { schema: { tags: tags2, params, idempotencyKey: true, errors: { 409: ["INSUFFICIENT_CREDITS", "TRIAL_NOT_ALLOWED"] }, body: ScreensBody, response: one } },
    (req) => screens(deps2, req.user, req.params.id, req.body.amount, idempotencyKey(req))
  );
  r.post("/users/:id/block", { schema: { tags: tags2, params, response: one } }, (req) => setEnabled(deps2, req.user, req.params.id, 0));
  r.post("/users/:id/unblock", { schema: { tags: tags2, params, response: one } }, (req) => setEnabled(deps2, req.user, req.params.id, 1));
  r.post("/users/:id/resync_p2p", { schema: { tags: tags2, params, errors: { 409: ["NOT_P2P"] }, response: one } }, (req) => resyncP2p(deps2, req.user, req.params.id));
  r.post(
    "/users/:id/change_system",
    { schema: { tags: tags2, params, errors: { 409: ["LINE_BLOCKED"] }, body: SystemBody, response: one } },
    (req) => changeSystem(deps2, req.user, req.params.id, req.body.system_id)
  );
}

// src/modules/migration/routes.ts
import { Type as Type20 } from "typebox";

// src/modules/migration/repo.ts
import { createHash as createHash5 } from "node:crypto";
var passwordSha256 = (password) => createHash5("sha256").update(password).digest("hex");
async function keepLookup(db, resellerId, line, at, expiredBefore) {
  await db.deleteFrom("migration_lookups").where("looked_up_at", "<", expiredBefore).execute();
  const values = {
    password_sha256: passwordSha256(line.password),
    exp_date: line.exp_date,
    created_at: line.created_at,
    is_trial: line.is_trial ? 1 : 0,
    looked_up_at: at
  };
  await db.insertInto("migration_lookups").values({ reseller_id: resellerId, username: line.username, ...values }).onConflict((oc) => oc.columns(["reseller_id", "username"]).doUpdateSet(values)).execute();
}
async function findLookup(db, resellerId, username2) {
  const row = await db.selectFrom("migration_lookups").select(["username", "password_sha256", "exp_date", "is_trial", "looked_up_at"]).where("reseller_id", "=", resellerId).where("username", "=", username2).executeTakeFirst();
  return row && { username: row.username, password_sha256: row.password_sha256, exp_date: row.exp_date, is_trial: row.is_trial === 1, at: row.looked_up_at };
}

// src/modules/migration/xtream.ts
var FETCH_TIMEOUT_MS2 = 5e3;
var MAX_BYTES = 1024 * 1024;
var notOriginal = () => new AppError(400, "URL_NOT_ORIGINAL", "Paste the original playlist link (\u2026/get.php?username=\u2026&password=\u2026), not a shortened one", "url");
function parsePlaylistUrl(raw2) {
  let url;
  try {
    url = checkUrl(raw2.trim());
  } catch (err) {
    throw outboundAppError(err, "url");
  }
  const username2 = url.searchParams.get("username")?.trim();
  const password = url.searchParams.get("password")?.trim();
  const base2 = url.pathname.replace(/\/(get|player_api)\.php$/, "");
  if (base2 === url.pathname || !username2 || !password) throw notOriginal();
  return { origin: `${url.origin}${base2}`, username: username2, password };
}
var seconds = (v) => {
  const n3 = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : Number.NaN;
  return Number.isInteger(n3) && n3 > 0 && n3 < 2 ** 31 ? n3 : null;
};
async function fetchSourceLine(raw2, allow, timeoutMs = FETCH_TIMEOUT_MS2) {
  const { origin, username: username2, password } = parsePlaylistUrl(raw2);
  const query = new URLSearchParams({ username: username2, password });
  let body;
  try {
    body = (await safeFetch(`${origin}/player_api.php?${query}`, { timeoutMs: Math.min(timeoutMs, FETCH_TIMEOUT_MS2), maxBytes: MAX_BYTES, allow, headers: { accept: "application/json" } })).body;
  } catch (err) {
    if (err instanceof OutboundError && err.reason === "status" && (err.status === 401 || err.status === 403)) throw refusedCredentials();
    throw outboundAppError(err, "url");
  }
  let info;
  try {
    info = JSON.parse(body.toString("utf8"))?.user_info;
  } catch {
    info = void 0;
  }
  if (!info || typeof info !== "object") throw new AppError(502, "UPSTREAM_ERROR", "The provider did not answer with an Xtream player API answer");
  if (Number(info.auth) !== 1) throw refusedCredentials();
  const name = typeof info.username === "string" && info.username.trim() ? info.username.trim() : username2;
  const pass = typeof info.password === "string" && info.password.trim() ? info.password.trim() : password;
  return {
    username: name.slice(0, 50),
    password: pass.slice(0, 50),
    exp_date: seconds(info.exp_date),
    created_at: seconds(info.created_at),
    is_trial: String(info.is_trial) === "1" || info.is_trial === true
  };
}
var refusedCredentials = () => new AppError(422, "SOURCE_REFUSED", "The provider did not accept the credentials of this link", "url");

// src/modules/migration/service.ts
var DAY2 = 86400;
var MIN_DAYS_LEFT = 5;
var MAX_DAYS = 30;
var LOOKUP_TTL_MS = 30 * 6e4;
async function fetchUrlData(deps2, actor, url) {
  const line = await fetchSourceLine(url, deps2.config.outboundAllowNetworks, deps2.config.integrationTimeoutMs);
  const at = Date.now();
  await keepLookup(deps2.database.db, actor.id, line, at, at - LOOKUP_TTL_MS);
  return line;
}
function migratedExpiry(source, at) {
  if (source.is_trial) throw new AppError(409, "MIGRATION_TRIAL", "Trial lines cannot be migrated");
  const cap = at + MAX_DAYS * DAY2;
  if (source.exp_date === null) return { exp_date: cap, capped: true };
  if (source.exp_date - at < MIN_DAYS_LEFT * DAY2) throw new AppError(409, "MIGRATION_TOO_SHORT", `Only lines with at least ${MIN_DAYS_LEFT} days left can be migrated`);
  return source.exp_date > cap ? { exp_date: cap, capped: true } : { exp_date: source.exp_date, capped: false };
}
async function migrate(deps2, actor, input, key) {
  const username2 = input.username.trim();
  const password = input.password.trim();
  const source = await findLookup(deps2.database.db, actor.id, username2);
  if (!source || Date.now() - source.at > LOOKUP_TTL_MS || source.password_sha256 !== passwordSha256(password)) {
    throw new AppError(409, "MIGRATION_NOT_LOOKED_UP", "Look the playlist URL up first (or again): the line is migrated with what its provider answers");
  }
  if (source.exp_date !== null && input.exp_date !== source.exp_date) {
    throw new AppError(409, "MIGRATION_NOT_LOOKED_UP", "The expiry sent is not the one the provider answered: look the URL up again");
  }
  const allowed = [await intSetting(deps2.database.db, "migration_package_adult"), await intSetting(deps2.database.db, "migration_package_no_adult")];
  if (!allowed.includes(input.package_id)) throw validation("package_id", "choose one of the two migration packages");
  const { exp_date, capped } = migratedExpiry(source, now());
  const note = capped ? `expiry capped to ${MAX_DAYS} days` : "expiry kept";
  const line = await createMigrated(deps2, actor, { username: username2, password, package_id: input.package_id, exp_date }, note, key);
  return { line, exp_date: line.exp_date ?? exp_date, capped };
}

// src/modules/migration/routes.ts
var FetchBody = Type20.Object({ url: Type20.String({ minLength: 5, maxLength: 2e3 }) });
var SourceLine = Type20.Object(
  { username: Type20.String(), password: Type20.String(), exp_date: Nullable(Type20.Integer()), created_at: Nullable(Type20.Integer()), is_trial: Type20.Boolean() },
  { title: "MigrationSourceLine" }
);
var MigrateBody = Type20.Object({
  username: Type20.String({ ...Credential, minLength: 1 }),
  password: Type20.String({ ...Credential, minLength: 1 }),
  exp_date: Type20.Integer({ minimum: 0, maximum: 2147483647 }),
  package_id: Type20.Integer({ minimum: 1, maximum: 2147483647 })
});
var Migrated = Type20.Object({ line: LineRow, exp_date: Type20.Integer(), capped: Type20.Boolean() }, { title: "MigratedLine" });
function migrationRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["users"];
  r.post(
    "/users/fetch-url-data",
    {
      schema: { tags: tags2, errors: { 400: ["URL_NOT_ALLOWED", "URL_NOT_ORIGINAL"], 422: ["SOURCE_REFUSED"], 502: ["UPSTREAM_ERROR"] }, body: FetchBody, response: { 200: SourceLine } }
    },
    (req) => fetchUrlData(deps2, req.user, req.body.url)
  );
  r.post(
    "/users/migrate",
    {
      schema: {
        tags: tags2,
        idempotencyKey: true,
        errors: { 409: ["MIGRATION_NOT_LOOKED_UP", "MIGRATION_TRIAL", "MIGRATION_TOO_SHORT", "USERNAME_TAKEN", "INSUFFICIENT_CREDITS"] },
        body: MigrateBody,
        response: { 201: Migrated }
      }
    },
    async (req, reply) => reply.status(201).send(await migrate(deps2, req.user, req.body, idempotencyKey(req)))
  );
}

// src/modules/news/routes.ts
import { Type as Type21 } from "typebox";

// src/modules/news/repo.ts
function listNews(db, onlyPublished) {
  let q = db.selectFrom("news").selectAll().orderBy("id");
  if (onlyPublished) q = q.where("status", "=", 1);
  return q.execute();
}
function updateNews(db, id, fields) {
  return db.updateTable("news").set(fields).where("id", "=", id).returningAll().executeTakeFirst();
}

// src/modules/news/service.ts
async function list10({ database: database2 }, actor) {
  return { data: await listNews(database2.db, actor.type !== "admin") };
}
function update6(deps2, actor, id, input) {
  return withTx(deps2.database, async (trx) => {
    const { title: title2, body, level, status: status3 } = input;
    const row = await updateNews(trx, id, { title: title2, body, level, status: status3 });
    if (!row) throw notFound("News item");
    await writeLog(trx, { type_log: "admin", action: "news_update", actor_id: actor.id, reseller_id: actor.id, value: title2, value_int: id });
    return row;
  });
}

// src/modules/news/routes.ts
var NewsItem = Type21.Object({ id: Type21.Integer(), title: Type21.String(), body: Type21.String(), level: Type21.Integer(), status: Type21.Integer() }, { title: "NewsItem" });
var NewsBody = Type21.Object({
  title: Type21.String({ minLength: 1, maxLength: 200, pattern: "\\S" }),
  body: Type21.String({ minLength: 1, maxLength: 1e4 }),
  level: Type21.Integer({ minimum: 0, maximum: 10 }),
  status: Type21.Integer({ minimum: 0, maximum: 1 })
});
function newsRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["news"];
  r.get("/news", { schema: { tags: tags2, response: { 200: Type21.Object({ data: Type21.Array(NewsItem) }) } } }, (req) => list10(deps2, req.user));
  r.put(
    "/news/:id",
    { config: { roles: ["admin"] }, schema: { tags: tags2, params: IdParams, body: NewsBody, response: { 200: NewsItem } } },
    (req) => update6(deps2, req.user, req.params.id, req.body)
  );
}

// src/modules/p2p/routes.ts
import { Type as Type23 } from "typebox";

// src/modules/p2p/schemas.ts
import { Type as Type22 } from "typebox";
var Username2 = Type22.String({ maxLength: 50, pattern: "^[A-Za-z0-9_.-]*$" });
var Password2 = Type22.String({ maxLength: 50, pattern: "^[A-Za-z0-9_.@-]*$" });
var Name2 = Type22.String({ maxLength: 100 });
var PackageId2 = Type22.Integer({ minimum: 1, maximum: 2147483647 });
var Whatsapp2 = Type22.String({ maxLength: 20, pattern: "^[0-9+() -]*$" });
var Status = Type22.Integer({ enum: [-1, 0, 1] });
var P2pRow = Type22.Object({
  id: Type22.Integer(),
  name: Type22.String(),
  username: Type22.String(),
  /** the login on the P2P server */
  email: Type22.String(),
  password: Type22.String(),
  /** the password the client had in the old P2P panel (imports); null otherwise */
  externo_senha: Nullable(Type22.String()),
  /** epoch seconds */
  created: Type22.Integer(),
  /** expiry, epoch seconds */
  expiracao: Type22.Integer(),
  /** -1 registered, 0 disabled, 1 active */
  status: Status,
  is_trial: Type22.Integer(),
  member_id: Type22.Integer(),
  master_username: Nullable(Type22.String()),
  package_id: Nullable(Type22.Integer()),
  max_connections: Type22.Integer(),
  whatsapp: Nullable(Type22.String()),
  notes: Nullable(Type22.String()),
  sync_state: SyncState,
  sync_error: Nullable(Type22.String()),
  /** last delivery to the P2P server, epoch seconds */
  synced_at: Nullable(Type22.Integer())
});
var ListQuery3 = Type22.Object({
  ...PageQuery,
  id: Type22.Optional(Type22.Integer({ minimum: 1, maximum: 2147483647 })),
  username: Type22.Optional(Type22.String({ maxLength: 50 })),
  reseller: Type22.Optional(Type22.String({ maxLength: 50 })),
  /** -1 registered, 0 disabled, 1 active and not expired, 3 expired */
  status: Type22.Optional(Type22.Integer({ enum: [-1, 0, 1, 3] })),
  type_user: Type22.Optional(Type22.Union([Type22.Literal("normal"), Type22.Literal("trial")]))
});
var CreateBody3 = Type22.Object({
  /** empty: the username */
  name: Name2,
  /** empty or missing: generated */
  username: Type22.Optional(Username2),
  /** empty or missing: generated */
  password: Type22.Optional(Password2),
  package_id: PackageId2,
  max_connections: Type22.Optional(Type22.Integer({ minimum: 1, maximum: 100 })),
  whatsapp: Type22.Optional(Whatsapp2),
  notes: Type22.Optional(Type22.String({ maxLength: 500 }))
});
var TrialBody2 = Type22.Object({
  name: Name2,
  username: Type22.Optional(Username2),
  password: Type22.Optional(Password2),
  package_id: PackageId2
});
var UpdateBody4 = Type22.Object({
  name: Type22.Optional(Name2),
  username: Type22.Optional(Username2),
  password: Type22.Optional(Password2)
});
var RenewBody2 = Type22.Object({ months: Type22.Integer({ minimum: 1, maximum: 12 }) });
var SearchBody3 = Type22.Object({ search: Type22.String({ maxLength: 50, pattern: "^[\\w.-]*$" }) });
var SearchAnswer = Type22.Object({ data: Type22.Array(Type22.Object({ label: Type22.String(), value: Type22.String() })) });
var OnlineAnswer = Type22.Object({
  data: Type22.Array(
    Type22.Object({
      username: Type22.String(),
      channel_name: Type22.String(),
      /** seconds */
      duration: Type22.Integer(),
      external_ip: Type22.String(),
      app_version: Type22.String(),
      app_name: Type22.String()
    })
  )
});
var OldLoginBody = Type22.Object({
  username: Type22.String({ minLength: 4, maxLength: 100 }),
  password: Type22.String({ minLength: 1, maxLength: 100 })
});
var AttachAnswer = Type22.Object({
  login: Type22.Boolean(),
  message: Type22.String(),
  /** the old account's name and balance, when signed in */
  username: Type22.Optional(Type22.String()),
  credits: Type22.Optional(Type22.Integer())
});
var MigrateResellerAnswer = Type22.Object({
  old_username: Type22.String(),
  credits_imported: Type22.Integer(),
  /** the caller's balance afterwards */
  credits: Type22.Integer()
});
var ImportPreview = Type22.Object({
  /** false: no old-panel sign-in attached (or it expired): show the login form */
  attached: Type22.Boolean(),
  old_username: Nullable(Type22.String()),
  data: Type22.Array(
    Type22.Object({
      id: Type22.Integer(),
      name: Type22.String(),
      email: Type22.String(),
      username: Type22.String(),
      password: Type22.String(),
      created: Type22.Integer(),
      expiracao: Type22.Integer(),
      status: Type22.Integer(),
      /** true: can be imported; false: conflict (see reason) */
      import: Type22.Boolean(),
      reason: Nullable(
        Type22.Union([Type22.Literal("email_taken"), Type22.Literal("username_taken"), Type22.Literal("duplicate"), Type22.Literal("invalid")])
      )
    })
  ),
  /** rows with import: false; the import is refused while this is above 0 */
  conflicts: Type22.Integer()
});
var MigrateClientsAnswer = Type22.Object({ imported: Type22.Integer() });
var OutboxStatus = Type22.Object({
  /** P2P_API_URL is set: a worker delivers */
  configured: Type22.Boolean(),
  /** undelivered changes not failed yet */
  pending: Type22.Integer(),
  /** undelivered changes whose last attempt failed (retried with backoff) */
  failed: Type22.Integer(),
  /** creation of the oldest undelivered change, epoch seconds */
  oldest: Nullable(Type22.Integer()),
  errors: Type22.Array(
    Type22.Object({
      id: Type22.Integer(),
      login: Type22.String(),
      method: Type22.String(),
      attempts: Type22.Integer(),
      last_error: Nullable(Type22.String()),
      /** epoch ms */
      next_attempt_at: Type22.Integer()
    })
  )
});

// src/modules/p2p/routes.ts
function p2pRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["p2p"];
  const params = IdParams;
  const one = { 200: P2pRow };
  r.get("/p2p/users", { schema: { tags: tags2, querystring: ListQuery3, response: { 200: Paged(P2pRow) } } }, (req) => list4(deps2, req.user, req.query));
  r.get("/p2p/users/online", { schema: { tags: tags2, errors: { 502: ["UPSTREAM_ERROR"], 503: ["NOT_CONFIGURED"] }, response: { 200: OnlineAnswer } } }, (req) => online2(deps2, req.user));
  r.post(
    "/p2p/users/select_search",
    { schema: { tags: tags2, body: SearchBody3, response: { 200: SearchAnswer } } },
    (req) => selectSearch2(deps2, req.user, req.body.search)
  );
  r.get("/p2p/users/:id", { schema: { tags: tags2, params, response: one } }, (req) => get4(deps2, req.user, req.params.id));
  r.post(
    "/p2p/users",
    { schema: { tags: tags2, body: CreateBody3, response: { 201: P2pRow } } },
    async (req, reply) => reply.status(201).send(await create4(deps2, req.user, req.body, idempotencyKey(req)))
  );
  r.post(
    "/p2p/test_users",
    { schema: { tags: tags2, body: TrialBody2, response: { 201: P2pRow } } },
    async (req, reply) => reply.status(201).send(await createTrial2(deps2, req.user, req.body))
  );
  r.put("/p2p/users/:id", { schema: { tags: tags2, params, body: UpdateBody4, response: one } }, (req) => update4(deps2, req.user, req.params.id, req.body));
  r.delete("/p2p/users/:id", { schema: { tags: tags2, params, response: { 204: Type23.Null() } } }, async (req, reply) => {
    await remove3(deps2, req.user, req.params.id);
    return reply.status(204).send(null);
  });
  r.post("/p2p/users/:id/block", { schema: { tags: tags2, params, response: one } }, (req) => setStatus(deps2, req.user, req.params.id, 0));
  r.post("/p2p/users/:id/unblock", { schema: { tags: tags2, params, response: one } }, (req) => setStatus(deps2, req.user, req.params.id, 1));
  r.post(
    "/p2p/users/:id/renew",
    { schema: { tags: tags2, params, body: RenewBody2, response: one } },
    (req) => renew2(deps2, req.user, req.params.id, req.body.months, idempotencyKey(req))
  );
  r.post("/p2p/attach_login", { schema: { tags: tags2, errors: { 502: ["UPSTREAM_ERROR"], 503: ["NOT_CONFIGURED"] }, body: OldLoginBody, response: { 200: AttachAnswer } } }, (req) => attachLogin(deps2, req.user, req.body));
  r.post(
    "/p2p/migrate_reseller",
    { schema: { tags: tags2, errors: { 400: ["OLD_LOGIN_FAILED"], 409: ["ALREADY_IMPORTED", "CREDIT_LIMIT"], 502: ["UPSTREAM_ERROR"], 503: ["NOT_CONFIGURED"] }, body: OldLoginBody, response: { 200: MigrateResellerAnswer } } },
    (req) => migrateReseller(deps2, req.user, req.body, idempotencyKey(req))
  );
  r.get("/p2p/import_preview", { schema: { tags: tags2, errors: { 409: ["NOT_ATTACHED"], 502: ["UPSTREAM_ERROR"], 503: ["NOT_CONFIGURED"] }, response: { 200: ImportPreview } } }, (req) => importPreview(deps2, req.user));
  r.post("/p2p/migrate_clients", { schema: { tags: tags2, errors: { 409: ["NOT_ATTACHED", "IMPORT_CONFLICTS", "USERNAME_TAKEN"], 502: ["UPSTREAM_ERROR"], 503: ["NOT_CONFIGURED"] }, response: { 200: MigrateClientsAnswer } } }, (req) => migrateClients(deps2, req.user));
  r.get("/admin/p2p/outbox", { config: { roles: ["admin"] }, schema: { tags: tags2, response: { 200: OutboxStatus } } }, () => outboxStatus(deps2));
}

// src/modules/packages/routes.ts
import { Type as Type24 } from "typebox";
function packageRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["packages"];
  const config2 = { roles: ["admin"] };
  r.get("/admin/packages", { config: config2, schema: { tags: tags2, querystring: Type24.Object(PageQuery), response: { 200: Paged(PackageOut) } } }, async (req) => {
    return list3(deps2, req.query);
  });
  r.get("/admin/packages/:id", { config: config2, schema: { tags: tags2, params: IdParams, response: { 200: PackageOut } } }, async (req) => {
    return get3(deps2, req.params.id);
  });
  r.post("/admin/packages", { config: config2, schema: { tags: tags2, errors: { 400: ["BOUQUET_REQUIRED"] }, body: PackageBody, response: { 201: PackageOut } } }, async (req, reply) => {
    return reply.status(201).send(await create2(deps2, req.user, req.body));
  });
  r.put("/admin/packages/:id", { config: config2, schema: { tags: tags2, params: IdParams, errors: { 400: ["BOUQUET_REQUIRED"] }, body: PackageUpdateBody, response: { 200: PackageOut } } }, async (req) => {
    return update2(deps2, req.user, req.params.id, req.body);
  });
}

// src/modules/player/routes.ts
import { Type as Type26 } from "typebox";

// src/modules/player/schemas.ts
import { Type as Type25 } from "typebox";
var Credential2 = Type25.String({ minLength: 1, maxLength: 100 });
var IdText = Type25.String({ maxLength: 20 });
var PlayerApiQuery = Type25.Object({
  username: Credential2,
  password: Credential2,
  action: Type25.Optional(Type25.String({ maxLength: 40, description: "none (user and server info), get_live_categories, get_vod_categories, get_series_categories, get_live_streams, get_vod_streams, get_series, get_vod_info, get_series_info, get_short_epg; unknown actions answer []" })),
  category_id: Type25.Optional(IdText),
  vod_id: Type25.Optional(IdText),
  series_id: Type25.Optional(IdText),
  stream_id: Type25.Optional(IdText),
  limit: Type25.Optional(IdText)
});
var PlaylistQuery = Type25.Object({
  username: Credential2,
  password: Credential2,
  type: Type25.Optional(Type25.Union([Type25.Literal("m3u_plus"), Type25.Literal("m3u")])),
  output: Type25.Optional(Type25.Union([Type25.Literal("ts"), Type25.Literal("mpegts"), Type25.Literal("m3u8"), Type25.Literal("hls")]))
});
var Numeric = Type25.String({ pattern: "^[0-9]*$" });
var UserInfo = Type25.Object({
  username: Type25.String(),
  password: Type25.String(),
  message: Type25.String(),
  auth: Type25.Literal(1),
  status: Type25.Union([Type25.Literal("Active"), Type25.Literal("Banned"), Type25.Literal("Disabled"), Type25.Literal("Expired")]),
  exp_date: Type25.Union([Numeric, Type25.Null()]),
  is_trial: Type25.Union([Type25.Literal("0"), Type25.Literal("1")]),
  active_cons: Numeric,
  created_at: Numeric,
  max_connections: Numeric,
  allowed_output_formats: Type25.Array(Type25.String())
});
var ServerInfo = Type25.Object({
  url: Type25.String(),
  port: Numeric,
  https_port: Numeric,
  server_protocol: Type25.String(),
  rtmp_port: Numeric,
  timezone: Type25.String(),
  timestamp_now: Type25.Integer(),
  time_now: Type25.String(),
  process: Type25.Boolean()
});
var Category = Type25.Object({ category_id: Numeric, category_name: Type25.String(), parent_id: Type25.Integer() });
var Listed2 = Type25.Object(
  { num: Type25.Integer(), name: Type25.String(), stream_type: Type25.String(), category_id: Numeric, added: Type25.Optional(Numeric) },
  { additionalProperties: true, description: "get_live_streams: stream_id, stream_icon, epg_channel_id; get_vod_streams: stream_id, stream_icon, rating, container_extension; get_series: series_id, cover, plot..." }
);
var Detail = Type25.Object({}, { additionalProperties: true, description: "get_vod_info: {info, movie_data}; get_series_info: {seasons, info, episodes}; get_short_epg: {epg_listings}" });
var PlayerApiAnswer = Type25.Union([
  Type25.Object({ user_info: UserInfo, server_info: ServerInfo }),
  Type25.Object({ user_info: Type25.Object({ auth: Type25.Literal(0) }) }, { description: "wrong username or password" }),
  Type25.Array(Category),
  Type25.Array(Listed2),
  Detail
]);

// src/modules/player/routes.ts
var raw = (reply, body) => reply.send(body);
function playerRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["player"];
  const security = [];
  r.get("/player_api.php", { schema: { tags: tags2, security, querystring: PlayerApiQuery, response: { 200: PlayerApiAnswer } } }, async (req, reply) => {
    const answer = await playerApi(deps2, req.query, req.ip, requestOrigin(req));
    reply.type("application/json; charset=utf-8").header("Cache-Control", "no-store");
    return raw(reply, "stream" in answer ? answer.stream : JSON.stringify(answer.json));
  });
  r.get(
    "/get.php",
    { schema: { tags: tags2, security, errors: { 401: ["INVALID_CREDENTIALS"], 403: ["LINE_BLOCKED", "LINE_EXPIRED", "LINE_DISABLED"], 429: ["RATE_LIMITED"] }, querystring: PlaylistQuery, response: { 200: { description: "M3U playlist", content: { "audio/x-mpegurl": { schema: Type26.String() } } } } } },
    async (req, reply) => {
      const text3 = await playlist(deps2, req.query, req.ip, requestOrigin(req));
      reply.type("audio/x-mpegurl; charset=utf-8").header("Content-Disposition", 'attachment; filename="playlist.m3u"').header("Cache-Control", "no-store");
      return raw(reply, text3);
    }
  );
}

// src/modules/resellers/routes.ts
import { Type as Type27 } from "typebox";
function resellerRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["resellers"];
  const params = IdParams;
  const managers = { roles: ["admin", "master"] };
  const managersOf = { roles: ["admin", "master"], hideAs: "Reseller" };
  r.get(
    "/resellers",
    { config: managers, schema: { tags: tags2, querystring: ListQuery2, response: { 200: Paged(ResellerRow) } } },
    (req) => list5(deps2, req.user, req.query)
  );
  r.post("/resellers/select_search", { config: managers, schema: { tags: tags2, body: SearchBody2, response: { 200: SearchOptions } } }, (req) => selectSearch3(deps2, req.user, req.body.search));
  r.post(
    "/password-strength",
    { config: managers, schema: { tags: tags2, body: StrengthBody, response: { 200: StrengthAnswer } } },
    (req) => estimatePassword(req.body.password, req.body.user_inputs ?? [], req.body.lang === "en-US" ? "en" : "pt")
  );
  r.get("/resellers/:id", { schema: { tags: tags2, params, response: { 200: ResellerDetail } } }, (req) => get5(deps2, req.user, req.params.id));
  r.post(
    "/resellers",
    { config: managers, schema: { tags: tags2, idempotencyKey: true, errors: { 400: ["WEAK_PASSWORD"], 409: ["USERNAME_TAKEN", "INSUFFICIENT_CREDITS", "CREDIT_LIMIT"] }, body: CreateBody2, response: { 201: ResellerDetail } } },
    async (req, reply) => reply.status(201).send(await create5(deps2, req.user, req.body, idempotencyKey(req)))
  );
  r.put(
    "/resellers/:id",
    { config: managersOf, schema: { tags: tags2, params, errors: { 400: ["WEAK_PASSWORD"], 409: ["USERNAME_TAKEN"] }, body: UpdateBody3, response: { 200: ResellerDetail } } },
    (req) => update5(deps2, req.user, req.params.id, req.body)
  );
  r.post(
    "/resellers/:id/block",
    { config: managersOf, schema: { tags: tags2, params, response: { 200: ResellerDetail } } },
    (req) => setStatus2(deps2, req.user, req.params.id, 0)
  );
  r.post(
    "/resellers/:id/unblock",
    { config: managersOf, schema: { tags: tags2, params, response: { 200: ResellerDetail } } },
    (req) => setStatus2(deps2, req.user, req.params.id, 1)
  );
  r.post(
    "/resellers/:id/to_master",
    { config: managersOf, schema: { tags: tags2, params, errors: { 409: ["ALREADY_MASTER", "INSUFFICIENT_CREDITS"] }, response: { 200: ResellerDetail } } },
    (req) => toMaster(deps2, req.user, req.params.id)
  );
  r.post("/resellers/:id/credits", { config: managersOf, schema: { tags: tags2, params, idempotencyKey: true, errors: { 409: ["INSUFFICIENT_CREDITS", "CREDIT_LIMIT"] }, body: CreditsBody, response: { 200: ResellerDetail } } }, async (req, reply) => {
    const outcome = await changeCredits(deps2, req.user, req.params.id, req.body.value, idempotencyKey(req));
    if (outcome.replayed) reply.header("Idempotent-Replayed", "true");
    return reply.status(200).send(outcome.body);
  });
  r.delete(
    "/resellers/:id",
    { config: { roles: ["admin"] }, schema: { tags: tags2, params, errors: { 409: ["CREDIT_LIMIT"] }, body: DeleteBody, response: { 200: DeactivateResult } } },
    (req) => deactivate(deps2, req.user, req.params.id, req.body.target_id)
  );
  r.get(
    "/resellers/:id/ledger",
    { schema: { tags: tags2, params, querystring: Type27.Object({ page: PageQuery.page, per: PageQuery.per }), response: { 200: Paged(LedgerRow) } } },
    (req) => history(deps2, req.user, req.params.id, req.query.page, req.query.per)
  );
  r.get(
    "/resellers/:id/domains",
    { schema: { tags: tags2, params, response: { 200: Type27.Object({ data: Type27.Array(DomainRow) }) } } },
    (req) => list8(deps2, req.user, req.params.id)
  );
  r.put(
    "/resellers/:id/add_domain",
    { config: managersOf, schema: { tags: tags2, params, body: DomainBody, response: { 201: DomainRow } } },
    async (req, reply) => reply.status(201).send(await add(deps2, req.user, req.params.id, req.body.dns_reseller))
  );
}

// src/modules/servers/routes.ts
import { Type as Type28 } from "typebox";
var Server = Type28.Object({ id: Type28.Integer(), name: Type28.String(), url: Type28.String(), created_at: Type28.Integer() });
var Body3 = Type28.Object({ name: Type28.String({ minLength: 1, maxLength: 100, pattern: "\\S" }), url: Type28.String({ minLength: 1, maxLength: 255 }) });
function serverRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["servers"];
  const config2 = { roles: ["admin"] };
  r.get("/admin/servers", { config: config2, schema: { tags: tags2, response: { 200: Type28.Object({ data: Type28.Array(Server) }) } } }, () => list9(deps2));
  r.post(
    "/admin/servers",
    // `key` is shown this once: the edge sends it as X-Edge-Key; only its hash is stored
    { config: config2, schema: { tags: tags2, body: Body3, response: { 201: Type28.Object({ ...Server.properties, key: Type28.String() }) } } },
    async (req, reply) => reply.status(201).send(await create6(deps2, req.user, req.body))
  );
  r.delete("/admin/servers/:id", { config: config2, schema: { tags: tags2, params: IdParams } }, async (req, reply) => {
    await remove4(deps2, req.user, req.params.id);
    return reply.status(204).send();
  });
}

// src/modules/settings/routes.ts
import { Type as Type30 } from "typebox";

// src/modules/settings/rules.ts
import { Type as Type29 } from "typebox";
var int = (minimum, maximum) => Type29.String({ pattern: "^[0-9]{1,10}$", description: `integer ${minimum}..${maximum}` });
var optionalUrl = Type29.String({ maxLength: 500, pattern: "^(|https?://[^\\s]+)$", description: "empty, or an http(s) URL" });
var INT_RANGES = {
  master_min_credit_create: [0, 1e6],
  user_limit_screen: [1, 10],
  trial_limit_per_day: [0, 1e3],
  migration_package_adult: [1, 2147483647],
  migration_package_no_adult: [1, 2147483647],
  lazy_player_monthly_credits: [0, 1e3]
};
var SettingsBody = Type29.Object(
  {
    ...Object.fromEntries(Object.entries(INT_RANGES).map(([k, [min, max]]) => [k, Type29.Optional(int(min, max))])),
    /** empty: links use PUBLIC_URL or the panel's own address */
    main_domain: Type29.Optional(Type29.String({ maxLength: 200, pattern: "^(|(https?://)?[A-Za-z0-9.-]+(:[0-9]{1,5})?/?)$" })),
    chat_group_url: Type29.Optional(optionalUrl),
    manual_url: Type29.Optional(optionalUrl),
    p2p_email_domain: Type29.Optional(Type29.String({ maxLength: 100, pattern: "^(|[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+)$" }))
  }
);

// src/modules/settings/admin.ts
function integrations({ config: config2 }) {
  return {
    public_url: config2.publicUrl ?? null,
    tmdb: Boolean(config2.tmdbApiKey),
    lazy_player: Boolean(config2.lazyPlayerUrl),
    p2p: Boolean(config2.p2pApiUrl),
    old_p2p_panel: Boolean(config2.oldP2pUrl)
  };
}
async function read(deps2) {
  return { settings: await allSettings(deps2.database.db), integrations: integrations(deps2) };
}
async function update7(deps2, actor, values) {
  for (const [key, [min, max]] of Object.entries(INT_RANGES)) {
    const raw2 = values[key];
    if (raw2 !== void 0 && (Number(raw2) < min || Number(raw2) > max)) throw validation(key, `must be an integer from ${min} to ${max}`);
  }
  const normalised = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, k in INT_RANGES ? String(Number(v)) : v.trim()]));
  await withTx(deps2.database, async (trx) => {
    for (const key of ["migration_package_adult", "migration_package_no_adult"]) {
      const id = normalised[key];
      if (id !== void 0 && !await findPackage2(trx, Number(id))) throw validation(key, "choose an existing package");
    }
    const before = await allSettings(trx);
    const changed3 = Object.fromEntries(Object.entries(normalised).filter(([k, v]) => before[k] !== v));
    await saveSettings(trx, changed3);
    for (const [key, value] of Object.entries(changed3)) {
      await writeLog(trx, { type_log: "admin", action: "settings_update", actor_id: actor.id, reseller_id: actor.id, value: `${key}=${value}`.slice(0, 250) });
    }
  });
  return read(deps2);
}

// src/modules/settings/routes.ts
var Answer2 = Type30.Object(
  {
    settings: Type30.Record(Type30.String(), Type30.String()),
    integrations: Type30.Object({ public_url: Nullable(Type30.String()), tmdb: Type30.Boolean(), lazy_player: Type30.Boolean(), p2p: Type30.Boolean(), old_p2p_panel: Type30.Boolean() })
  },
  { title: "AdminSettings" }
);
function settingsRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const config2 = { roles: ["admin"] };
  r.get("/admin/settings", { config: config2, schema: { tags: ["settings"], response: { 200: Answer2 } } }, () => read(deps2));
  r.put(
    "/admin/settings",
    { config: config2, schema: { tags: ["settings"], body: SettingsBody, response: { 200: Answer2 } } },
    (req) => update7(deps2, req.user, req.body)
  );
}

// src/modules/shortlinks/routes.ts
import { Type as Type31 } from "typebox";
var Links = Type31.Object(Object.fromEntries(LINK_TYPES.map((t) => [t, Type31.String()])), {
  title: "LineLinks"
});
function shortlinkRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["users"];
  r.post(
    "/shorturl",
    {
      schema: {
        tags: tags2,
        errors: { 404: ["NOT_FOUND"] },
        body: Type31.Object({
          url: Type31.Optional(Type31.String({ maxLength: 1e3 })),
          user_id: Type31.Integer({ minimum: 1, maximum: 2147483647 }),
          type: Type31.Union(LINK_TYPES.map((t) => Type31.Literal(t)))
        }),
        response: { 200: Type31.Object({ url: Type31.String(), original: Type31.String() }, { title: "ShortLink" }) }
      }
    },
    (req) => shorten(deps2, req.user, req.body.user_id, req.body.type, requestOrigin(req))
  );
  r.get(
    "/users/:id/links",
    { schema: { tags: tags2, params: IdParams, response: { 200: Links } } },
    (req) => linksOf(deps2, req.user, req.params.id, requestOrigin(req))
  );
}
var REFUSALS = {
  not_found: { status: 404, code: "NOT_FOUND", title: "Link n\xE3o encontrado", text: "Este link n\xE3o existe ou foi removido. Pe\xE7a um novo link ao seu revendedor." },
  blocked: { status: 403, code: "LINE_BLOCKED", title: "Acesso bloqueado", text: "Esta assinatura est\xE1 bloqueada. Fale com o seu revendedor." },
  expired: { status: 403, code: "LINE_EXPIRED", title: "Assinatura vencida", text: "Esta assinatura venceu. Fale com o seu revendedor para renovar." },
  rate_limited: { status: 429, code: "RATE_LIMITED", title: "Muitas tentativas", text: "Muitos links inv\xE1lidos foram acessados deste endere\xE7o. Tente novamente mais tarde." }
};
var escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function publicShortlinkRoute(app2, deps2) {
  const schema = {
    tags: ["public"],
    summary: "Opens a line's short link: a redirect to its playlist",
    description: "Refusals are a small Portuguese page for browsers (`Accept: text/html`), JSON otherwise.",
    security: [],
    params: Type31.Object({ code: Type31.String() }),
    response: { 302: Type31.Null({ description: "Redirect (Location) to the playlist, built from the line's current data" }) },
    errors: { 403: ["LINE_BLOCKED", "LINE_EXPIRED"], 404: ["NOT_FOUND"], 429: ["RATE_LIMITED"] }
  };
  app2.get("/s/:code", { schema }, async (req, reply) => {
    const result = await resolve(deps2, req.params.code, req.ip, requestOrigin(req));
    reply.header("Cache-Control", "no-store");
    if (result.kind === "redirect") return reply.redirect(result.url, 302);
    const refusal2 = REFUSALS[result.kind];
    if (result.kind === "rate_limited") {
      req.log.warn({ ip: req.ip }, "short link look-ups refused: too many misses from this IP");
      reply.header("Retry-After", String(result.retryAfter));
    }
    reply.status(refusal2.status);
    if (req.headers.accept?.includes("text/html")) {
      const title2 = escapeHtml(refusal2.title);
      return reply.type("text/html; charset=utf-8").send(`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${title2}</title></head><body><h1>${title2}</h1><p>${escapeHtml(refusal2.text)}</p></body></html>`);
    }
    return reply.send({ statusCode: refusal2.status, code: refusal2.code, message: refusal2.text });
  });
}

// src/modules/vods/routes.ts
import { Type as Type32 } from "typebox";

// src/modules/vods/repo.ts
import { sql as sql20 } from "kysely";
var PUBLIC_COLUMNS = ["v.id", "v.movie_id", "v.media_type", "v.title", "v.year", "v.stars", "v.image_link", "v.status", "v.created_at", "v.updated_at"];
async function insertRequest(db, row) {
  const { id } = await db.insertInto("vod_requests").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}
function findRequest(db, id) {
  return db.selectFrom("vod_requests as v").select(PUBLIC_COLUMNS).where("v.id", "=", id).executeTakeFirst();
}
function requestExists(db, movieId, mediaType) {
  return db.selectFrom("vod_requests").select("id").where("movie_id", "=", movieId).where("media_type", "=", mediaType).executeTakeFirst();
}
function pageRequests(db, opts) {
  let base2 = db.selectFrom("vod_requests as v");
  if (opts.search) base2 = base2.where(sql20`lower(v.title)`, "like", sql20`${`%${escapeLike(opts.search.toLowerCase())}%`} escape '\\'`);
  if (opts.status !== void 0) base2 = base2.where("v.status", "=", opts.status);
  return paginate(
    base2,
    (q) => opts.withRequester ? q.leftJoin("resellers as r", "r.id", "v.reseller_id").select([...PUBLIC_COLUMNS, "v.notes", "r.username as requested_by"]) : q.select(PUBLIC_COLUMNS),
    { db, page: opts.page, per: opts.per, order: opts.order, tiebreak: "v.id" }
  );
}
async function setStatus3(db, ids, status3, at) {
  const res = await db.updateTable("vod_requests").set({ status: status3, updated_at: at }).where("id", "in", ids).executeTakeFirst();
  return Number(res.numUpdatedRows);
}
async function deleteRequests(db, ids) {
  const res = await db.deleteFrom("vod_requests").where("id", "in", ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

// src/modules/vods/tmdb.ts
var str = (v) => typeof v === "string" ? v : "";
function normalise2(r, imageUrl) {
  if (r.media_type !== "movie" && r.media_type !== "tv" || !Number.isSafeInteger(r.id) || r.id <= 0) return null;
  const title2 = str(r.title) || str(r.name);
  if (!title2) return null;
  const year = (str(r.release_date) || str(r.first_air_date)).slice(0, 4);
  const stars = typeof r.vote_average === "number" && Number.isFinite(r.vote_average) ? Math.round(r.vote_average * 10) / 10 : 0;
  const poster = str(r.poster_path);
  return {
    movie_id: r.id,
    title: title2.slice(0, 300),
    year: /^\d{4}$/.test(year) ? year : "",
    stars: Math.min(10, Math.max(0, stars)),
    image_link: /^\/[\w.-]+$/.test(poster) ? `${imageUrl}${poster}` : null,
    media_type: r.media_type
  };
}
var unavailable = (why) => new AppError(424, "CATALOGUE_UNAVAILABLE", `The movie catalogue did not answer: ${why}`);
async function searchCatalogue(config2, query) {
  if (!config2.tmdbApiKey) throw NOT_CONFIGURED("The movie catalogue (TMDB_API_KEY)");
  const url = new URL(`${config2.tmdbApiUrl}/search/multi`);
  url.search = new URLSearchParams({ api_key: config2.tmdbApiKey, query, language: "pt-BR", page: "1", include_adult: "false" }).toString();
  let body;
  try {
    const res = await fetchLimited(url.toString(), { headers: { accept: "application/json" } }, { timeoutMs: config2.integrationTimeoutMs, maxBytes: 2e6 });
    if (res.status !== 200) throw new UpstreamError(`status ${res.status}`, res.status);
    body = JSON.parse(res.text);
  } catch (err) {
    throw unavailable(err instanceof SyntaxError ? "not JSON" : err.message);
  }
  if (!Array.isArray(body.results)) throw unavailable("no results list");
  return body.results.map((r) => normalise2(r, config2.tmdbImageUrl)).filter((r) => r !== null);
}

// src/modules/vods/service.ts
var PENDING = 1;
var ADDED = 2;
var ORDER_FIELDS8 = { id: "v.id", title: "v.title", year: "v.year", stars: "v.stars", status: "v.status", created_at: "v.created_at" };
var NEWEST = { column: "v.created_at", direction: "desc" };
var nowSec5 = () => Math.floor(Date.now() / 1e3);
function search(deps2, query) {
  return searchCatalogue(deps2.config, query).then((data) => ({ data }));
}
async function request(deps2, actor, input) {
  const mediaType = input.media_type ?? "movie";
  const exists = () => new AppError(409, "VOD_REQUEST_EXISTS", "This title was already requested");
  try {
    return await withTx(deps2.database, async (trx) => {
      if (await requestExists(trx, input.movie_id, mediaType)) throw exists();
      const at = nowSec5();
      const id = await insertRequest(trx, {
        reseller_id: actor.id,
        movie_id: input.movie_id,
        media_type: mediaType,
        title: input.title.trim(),
        year: input.year,
        stars: input.stars,
        image_link: input.image_link ?? null,
        notes: input.observacoes?.trim() ?? "",
        status: PENDING,
        created_at: at,
        updated_at: at
      });
      await writeLog(trx, { type_log: "vod", action: "vod_request", actor_id: actor.id, reseller_id: actor.id, value: input.title.trim().slice(0, 200), value_int: input.movie_id });
      return await findRequest(trx, id);
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (await requestExists(deps2.database.db, input.movie_id, mediaType)) throw exists();
    throw err;
  }
}
function list11({ database: database2 }, q) {
  return pageRequests(database2.db, { ...q, order: parseOrder(q.order_by, ORDER_FIELDS8, NEWEST), withRequester: false });
}
function adminList({ database: database2 }, q) {
  return pageRequests(database2.db, { ...q, order: parseOrder(q.order_by, ORDER_FIELDS8, NEWEST), withRequester: true });
}
async function setStatus4(deps2, actor, ids, status3) {
  return withTx(deps2.database, async (trx) => {
    const changed3 = await setStatus3(trx, ids, status3, nowSec5());
    if (changed3 === 0) throw notFound("Request");
    await writeLog(trx, { type_log: "vod", action: "vod_status", actor_id: actor.id, reseller_id: actor.id, value: `${ids.join(",").slice(0, 180)} -> ${status3}`, value_int: changed3 });
    return { changed: changed3 };
  });
}
async function updateOne(deps2, actor, id, status3) {
  await setStatus4(deps2, actor, [id], status3);
  return await findRequest(deps2.database.db, id);
}
async function remove5(deps2, actor, ids) {
  return withTx(deps2.database, async (trx) => {
    const removed = await deleteRequests(trx, ids);
    if (removed === 0) throw notFound("Request");
    await writeLog(trx, { type_log: "vod", action: "vod_remove", actor_id: actor.id, reseller_id: actor.id, value: ids.join(",").slice(0, 200), value_int: removed });
    return { removed };
  });
}

// src/modules/vods/routes.ts
var MediaType = Type32.Union([Type32.Literal("movie"), Type32.Literal("tv")]);
var Status2 = Type32.Integer({ enum: [PENDING, ADDED] });
var Id3 = Type32.Integer({ minimum: 1, maximum: 2147483647 });
var Title = Type32.Object({
  movie_id: Type32.Integer(),
  title: Type32.String(),
  year: Type32.String(),
  stars: Type32.Number(),
  image_link: Nullable(Type32.String()),
  media_type: MediaType
}, { title: "CatalogueTitle" });
var VodRequest = Type32.Object({
  id: Type32.Integer(),
  movie_id: Type32.Integer(),
  media_type: MediaType,
  title: Type32.String(),
  year: Type32.String(),
  stars: Type32.Number(),
  image_link: Nullable(Type32.String()),
  /** 1 pending, 2 added */
  status: Type32.Integer(),
  created_at: Type32.Integer(),
  updated_at: Type32.Integer()
}, { title: "VodRequest" });
var AdminVodRequest = Type32.Object({ ...VodRequest.properties, notes: Type32.String(), requested_by: Nullable(Type32.String()) }, { title: "AdminVodRequest" });
var RequestBody = Type32.Object({
  movie_id: Id3,
  media_type: Type32.Optional(MediaType),
  title: Type32.String({ minLength: 1, maxLength: 300, pattern: "\\S" }),
  year: Type32.String({ pattern: "^(\\d{4})?$" }),
  stars: Type32.Number({ minimum: 0, maximum: 10 }),
  image_link: Type32.Optional(Nullable(Type32.String({ maxLength: 500, pattern: "^https://" }))),
  observacoes: Type32.Optional(Type32.String({ maxLength: 1e3 })),
  /** the old client sends '1'; a new request is always pending */
  status: Type32.Optional(Type32.Union([Type32.Literal("1"), Type32.Literal(1)]))
});
var listQuery = {
  search: Type32.Optional(Type32.String({ maxLength: 100 })),
  page: Type32.Optional(Type32.Integer({ minimum: 1, maximum: 1e6, default: 1 })),
  /** SPEC section 9: the content-request lists page by 10, 25, 50 or 100 */
  per_page: Type32.Optional(Type32.Integer({ enum: [10, 25, 50, 100], default: 10 })),
  order_by: Type32.Optional(Type32.String({ maxLength: 60 }))
};
var ListQuery4 = Type32.Object(listQuery);
var AdminListQuery = Type32.Object({ ...listQuery, status: Type32.Optional(Status2) });
var Ids2 = Type32.Array(Id3, { minItems: 1, maxItems: 500, uniqueItems: true });
function vodRoutes(app2, deps2) {
  const r = app2.withTypeProvider();
  const tags2 = ["vods"];
  const admin = { roles: ["admin"] };
  const askers = { roles: ["admin", "master"] };
  r.get(
    "/vods/search",
    { config: askers, schema: { tags: tags2, errors: { 503: ["NOT_CONFIGURED"], 424: ["CATALOGUE_UNAVAILABLE"] }, querystring: Type32.Object({ q: Type32.String({ minLength: 2, maxLength: 100, pattern: "\\S" }) }), response: { 200: Type32.Object({ data: Type32.Array(Title) }) } } },
    (req) => search(deps2, req.query.q.trim())
  );
  r.get(
    "/vods",
    { schema: { tags: tags2, querystring: ListQuery4, response: { 200: Paged(VodRequest) } } },
    (req) => list11(deps2, { search: req.query.search?.trim() || void 0, page: req.query.page, per: req.query.per_page, order_by: req.query.order_by })
  );
  r.post(
    "/vods/pedido",
    { config: askers, schema: { tags: tags2, errors: { 409: ["VOD_REQUEST_EXISTS"] }, body: RequestBody, response: { 201: VodRequest } } },
    async (req, reply) => reply.status(201).send(await request(deps2, req.user, req.body))
  );
  r.put(
    "/vods/pedido/:id",
    { config: admin, schema: { tags: tags2, params: IdParams, body: Type32.Object({ status: Status2, movie_id: Type32.Optional(Id3) }), response: { 200: VodRequest } } },
    (req) => updateOne(deps2, req.user, req.params.id, req.body.status)
  );
  r.get(
    "/admin/vods",
    { config: admin, schema: { tags: tags2, querystring: AdminListQuery, response: { 200: Paged(AdminVodRequest) } } },
    (req) => adminList(deps2, { search: req.query.search?.trim() || void 0, status: req.query.status, page: req.query.page, per: req.query.per_page, order_by: req.query.order_by })
  );
  r.put(
    "/admin/vods/status",
    { config: admin, schema: { tags: tags2, errors: { 404: ["NOT_FOUND"] }, body: Type32.Object({ ids: Ids2, status: Status2 }), response: { 200: Type32.Object({ changed: Type32.Integer() }) } } },
    (req) => setStatus4(deps2, req.user, req.body.ids, req.body.status)
  );
  r.delete(
    "/admin/vods",
    { config: admin, schema: { tags: tags2, errors: { 404: ["NOT_FOUND"] }, body: Type32.Object({ ids: Ids2 }), response: { 200: Type32.Object({ removed: Type32.Integer() }) } } },
    (req) => remove5(deps2, req.user, req.body.ids)
  );
}

// src/app.ts
var protectedModules = [
  authRoutes,
  packageRoutes,
  bouquetRoutes,
  complementRoutes,
  resellerRoutes,
  logRoutes,
  connectionRoutes,
  lineRoutes,
  shortlinkRoutes,
  dashboardRoutes,
  newsRoutes,
  twoFactorRoutes,
  exportRoutes,
  catalogueRoutes,
  serverRoutes,
  p2pRoutes,
  migrationRoutes,
  lazyPlayerRoutes,
  vodRoutes,
  settingsRoutes
];
async function buildApp(deps2, opts = {}) {
  const app2 = Fastify2({
    logger: opts.logger === false ? false : { level: deps2.config.logLevel },
    bodyLimit: 256 * 1024,
    trustProxy: deps2.config.trustProxy,
    return503OnClosing: true,
    // Two log lines per request cost a fifth of a signed-in request's time (issue 13); the reverse
    // proxy keeps the access log. Errors are logged by the error handler, slow requests below.
    logController: new LogController({ disableRequestLogging: !deps2.config.logRequests }),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } }
  });
  if (!deps2.config.logRequests) logSlowRequests(app2);
  registerValidators(app2);
  registerErrorHandling(app2);
  registerTextGuard(app2);
  registerJsonBody(app2);
  registerRoleChecks(app2);
  await registerSecurityHeaders(app2, deps2.config.publicUrl, new URL(deps2.config.tmdbImageUrl).origin);
  registerShutdownGate(app2);
  await app2.register(swagger, swaggerOptions);
  await app2.register(swaggerUi, { routePrefix: "/api/docs" });
  await app2.register(
    async (api) => {
      publicAuthRoutes(api, deps2);
      publicTwoFactorRoutes(api, deps2);
      await api.register(async (scope2) => {
        requireSession(scope2, deps2);
        for (const mod of protectedModules) mod(scope2, deps2);
      });
    },
    { prefix: "/api" }
  );
  publicShortlinkRoute(app2, deps2);
  playerRoutes(app2, deps2);
  gatewayRoutes(app2, deps2);
  await serveWeb(app2, deps2.config.webDist);
  return app2;
}
var SLOW_REQUEST_MS = 1e3;
function logSlowRequests(app2) {
  app2.addHook("onResponse", (request2, reply, done) => {
    if (reply.elapsedTime >= SLOW_REQUEST_MS) {
      request2.log.warn({ method: request2.method, url: request2.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "slow request");
    }
    done();
  });
}
async function serveWeb(app2, dist) {
  const root = dist ? path2.resolve(dist) : void 0;
  const hasWeb = root !== void 0 && fs2.existsSync(path2.join(root, "index.html"));
  if (hasWeb) {
    await app2.register(fastifyStatic, {
      root,
      wildcard: true,
      index: "index.html",
      preCompressed: true,
      // the build writes .br and .gz beside each asset
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const name = path2.basename(filePath).replace(/\.(br|gz)$/, "");
        if (filePath.includes(`${path2.sep}assets${path2.sep}`)) res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
        else if (/^(sw\.js|registerSW\.js|manifest\.webmanifest|index\.html)$/.test(name)) res.setHeader("Cache-Control", "no-cache");
        else res.setHeader("Cache-Control", "public, max-age=0");
      }
    });
  }
  app2.setNotFoundHandler((request2, reply) => {
    const isApi = request2.url === "/api" || request2.url.startsWith("/api/");
    if (isApi || !hasWeb || request2.method !== "GET") {
      return reply.status(404).send({ statusCode: 404, code: "NOT_FOUND", message: `Route ${request2.method} ${request2.url.split("?")[0]} not found` });
    }
    return reply.type("text/html").header("Cache-Control", "no-cache").sendFile("index.html");
  });
}

// src/bootstrap.ts
import { randomBytes as randomBytes6 } from "node:crypto";
async function ensureFirstAdmin({ config: config2, database: database2 }) {
  const any = await database2.db.selectFrom("resellers").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  const generated = config2.adminPassword ? void 0 : randomBytes6(12).toString("base64url");
  const password = config2.adminPassword ?? generated;
  const weakness = config2.adminPassword ? await passwordWeakness(config2.adminPassword) : null;
  if (weakness) throw new Error(`ADMIN_PASSWORD is too weak (${weakness}): choose a stronger one, or leave it unset to get a generated password`);
  const password_hash = await hashPassword(password);
  await withTx(database2, async (trx) => {
    const group = await trx.selectFrom("groups").select("group_id").where("type", "=", "admin").orderBy("group_id").executeTakeFirstOrThrow();
    const admin = await trx.insertInto("resellers").values({ username: config2.adminUsername, password_hash, member_group_id: group.group_id, credits: 0, status: 1, created_at: nowSec() }).returning("id").executeTakeFirstOrThrow();
    await trx.insertInto("reseller_tree").values({ ancestor_id: admin.id, descendant_id: admin.id, depth: 0 }).execute();
  });
  return { username: config2.adminUsername, password: generated };
}

// src/cluster.ts
import cluster from "node:cluster";
var QUICK_DEATH_MS = 1e4;
var RESTART_DELAY_MS = 1e3;
var isWorker = () => cluster.isWorker;
function superviseWorkers(count, log2 = console.error) {
  const alive = /* @__PURE__ */ new Map();
  let stopping = false;
  let failed2 = false;
  let done = () => void 0;
  const finished = new Promise((resolve2) => {
    done = resolve2;
  });
  const listened = /* @__PURE__ */ new WeakSet();
  const fork = () => {
    if (stopping) return;
    alive.set(cluster.fork(), Date.now());
  };
  const stop = (sig) => {
    if (stopping) return;
    stopping = true;
    if (alive.size === 0) done(failed2 ? 1 : 0);
    for (const worker2 of alive.keys()) worker2.process.kill(sig);
  };
  cluster.on("listening", (worker2) => listened.add(worker2));
  cluster.on("exit", (worker2, code, signal) => {
    const lived = Date.now() - (alive.get(worker2) ?? 0);
    alive.delete(worker2);
    if (stopping) {
      if (code !== 0) failed2 = true;
      if (alive.size === 0) done(failed2 ? 1 : 0);
      return;
    }
    const how = signal ?? `code ${code}`;
    if (!listened.has(worker2)) {
      log2(`worker ${worker2.process.pid} could not start (${how}): stopping`);
      failed2 = true;
      stop("SIGTERM");
      return;
    }
    log2(`worker ${worker2.process.pid} exited unexpectedly (${how}): starting another`);
    setTimeout(fork, lived < QUICK_DEATH_MS ? RESTART_DELAY_MS : 0);
  });
  for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => stop(sig));
  for (let i = 0; i < count; i++) fork();
  return finished;
}

// src/config.ts
import { isIP as isIP4 } from "node:net";
import path3 from "node:path";
import { fileURLToPath } from "node:url";
var REPO_ROOT = path3.resolve(path3.dirname(fileURLToPath(import.meta.url)), "../..");
function int2(env, name, fallback, min = 0) {
  const raw2 = env[name];
  if (raw2 === void 0 || raw2 === "") return fallback;
  const n3 = Number(raw2);
  if (!Number.isInteger(n3) || n3 < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw2}"`);
  return n3;
}
function httpUrl2(env, name) {
  const raw2 = env[name]?.trim();
  if (!raw2) return void 0;
  let url;
  try {
    url = new URL(raw2);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw2}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got "${raw2}"`);
  return raw2.replace(/\/+$/, "");
}
function twoFactorKey(raw2) {
  if (!raw2) return void 0;
  if (raw2.length < 32) throw new Error("TWO_FACTOR_KEY must be at least 32 characters (e.g. openssl rand -hex 32)");
  return raw2;
}
function baseUrl(env, name) {
  const raw2 = env[name]?.trim();
  if (!raw2) return void 0;
  let url;
  try {
    url = new URL(raw2);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw2}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got "${raw2}"`);
  return raw2.replace(/\/+$/, "");
}
function loadConfig(env = process.env) {
  const databaseUrl = resolveDatabaseUrl(env);
  return {
    port: int2(env, "PORT", 3e3),
    host: env.HOST || "127.0.0.1",
    databaseUrl,
    adminUsername: env.ADMIN_USERNAME || "admin",
    adminPassword: env.ADMIN_PASSWORD || void 0,
    logLevel: env.LOG_LEVEL || "info",
    logRequests: env.LOG_REQUESTS === "1",
    sessionIdleMinutes: int2(env, "SESSION_IDLE_MINUTES", 30, 1),
    sessionMaxHours: int2(env, "SESSION_MAX_HOURS", 12, 1),
    rememberMeDays: int2(env, "REMEMBER_ME_DAYS", 30, 1),
    loginMaxFailures: int2(env, "LOGIN_MAX_FAILURES", 5, 1),
    loginIpMaxFailures: int2(env, "LOGIN_IP_MAX_FAILURES", 50, 1),
    loginAccountMaxFailures: int2(env, "LOGIN_ACCOUNT_MAX_FAILURES", 100, 1),
    loginDelaySeconds: int2(env, "LOGIN_DELAY_SECONDS", 60, 1),
    loginMaxDelaySeconds: int2(env, "LOGIN_MAX_DELAY_SECONDS", 900, 1),
    loginWindowSeconds: int2(env, "LOGIN_WINDOW_SECONDS", 3600, 1),
    loginDeviceDays: int2(env, "LOGIN_DEVICE_DAYS", 180, 1),
    webDist: env.WEB_DIST || void 0,
    publicUrl: env.PUBLIC_URL || void 0,
    dashboardCacheSeconds: int2(env, "DASHBOARD_CACHE_SECONDS", 30),
    trustProxy: trustProxy(env.TRUST_PROXY),
    requireAdmin2fa: env.REQUIRE_ADMIN_2FA === "1",
    twoFactorKey: twoFactorKey(env.TWO_FACTOR_KEY),
    p2pApiUrl: baseUrl(env, "P2P_API_URL"),
    p2pApiKey: env.P2P_API_KEY || void 0,
    p2pRetryBaseMs: int2(env, "P2P_RETRY_BASE_MS", 1e3, 1),
    p2pRetryMaxMs: int2(env, "P2P_RETRY_MAX_SECONDS", 300, 1) * 1e3,
    oldP2pUrl: baseUrl(env, "OLD_P2P_URL"),
    tmdbApiUrl: httpUrl2(env, "TMDB_API_URL") ?? "https://api.themoviedb.org/3",
    tmdbApiKey: env.TMDB_API_KEY || void 0,
    tmdbImageUrl: httpUrl2(env, "TMDB_IMAGE_URL") ?? "https://image.tmdb.org/t/p/w185",
    lazyPlayerUrl: httpUrl2(env, "LAZY_PLAYER_URL"),
    integrationTimeoutMs: int2(env, "INTEGRATION_TIMEOUT_MS", 1e4, 100),
    onlineWindowSeconds: int2(env, "ONLINE_WINDOW_SECONDS", 60, 1),
    disconnectBanSeconds: int2(env, "DISCONNECT_BAN_SECONDS", 60, 0),
    outboundAllowNetworks: allowNetworks(env.OUTBOUND_ALLOW_NETWORKS),
    workers: workers(env, databaseUrl),
    workerPidHeader: env.WORKER_PID_HEADER === "1"
  };
}
function workers(env, databaseUrl) {
  const n3 = int2(env, "WORKERS", 1, 1);
  if (n3 > 1 && databaseUrl.startsWith("sqlite:")) {
    throw new Error(`WORKERS=${n3} needs PostgreSQL: SQLite has a single writer, so run one process (WORKERS=1 or unset) or set DATABASE_URL=postgres://...`);
  }
  return n3;
}
function resolveDatabaseUrl(env) {
  const dataDir = path3.resolve(REPO_ROOT, env.PANEL_DATA_DIR || "data");
  const url = env.DATABASE_URL || `sqlite:${path3.join(dataDir, "panel.db")}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(url)) throw new Error("DATABASE_URL must start with sqlite: or postgres://");
  if (!url.startsWith("sqlite:")) return url;
  const file3 = url.slice("sqlite:".length);
  if (file3 === "" || file3 === ":memory:") return url;
  return `sqlite:${path3.resolve(REPO_ROOT, file3)}`;
}
function allowNetworks(raw2) {
  const list12 = (raw2 ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const entry of list12) {
    const [address, bits, extra] = entry.split("/");
    const family = isIP4(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || extra !== void 0 || bits !== void 0 && !(/^[0-9]{1,3}$/.test(bits) && Number(bits) <= max)) {
      throw new Error(`OUTBOUND_ALLOW_NETWORKS must list addresses or CIDRs (e.g. "127.0.0.1/32,::1"), got "${raw2}"`);
    }
  }
  return list12;
}
var PROXY_NAMES = /* @__PURE__ */ new Set(["loopback", "linklocal", "uniquelocal"]);
function trustProxy(raw2) {
  const value = raw2?.trim() ?? "";
  if (value === "" || value === "0" || value.toLowerCase() === "off" || value.toLowerCase() === "false") return false;
  const list12 = value.split(",").map((s) => s.trim()).filter(Boolean);
  const valid = (entry) => {
    if (PROXY_NAMES.has(entry)) return true;
    const [address, bits, extra] = entry.split("/");
    const family = isIP4(address);
    return family !== 0 && extra === void 0 && (bits === void 0 || /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  };
  if (list12.length === 0 || !list12.every(valid)) {
    throw new Error(`TRUST_PROXY must list the reverse proxies' addresses (e.g. "loopback" or "10.0.0.5,10.0.1.0/24"), got "${raw2}"`);
  }
  return list12;
}

// src/db/migrations/index.ts
import { Migrator, sql as sql32 } from "kysely";

// src/db/migrations/001_foundation.ts
var foundation_exports = {};
__export(foundation_exports, {
  up: () => up
});
import { sql as sql21 } from "kysely";
async function up(db, { id, bigId }) {
  await db.schema.createTable("groups").addColumn("group_id", id, (c) => c.primaryKey()).addColumn("group_name", "varchar(100)", (c) => c.notNull()).addColumn("type", "varchar(16)", (c) => c.notNull().check(sql21`type in ('admin','master','reseller')`)).execute();
  await db.schema.createTable("resellers").addColumn("id", id, (c) => c.primaryKey()).addColumn("username", "varchar(50)", (c) => c.notNull()).addColumn("password_hash", "varchar(255)", (c) => c.notNull()).addColumn("email", "varchar(255)").addColumn("whatsapp", "varchar(50)").addColumn("telegram", "varchar(100)").addColumn("notes", "varchar(1000)").addColumn("member_group_id", "integer", (c) => c.notNull().references("groups.group_id")).addColumn("owner_id", "integer", (c) => c.references("resellers.id")).addColumn("credits", "integer", (c) => c.notNull().defaultTo(0).check(sql21`credits >= 0`)).addColumn("status", "integer", (c) => c.notNull().defaultTo(1)).addColumn("last_login", "bigint").addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("deleted_at", "bigint").execute();
  await db.schema.createIndex("resellers_username_lower").on("resellers").unique().expression(sql21`lower(username)`).execute();
  await db.schema.createIndex("resellers_owner").on("resellers").column("owner_id").execute();
  await db.schema.createTable("reseller_tree").addColumn("ancestor_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("descendant_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("depth", "integer", (c) => c.notNull()).addPrimaryKeyConstraint("reseller_tree_pk", ["ancestor_id", "descendant_id"]).execute();
  await db.schema.createIndex("reseller_tree_descendant").on("reseller_tree").columns(["descendant_id", "depth"]).execute();
  await db.schema.createTable("sessions").addColumn("id", id, (c) => c.primaryKey()).addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("last_seen_at", "bigint", (c) => c.notNull()).addColumn("expires_at", "bigint", (c) => c.notNull()).addColumn("idle_seconds", "integer", (c) => c.notNull()).addColumn("remember_me", "integer", (c) => c.notNull().defaultTo(0)).addColumn("ip", "varchar(64)").addColumn("user_agent", "varchar(300)").addColumn("revoked_at", "bigint").execute();
  await db.schema.createIndex("sessions_reseller").on("sessions").column("reseller_id").execute();
  await db.schema.createTable("login_attempts").addColumn("key", "varchar(200)", (c) => c.primaryKey()).addColumn("failures", "integer", (c) => c.notNull()).addColumn("window_start", "bigint", (c) => c.notNull()).execute();
  await db.schema.createTable("credit_ledger").addColumn("id", bigId, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("delta", "integer", (c) => c.notNull()).addColumn("balance_after", "integer", (c) => c.notNull().check(sql21`balance_after >= 0`)).addColumn("reason", "varchar(40)", (c) => c.notNull()).addColumn("counterparty_id", "integer").addColumn("line_id", "integer").addColumn("actor_id", "integer", (c) => c.notNull()).addColumn("idempotency_key", "varchar(200)").addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("credit_ledger_reseller").on("credit_ledger").columns(["reseller_id", "id"]).execute();
  await db.schema.createTable("idempotency_keys").addColumn("reseller_id", "integer", (c) => c.notNull()).addColumn("key", "varchar(200)", (c) => c.notNull()).addColumn("request_hash", "varchar(64)", (c) => c.notNull()).addColumn("status_code", "integer", (c) => c.notNull()).addColumn("response", "text", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).addPrimaryKeyConstraint("idempotency_keys_pk", ["reseller_id", "key"]).execute();
  await db.schema.createTable("settings").addColumn("key", "varchar(100)", (c) => c.primaryKey()).addColumn("value", "text", (c) => c.notNull()).execute();
  await db.schema.createTable("bouquets").addColumn("id", id, (c) => c.primaryKey()).addColumn("bouquet_name", "varchar(100)", (c) => c.notNull()).execute();
  await db.schema.createTable("packages").addColumn("id", id, (c) => c.primaryKey()).addColumn("package_name", "varchar(100)", (c) => c.notNull()).addColumn("is_trial", "integer", (c) => c.notNull().defaultTo(0)).addColumn("is_official", "integer", (c) => c.notNull().defaultTo(1)).addColumn("max_connections", "integer", (c) => c.notNull().defaultTo(1)).addColumn("official_credits", "integer", (c) => c.notNull().defaultTo(1)).addColumn("official_duration", "integer", (c) => c.notNull().defaultTo(1)).addColumn("official_duration_in", "varchar(10)", (c) => c.notNull().defaultTo("months")).addColumn("trial_credits", "integer", (c) => c.notNull().defaultTo(0)).addColumn("trial_duration", "integer", (c) => c.notNull().defaultTo(0)).addColumn("trial_duration_in", "varchar(10)", (c) => c.notNull().defaultTo("hours")).addColumn("bouquets", "text", (c) => c.notNull().defaultTo("[]")).execute();
  await db.schema.createTable("logs").addColumn("id", bigId, (c) => c.primaryKey()).addColumn("type_log", "varchar(30)", (c) => c.notNull()).addColumn("action", "varchar(50)", (c) => c.notNull()).addColumn("actor_id", "integer").addColumn("reseller_id", "integer").addColumn("target_reseller_id", "integer").addColumn("target_user", "varchar(100)").addColumn("value", "varchar(500)").addColumn("value_int", "bigint").addColumn("ip", "varchar(64)").addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("logs_reseller_created").on("logs").columns(["reseller_id", "created_at"]).execute();
  await db.schema.createIndex("logs_created").on("logs").column("created_at").execute();
  await db.schema.createTable("news").addColumn("id", id, (c) => c.primaryKey()).addColumn("title", "varchar(200)", (c) => c.notNull()).addColumn("body", "text", (c) => c.notNull()).addColumn("level", "integer", (c) => c.notNull().defaultTo(1)).addColumn("status", "integer", (c) => c.notNull().defaultTo(1)).execute();
}

// src/db/migrations/002_seed.ts
var seed_exports = {};
__export(seed_exports, {
  up: () => up2
});
async function up2(db) {
  await db.insertInto("groups").values([
    { group_name: "Administrators", type: "admin" },
    { group_name: "Master resellers", type: "master" },
    { group_name: "Resellers", type: "reseller" }
  ]).execute();
  await db.insertInto("settings").values(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ key, value }))).execute();
  await db.insertInto("news").values([
    { title: "Avisos", body: "", level: 1, status: 0 },
    { title: "Links", body: "", level: 1, status: 0 }
  ]).execute();
}

// src/db/migrations/003_resellers_lines.ts
var resellers_lines_exports = {};
__export(resellers_lines_exports, {
  up: () => up3
});
async function up3(db, { id }) {
  await db.schema.createIndex("logs_target_created").on("logs").columns(["target_reseller_id", "created_at"]).execute();
  await db.schema.createTable("reseller_domains").addColumn("id", id, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("dns_reseller", "varchar(255)", (c) => c.notNull()).addColumn("token_id", "varchar(64)", (c) => c.notNull().unique()).addColumn("created_by", "integer", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("reseller_domains_reseller").on("reseller_domains").column("reseller_id").execute();
  await db.schema.createTable("lines").addColumn("id", id, (c) => c.primaryKey()).addColumn("member_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("username", "varchar(50)", (c) => c.notNull()).addColumn("password", "varchar(50)", (c) => c.notNull()).addColumn("exp_date", "bigint", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1)).addColumn("is_trial", "integer", (c) => c.notNull().defaultTo(0)).addColumn("max_connections", "integer", (c) => c.notNull().defaultTo(1)).addColumn("package_id", "integer", (c) => c.references("packages.id")).addColumn("bouquet", "text", (c) => c.notNull().defaultTo("[]")).addColumn("reseller_notes", "varchar(500)").addColumn("whatsapp", "varchar(30)").addColumn("system", "integer", (c) => c.notNull().defaultTo(1)).addColumn("last_extended_at", "bigint").addColumn("deleted_at", "bigint").execute();
  await db.schema.createIndex("lines_username").on("lines").column("username").unique().execute();
  await db.schema.createIndex("lines_member_exp").on("lines").columns(["member_id", "exp_date"]).execute();
  await db.schema.createIndex("lines_member_created").on("lines").columns(["member_id", "created_at"]).execute();
  await db.schema.createIndex("lines_exp").on("lines").column("exp_date").execute();
  await db.schema.createIndex("lines_created").on("lines").column("created_at").execute();
}

// src/db/migrations/004_short_links.ts
var short_links_exports = {};
__export(short_links_exports, {
  up: () => up4
});
async function up4(db, { id }) {
  await db.schema.createTable("short_links").addColumn("id", id, (c) => c.primaryKey()).addColumn("code", "varchar(16)", (c) => c.notNull().unique()).addColumn("target", "varchar(1000)", (c) => c.notNull()).addColumn("line_id", "integer", (c) => c.notNull().references("lines.id")).addColumn("type", "varchar(10)", (c) => c.notNull()).addColumn("created_by", "integer", (c) => c.notNull()).addColumn("hits", "integer", (c) => c.notNull().defaultTo(0)).addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("short_links_line").on("short_links").column("line_id").execute();
  await db.schema.createIndex("lines_member_trial_created").on("lines").columns(["member_id", "is_trial", "created_at"]).execute();
}

// src/db/migrations/005_dashboard.ts
var dashboard_exports = {};
__export(dashboard_exports, {
  up: () => up5
});
async function up5(db, { bigId }) {
  await db.schema.createTable("line_activity").addColumn("activity_id", bigId, (c) => c.primaryKey()).addColumn("line_id", "integer", (c) => c.notNull().references("lines.id")).addColumn("stream_name", "varchar(200)").addColumn("user_ip", "varchar(64)").addColumn("user_agent", "varchar(300)").addColumn("date_start", "bigint", (c) => c.notNull()).addColumn("server", "varchar(100)").execute();
  await db.schema.createIndex("line_activity_line").on("line_activity").column("line_id").execute();
  await db.schema.createIndex("lines_member_counters").on("lines").columns(["member_id", "deleted_at", "is_trial", "enabled", "system", "exp_date", "created_at"]).execute();
  await db.schema.createIndex("credit_ledger_created").on("credit_ledger").columns(["created_at"]).execute();
}

// src/db/migrations/006_line_counters.ts
var line_counters_exports = {};
__export(line_counters_exports, {
  up: () => up6
});
import { sql as sql22 } from "kysely";
async function up6(db, { dialect }) {
  await db.schema.alterTable("resellers").addColumn("lines_count", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await sql22`UPDATE resellers SET lines_count = (SELECT count(*) FROM lines WHERE lines.member_id = resellers.id AND lines.deleted_at IS NULL)`.execute(db);
  if (dialect === "postgres") {
    await sql22`
      CREATE FUNCTION lines_count_trg() RETURNS trigger AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
          UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
          UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id;
        END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql22`CREATE TRIGGER lines_count AFTER INSERT OR DELETE OR UPDATE OF member_id, deleted_at ON lines
      FOR EACH ROW EXECUTE FUNCTION lines_count_trg()`.execute(db);
    return;
  }
  await sql22`CREATE TRIGGER lines_count_insert AFTER INSERT ON lines WHEN NEW.deleted_at IS NULL
    BEGIN UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id; END`.execute(db);
  await sql22`CREATE TRIGGER lines_count_update AFTER UPDATE OF member_id, deleted_at ON lines
    BEGIN
      UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id AND OLD.deleted_at IS NULL;
      UPDATE resellers SET lines_count = lines_count + 1 WHERE id = NEW.member_id AND NEW.deleted_at IS NULL;
    END`.execute(db);
  await sql22`CREATE TRIGGER lines_count_delete AFTER DELETE ON lines WHEN OLD.deleted_at IS NULL
    BEGIN UPDATE resellers SET lines_count = lines_count - 1 WHERE id = OLD.member_id; END`.execute(db);
}

// src/db/migrations/007_dashboard_cache.ts
var dashboard_cache_exports = {};
__export(dashboard_cache_exports, {
  up: () => up7
});
async function up7(db) {
  await db.schema.createTable("dashboard_cache").addColumn("reseller_id", "integer", (c) => c.primaryKey()).addColumn("computed_at", "bigint", (c) => c.notNull()).addColumn("invalidated_at", "bigint", (c) => c.notNull().defaultTo(0)).addColumn("body", "text").execute();
}

// src/db/migrations/008_lines_username_lower.ts
var lines_username_lower_exports = {};
__export(lines_username_lower_exports, {
  up: () => up8
});
import { sql as sql23 } from "kysely";
async function up8(db) {
  await db.schema.createIndex("lines_username_lower").on("lines").expression(sql23`lower(username)`).execute();
}

// src/db/migrations/009_login_throttle.ts
var login_throttle_exports = {};
__export(login_throttle_exports, {
  up: () => up9
});
async function up9(db, { id }) {
  await db.schema.createTable("login_throttle").addColumn("key", "varchar(200)", (c) => c.primaryKey()).addColumn("failures", "integer", (c) => c.notNull()).addColumn("delay_seconds", "integer", (c) => c.notNull()).addColumn("blocked_until", "bigint", (c) => c.notNull()).addColumn("last_at", "bigint", (c) => c.notNull()).addColumn("refused", "integer", (c) => c.notNull()).execute();
  await db.schema.createIndex("login_throttle_last_at").on("login_throttle").column("last_at").execute();
  await db.schema.createTable("known_devices").addColumn("id", id, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique()).addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("last_used_at", "bigint", (c) => c.notNull()).addColumn("expires_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("known_devices_reseller").on("known_devices").column("reseller_id").execute();
}

// src/db/migrations/010_two_factor.ts
var two_factor_exports = {};
__export(two_factor_exports, {
  up: () => up10
});
async function up10(db, { id }) {
  await db.schema.createTable("two_factor").addColumn("reseller_id", "integer", (c) => c.primaryKey().references("resellers.id")).addColumn("secret_enc", "varchar(300)", (c) => c.notNull()).addColumn("enabled_at", "bigint").addColumn("last_step", "bigint").addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createTable("two_factor_recovery_codes").addColumn("id", id, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("code_hash", "varchar(64)", (c) => c.notNull()).addColumn("used_at", "bigint").execute();
  await db.schema.createIndex("two_factor_recovery_codes_owner").on("two_factor_recovery_codes").columns(["reseller_id", "code_hash"]).execute();
  await db.schema.createTable("two_factor_challenges").addColumn("id", id, (c) => c.primaryKey()).addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("remember_me", "integer", (c) => c.notNull().defaultTo(0)).addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0)).addColumn("expires_at", "bigint", (c) => c.notNull()).addColumn("used_at", "bigint").addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("two_factor_challenges_expiry").on("two_factor_challenges").column("expires_at").execute();
  await db.schema.createTable("server_keys").addColumn("name", "varchar(50)", (c) => c.primaryKey()).addColumn("value", "varchar(200)", (c) => c.notNull()).execute();
}

// src/db/migrations/011_short_link_codes.ts
var short_link_codes_exports = {};
__export(short_link_codes_exports, {
  up: () => up11
});
async function up11(db) {
  await db.deleteFrom("short_links").execute();
  await db.schema.alterTable("short_links").dropColumn("target").execute();
  await db.schema.createTable("short_link_misses").addColumn("ip", "varchar(64)", (c) => c.primaryKey()).addColumn("misses", "integer", (c) => c.notNull()).addColumn("window_start", "bigint", (c) => c.notNull()).execute();
}

// src/db/migrations/012_main_domain_unset.ts
var main_domain_unset_exports = {};
__export(main_domain_unset_exports, {
  up: () => up12
});
async function up12(db) {
  await db.updateTable("settings").set({ value: "" }).where("key", "=", "main_domain").where("value", "=", "http://localhost:3000").execute();
}

// src/db/migrations/013_download_tokens.ts
var download_tokens_exports = {};
__export(download_tokens_exports, {
  up: () => up13
});
async function up13(db) {
  await db.schema.createTable("download_tokens").addColumn("token_hash", "varchar(64)", (c) => c.primaryKey()).addColumn("session_id", "integer", (c) => c.notNull().references("sessions.id").onDelete("cascade")).addColumn("url", "varchar(2100)", (c) => c.notNull()).addColumn("expires_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("download_tokens_expiry").on("download_tokens").column("expires_at").execute();
}

// src/db/migrations/014_p2p.ts
var p2p_exports = {};
__export(p2p_exports, {
  up: () => up14
});
import { sql as sql24 } from "kysely";
async function up14(db, { id, bigId }) {
  await db.schema.createTable("p2p_accounts").addColumn("id", id, (c) => c.primaryKey()).addColumn("member_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("name", "varchar(100)", (c) => c.notNull()).addColumn("username", "varchar(50)", (c) => c.notNull()).addColumn("email", "varchar(120)", (c) => c.notNull()).addColumn("password", "varchar(50)", (c) => c.notNull()).addColumn("external_password", "varchar(100)").addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("expires_at", "bigint", (c) => c.notNull()).addColumn("status", "integer", (c) => c.notNull().defaultTo(1).check(sql24`status in (-1, 0, 1)`)).addColumn("is_trial", "integer", (c) => c.notNull().defaultTo(0)).addColumn("package_id", "integer", (c) => c.references("packages.id")).addColumn("max_connections", "integer", (c) => c.notNull().defaultTo(1)).addColumn("whatsapp", "varchar(30)").addColumn("notes", "varchar(500)").addColumn("sync_state", "varchar(10)", (c) => c.notNull().defaultTo("pending")).addColumn("sync_error", "varchar(500)").addColumn("sync_version", "integer", (c) => c.notNull().defaultTo(0)).addColumn("synced_at", "bigint").addColumn("deleted_at", "bigint").execute();
  await db.schema.createIndex("p2p_accounts_username").on("p2p_accounts").expression(sql24`lower(username)`).unique().execute();
  await db.schema.createIndex("p2p_accounts_email").on("p2p_accounts").expression(sql24`lower(email)`).unique().execute();
  await db.schema.createIndex("p2p_accounts_member_id").on("p2p_accounts").columns(["member_id", "id"]).execute();
  await db.schema.createIndex("p2p_accounts_member_exp").on("p2p_accounts").columns(["member_id", "expires_at"]).execute();
  await db.schema.createIndex("p2p_accounts_member_created").on("p2p_accounts").columns(["member_id", "created_at"]).execute();
  await db.schema.createIndex("p2p_accounts_exp").on("p2p_accounts").column("expires_at").execute();
  await db.schema.createIndex("p2p_accounts_created").on("p2p_accounts").column("created_at").execute();
  await db.schema.alterTable("lines").addColumn("p2p_sync_state", "varchar(10)").execute();
  await db.schema.alterTable("lines").addColumn("p2p_sync_error", "varchar(500)").execute();
  await db.schema.alterTable("lines").addColumn("p2p_sync_version", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("credit_ledger").addColumn("p2p_account_id", "integer", (c) => c.references("p2p_accounts.id")).execute();
  await db.schema.createTable("outbox").addColumn("id", bigId, (c) => c.primaryKey()).addColumn("subject_kind", "varchar(10)", (c) => c.notNull().check(sql24`subject_kind in ('account', 'line')`)).addColumn("subject_id", "integer", (c) => c.notNull()).addColumn("version", "integer", (c) => c.notNull()).addColumn("login", "varchar(200)", (c) => c.notNull()).addColumn("method", "varchar(10)", (c) => c.notNull().check(sql24`method in ('PUT', 'DELETE')`)).addColumn("body", "text").addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0)).addColumn("next_attempt_at", "bigint", (c) => c.notNull()).addColumn("last_error", "varchar(500)").addColumn("delivered_at", "bigint").execute();
  await db.schema.createIndex("outbox_queue").on("outbox").column("id").where(sql24.ref("delivered_at"), "is", null).execute();
  await db.schema.createIndex("outbox_subject_queue").on("outbox").columns(["subject_kind", "subject_id", "id"]).where(sql24.ref("delivered_at"), "is", null).execute();
  await db.schema.createIndex("outbox_delivered").on("outbox").column("delivered_at").execute();
  await db.schema.createTable("p2p_imports").addColumn("id", id, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("old_username", "varchar(100)", (c) => c.notNull().unique()).addColumn("credits", "integer", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createTable("p2p_old_logins").addColumn("reseller_id", "integer", (c) => c.primaryKey().references("resellers.id")).addColumn("old_username", "varchar(100)", (c) => c.notNull()).addColumn("token", "varchar(1000)", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  const domain = await db.selectFrom("settings").select("key").where("key", "=", "p2p_email_domain").executeTakeFirst();
  if (!domain) await db.insertInto("settings").values({ key: "p2p_email_domain", value: "p2p.local" }).execute();
}

// src/db/migrations/015_catalogue.ts
var catalogue_exports = {};
__export(catalogue_exports, {
  up: () => up15
});
import { sql as sql25 } from "kysely";
async function up15(db, { id }) {
  await db.schema.createTable("categories").addColumn("id", id, (c) => c.primaryKey()).addColumn("kind", "varchar(10)", (c) => c.notNull()).addColumn("name", "varchar(200)", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).addCheckConstraint("categories_kind", sql25`kind IN ('live', 'movie', 'series')`).execute();
  await db.schema.createIndex("categories_kind_name").on("categories").columns(["kind", "name"]).unique().execute();
  await db.schema.createTable("streams").addColumn("id", id, (c) => c.primaryKey()).addColumn("kind", "varchar(10)", (c) => c.notNull()).addColumn("name", "varchar(300)", (c) => c.notNull()).addColumn("category_id", "integer", (c) => c.notNull().references("categories.id")).addColumn("icon", "varchar(1000)").addColumn("added", "bigint", (c) => c.notNull()).addColumn("container_ext", "varchar(10)", (c) => c.notNull()).addColumn("source_url", "varchar(2048)", (c) => c.notNull()).addColumn("epg_id", "varchar(200)").addColumn("rating", "real").addCheckConstraint("streams_kind", sql25`kind IN ('live', 'movie', 'series')`).execute();
  await db.schema.createIndex("streams_source_url").on("streams").column("source_url").unique().execute();
  await db.schema.createIndex("streams_kind_category").on("streams").columns(["kind", "category_id", "id"]).execute();
  await db.schema.createIndex("streams_category").on("streams").columns(["category_id", "id"]).execute();
  await db.schema.createIndex("streams_kind_added").on("streams").columns(["kind", "added"]).execute();
  await db.schema.createTable("bouquet_items").addColumn("bouquet_id", "integer", (c) => c.notNull().references("bouquets.id").onDelete("cascade")).addColumn("category_id", "integer", (c) => c.references("categories.id").onDelete("cascade")).addColumn("stream_id", "integer", (c) => c.references("streams.id").onDelete("cascade")).addCheckConstraint("bouquet_items_one", sql25`(category_id IS NULL) <> (stream_id IS NULL)`).execute();
  await db.schema.createIndex("bouquet_items_category").on("bouquet_items").columns(["bouquet_id", "category_id"]).unique().execute();
  await db.schema.createIndex("bouquet_items_stream").on("bouquet_items").columns(["bouquet_id", "stream_id"]).unique().execute();
  await db.schema.createIndex("bouquet_items_by_category").on("bouquet_items").column("category_id").execute();
  await db.schema.createIndex("bouquet_items_by_stream").on("bouquet_items").column("stream_id").execute();
}

// src/db/migrations/016_edges.ts
var edges_exports = {};
__export(edges_exports, {
  up: () => up16
});
async function up16(db, { id, bigId }) {
  await db.schema.createTable("servers").addColumn("id", id, (c) => c.primaryKey()).addColumn("name", "varchar(100)", (c) => c.notNull()).addColumn("url", "varchar(255)", (c) => c.notNull()).addColumn("key_hash", "varchar(64)", (c) => c.notNull()).addColumn("created_by", "integer", (c) => c.notNull().references("resellers.id")).addColumn("created_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("servers_key_hash").on("servers").column("key_hash").unique().execute();
  await db.schema.dropTable("line_activity").execute();
  await db.schema.createTable("line_activity").addColumn("activity_id", bigId, (c) => c.primaryKey()).addColumn("line_id", "integer", (c) => c.notNull().references("lines.id")).addColumn("stream_id", "integer", (c) => c.references("streams.id").onDelete("set null")).addColumn("server_id", "integer", (c) => c.references("servers.id").onDelete("set null")).addColumn("user_ip", "varchar(64)", (c) => c.notNull()).addColumn("user_agent", "varchar(300)", (c) => c.notNull()).addColumn("date_start", "bigint", (c) => c.notNull()).addColumn("last_seen", "bigint", (c) => c.notNull()).addColumn("ended_at", "bigint").addColumn("banned_until", "bigint").execute();
  await db.schema.createIndex("line_activity_connection").on("line_activity").columns(["line_id", "stream_id", "user_ip", "user_agent"]).unique().execute();
  await db.schema.createIndex("line_activity_last_seen").on("line_activity").column("last_seen").execute();
}

// src/db/migrations/017_vods_lazy_player.ts
var vods_lazy_player_exports = {};
__export(vods_lazy_player_exports, {
  up: () => up17
});
async function up17(db, ctx) {
  await db.schema.createTable("vod_requests").addColumn("id", ctx.id, (c) => c.primaryKey()).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("movie_id", "integer", (c) => c.notNull()).addColumn("media_type", "varchar(8)", (c) => c.notNull()).addColumn("title", "varchar(300)", (c) => c.notNull()).addColumn("year", "varchar(4)", (c) => c.notNull()).addColumn("stars", "double precision", (c) => c.notNull()).addColumn("image_link", "varchar(500)").addColumn("notes", "varchar(1000)", (c) => c.notNull()).addColumn("status", "integer", (c) => c.notNull()).addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("updated_at", "bigint", (c) => c.notNull()).execute();
  await db.schema.createIndex("vod_requests_title").on("vod_requests").columns(["movie_id", "media_type"]).unique().execute();
  await db.schema.createIndex("vod_requests_created").on("vod_requests").columns(["created_at", "id"]).execute();
  await db.schema.createTable("lazy_player_activations").addColumn("id", ctx.id, (c) => c.primaryKey()).addColumn("line_id", "integer", (c) => c.notNull().references("lines.id")).addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id")).addColumn("mac", "varchar(17)", (c) => c.notNull()).addColumn("charged", "integer", (c) => c.notNull()).addColumn("status", "varchar(10)", (c) => c.notNull()).addColumn("error", "varchar(300)").addColumn("idempotency_key", "varchar(200)").addColumn("created_at", "bigint", (c) => c.notNull()).addColumn("finished_at", "bigint").execute();
  await db.schema.createIndex("lazy_player_activations_key").on("lazy_player_activations").columns(["reseller_id", "idempotency_key"]).unique().execute();
  await db.schema.createIndex("lazy_player_activations_line").on("lazy_player_activations").column("line_id").execute();
  await db.insertInto("settings").values([
    { key: "lazy_player_monthly_credits", value: "1" },
    { key: "chat_group_url", value: "" },
    { key: "manual_url", value: "" }
  ]).onConflict((oc) => oc.column("key").doNothing()).execute();
}

// src/db/migrations/018_list_indexes.ts
var list_indexes_exports = {};
__export(list_indexes_exports, {
  up: () => up18
});
import { sql as sql26 } from "kysely";
async function up18(db) {
  const live = sql26`deleted_at is null`;
  const idx = (name, table, columns, where) => {
    const q = db.schema.createIndex(name).on(table).columns(where ? [...columns, "deleted_at"] : columns);
    return (where ? q.where(where) : q).execute();
  };
  await idx("lines_live_id", "lines", ["id", "member_id", "enabled", "is_trial", "exp_date", "created_at"], live);
  await idx("lines_blocked", "lines", ["id", "member_id", "enabled"], sql26`deleted_at is null and enabled = 0`);
  await idx("lines_trial", "lines", ["id", "member_id", "is_trial"], sql26`deleted_at is null and is_trial = 1`);
  await idx("lines_live_created", "lines", ["created_at", "id", "member_id"], live);
  await idx("lines_live_exp", "lines", ["exp_date", "id", "member_id", "enabled"], live);
  await idx("lines_renewable_exp", "lines", ["exp_date", "id", "member_id", "is_trial", "enabled"], sql26`deleted_at is null and is_trial = 0 and enabled = 1`);
  await idx("lines_member_id", "lines", ["member_id", "id"], live);
  await db.schema.dropIndex("lines_member_exp").execute();
  await db.schema.dropIndex("lines_member_created").execute();
  await idx("lines_member_exp", "lines", ["member_id", "exp_date", "enabled", "is_trial", "deleted_at"]);
  await idx("lines_member_created", "lines", ["member_id", "created_at", "deleted_at"]);
  await db.schema.dropIndex("lines_exp").execute();
  await db.schema.dropIndex("lines_created").execute();
  await idx("p2p_live_id", "p2p_accounts", ["id", "member_id"], sql26`deleted_at is null`);
  await idx("logs_action_created", "logs", ["action", "created_at"]);
  await idx("logs_created_scope", "logs", ["created_at", "reseller_id", "target_reseller_id"]);
  await db.schema.dropIndex("logs_created").execute();
}

// src/db/migrations/019_lines_top_reseller.ts
var lines_top_reseller_exports = {};
__export(lines_top_reseller_exports, {
  up: () => up19
});
import { sql as sql27 } from "kysely";
async function up19(db, { dialect }) {
  await db.schema.alterTable("lines").addColumn("top_reseller_id", "integer").execute();
  const top = (member) => sql27.raw(`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${member}
      and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${member}) - 1), ${member})`);
  await sql27`update lines set top_reseller_id = ${top("lines.member_id")}`.execute(db);
  if (dialect === "postgres") {
    await sql27`
      CREATE FUNCTION lines_top_trg() RETURNS trigger AS $$
      BEGIN
        NEW.top_reseller_id := ${top("NEW.member_id")};
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql27`CREATE TRIGGER lines_top BEFORE INSERT OR UPDATE OF member_id ON lines
      FOR EACH ROW EXECUTE FUNCTION lines_top_trg()`.execute(db);
  } else {
    await sql27`CREATE TRIGGER lines_top_insert AFTER INSERT ON lines
      BEGIN UPDATE lines SET top_reseller_id = ${top("NEW.member_id")} WHERE id = NEW.id; END`.execute(db);
    await sql27`CREATE TRIGGER lines_top_update AFTER UPDATE OF member_id ON lines
      BEGIN UPDATE lines SET top_reseller_id = ${top("NEW.member_id")} WHERE id = NEW.id; END`.execute(db);
  }
  await db.schema.createIndex("lines_top_id").on("lines").columns(["top_reseller_id", "id", "member_id", "enabled", "is_trial", "exp_date", "created_at", "deleted_at"]).where(sql27`deleted_at is null`).execute();
  await db.schema.createIndex("resellers_lines_count").on("resellers").column("lines_count").execute();
}

// src/db/migrations/020_migration_lookups.ts
var migration_lookups_exports = {};
__export(migration_lookups_exports, {
  up: () => up20
});
async function up20(db) {
  await db.schema.createTable("migration_lookups").addColumn("reseller_id", "integer", (c) => c.notNull().references("resellers.id").onDelete("cascade")).addColumn("username", "text", (c) => c.notNull()).addColumn("password_sha256", "varchar(64)", (c) => c.notNull()).addColumn("exp_date", "bigint").addColumn("created_at", "bigint").addColumn("is_trial", "integer", (c) => c.notNull()).addColumn("looked_up_at", "bigint", (c) => c.notNull()).addPrimaryKeyConstraint("migration_lookups_pk", ["reseller_id", "username"]).execute();
  await db.schema.createIndex("migration_lookups_age").on("migration_lookups").column("looked_up_at").execute();
}

// src/db/migrations/021_resellers_group_index.ts
var resellers_group_index_exports = {};
__export(resellers_group_index_exports, {
  up: () => up21
});
async function up21(db) {
  await db.schema.createIndex("resellers_group").on("resellers").column("member_group_id").execute();
}

// src/db/migrations/022_line_search.ts
var line_search_exports = {};
__export(line_search_exports, {
  up: () => up22
});
import { sql as sql28 } from "kysely";
async function up22(db, { dialect }) {
  if (dialect === "postgres") {
    await sql28`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql28`CREATE INDEX lines_username_trgm ON lines USING gin (lower(username) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    await sql28`CREATE INDEX lines_notes_trgm ON lines USING gin (lower(reseller_notes) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    await sql28`CREATE INDEX lines_whatsapp_trgm ON lines USING gin (whatsapp gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
    return;
  }
  const cols = "username, reseller_notes, whatsapp";
  await sql28.raw(`CREATE VIRTUAL TABLE lines_search USING fts5(${cols}, content='lines', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql28.raw(`INSERT INTO lines_search(lines_search) VALUES ('rebuild')`).execute(db);
  const add2 = `INSERT INTO lines_search(rowid, ${cols}) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp);`;
  const drop = `INSERT INTO lines_search(lines_search, rowid, ${cols}) VALUES ('delete', old.id, old.username, old.reseller_notes, old.whatsapp);`;
  await sql28.raw(`CREATE TRIGGER lines_search_insert AFTER INSERT ON lines BEGIN ${add2} END`).execute(db);
  await sql28.raw(`CREATE TRIGGER lines_search_delete AFTER DELETE ON lines BEGIN ${drop} END`).execute(db);
  await sql28.raw(`CREATE TRIGGER lines_search_update AFTER UPDATE OF ${cols} ON lines BEGIN ${drop} ${add2} END`).execute(db);
}

// src/db/migrations/023_logs_top_reseller.ts
var logs_top_reseller_exports = {};
__export(logs_top_reseller_exports, {
  up: () => up23
});
import { sql as sql29 } from "kysely";
async function up23(db, { dialect }) {
  await db.schema.alterTable("logs").addColumn("top_reseller_id", "integer").execute();
  await db.schema.alterTable("logs").addColumn("target_top_reseller_id", "integer").execute();
  const top = (reseller2) => sql29.raw(`coalesce((select t.ancestor_id from reseller_tree t where t.descendant_id = ${reseller2}
      and t.depth = (select max(m.depth) from reseller_tree m where m.descendant_id = ${reseller2}) - 1), ${reseller2})`);
  await sql29`update logs set top_reseller_id = ${top("logs.reseller_id")}, target_top_reseller_id = ${top("logs.target_reseller_id")}
    where reseller_id is not null or target_reseller_id is not null`.execute(db);
  if (dialect === "postgres") {
    await sql29`
      CREATE FUNCTION logs_top_trg() RETURNS trigger AS $$
      BEGIN
        NEW.top_reseller_id := ${top("NEW.reseller_id")};
        NEW.target_top_reseller_id := ${top("NEW.target_reseller_id")};
        RETURN NEW;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql29`CREATE TRIGGER logs_top BEFORE INSERT ON logs FOR EACH ROW EXECUTE FUNCTION logs_top_trg()`.execute(db);
  } else {
    await sql29`CREATE TRIGGER logs_top_insert AFTER INSERT ON logs
      WHEN NEW.reseller_id IS NOT NULL OR NEW.target_reseller_id IS NOT NULL
      BEGIN UPDATE logs SET top_reseller_id = ${top("NEW.reseller_id")}, target_top_reseller_id = ${top("NEW.target_reseller_id")} WHERE id = NEW.id; END`.execute(db);
  }
  await db.schema.createIndex("logs_top_created").on("logs").columns(["top_reseller_id", "created_at", "id", "type_log", "action"]).execute();
  await db.schema.createIndex("logs_target_top_created").on("logs").columns(["target_top_reseller_id", "created_at", "id", "top_reseller_id", "type_log", "action"]).where(sql29`target_top_reseller_id is not null`).execute();
}

// src/db/migrations/024_line_search_statistics.ts
var line_search_statistics_exports = {};
__export(line_search_statistics_exports, {
  up: () => up24
});
import { sql as sql30 } from "kysely";
async function up24(db, { dialect }) {
  if (dialect !== "postgres") return;
  await sql30`CREATE STATISTICS lines_search_walk ON (coalesce(lower(username), '')), (coalesce(lower(reseller_notes), '')), (coalesce(whatsapp, '')) FROM lines`.execute(db);
  await sql30`ANALYZE lines`.execute(db);
}

// src/db/migrations/025_line_search_deferral.ts
var line_search_deferral_exports = {};
__export(line_search_deferral_exports, {
  up: () => up25
});
import { sql as sql31 } from "kysely";
async function up25(db, { dialect }) {
  if (dialect === "postgres") return;
  await sql31`CREATE TABLE line_search_deferral (deferred integer NOT NULL CHECK (deferred IN (0, 1)))`.execute(db);
  await sql31`INSERT INTO line_search_deferral (deferred) VALUES (0)`.execute(db);
  await sql31`DROP TRIGGER lines_search_insert`.execute(db);
  await sql31.raw(
    `CREATE TRIGGER lines_search_insert AFTER INSERT ON lines WHEN (SELECT deferred FROM line_search_deferral) = 0
     BEGIN INSERT INTO lines_search(rowid, username, reseller_notes, whatsapp) VALUES (new.id, new.username, new.reseller_notes, new.whatsapp); END`
  ).execute(db);
}

// src/db/migrations/index.ts
var steps = {
  "001_foundation": foundation_exports,
  "002_seed": seed_exports,
  "003_resellers_lines": resellers_lines_exports,
  "004_short_links": short_links_exports,
  "005_dashboard": dashboard_exports,
  "006_line_counters": line_counters_exports,
  "007_dashboard_cache": dashboard_cache_exports,
  "008_lines_username_lower": lines_username_lower_exports,
  "009_login_throttle": login_throttle_exports,
  "010_two_factor": two_factor_exports,
  "011_short_link_codes": short_link_codes_exports,
  "012_main_domain_unset": main_domain_unset_exports,
  "013_download_tokens": download_tokens_exports,
  "014_p2p": p2p_exports,
  "015_catalogue": catalogue_exports,
  "016_edges": edges_exports,
  "017_vods_lazy_player": vods_lazy_player_exports,
  "018_list_indexes": list_indexes_exports,
  "019_lines_top_reseller": lines_top_reseller_exports,
  "020_migration_lookups": migration_lookups_exports,
  "021_resellers_group_index": resellers_group_index_exports,
  "022_line_search": line_search_exports,
  "023_logs_top_reseller": logs_top_reseller_exports,
  "024_line_search_statistics": line_search_statistics_exports,
  "025_line_search_deferral": line_search_deferral_exports
};
var StaticProvider = class {
  constructor(ctx) {
    this.ctx = ctx;
  }
  ctx;
  async getMigrations() {
    return Object.fromEntries(
      Object.entries(steps).map(([name, step]) => [name, { up: (db) => step.up(db, this.ctx) }])
    );
  }
};
async function upToDate(db) {
  const latest3 = Object.keys(steps).at(-1);
  try {
    const { rows } = await sql32`select max(name) as name, count(*) as n from kysely_migration`.execute(db);
    return rows[0]?.name === latest3 && Number(rows[0]?.n) === Object.keys(steps).length;
  } catch {
    return false;
  }
}
async function migrate2(db, dialect) {
  if (await upToDate(db)) return;
  const ctx = dialect === "sqlite" ? { dialect, id: "integer", bigId: "integer" } : { dialect, id: "serial", bigId: "bigserial" };
  const migrator = new Migrator({ db, provider: new StaticProvider(ctx) });
  const { error, results } = await migrator.migrateToLatest();
  const failed2 = results?.find((r) => r.status === "Error");
  if (error || failed2) throw new Error(`migration ${failed2?.migrationName ?? ""} failed: ${String(error)}`);
}

// src/modules/p2p/worker.ts
import { randomBytes as randomBytes7 } from "node:crypto";
var BATCH2 = 20;
var PRUNE_EVERY_MS = 36e5;
var KEEP_DELIVERED_MS = 7 * 864e5;
function startOutboxWorker(deps2, opts = {}) {
  const pollMs = opts.pollMs ?? 1e3;
  const batch = opts.batch ?? BATCH2;
  const log2 = opts.log ?? ((msg, err) => console.error(`p2p outbox: ${msg}`, err ?? ""));
  const id = randomBytes7(4).toString("hex");
  const abort = new AbortController();
  let stopping = false;
  let wake = () => {
  };
  let kicked = false;
  let delivered = 0;
  let lastPrune = 0;
  const sleep = () => new Promise((resolve2) => {
    if (kicked) return resolve2();
    const timer = setTimeout(done, pollMs);
    function done() {
      clearTimeout(timer);
      wake = () => {
      };
      resolve2();
    }
    wake = done;
  });
  const unsubscribe = onKick(() => {
    kicked = true;
    wake();
  });
  async function send2(d) {
    try {
      if (d.method === "PUT") await putAccount(deps2.config, d.login, JSON.parse(d.body ?? "{}"), `outbox-${d.id}`, abort.signal);
      else await deleteAccount(deps2.config, d.login, `outbox-${d.id}`, abort.signal);
      return null;
    } catch (err) {
      return err.message || String(err);
    }
  }
  async function record(trx, rows, errors) {
    const now5 = Date.now();
    for (const [i, d] of rows.entries()) {
      const error = errors[i];
      if (error === void 0 || error !== null && stopping) continue;
      if (error === null) {
        await markDelivered(trx, d, now5);
        delivered++;
      } else {
        await markFailed(trx, d, now5 + retryDelayMs(d.attempts + 1, deps2.config.p2pRetryBaseMs, deps2.config.p2pRetryMaxMs), error);
      }
    }
  }
  async function round() {
    const { database: database2 } = deps2;
    if (database2.dialect === "postgres") {
      return withTx(database2, async (trx) => {
        const rows2 = await claimDue(trx, Date.now(), batch, true);
        await record(trx, rows2, await Promise.all(rows2.map(send2)));
        return rows2.length;
      });
    }
    const rows = await claimDue(database2.db, Date.now(), batch, false);
    if (rows.length === 0) return 0;
    const errors = await Promise.all(rows.map(send2));
    await withTx(database2, (trx) => record(trx, rows, errors));
    return rows.length;
  }
  async function prune2() {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    await pruneDelivered(deps2.database.db, Date.now() - KEEP_DELIVERED_MS);
  }
  const loop = (async () => {
    while (!stopping) {
      let n3 = 0;
      kicked = false;
      try {
        n3 = await round();
        if (n3 === 0) await prune2();
      } catch (err) {
        if (!stopping) log2(`worker ${id}: round failed`, err);
      }
      if (n3 === 0 && !stopping) await sleep();
    }
  })();
  return {
    get delivered() {
      return delivered;
    },
    async stop() {
      stopping = true;
      unsubscribe();
      abort.abort();
      wake();
      await loop;
    }
  };
}

// src/main.ts
var here = path4.dirname(fileURLToPath2(import.meta.url));
var config = loadConfig();
config.webDist ??= path4.resolve(here, "../../web/dist");
async function prepare(database2, config2) {
  await migrate2(database2.db, database2.dialect);
  const admin = await ensureFirstAdmin({ config: config2, database: database2 });
  if (admin?.password) {
    console.log(`
  First admin created: username "${admin.username}", password "${admin.password}"
`);
  } else if (admin) {
    console.log(`
  First admin created: username "${admin.username}" (password from ADMIN_PASSWORD)
`);
  }
}
if (config.workers > 1 && !isWorker()) {
  const database2 = openDatabase(config.databaseUrl);
  await prepare(database2, config);
  await database2.close();
  process.exit(await superviseWorkers(config.workers));
}
var database = openDatabase(config.databaseUrl);
if (!isWorker()) await prepare(database, config);
var deps = { config, database };
var app = await buildApp(deps);
if (config.workerPidHeader) app.addHook("onSend", async (_req, reply) => void reply.header("x-worker-pid", String(process.pid)));
await app.listen({ port: config.port, host: config.host });
var worker = config.p2pApiUrl ? startOutboxWorker(deps, { log: (msg, err) => app.log.error({ err }, msg) }) : void 0;
if (!config.p2pApiUrl) app.log.warn("P2P_API_URL is not set: changes to P2P accounts wait in the outbox until it is");
var closing = false;
async function shutdown(signal) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, "shutting down: finishing in-flight requests");
  try {
    await worker?.stop();
    await closeGracefully(app);
    await database.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, "shutdown failed");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
//# sourceMappingURL=main.js.map
