// npm run bench:query — analytics query latency through the HTTP API on 10 million events in
// one project, idle and while 50,000 events/s are being inserted, and the same queries run
// directly on PostgreSQL 15 over the same rows (COPY), reported as ratios. With
// BENCH_ROWS above 10 M (e.g. BENCH_ROWS=100000000), a second project of that many events is
// loaded in the same run and measured the same way: p95 side by side and the growth ratio
// p95(large) / p95(10 M), which the rollups (clickhouse/007) keep near 1.
// Results: artifacts/bench/query.json. Needs the local stack (npm run stack:up) and a build.
//
// Data set: generated inside ClickHouse with INSERT … SELECT FROM numbers() and deterministic
// pseudo-random expressions (intHash32 of the row number): 30 days of one-hour sessions, 5 maps,
// 20 event names, 5,000 players, 5 builds, positions over a 1000 × 1000 world. Not loaded through the ingest
// gateway (bench:ingest measures that path); the load during the "ingesting" phase is direct
// ClickHouse inserts of 50,000 rows every second (NOTE: not the gateway + consumer pipeline).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { promisify } from 'node:util';
import pg from 'pg';
import { createClickHouseReader, literal, openConnection } from '@framedeck/clickhouse';
import { clickhouseSection, postgresSection } from '@framedeck/config';
import { bootstrapTenant, createApiKey } from '@framedeck/accounts';
import { queryInsights, RAW_EVENT_TABLES } from '@framedeck/analytics';
import { createPool, saveMapImage, upsertMap } from '@framedeck/postgres';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The size the data set's shape is defined at (players scale with rows from it). */
const REFERENCE_ROWS = 10_000_000;
/**
 * The size measured in every run (and the one PostgreSQL loads): 10 M unless BENCH_BASE_ROWS
 * says otherwise — e.g. BENCH_BASE_ROWS=1000000 BENCH_ROWS=10000000 measures a tenfold growth
 * in the time one 10 M load takes, when a 100 M load does not fit.
 */
const BASE_ROWS = Number(process.env.BENCH_BASE_ROWS ?? REFERENCE_ROWS);
/** BENCH_POSTGRES=0 leaves out the PostgreSQL comparison (a copy of the base rows and its queries). */
const WITH_POSTGRES = process.env.BENCH_POSTGRES !== '0';
/** The size the growth is measured at; equal to BASE_ROWS by default (no second project). */
const ROWS = Math.max(BASE_ROWS, Number(process.env.BENCH_ROWS ?? BASE_ROWS));
/** The fewest idle samples per query (and per size), and the samples taken while ingesting. */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
/**
 * Idle, a query is sampled until SAMPLES samples and BENCH_SAMPLE_SECONDS (default 20) have
 * passed, at most MAX_SAMPLES: a 20 ms query then gets a few hundred samples where a 500 ms one
 * keeps SAMPLES. The p95 of 20 samples is the second slowest, so one stall of the machine
 * (another process, a collector pause) moved it by a third: the status's growth read 1.35, 1.09,
 * 0.94 and 1.11 in four runs on the same data sets. 5 s still left a 35 ms heatmap ~54 samples a
 * size (the two sizes alternate): its growth read 1.45, 1.12 and 1.17 in three runs on the same
 * data sets, 1.07 and 1.17 in two runs of 20 s (docs/performance.md, thirty-first run).
 */
const SAMPLE_SECONDS = Number(process.env.BENCH_SAMPLE_SECONDS ?? 20);
const MAX_SAMPLES = 400;
/**
 * BENCH_ONLY=buildsCompare,builds: measure only these queries (names as in queriesOf), idle, at
 * BENCH_ROWS and while ingesting; the others, their rollup checks and PostgreSQL's are left out.
 * Naming only EVENT_FED queries also leaves the rollups out of a data set's load.
 */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : undefined;
const measured = (name) => ONLY === undefined || ONLY.has(name);
/**
 * Queries whose tables are fed by views on `events` itself (funnel_steps, funnel_step_hours,
 * player_days), not by `rollup_input`. When BENCH_ONLY names only these, a data set is loaded
 * into events alone: on this machine the rollup views cost most of a load (a 100 M load is
 * ~70 minutes with them, a fraction of that without), and these queries never read them.
 */
const EVENT_FED = new Set(['funnels', 'funnelsBySession', 'retention']);
const ROLLUPS_NEEDED = ONLY === undefined || [...ONLY].some((name) => !EVENT_FED.has(name));
const PG_SAMPLES = Number(process.env.BENCH_PG_SAMPLES ?? 3);
const INGEST_RATE = 50_000;
// BENCH_DATABASE / BENCH_PORT: a second data set beside another run's (its own database, API port and Redis prefix).
const PORT = Number(process.env.BENCH_PORT ?? 28180);
const DB = process.env.BENCH_DATABASE ?? 'framedeck_querybench';
const PG_URL = `postgres://postgres:postgres@127.0.0.1:5432/${DB}`;
const ENV = {
  ...process.env,
  FRAMEDECK_POSTGRES_URL: PG_URL,
  FRAMEDECK_CLICKHOUSE_DATABASE: DB,
  FRAMEDECK_REDIS_PREFIX: `fd${DB.replace(/_/g, '')}:`,
  FRAMEDECK_API_PORT: String(PORT),
  FRAMEDECK_APP_ORIGIN: `http://127.0.0.1:${PORT}`,
  FRAMEDECK_LOG_LEVEL: 'warn',
};
const log = (...args) => console.error('[bench:query]', ...args);
const run = promisify(execFile);

