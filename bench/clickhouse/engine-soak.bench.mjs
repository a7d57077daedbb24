// npm run bench:clickhouse-soak — both local ClickHouse engines under the same steady load for
// BENCH_MINUTES (default 10), side by side in one run: every 2 s a 100,000-row insert into the
// events table (server-side generated; the materialized views of clickhouse/ fire as for the
// consumer's inserts), every 5 s a 7-day Performance heatmap through libs/analytics. Reports per
// engine: insert errors, insert and heatmap p50/p95, the heatmap p95 of the first and last
// minute (drift), the engine's RSS (min / max) and how often its process changed (crashes
// the modern engine's supervisor recovered from), and modern ÷ legacy p95 as the same-run
// ratio. Needs both engines up (`npm test` or `bash infra/local/up.sh clickhouse-legacy
// clickhouse-modern`) and a build. Each engine gets a scratch database, dropped at the end.
// Results: artifacts/bench/clickhouse-soak.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { queryHeatmap } from '@framedeck/analytics';
import {
  createClickHouseReader,
  createClickHouseWriter,
  ensureClickHouseDatabase,
  identifier,
  migrateClickHouse,
  sql,
} from '@framedeck/clickhouse';
import { clickhouseSection } from '@framedeck/config';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STATE_DIR = process.env.FRAMEDECK_STATE_DIR ?? `${ROOT}.state`;
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const ROWS_PER_INSERT = Number(process.env.BENCH_ROWS_PER_INSERT ?? 100_000);
const INSERT_EVERY_MS = 2_000;
const QUERY_EVERY_MS = 5_000;
const RSS_EVERY_MS = 10_000;
const PROJECT = '5eed5eed-0000-4000-8000-000000000001';
const BOUNDS = { worldMinX: 0, worldMinY: 0, worldMaxX: 1000, worldMaxY: 1000, worldMinZ: null, worldMaxZ: null };
const ENGINES = [
  { name: 'legacy', pidFile: `${STATE_DIR}/run/clickhouse.pid` },
  { name: 'modern', pidFile: `${STATE_DIR}/run/clickhouse-modern.engine.pid` },
];

const insertRows = (n) => sql`
  INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position,
                      position_x, position_y, map_id, fps, frame_time_ms, build_id, platform, sdk_version, received_at)
  SELECT toUUID(${PROJECT}), generateUUIDv4(), concat('event_', toString(number % 20)),
         (toUInt64(now()) - number % 86400) * 1000000, toDateTime(toUInt64(now()) - number % 86400),
         concat('s', toString(number % 5000)), concat('p', toString(number % 2000)), 1,
         (number * 7) % 1000, (number * 13) % 1000, 'soak_map', 30 + number % 90, 1000 / (30 + number % 90),
         'soak-1', 'pc', 'bench/soak', now()
    FROM numbers(${n})`;

function quantile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

function rssMb(pidFile) {
  if (!existsSync(pidFile)) return null;
  const pid = readFileSync(pidFile, 'utf8').trim();
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return line ? { pid, mb: Math.round(Number(line[1]) / 1024) } : null;
  } catch {
    return null;
  }
}

