// npm run bench:ingest — sustained ingest throughput and visibility delay on this machine,
// with every component co-located, reported as ratios to two ceilings measured in the same
// run: a bare node:http server taking the same bodies, and clickhouse-client (native)
// inserting the same rows in RowBinary. Results: artifacts/bench/ingest.json.
//
// Phases: (1) bare-http ceiling; (2) gateway alone (Kafka acks, no consumer) — the backlog it
// leaves is (3) drained by the consumer alone; (4) native insert ceiling; (5) visibility delay
// (202 → visible in a query) at a paced 50,000 events/s; (6) gateway + consumer together,
// sustained, as fast as the load generator can push. Needs the local stack (npm run stack:up) and a build (npm run build).
// FRAMEDECK_CLICKHOUSE_ENGINE=modern measures the local 26.x engine instead of 18.16: the services
// and the native ceiling both move to it (the run stops if they would reach different servers).
import { execFile, fork, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, createReadStream, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  openServiceConnection,
  EVENT_INSERT_COLUMNS,
  EventsRowBinaryBlock,
  join,
  sql,
  uuidToRowBinary,
} from '@framedeck/clickhouse';
import { clickhouseSection, postgresSection } from '@framedeck/config';
import { bootstrapTenant } from '@framedeck/accounts';
import { createPool } from '@framedeck/postgres';
import { simulateTelemetry, splitIntoBodies } from '@framedeck/sender';
import { runLoad, round } from './load.generator.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ENV = {
  ...process.env,
  FRAMEDECK_POSTGRES_URL: 'postgres://postgres:postgres@127.0.0.1:5432/framedeck_bench',
  FRAMEDECK_CLICKHOUSE_DATABASE: 'framedeck_bench',
  FRAMEDECK_REDIS_PREFIX: 'fdbench:',
  FRAMEDECK_KAFKA_EVENTS_TOPIC: 'framedeck-bench.telemetry-batches.v1',
  FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: 'framedeck-bench.telemetry-batches.dead-letter.v1',
  FRAMEDECK_KAFKA_CONSUMER_GROUP: 'framedeck-bench-events-consumer',
  FRAMEDECK_INGEST_PORT: '28081',
  FRAMEDECK_CONSUMER_HEALTH_PORT: '28082',
  FRAMEDECK_CONSUMER_METRICS_PORT: '28482',
  FRAMEDECK_LOG_LEVEL: 'warn',
};
const INGEST_URL = 'http://127.0.0.1:28081';
const BARE_PORT = 28090;
const log = (...args) => console.error('[bench]', ...args);
const run = promisify(execFile);

// ---- set-up -------------------------------------------------------------------------------
log('migrating the bench databases and topics');
await run(process.execPath, [`${root}services/cli/bin/framedeck.js`, 'migrate'], { env: ENV });
const pool = createPool(postgresSection(ENV));
const clickhouseConfig = clickhouseSection(ENV);
const clickhouse = openServiceConnection(clickhouseConfig);
/**
 * The native port of the local engine the services write to (infra/README.md, ports): the insert
 * ceiling must measure the same server, so FRAMEDECK_CLICKHOUSE_ENGINE=modern moves both.
 */
const nativePort =
  ENV.FRAMEDECK_CLICKHOUSE_ENGINE === 'modern'
    ? (ENV.FRAMEDECK_CLICKHOUSE_MODERN_TCP_PORT ?? '9001')
    : (ENV.FRAMEDECK_CLICKHOUSE_TCP_PORT ?? '9000');