// Other work on these 2 cores skews every figure; the load average goes into the results.
const loadAtStart = os.loadavg().map((x) => Math.round(x * 10) / 10);

// ---- set-up --------------------------------------------------------------------------------
log('migrating the bench databases');
await run(process.execPath, [`${root}services/cli/bin/framedeck.js`, 'migrate'], { env: ENV });
const pool = createPool(postgresSection(ENV));
const clickhouseConfig = clickhouseSection(ENV);
// Generating millions of rows per statement takes minutes on a busy 2-core machine.
const clickhouse = openConnection({
  url: clickhouseConfig.url,
  user: clickhouseConfig.admin.user,
  password: clickhouseConfig.admin.password,
  database: clickhouseConfig.database,
  requestTimeoutMs: 900_000,
});

// A data set loaded by an earlier run (less than 6 hours ago, complete) is reused unless
// BENCH_REUSE=0: loading takes minutes on 2 cores, measuring takes one. Each size is its own
// project, tagged by the SDK version its rows carry.
// Version 4: rows generated with a fixed anchor (earlier data sets had events and rollups a few seconds apart).
// Version 5: sessions in time order (generatedRows).
const sdkTag = (rows) => `querybench/5-${rows}`;
/**
 * The latest data set of `rows` events: its project, its rows in events, all the project's rows
 * (with those of other tags) in events and in the rollups, anchor and age.
 */
async function latestDataSet(rows) {
  const ask = async (query) => (await clickhouse.query({ query, format: 'JSONEachRow' })).json();
  const [row] = await ask(`SELECT toString(project_id) AS project, count() AS n, toUInt32(min(received_at)) AS anchor,
                                  toUInt32(now() - min(received_at)) AS age
                             FROM events WHERE sdk_version = ${literal(sdkTag(rows))}
                            GROUP BY project_id ORDER BY min(received_at) DESC LIMIT 1`);
  if (!row) return undefined;
  const ofProject = `WHERE project_id = ${literal(row.project)}`;
  const [rollups] = await ask(`SELECT sum(events) AS n FROM rollup_daily_counts ${ofProject}`);
  const [all] = await ask(`SELECT count() AS n FROM events ${ofProject}`);
  return {
    ...row,
    n: Number(row.n),
    inProject: Number(all.n),
    rolledUp: Number(rollups.n),
    anchor: Number(row.anchor),
    age: Number(row.age),
  };
}
/**
 * Whether a data set of `rows` events can be reused, asked once per size (and said once): nothing
 * before the loads changes the answer (the drop below runs only when no size is reusable).
 */
const reusable = new Map();
const reusableProject = (rows) => {
  if (!reusable.has(rows)) reusable.set(rows, findReusableProject(rows));
  return reusable.get(rows);
};
async function findReusableProject(rows) {
  if (process.env.BENCH_REUSE === '0') return undefined;
  const set = await latestDataSet(rows);
  if (!set || set.n < rows || set.age > 6 * 3600) return undefined;
  // A set loaded without its rollups (EVENT_FED) serves only a run that reads none.
  if (ROLLUPS_NEEDED && set.rolledUp < set.n) return undefined;
  // The ingest phase adds rows of its own tag to the base project, in its last hours: a run on
  // such a set measured 12.1 M events as "10 M" (funnels by session 2.4–3 times slower, every growth
  // understated; docs/performance.md, thirty-first run).
  if (set.inProject > set.n) {
    log(`not reusing project ${set.project}: it holds ${set.inProject - set.n} rows of an ingest phase`);
    return undefined;
  }
  return set.project;
}
/**
 * A data set whose load stopped between two chunks (the machine restarted ClickHouse, the run was
 * stopped): every chunk so far is whole in the events and in the rollups. Loading it resumes
 * there, with its own anchor, rather than starting a 100 M load again.
 */
const CHUNK = 1_000_000;
async function resumableProject(rows) {
  if (process.env.BENCH_REUSE === '0') return undefined;
  const set = await latestDataSet(rows);
  const rollupsWhole = !ROLLUPS_NEEDED || (set !== undefined && set.rolledUp >= set.n);
  const whole = set && set.n < rows && set.n % CHUNK === 0 && rollupsWhole && set.age < 6 * 3600;
  return whole ? set : undefined;
}

const bounds = { worldMinX: 0, worldMinY: 0, worldMaxX: 1000, worldMaxY: 1000, worldMinZ: null, worldMaxZ: null };
const sha256 = 'a'.repeat(64);

/** A tenant with a map (0..1000 on both axes: on the rollups' 5-unit grid) and a read key. */
async function benchProject(existing) {
  const projectId = existing ?? (await bootstrapTenant(pool, { plan: 'enterprise' })).projectId;
  const key = (await createApiKey(pool, { projectId, preset: 'read' })).rawKey;
  await saveMapImage(pool, {
    projectId,
    sha256,
    contentType: 'image/png',
    width: 1024,
    height: 1024,
    bytes: Buffer.from([0]),
  });
  await upsertMap(pool, {
    projectId,
    mapId: 'map_0',
    name: 'Bench map',
    imageSha256: sha256,
    ...bounds,
    imageWidth: 1024,
    imageHeight: 1024,
  });
  return { projectId, key };
}

