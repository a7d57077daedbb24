// npm run bench:sql — the SQL sandbox's own overhead (lexical guard + text rewrites + parse + tree
// checks) for a realistic ~2 KB analyst query, against the 5 ms p99 target. The bare sqlparser
// parse of the same text is measured in the same run, interleaved, as the floor: on a noisy
// 2-core machine the ratio and the per-iteration difference stay meaningful when the absolute
// figures do not. The load average, the garbage-collection pauses and the CPU time per call (the
// code's cost without the waits for a core) are reported with the figures. Needs a build (npm run build); no stack. Results: artifacts/bench/sql.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse } from '@guanmingchiu/sqlparser-ts';
import { checkAnalystQuery, loadSqlChecker } from '@framedeck/sql-sandbox';

const QUERY = `
-- Level funnel per build and platform, with session depth and pings, last 30 days
SELECT
  build_id,
  platform,
  count() AS events,
  uniqExact(player_id) AS players,
  uniqExactIf(session_id, event_name = 'start') AS sessions_started,
  countIf(fps < 30) AS slow_frames,
  round(avg(fps), 2) AS avg_fps,
  quantiles(0.5, 0.9, 0.99)(frame_time_ms) AS frame_time_quantiles,
  avgIf(metrics.value[indexOf(metrics.key, 'ping')], has(metrics.key, 'ping')) AS avg_ping,
  multiIf(avg(fps) < 30, 'bad', avg(fps) < 55, 'ok', 'good') AS verdict,
  sum(funnel.level = 3) AS completed_funnels,
  arrayStringConcat(groupUniqArray(map_id), ',') AS maps
FROM events
INNER JOIN (
  SELECT
    player_id AS funnel_player,
    windowFunnel(3600)(timestamp, event_name = 'start', event_name = 'level_up', event_name = 'finish') AS level
  FROM events
  WHERE timestamp >= now() - INTERVAL 30 DAY
  GROUP BY player_id
) AS funnel ON events.player_id = funnel.funnel_player
ARRAY JOIN attributes AS attr
WHERE timestamp >= now() - INTERVAL 30 DAY
  AND event_name IN ('start', 'level_up', 'finish', 'death', 'respawn')
  AND attr.key = 'weapon'
  AND player_id IN (
    SELECT player_id FROM events
    WHERE event_name = 'start' AND toDate(timestamp) BETWEEN today() - 30 AND today()
    GROUP BY player_id HAVING count() >= 2
  )
  AND lower(platform) NOT LIKE '%test%' /* exclude internal test rigs */
  AND position_x BETWEEN -5000 AND 5000 AND position_y BETWEEN -5000 AND 5000
GROUP BY build_id, platform
HAVING players > 10
UNION ALL
SELECT
  'all' AS build_id, 'all' AS platform, count(), uniqExact(player_id), uniqExactIf(session_id, event_name = 'start'),
  countIf(fps < 30), round(avg(fps), 2), quantiles(0.5, 0.9, 0.99)(frame_time_ms),
  avgIf(metrics.value[indexOf(metrics.key, 'ping')], has(metrics.key, 'ping')),
  multiIf(avg(fps) < 30, 'bad', avg(fps) < 55, 'ok', 'good'), 0, ''
FROM events
WHERE timestamp >= now() - INTERVAL 30 DAY AND event_name IN ('start', 'level_up', 'finish', 'death', 'respawn')
  AND lower(platform) NOT LIKE '%test%' AND position_x BETWEEN -5000 AND 5000 AND position_y BETWEEN -5000 AND 5000
ORDER BY players DESC
LIMIT 100
`.trim();

const TARGET_P99_MS = 5;
// Warm-up until the JIT has compiled the hot paths of both (time-based: a busy machine needs longer).
const WARMUP_MS = 3_000;
const ITERATIONS = 3_000;
// The run is cut into rounds; the quietest one shows what the code costs when nothing else runs.
const ROUNDS = 10;

const round = (n) => Math.round(n * 1000) / 1000;
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

/** p50/p95/p99/max/mean of a sample. */
function summary(values) {
  const samples = Float64Array.from(values).sort();
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(at(1)), mean: round(mean) };
}