const clickhouseClientArgs = [
  ...['--host', '127.0.0.1', '--port', nativePort],
  ...['--user', clickhouseConfig.admin.user, '--password', clickhouseConfig.admin.password],
  ...['--database', clickhouseConfig.database],
];
const serverVersion = async () =>
  (await (await clickhouse.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json())[0].v;
const clickhouseVersion = await serverVersion();
const nativeVersion = (
  await run('clickhouse-client', [...clickhouseClientArgs, '--query', 'SELECT version()'])
).stdout.trim();
if (nativeVersion !== clickhouseVersion)
  throw new Error(
    `the native port ${nativePort} reaches ClickHouse ${nativeVersion}, the services ${clickhouseVersion}: ` +
      'set FRAMEDECK_CLICKHOUSE_ENGINE (or the port variables) so both measure one server',
  );
log(`ClickHouse ${clickhouseVersion} (${clickhouseConfig.url}, native port ${nativePort})`);
const tenant = () => bootstrapTenant(pool, { plan: 'enterprise' });

log('generating bodies from the simulator');
const events = [...simulateTelemetry({ seed: 7, players: 200, minutes: 25 })];
const bodies = splitIntoBodies(events).map((b) => ({ body: b.body, events: b.events.length }));
const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const bodyInfo = {
  bodies: bodies.length,
  eventsPerBody: Math.round(avg(bodies.map((b) => b.events))),
  bytesPerBody: Math.round(avg(bodies.map((b) => b.body.length))),
};
log(bodyInfo);

const children = new Set();
function startService(name) {
  const child = spawn(process.execPath, [`${root}services/${name}/dist/main.js`], { env: ENV, stdio: 'inherit' });
  children.add(child);
  return child;
}
async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
}
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));
async function waitHealthy(url) {
  for (let i = 0; i < 200; i++) {
    if ((await fetch(url).catch(() => undefined))?.ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not healthy`);
}
/**
 * Seconds the running consumer has spent in ClickHouse inserts, by table (its
 * framedeck_clickhouse_insert_duration_seconds sums): what the raw insert and the rollup step
 * each cost inside the consumer.
 */
async function consumerInsertSeconds() {
  const text = await (await fetch('http://127.0.0.1:28482/metrics')).text();
  const seconds = {};
  for (const [, table, value] of text.matchAll(
    /^framedeck_clickhouse_insert_duration_seconds_sum\{[^}]*\btable="([^"]+)"[^}]*\} (\S+)$/gm,
  ))
    seconds[table] = round(Number(value));
  return seconds;
}
async function countRows(projectId) {
  const rs = await clickhouse.query({
    query: sql`SELECT count() AS n FROM events WHERE project_id = ${projectId}`.text,
    format: 'JSONEachRow',
  });
  return Number((await rs.json())[0].n);
}
/** Polls until `expected` rows of the project are visible; returns the time it happened. */
async function waitRows(projectId, expected, timeoutMs = 300_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const n = await countRows(projectId);
    if (n >= expected) return performance.now();
    if (performance.now() > deadline) throw new Error(`only ${n}/${expected} rows landed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const results = {
  machine: { cpus: (await import('node:os')).cpus().length },
  clickhouse: { version: clickhouseVersion },
  config: { seconds, concurrency, ...bodyInfo },
};

// ---- 1. bare-http ceiling -------------------------------------------------------------------
{
  log(`1/6 bare node:http ceiling (${seconds} s)`);
  const bare = fork(`${root}bench/ingest/bare-http.server.mjs`, [String(BARE_PORT)]);
  children.add(bare);
  await new Promise((r) => bare.once('message', r));
  results.bareHttp = await runLoad({ url: `http://127.0.0.1:${BARE_PORT}`, apiKey: 'x', bodies, seconds, concurrency });
  await stop(bare);
  log(results.bareHttp);
}

// ---- 2. gateway alone, 3. consumer draining its backlog --------------------------------------
{
  const t = await tenant();
  log(`2/6 gateway alone, Kafka acks = all (${seconds} s)`);
  const gateway = startService('ingest-gateway');
  await waitHealthy(`${INGEST_URL}/healthz`);
  results.gateway = await runLoad({ url: INGEST_URL, apiKey: t.keys.ingest, bodies, seconds, concurrency });
  log(results.gateway);
  await stop(gateway);

  log(`3/6 consumer draining the ${results.gateway.events} events the gateway accepted`);
  const started = performance.now();
  const consumer = startService('events-consumer');
  await waitHealthy('http://127.0.0.1:28082/healthz');
  const first = await (async () => {
    while ((await countRows(t.projectId)) === 0) await new Promise((r) => setTimeout(r, 50));
    return performance.now();
  })();
  const done = await waitRows(t.projectId, results.gateway.events);
  // Rows are visible in events before the block's rollup step ends; let it finish.
  await new Promise((r) => setTimeout(r, 2000));
  const insertSeconds = await consumerInsertSeconds();
  await stop(consumer);
  results.consumerDrain = {
    rows: results.gateway.events,
    secondsIncludingStartup: round((done - started) / 1000),
    seconds: round((done - first) / 1000),
    rowsPerSecond: Math.round(results.gateway.events / ((done - first) / 1000)),
    insertSecondsByTable: insertSeconds,
  };
  log(results.consumerDrain);
}

// ---- 4. native insert ceiling --------------------------------------------------------------
{
  // The same simulated rows, repeated to 1,000,000 so the measurement lasts a few seconds.
  const rows = 1_000_000;
  log(`4/6 clickhouse-client native insert of ${rows} of the same rows (RowBinary)`);
  const file = `${tmpdir()}/framedeck-bench-rows.bin`;
  const block = new EventsRowBinaryBlock(256 << 20);
  const projectId = randomUUID();
  const context = {
    projectId: uuidToRowBinary(projectId),
    batchId: uuidToRowBinary(randomUUID()),
    sdkVersion: 'framedeck-bench/1',
    receivedAtSeconds: Math.floor(Date.now() / 1000),
  };
  const normalized = (e) => ({
    attributes: {},
    metrics: {},
    playerId: '',
    mapId: '',
    buildId: '',
    platform: '',
    engineVersion: '',
    fps: 0,
    frameTimeMs: 0,
    memoryUsedBytes: 0,
    gpuTimeMs: 0,
    gameThreadMs: 0,
    renderThreadMs: 0,
    source: 0,
    ...e,
  });
  for (let i = 0; i < rows; i++) block.append(context, normalized(events[i % events.length]), i);
  writeFileSync(file, block.bytes());
  /** Seconds clickhouse-client takes to insert the file into a table taking the consumer's columns. */
  const insertFile = async (table) => {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const client = spawn(
        'clickhouse-client',
        [
          ...clickhouseClientArgs,
          '--query',
          `INSERT INTO ${table} (${EVENT_INSERT_COLUMNS.join(', ')}) FORMAT RowBinary`,
        ],
        { stdio: ['pipe', 'inherit', 'inherit'] },
      );
      createReadStream(file).pipe(client.stdin);
      client.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`clickhouse-client exited ${code}`))));
    });
    return (performance.now() - started) / 1000;
  };
  // The consumer writes each block twice: into events, and into rollup_input, whose
  // materialized views feed the rollups (clickhouse/007). Both are ceilings of their step.
  const elapsed = await insertFile('events');
  const rollupElapsed = await insertFile('rollup_input');
  rmSync(file);
  results.nativeInsert = {
    rows,
    bytes: block.byteLength,
    seconds: round(elapsed),
    rowsPerSecond: Math.round(rows / elapsed),
    rollupSeconds: round(rollupElapsed),
    eventsAndRollupsRowsPerSecond: Math.round(rows / (elapsed + rollupElapsed)),
  };
  log(results.nativeInsert);
}