/**
 * The generated rows (deterministic pseudo-random columns of the row number), as a SELECT.
 * Shaped like real telemetry: row n belongs to session n / SESSION_EVENTS, a one-hour session
 * (one event every 9 s) of one player on one map, platform and build; event names, positions
 * and frame samples vary per event. 10 M events are then 25,000 sessions of 5,000 players
 * over 30 days (a playtest or soft launch), a few hundred events per player-day; 100 M events
 * ten times the sessions of ten times the players.
 * `recent`: sessions happening now, for the load inserted during the "ingesting" phase.
 * `anchor`: "now" in Unix seconds, fixed by the caller: the same rows go into events and into
 * rollup_input by two statements, and ClickHouse's now() differs between them (events near
 * midnight would fall on different days in the two).
 */
const SESSION_EVENTS = 400;
const PLAYERS_PER_10M = 5_000;
function generatedRows(projectId, rows, count, offset, { recent = false, anchor }) {
  const players = Math.round((PLAYERS_PER_10M * rows) / REFERENCE_ROWS);
  const n = `(number + ${offset})`;
  const session = `intDiv(${n}, ${SESSION_EVENTS})`;
  const h = (salt) => `intHash32(${n} * ${salt})`; // per event
  const hs = (salt) => `intHash32(${session} * ${salt} + 7)`; // per session
  const player = `(${hs(3)} % ${players})`;
  const now = `toUInt64(${anchor})`;
  // Sessions start in the order of their index, spread evenly over the 30 days (plus up to an hour
  // of jitter), so the data set goes in in time order, as a live game's stream does: each insert
  // holds a slice of the month, and a rollup key (cell, day, …) lies in the parts of its day. Loaded
  // in random time order (before 2026-11-24), every part held every day, each key once per part:
  // a merge backlog no live system builds (docs/performance.md, "Rollups at 100 M events").
  const sessions = Math.ceil(rows / SESSION_EVENTS);
  const month = 30 * 86400;
  const start = recent
    ? now
    : `(${now} - 7200 - ${month} + intDiv(${session} * ${month}, ${sessions}) + ${hs(1)} % 3600)`;
  const ts = recent ? start : `(${start} + ${n} % ${SESSION_EVENTS} * 9)`;
  // A session's events form one batch: event ids share the batch's first 28 characters and
  // end in the event's index, as the consumer's do (libs/clickhouse event-id.ts), so the
  // rollup ledger holds one row per session rather than one per event.
  const hexOf = (salt) => `hex(bitOr(cityHash64(${session}, ${salt}), toUInt64(1152921504606846976)))`;
  const eventId = `toUUID(lower(concat(substring(${hexOf(1)}, 1, 8), '-', substring(${hexOf(1)}, 9, 4), '-',
      substring(${hexOf(1)}, 13, 4), '-', substring(${hexOf(2)}, 1, 4), '-', substring(${hexOf(2)}, 5, 4),
      hex(toUInt32(${n} % ${SESSION_EVENTS} + 268435456)))))`;
  return `SELECT ${literal(projectId)} AS project_id, ${recent ? 'generateUUIDv4()' : eventId} AS event_id,
      concat('event_', toString(${h(2)} % 20)) AS event_name,
      ${ts} * 1000000 AS timestamp_us, toDateTime(${ts}) AS timestamp,
      concat('s', toString(${session})) AS session_id,
      concat('p', toString(${player})) AS player_id,
      1 AS has_position, (${h(4)} % 100000) / 100 AS position_x, (${h(5)} % 100000) / 100 AS position_y,
      0 AS position_z, concat('map_', toString(${hs(6)} % 5)) AS map_id,
      30 + (${h(7)} % 900) / 10 AS fps, 1000 / fps AS frame_time_ms,
      toInt64(1000000000 + ${h(8)} % 3000000000) AS memory_used_bytes,
      if(${h(9)} % 4 = 0, 0, 2 + (${h(9)} % 140) / 10) AS gpu_time_ms,
      concat('build_', toString(intDiv(${now} - ${start}, ${6 * 86400}))) AS build_id,
      ['pc', 'ps5', 'xbox'][intHash32(${player}) % 3 + 1] AS platform,
      ${recent ? `'querybench-load/3'` : literal(sdkTag(rows))} AS sdk_version, toDateTime(${anchor}) AS received_at
    FROM numbers(${count})`;
}
const COLUMNS = `project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position,
  position_x, position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms, build_id, platform,
  sdk_version, received_at`;
/**
 * Inserts generated rows as the consumer stores a batch: into events, and once into
 * rollup_input (whose views feed the rollups): the same SELECT twice. Into events alone when
 * this run reads no rollup (EVENT_FED).
 */
async function insertGenerated(projectId, rows, count, offset, options) {
  const seconds = {};
  for (const table of ROLLUPS_NEEDED ? ['events', 'rollup_input'] : ['events']) {
    const t0 = performance.now();
    await clickhouse.command({
      query: `INSERT INTO ${table} (${COLUMNS}) SELECT * FROM (${generatedRows(projectId, rows, count, offset, options)})`,
      // The views of rollup_input, one after another, keep one core busy; side by side they take
      // both (18.16, a million bench rows into the rollups: 68–75 s, 36–47 with this). The
      // consumer keeps them in sequence: its cores also serve the gateway and Kafka.
      clickhouse_settings: table === 'rollup_input' ? { parallel_view_processing: 1 } : {},
    });
    seconds[table] = (performance.now() - t0) / 1000;
  }
  return seconds;
}