/**
 * Each function's wall time and CPU time per call (this process, all its threads: the
 * collector's included). The two are measured interleaved, so both see the same background
 * noise. CPU time leaves out the time the process waited for a core: on a machine with more
 * runnable work than cores it shows what the code costs, where wall time shows what a caller waits.
 */
function measure(fns) {
  for (const start = performance.now(); performance.now() - start < WARMUP_MS;) fns.forEach((fn) => fn());
  const wall = fns.map(() => new Float64Array(ITERATIONS));
  const cpu = fns.map(() => new Float64Array(ITERATIONS));
  for (let i = 0; i < ITERATIONS; i++) {
    fns.forEach((fn, k) => {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      fn();
      wall[k][i] = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      cpu[k][i] = (used.user + used.system) / 1000;
    });
  }
  return { wall, cpu };
}

/** Garbage-collection pauses while `run` runs: how much of the tail is the collector's. */
async function withGcPauses(run) {
  const pauses = [];
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => pauses.push(e.duration)));
  observer.observe({ entryTypes: ['gc'] });
  const result = run();
  await new Promise((resolve) => setTimeout(resolve, 200)); // the observer reports asynchronously
  observer.disconnect();
  const sorted = pauses.sort((a, b) => a - b);
  return {
    result,
    gc: {
      pauses: sorted.length,
      totalMs: round(sorted.reduce((a, b) => a + b, 0)),
      longestMs: round(sorted.at(-1) ?? 0),
    },
  };
}

await loadSqlChecker();
checkAnalystQuery(QUERY); // must pass, or the benchmark would measure a refusal
const loadBefore = load();
const { result: samples, gc } = await withGcPauses(() =>
  measure([() => parse(QUERY, 'clickhouse'), () => checkAnalystQuery(QUERY)]),
);
const loadAfter = load();
const [parseSamples, checkSamples] = samples.wall;
const [parseCpu, checkCpu] = samples.cpu;
// What the sandbox adds to the parse, iteration by iteration (the same noise hits both).
const overhead = Float64Array.from(checkSamples, (c, i) => c - parseSamples[i]);
const perRound = ITERATIONS / ROUNDS;
const rounds = Array.from({ length: ROUNDS }, (_, r) => summary(checkSamples.slice(r * perRound, (r + 1) * perRound)));
const quietest = rounds.reduce((best, r) => (r.p99 < best.p99 ? r : best));
const check = summary(checkSamples);
const parseOnly = summary(parseSamples);
const report = {
  benchmark: 'sql-check',
  queryBytes: Buffer.byteLength(QUERY),
  iterations: ITERATIONS,
  warmupMs: WARMUP_MS,
  checkMs: check,
  parseOnlyMs: parseOnly,
  // check − parse of the same iteration: the sandbox's own work (lexer, rewrites, tree walk).
  overheadMs: summary(overhead),
  // The full check relative to the bare parser on the same text in the same run.
  checkToParseRatioP50: round(check.p50 / parseOnly.p50),
  targetP99Ms: TARGET_P99_MS,
  // Measured p99 as a fraction of the target (at most 1 meets it), over the whole run.
  p99ToTargetRatio: round(check.p99 / TARGET_P99_MS),
  meetsTarget: check.p99 <= TARGET_P99_MS,
  // The check's p99 in the quietest tenth of the run (300 iterations): the code's cost with the
  // least interference from other processes. Informative only; the target is judged on the whole run.
  quietestRoundCheckMs: quietest,
  // CPU time per call (see measure): the code's cost without the waits for a core.
  cpuMs: { check: summary(checkCpu), parseOnly: summary(parseCpu) },
  gc,
  // When the bare parse alone misses the target, the machine was too busy to judge.
  machineTooBusy: parseOnly.p99 > TARGET_P99_MS,
  loadAverage: { before: loadBefore, after: loadAfter, cpus: os.cpus().length },
  node: process.version,
};
const dir = fileURLToPath(new URL('../../artifacts/bench/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}sql.json`, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
if (!report.meetsTarget && !report.machineTooBusy) process.exitCode = 1;