async function soak(engine, deadline) {
  const config = {
    ...clickhouseSection({ ...process.env, FRAMEDECK_CLICKHOUSE_ENGINE: engine.name, FRAMEDECK_CLICKHOUSE_URL: '' }),
    database: `framedeck_soak_${engine.name}`,
  };
  await ensureClickHouseDatabase(config);
  const writer = createClickHouseWriter(config);
  const reader = createClickHouseReader(config);
  await migrateClickHouse(writer);
  const result = { engine: engine.name, version: (await reader.engine()).version, inserts: 0, insertErrors: 0 };
  const insertMs = [];
  const heatmaps = []; // { at, ms }
  const rss = [];
  const pids = new Set();
  const started = performance.now();

  const loop = async (everyMs, work) => {
    while (performance.now() < deadline) {
      const next = performance.now() + everyMs;
      await work();
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  };
  await Promise.all([
    loop(INSERT_EVERY_MS, async () => {
      const t = performance.now();
      try {
        await writer.command(insertRows(ROWS_PER_INSERT));
        result.inserts++;
        insertMs.push(performance.now() - t);
      } catch (error) {
        result.insertErrors++;
        console.error(`[${engine.name}] insert failed: ${error.message}`);
      }
    }),
    loop(QUERY_EVERY_MS, async () => {
      const t = performance.now();
      try {
        await queryHeatmap(reader, { projectId: PROJECT, mapId: 'soak_map', bounds: BOUNDS, cellSize: 25, days: 7 });
        heatmaps.push({ at: t - started, ms: performance.now() - t });
      } catch (error) {
        result.heatmapErrors = (result.heatmapErrors ?? 0) + 1;
        console.error(`[${engine.name}] heatmap failed: ${error.message}`);
      }
    }),
    loop(RSS_EVERY_MS, async () => {
      const sample = rssMb(engine.pidFile);
      if (sample) {
        rss.push(sample.mb);
        pids.add(sample.pid);
      }
    }),
  ]);
  const firstMinute = heatmaps.filter((h) => h.at < 60_000).map((h) => h.ms);
  const lastMinute = heatmaps.filter((h) => h.at >= MINUTES * 60_000 - 60_000).map((h) => h.ms);
  Object.assign(result, {
    insertP50Ms: quantile(insertMs, 0.5),
    insertP95Ms: quantile(insertMs, 0.95),
    heatmapP50Ms: quantile(
      heatmaps.map((h) => h.ms),
      0.5,
    ),
    heatmapP95Ms: quantile(
      heatmaps.map((h) => h.ms),
      0.95,
    ),
    heatmapP95FirstMinuteMs: quantile(firstMinute, 0.95),
    heatmapP95LastMinuteMs: quantile(lastMinute, 0.95),
    rssMinMb: rss.length ? Math.min(...rss) : null,
    rssMaxMb: rss.length ? Math.max(...rss) : null,
    engineProcesses: pids.size,
    rowsInserted: result.inserts * ROWS_PER_INSERT,
  });
  await writer.close();
  const dropper = createClickHouseWriter(config, { database: 'default' });
  await dropper.command(sql`DROP DATABASE IF EXISTS ${identifier(config.database)}`);
  await dropper.close();
  await reader.close();
  return result;
}

const deadline = performance.now() + MINUTES * 60_000;
console.error(`soaking both engines for ${MINUTES} min: ${ROWS_PER_INSERT} rows every 2 s, a heatmap every 5 s`);
const results = await Promise.all(ENGINES.map((engine) => soak(engine, deadline)));
const [legacy, modern] = results;
const report = {
  minutes: MINUTES,
  rowsPerInsert: ROWS_PER_INSERT,
  engines: results,
  modernOverLegacy: {
    insertP95: modern.insertP95Ms / legacy.insertP95Ms,
    heatmapP95: modern.heatmapP95Ms / legacy.heatmapP95Ms,
  },
};
console.table(
  results.map((r) => ({
    engine: `${r.engine} ${r.version}`,
    'inserts ok / errors': `${r.inserts} / ${r.insertErrors}`,
    'insert p50/p95 ms': `${r.insertP50Ms} / ${r.insertP95Ms}`,
    'heatmap p50/p95 ms': `${r.heatmapP50Ms} / ${r.heatmapP95Ms}`,
    'heatmap p95 1st / last min': `${r.heatmapP95FirstMinuteMs} / ${r.heatmapP95LastMinuteMs}`,
    'RSS MB min / max': `${r.rssMinMb} / ${r.rssMaxMb}`,
    'engine processes': r.engineProcesses,
  })),
);
console.log(
  `modern ÷ legacy, same run: insert p95 ${report.modernOverLegacy.insertP95.toFixed(2)}, heatmap p95 ${report.modernOverLegacy.heatmapP95.toFixed(2)}`,
);
mkdirSync(`${ROOT}artifacts/bench`, { recursive: true });
writeFileSync(`${ROOT}artifacts/bench/clickhouse-soak.json`, `${JSON.stringify(report, null, 2)}\n`);