/** The project of `rows` events: reused from an earlier run, resumed, or generated now. */
async function loadProject(rows) {
  const reused = await reusableProject(rows);
  const resumed = reused ? undefined : await resumableProject(rows);
  const project = await benchProject(reused ?? resumed?.project);
  if (reused) {
    log(`reusing the ${rows}-event data set of project ${project.projectId}`);
    return { ...project, loadSeconds: null };
  }
  log(
    resumed
      ? `resuming the ${rows}-event data set of project ${project.projectId} at ${resumed.n} rows`
      : `generating ${rows} events in ClickHouse (INSERT … SELECT FROM numbers(), ${ROLLUPS_NEEDED ? 'events and rollups' : 'events only: BENCH_ONLY reads no rollup'})`,
  );
  const t0 = performance.now();
  // One "now" for the whole data set: its sessions end an hour before the load started.
  const anchor = resumed?.anchor ?? Math.floor(Date.now() / 1000);
  for (let offset = resumed?.n ?? 0; offset < rows; offset += CHUNK) {
    const count = Math.min(CHUNK, rows - offset);
    const seconds = await insertGenerated(project.projectId, rows, count, offset, { anchor });
    // Progress on a load that takes minutes: where the time goes (raw table or rollup views).
    log(
      `${offset + count} / ${rows}: ` +
        Object.entries(seconds)
          .map(([table, s]) => `${table === 'events' ? 'events' : 'rollups'} ${s.toFixed(1)} s`)
          .join(', '),
    );
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  log(`loaded in ${loadSeconds.toFixed(1)} s${resumed ? ` (from ${resumed.n} rows)` : ''}`);
  return { ...project, loadSeconds };
}

// Earlier runs' rows go first (this database is the bench's own) unless they are reused.
const kept = async (rows) => (await reusableProject(rows)) ?? (await resumableProject(rows));
if (process.env.BENCH_REUSE === '0' || (!(await kept(BASE_ROWS)) && !(await kept(ROWS)))) {
  // The events and every rollup (their rows are the data set's, nothing else writes this database).
  const tables = await (
    await clickhouse.query({
      query: `SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree'
                AND (name IN (${[...RAW_EVENT_TABLES, 'player_days', 'player_activity'].map(literal).join(', ')})
                     OR name LIKE 'rollup\\_%')`,
      format: 'JSONEachRow',
    })
  ).json();
  for (const { name: table } of tables) {
    const partitions = await (
      await clickhouse.query({
        query: `SELECT DISTINCT partition_id FROM system.parts WHERE database = currentDatabase() AND table = ${literal(table)} AND active`,
        format: 'JSONEachRow',
      })
    ).json();
    for (const { partition_id } of partitions) {
      await clickhouse.command({ query: `ALTER TABLE ${table} DROP PARTITION ID ${literal(partition_id)}` });
    }
  }
}

const small = await loadProject(BASE_ROWS);
const large = ROWS > BASE_ROWS ? await loadProject(ROWS) : undefined;

const ask = async (query) => (await clickhouse.query({ query, format: 'JSONEachRow' })).json();
const mergesRunning = async () =>
  Number((await ask(`SELECT count() AS merges FROM system.merges WHERE database = currentDatabase()`))[0].merges);

/**
 * Waits (at most `seconds`) until no merge runs in the bench database. A merge of the large data
 * set's parts takes both cores for minutes: measured at 100 M, one that started after the first
 * wait made every query of the 100 M phase 1.6–2.4 times slower than the same queries without it
 * (docs/performance.md). So every query's samples start on a quiet engine.
 */
async function untilNoMerges(seconds = Number(process.env.BENCH_MERGE_WAIT_SECONDS ?? 600)) {
  const deadline = performance.now() + seconds * 1000;
  for (;;) {
    const merges = await mergesRunning();
    if (merges === 0 || performance.now() > deadline) return;
    log(`waiting for ${merges} background merges to finish before measuring`);
    await new Promise((r) => setTimeout(r, 5_000));
  }
}

/**
 * The active parts per table, once no merge runs (untilNoMerges: at most
 * BENCH_MERGE_WAIT_SECONDS, default 600). Right after a load, the rollups hold one part per
 * insert and every key once per part: a query then merges as many states as there were inserts,
 * which is the load's shape, not the steady state a live system reaches.
 */
async function settledParts() {
  await untilNoMerges();
  const parts = await ask(`SELECT table, toUInt32(count()) AS parts FROM system.parts
                            WHERE database = currentDatabase() AND active GROUP BY table ORDER BY table`);
  return Object.fromEntries(parts.map((p) => [p.table, p.parts]));
}
const activeParts = await settledParts();
log('active parts when measuring', activeParts);
const { projectId, key } = small;
const loadSeconds = small.loadSeconds;

// ---- the same rows in PostgreSQL (the base project) ---------------------------------------------
/** Copies the base project's rows into PostgreSQL unless an earlier run left them there. */
async function copyToPostgres() {
  let loadSeconds = null;
  const pgCount = await pool.query('SELECT count(*) AS n FROM bench_events WHERE project_id = $1', [projectId]).then(
    (r) => Number(r.rows[0].n),
    () => 0,
  );
  if (pgCount !== BASE_ROWS) {
    log('copying the same rows into PostgreSQL (COPY FROM STDIN, then indexes and ANALYZE)');
    await pool.query(`DROP TABLE IF EXISTS bench_events`);
    await pool.query(`CREATE UNLOGGED TABLE bench_events (
      project_id uuid, event_name text, ts timestamptz, session_id text, player_id text, map_id text,
      has_position boolean, position_x real, position_y real, fps real, frame_time_ms real,
      memory_used_bytes bigint, gpu_time_ms real, build_id text, platform text)`);
    const t0 = performance.now();
    const source = await clickhouse.exec({
      query: `SELECT project_id, event_name, formatDateTime(timestamp, '%Y-%m-%d %H:%M:%S+00', 'UTC'), session_id,
                player_id, map_id, has_position = 1, position_x, position_y, fps, frame_time_ms, memory_used_bytes,
                gpu_time_ms, build_id, platform
              FROM events WHERE project_id = ${literal(projectId)} FORMAT TabSeparated`,
    });
    const psql = spawn('psql', [PG_URL, '-v', 'ON_ERROR_STOP=1', '-c', 'COPY bench_events FROM STDIN'], {
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    source.stream.pipe(psql.stdin);
    const code = await new Promise((resolve) => psql.once('exit', resolve));
    if (code !== 0) throw new Error(`psql COPY exited ${code}`);
    // The indexes a team would add for these queries: project + time, and project + map + time.
    await pool.query(`CREATE INDEX ON bench_events (project_id, ts)`);
    await pool.query(`CREATE INDEX ON bench_events (project_id, map_id, ts)`);
    await pool.query(`ANALYZE bench_events`);
    loadSeconds = (performance.now() - t0) / 1000;
  }
  const rows = Number((await pool.query('SELECT count(*) AS n FROM bench_events')).rows[0].n);
  log(`PostgreSQL: ${rows} rows`);
  return { rows, loadSeconds };
}
const pgCopy = WITH_POSTGRES ? await copyToPostgres() : null;

// ---- measurements ------------------------------------------------------------------------------
const api = spawn(process.execPath, [`${root}services/api/dist/main.js`], {
  env: ENV,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopApi = async () => {
  if (api.exitCode !== null) return;
  const exited = new Promise((r) => api.once('exit', r));
  api.kill('SIGTERM');
  await exited;
};
process.on('exit', () => api.kill('SIGKILL'));
for (let i = 0; ; i++) {
  const ok = await fetch(`http://127.0.0.1:${PORT}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  if (i > 150) throw new Error('the API did not become ready');
  await new Promise((r) => setTimeout(r, 200));
}

/** The API requests measured, for one project. */
const queriesOf = (id) => {
  const base = `http://127.0.0.1:${PORT}/api/v1/projects/${id}`;
  const all = {
    heatmap: `${base}/heatmap?mapId=map_0`,
    heatmapEvents: `${base}/heatmap?mapId=map_0&eventName=event_3&cellSize=10&days=30`,
    heatmapEvents25: `${base}/heatmap?mapId=map_0&eventName=event_3&days=30`,
    heatmapCells5: `${base}/heatmap?mapId=map_0&cellSize=5`,
    insights: `${base}/insights?metric=count&groupBy=day`,
    insightsByEvent: `${base}/insights?metric=count&groupBy=event_name`,
    insightsPlayers: `${base}/insights?metric=unique_players&groupBy=event_name&days=90`,
    insightsPlayersByDay: `${base}/insights?metric=unique_players&groupBy=day&days=30`,
    dashboard: `${base}/dashboard?days=30`,
    builds: `${base}/builds?days=30`,
    buildsCompare: `${base}/builds/compare?base=build_1&target=build_0&days=30`,
    status: `${base}/status`,
    retention: `${base}/retention?period=day&days=30&periods=7`,
    funnels: `${base}/funnels?steps=event_1&steps=event_2&steps=event_3&windowSeconds=3600`,
    // The same funnel counted per session (the spec's other `by`): five times the entities of the
    // same rows (five sessions a player), counted in one query over every step row (session_hash
    // is not a prefix of the funnel tables' sorting keys, so slices of it would each read them all).
    funnelsBySession: `${base}/funnels?steps=event_1&steps=event_2&steps=event_3&windowSeconds=3600&by=session`,
  };
  const unknown = [...(ONLY ?? [])].filter((name) => !(name in all));
  if (unknown.length) throw new Error(`BENCH_ONLY: no query named ${unknown.join(', ')}`);
  return Object.fromEntries(Object.entries(all).filter(([name]) => measured(name)));
};
const QUERIES = queriesOf(projectId);
const CEILINGS = {
  heatmap: 100,
  heatmapEvents: 100,
  heatmapEvents25: 100,
  heatmapCells5: 100,
  insights: 100,
  insightsByEvent: 100,
  insightsPlayers: 100,
  insightsPlayersByDay: 100,
  dashboard: 100,
  builds: 100,
  buildsCompare: 100,
  status: 100,
  retention: 500,
  funnels: 500,
  funnelsBySession: 500,
};
/**
 * Not served from a rollup whose cost is cells × days × dimensions, with what their cost grows
 * with instead: funnels read each player's (or session's) hourly bounds (funnel_step_hours, 034)
 * and the step events of those the bounds leave open (windowFunnel over funnel_steps, 027);
 * exact retention reads each player's active days (the player_days set, 003), and the 100 M
 * data set has ten times the players of the 10 M one.
 */
const NOT_ROLLUP_SERVED = new Map([
  ['funnels', 'player-hours of the steps'],
  ['funnelsBySession', 'session-hours of the steps'],
  ['retention', 'players × active days'],
]);
const LOADED_CEILINGS = { heatmap: 300, insights: 300 };

const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const figures = (xs) => ({
  n: xs.length,
  p50: round(percentile(xs, 50)),
  p95: round(percentile(xs, 95)),
  max: round(Math.max(...xs)),
});
/** A query's samples (timeHttp) as figures: the whole request's, and the API's share of its p50 and p95. */
const stats = (samples) => {
  const toLastByte = samples.map((s) => s.lastByteMs);
  return {
    ...figures(samples.map((s) => s.ms)),
    lastByteP50: round(percentile(toLastByte, 50)),
    lastByteP95: round(percentile(toLastByte, 95)),
  };
};
const round = (x) => Math.round(x * 10) / 10;

/**
 * One request: its answer parsed, the time until it was (`ms`, what a client waits before it can
 * draw: the figure measured against the ceilings) and the time to the answer's last byte (the API's
 * share). They differ by the client's JSON.parse: ~14 ms for a 10,000-cell heatmap's 2.2 MB on a
 * slow machine of this kind (docs/performance.md, thirty-second run).
 */
async function requestJson(url, apiKey = key) {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const lastByteMs = performance.now() - started;
  const body = JSON.parse(bytes.toString('utf8'));
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { body, ms: performance.now() - started, lastByteMs };
}
const fetchJson = async (url, apiKey = key) => (await requestJson(url, apiKey)).body;

/** Queries whose samples a background merge overlapped (named in the results). */
const mergesWhileSampling = new Set();

async function timeHttp(url, n, apiKey = key) {
  await untilNoMerges();
  const samples = [];
  for (let i = 0; i < n; i++) {
    const { ms, lastByteMs } = await requestJson(url, apiKey);
    samples.push({ ms, lastByteMs });
  }
  if ((await mergesRunning()) > 0) mergesWhileSampling.add(url);
  return samples;
}

log('warming up');
for (const url of Object.values(QUERIES)) await timeHttp(url, 3);

// With a large data set, each query's samples alternate between the two projects (base, large,
// base, …): this machine's drift (other work, a merge) then falls on both sizes alike, where
// measuring one size after the other measured each in its own conditions.
const largeQueries = large ? queriesOf(large.projectId) : undefined;
if (largeQueries) for (const url of Object.values(largeQueries)) await timeHttp(url, 3, large.key);
log(
  `idle: at least ${SAMPLES} requests and ${SAMPLE_SECONDS} s per query through the HTTP API` +
    (large ? `, alternating with the ${ROWS}-event project's` : ''),
);
const idle = {};
const atRows = {};
for (const [name, url] of Object.entries(QUERIES)) {
  const base = [];
  const big = [];
  const deadline = performance.now() + SAMPLE_SECONDS * 1000;
  while (base.length < SAMPLES || (performance.now() < deadline && base.length < MAX_SAMPLES)) {
    base.push(...(await timeHttp(url, 1)));
    if (largeQueries) big.push(...(await timeHttp(largeQueries[name], 1, large.key)));
  }
  idle[name] = stats(base);
  log(name, idle[name]);
  if (largeQueries) atRows[name] = stats(big);
}

// The API's insights read rollups (rollup_daily_counts, player_activity); on these 10 M rows
// they must give exactly what the plain query over events gives.
let growth;
if (large) {
  growth = {};
  for (const [name, at] of Object.entries(atRows)) {
    growth[name] = {
      p95AtBase: idle[name].p95,
      p95AtRows: at.p95,
      p50AtRows: at.p50,
      lastByteP95AtBase: idle[name].lastByteP95,
      lastByteP95AtRows: at.lastByteP95,
      ceilingMs: CEILINGS[name],
      p95ToCeiling: Math.round((at.p95 / CEILINGS[name]) * 100) / 100,
      growth: Math.round((at.p95 / idle[name].p95) * 100) / 100,
      costGrowsWith: NOT_ROLLUP_SERVED.get(name) ?? 'rollup cells',
    };
    log(`${name} at ${ROWS} events`, growth[name]);
  }
}

log('checking the insights rollups against the plain query over events');
const reader = createClickHouseReader(clickhouseConfig);
const rollupChecks = {};
for (const name of ['insights', 'insightsByEvent', 'insightsPlayers', 'insightsPlayersByDay'].filter(measured)) {
  const params = Object.fromEntries(new URL(QUERIES[name]).searchParams);
  const q = { projectId, metric: params.metric, groupBy: params.groupBy, days: Number(params.days ?? 30), limit: 10 };
  const [api, plain] = [await fetchJson(QUERIES[name]), await queryInsights(reader, q, 'events')];
  rollupChecks[name] = JSON.stringify(api.data) === JSON.stringify(plain);
  if (!rollupChecks[name]) log(`MISMATCH ${name}`, JSON.stringify(api.data), JSON.stringify(plain));
}

// Nothing is inserted when BENCH_ONLY leaves out every query measured while ingesting.
let ingesting = Object.keys(LOADED_CEILINGS).some(measured);
if (ingesting) log(`ingesting ${INGEST_RATE} events/s (direct ClickHouse inserts) while measuring`);
let inserted = 0;
const ingestStart = performance.now();
const ingestLoop = (async () => {
  for (let second = 0; ingesting; second++) {
    const started = performance.now();
    await insertGenerated(projectId, BASE_ROWS, INGEST_RATE, BASE_ROWS + second * INGEST_RATE, {
      recent: true,
      anchor: Math.floor(Date.now() / 1000),
    });
    inserted += INGEST_RATE;
    const wait = 1000 - (performance.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
})();
await new Promise((r) => setTimeout(r, 2000));
const loaded = {};
for (const name of Object.keys(LOADED_CEILINGS).filter(measured)) {
  loaded[name] = stats(await timeHttp(QUERIES[name], SAMPLES));
  log(`${name} while ingesting`, loaded[name]);
}
ingesting = false;
await ingestLoop;
const achievedRate = Math.round(inserted / ((performance.now() - ingestStart) / 1000));
log(`achieved ingest rate: ${achievedRate} events/s`);
await stopApi();

// ---- PostgreSQL, same rows, same questions ---------------------------------------------------
const PG_QUERIES = {
  heatmap: `SELECT least(floor(position_x / 25)::int, 39) AS cx, least(floor(position_y / 25)::int, 39) AS cy, count(*),
      avg(fps) FILTER (WHERE fps > 0), avg(frame_time_ms) FILTER (WHERE frame_time_ms > 0),
      avg(memory_used_bytes) FILTER (WHERE memory_used_bytes > 0) / 1048576, avg(gpu_time_ms) FILTER (WHERE gpu_time_ms > 0),
      percentile_cont(0.95) WITHIN GROUP (ORDER BY frame_time_ms) FILTER (WHERE frame_time_ms > 0)
    FROM bench_events WHERE project_id = $1 AND map_id = 'map_0' AND ts >= now() - interval '7 days'
      AND (fps > 0 OR frame_time_ms > 0) AND has_position
      AND position_x BETWEEN 0 AND 1000 AND position_y BETWEEN 0 AND 1000
    GROUP BY 1, 2`,
  insights: `SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS g, count(*) AS v FROM bench_events
    WHERE project_id = $1 AND ts >= now() - interval '30 days' GROUP BY g ORDER BY g DESC LIMIT 10`,
  insightsByEvent: `SELECT event_name AS g, count(*) AS v FROM bench_events
    WHERE project_id = $1 AND ts >= now() - interval '30 days' GROUP BY g ORDER BY v DESC, g LIMIT 10`,
  insightsPlayers: `SELECT event_name AS g, count(DISTINCT player_id) AS v FROM bench_events
    WHERE project_id = $1 AND ts >= now() - interval '90 days' AND player_id <> '' GROUP BY g ORDER BY v DESC, g LIMIT 10`,
  retention: `WITH p AS (SELECT player_id, date_trunc('day', ts AT TIME ZONE 'UTC') AS d FROM bench_events
                          WHERE project_id = $1 AND player_id <> '' GROUP BY 1, 2),
                   f AS (SELECT player_id, min(d) AS first FROM p GROUP BY 1 HAVING min(d) >= now() - interval '30 days')
    SELECT f.first, p.d - f.first AS n, count(*) FROM f JOIN p USING (player_id)
     WHERE p.d - f.first <= interval '7 days' GROUP BY 1, 2`,
  // Greedy (first step-1 event per player) — a simplification of windowFunnel, same cost class.
  funnels: `WITH s AS (SELECT player_id, event_name, ts FROM bench_events
                        WHERE project_id = $1 AND ts >= now() - interval '30 days' AND player_id <> ''
                          AND event_name IN ('event_1', 'event_2', 'event_3')),
                 f1 AS (SELECT player_id, min(ts) AS t1 FROM s WHERE event_name = 'event_1' GROUP BY 1),
                 f2 AS (SELECT f1.player_id, f1.t1, min(s.ts) AS t2 FROM f1 JOIN s ON s.player_id = f1.player_id
                          AND s.event_name = 'event_2' AND s.ts > f1.t1 AND s.ts <= f1.t1 + interval '1 hour' GROUP BY 1, 2),
                 f3 AS (SELECT f2.player_id FROM f2 JOIN s ON s.player_id = f2.player_id AND s.event_name = 'event_3'
                          AND s.ts > f2.t2 AND s.ts <= f2.t1 + interval '1 hour' GROUP BY 1)
    SELECT (SELECT count(*) FROM f1), (SELECT count(*) FROM f2), (SELECT count(*) FROM f3)`,
};
/** The same questions asked of PostgreSQL directly. */
async function measurePostgres() {
  const postgres = {};
  log(`PostgreSQL: ${PG_SAMPLES} runs per query over the same ${pgCopy.rows} rows`);
  const pgClient = new pg.Client({ connectionString: PG_URL });
  await pgClient.connect();
  for (const [name, text] of Object.entries(PG_QUERIES).filter(([name]) => measured(name))) {
    const times = [];
    for (let i = 0; i < PG_SAMPLES + 1; i++) {
      const t = performance.now();
      await pgClient.query(text, [projectId]);
      if (i > 0) times.push(performance.now() - t); // the first run warms the cache
    }
    postgres[name] = figures(times);
    log(`postgres ${name}`, postgres[name]);
  }
  await pgClient.end();
  return postgres;
}
const postgres = pgCopy ? await measurePostgres() : null;

// ---- report ----------------------------------------------------------------------------------
const results = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, loadAverageAtStart: loadAtStart, loadAverageAtEnd: os.loadavg().map(round) },
  dataSet: {
    rows: BASE_ROWS,
    growthRows: large ? ROWS : null,
    days: 30,
    maps: 5,
    playersPer10M: PLAYERS_PER_10M,
    sessionEvents: SESSION_EVENTS,
    generator: 'ClickHouse INSERT … SELECT FROM numbers()',
    loadSeconds: loadSeconds === null ? 'reused' : round(loadSeconds),
    growthLoadSeconds: large ? (large.loadSeconds === null ? 'reused' : round(large.loadSeconds)) : null,
  },
  method:
    `sequential HTTP requests through the API (after 3 warm-up requests), milliseconds until the answer was parsed ` +
    `(lastByte: until its last byte arrived): idle, at least ${SAMPLES} ` +
    `per query and ${SAMPLE_SECONDS} s (at most ${MAX_SAMPLES}; n says how many), while ingesting ${SAMPLES}; ` +
    `PostgreSQL ${PG_SAMPLES} runs after one warm-up`,
  idle: Object.fromEntries(
    Object.entries(idle).map(([k, v]) => [
      k,
      { ...v, ceilingMs: CEILINGS[k], p95ToCeiling: Math.round((v.p95 / CEILINGS[k]) * 100) / 100 },
    ]),
  ),
  activePartsWhenMeasuring: activeParts,
  queriesOverlappedByMerges: [...mergesWhileSampling],
  insightsRollupsEqualPlainQuery: rollupChecks,
  growth: growth ?? null,
  whileIngesting: {
    load: `direct ClickHouse inserts of ${INGEST_RATE} rows per second (not the gateway pipeline)`,
    achievedEventsPerSecond: achievedRate,
    ...Object.fromEntries(
      Object.entries(loaded).map(([k, v]) => [
        k,
        { ...v, ceilingMs: LOADED_CEILINGS[k], p95ToCeiling: Math.round((v.p95 / LOADED_CEILINGS[k]) * 100) / 100 },
      ]),
    ),
  },
  postgres: pgCopy && {
    rows: pgCopy.rows,
    loadSeconds: pgCopy.loadSeconds === null ? 'reused' : round(pgCopy.loadSeconds),
    indexes: ['(project_id, ts)', '(project_id, map_id, ts)'],
    ...Object.fromEntries(
      Object.entries(postgres).map(([k, v]) => [
        k,
        { ...v, postgresP50ToClickHouseApiP50: round(v.p50 / idle[k].p50) },
      ]),
    ),
  },
};
mkdirSync(`${root}artifacts/bench`, { recursive: true });
writeFileSync(`${root}artifacts/bench/query.json`, `${JSON.stringify(results, null, 2)}\n`);

const rows = [
  ...Object.entries(results.idle).map(([k, v]) => [`${k} (idle)`, v, v.ceilingMs, v.p95ToCeiling]),
  ...Object.entries(loaded).map(([k, v]) => [
    `${k} (ingesting ${achievedRate}/s)`,
    v,
    LOADED_CEILINGS[k],
    results.whileIngesting[k].p95ToCeiling,
  ]),
];
console.log('\nquery (HTTP API)                      p50 ms   p95 ms  ceiling  p95/ceiling  p95 to last byte');
for (const [name, v, ceiling, ratio] of rows) {
  console.log(
    `${name.padEnd(36)} ${String(v.p50).padStart(7)} ${String(v.p95).padStart(8)} ${String(ceiling).padStart(8)} ${String(ratio).padStart(12)} ${String(v.lastByteP95).padStart(17)}`,
  );
}
console.log('\nPostgreSQL 15, same rows            p50 ms   × ClickHouse-through-API p50');
for (const [name, v] of Object.entries(results.postgres ?? {}).filter(([, v]) => typeof v === 'object' && 'p50' in v)) {
  console.log(
    `${name.padEnd(36)} ${String(v.p50).padStart(7)} ${String(v.postgresP50ToClickHouseApiP50).padStart(10)}×`,
  );
}
if (growth) {
  console.log(
    `\ngrowth, same run: p95 at ${BASE_ROWS} vs ${ROWS} events (ms)   ceiling  p95/ceiling  growth  to last byte`,
  );
  for (const [name, g] of Object.entries(growth)) {
    const toLastByte = `${g.lastByteP95AtBase} → ${g.lastByteP95AtRows}`;
    console.log(
      `${name.padEnd(22)} ${String(g.p95AtBase).padStart(8)} ${String(g.p95AtRows).padStart(10)} ${String(g.ceilingMs).padStart(14)} ${String(g.p95ToCeiling).padStart(12)} ${String(g.growth).padStart(7)} ${toLastByte.padStart(13)}${NOT_ROLLUP_SERVED.has(name) ? `  (${g.costGrowsWith})` : ''}`,
    );
  }
}
console.log('\ninsights from rollups = plain query over events:', JSON.stringify(rollupChecks));
if (mergesWhileSampling.size > 0) {
  console.log('\na background merge was running at the end of the samples of:', [...mergesWhileSampling].join(', '));
}
console.log('\nartifacts/bench/query.json');
await pool.end();
await reader.close();
await clickhouse.close();