const gateway = startService('ingest-gateway');
const consumer = startService('events-consumer');
await Promise.all([waitHealthy(`${INGEST_URL}/healthz`), waitHealthy('http://127.0.0.1:28082/healthz')]);
// ---- 5. visibility delay at 50,000 events/s (before the sustained run leaves merges behind) --
{
  const t = await tenant();
  const rate = Number(process.env.BENCH_LATENCY_EVENTS_PER_SECOND ?? 50_000);
  log(`5/6 202 → visible delay at ${rate} events/s (${seconds} s)`);
  const pending = new Map(); // batch id -> 202 time; event 0 of a batch has the batch's id
  const delays = [];
  let polling = true;
  const poller = (async () => {
    while (polling || pending.size > 0) {
      const ids = [...pending.keys()];
      if (ids.length > 0) {
        const rs = await clickhouse.query({
          query: sql`SELECT toString(event_id) AS id FROM events
                      WHERE project_id = ${t.projectId}
                        AND event_id IN (${join(ids.map((id) => sql`toUUID(${id})`))})`.text,
          format: 'JSONEachRow',
        });
        const now = performance.now();
        for (const { id } of await rs.json()) {
          const ackedAt = pending.get(id);
          if (ackedAt !== undefined) {
            delays.push(now - ackedAt);
            pending.delete(id);
          }
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const load = await runLoad({
    url: INGEST_URL,
    apiKey: t.keys.ingest,
    bodies,
    seconds,
    concurrency,
    bodiesPerSecond: rate / bodyInfo.eventsPerBody,
    onAccepted: (batchId, at) => pending.set(batchId, at),
  });
  polling = false;
  await Promise.race([poller, new Promise((r) => setTimeout(r, 60_000))]);
  delays.sort((a, b) => a - b);
  const pct = (p) => Math.round(delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))]);
  results.visibility = {
    targetEventsPerSecond: rate,
    achievedEventsPerSecond: load.eventsPerSecond,
    batches: delays.length,
    p50Ms: pct(50),
    p99Ms: pct(99),
    maxMs: Math.round(delays[delays.length - 1]),
  };
  log(results.visibility);
}
// ---- 6. end to end, sustained ---------------------------------------------------------------
{
  const t = await tenant();
  log(`6/6 gateway + consumer together (${seconds * 2} s)`);
  const started = performance.now();
  const load = await runLoad({ url: INGEST_URL, apiKey: t.keys.ingest, bodies, seconds: seconds * 2, concurrency });
  const landedAt = await waitRows(t.projectId, load.events);
  const landedSeconds = (landedAt - started) / 1000;
  results.endToEnd = {
    ...load,
    acceptedEventsPerSecond: load.eventsPerSecond,
    landedEventsPerSecond: Math.round(load.events / landedSeconds),
    secondsUntilAllLanded: round(landedSeconds),
  };
  log(results.endToEnd);
}

await Promise.all([stop(gateway), stop(consumer)]);

// ---- report ---------------------------------------------------------------------------------
results.ratios = {
  gatewayVsBareHttp: round(results.gateway.requestsPerSecond / results.bareHttp.requestsPerSecond, 3),
  consumerVsNativeInsert: round(results.consumerDrain.rowsPerSecond / results.nativeInsert.rowsPerSecond, 3),
  consumerVsNativeEventsAndRollups: round(
    results.consumerDrain.rowsPerSecond / results.nativeInsert.eventsAndRollupsRowsPerSecond,
    3,
  ),
  rollupStepVsEventsInsertNative: round(results.nativeInsert.rollupSeconds / results.nativeInsert.seconds, 2),
  rollupStepVsEventsInsertInConsumer: round(
    (results.consumerDrain.insertSecondsByTable.rollup_input ?? NaN) /
      (results.consumerDrain.insertSecondsByTable.events ?? NaN),
    2,
  ),
  endToEndVsNativeInsert: round(results.endToEnd.landedEventsPerSecond / results.nativeInsert.rowsPerSecond, 3),
};
results.targets = {
  endToEndEventsPerSecond: { target: 60_000, stretch: 100_000, measured: results.endToEnd.landedEventsPerSecond },
  p99VisibilityMsAt50k: { target: 2_000, stretch: 1_000, measured: results.visibility.p99Ms },
  gatewayVsBareHttp: { target: 0.5, measured: results.ratios.gatewayVsBareHttp },
  consumerVsNativeInsert: { target: 0.6, measured: results.ratios.consumerVsNativeInsert },
};
results.measuredAt = new Date().toISOString();
mkdirSync(`${root}artifacts/bench`, { recursive: true });
writeFileSync(`${root}artifacts/bench/ingest.json`, JSON.stringify(results, null, 2));
await Promise.allSettled([pool.end(), clickhouse.close()]);

const row = (name, value, target) => `  ${name.padEnd(44)}${String(value).padStart(12)}   ${target}`;
console.log(
  [
    '',
    `Ingest benchmark (all components on this machine, ClickHouse ${clickhouseVersion})`,
    row('bare node:http ceiling, events/s', results.bareHttp.eventsPerSecond, ''),
    row('gateway alone (Kafka acks=all), events/s', results.gateway.eventsPerSecond, ''),
    row('  gateway / bare-http', results.ratios.gatewayVsBareHttp, 'target ≥ 0.5'),
    row('native clickhouse-client insert, rows/s', results.nativeInsert.rowsPerSecond, ''),
    row('  the same rows into rollup_input, s / events s', results.ratios.rollupStepVsEventsInsertNative, ''),
    row('  events + rollups, rows/s', results.nativeInsert.eventsAndRollupsRowsPerSecond, ''),
    row('consumer drain, rows/s', results.consumerDrain.rowsPerSecond, ''),
    row('  consumer / native insert', results.ratios.consumerVsNativeInsert, 'target ≥ 0.6'),
    row('  consumer / native events + rollups', results.ratios.consumerVsNativeEventsAndRollups, ''),
    row('  consumer: rollup step s / events insert s', results.ratios.rollupStepVsEventsInsertInConsumer, ''),
    row('end to end accepted, events/s', results.endToEnd.acceptedEventsPerSecond, ''),
    row('end to end landed, events/s', results.endToEnd.landedEventsPerSecond, 'target ≥ 60,000 (100,000)'),
    row(`visibility p50 at ${results.visibility.targetEventsPerSecond}/s, ms`, results.visibility.p50Ms, ''),
    row(
      `visibility p99 at ${results.visibility.targetEventsPerSecond}/s, ms`,
      results.visibility.p99Ms,
      'target ≤ 2,000 (1,000)',
    ),
    '',
    'JSON: artifacts/bench/ingest.json',
  ].join('\n'),
);
