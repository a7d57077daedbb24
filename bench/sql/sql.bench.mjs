// npm run bench:sql — the SQL sandbox's own overhead (lexical guard + parse + tree checks) for
// a realistic ~2 KB analyst query, against the 5 ms p99 target. The bare sqlparser parse of
// the same text is measured in the same run as the floor, so the ratio stays meaningful on a
// noisy 2-core machine. Needs a build (npm run build); no stack. Results: artifacts/bench/sql.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
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
const WARMUP = 300;
const ITERATIONS = 3_000;

// The two are measured interleaved, so both see the same background noise.
function measure(fns) {
  for (let i = 0; i < WARMUP; i++) fns.forEach((fn) => fn());
  const samples = fns.map(() => new Float64Array(ITERATIONS));
  for (let i = 0; i < ITERATIONS; i++) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      fn();
      samples[k][i] = performance.now() - start;
    });
  }
  return samples.map((s) => {
    s.sort();
    const at = (q) => s[Math.min(ITERATIONS - 1, Math.floor(q * ITERATIONS))];
    return { p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / ITERATIONS };
  });
}

const round = (n) => Math.round(n * 1000) / 1000;
const ms = ({ p50, p99, mean }) => ({ p50: round(p50), p99: round(p99), mean: round(mean) });

await loadSqlChecker();
checkAnalystQuery(QUERY); // must pass, or the benchmark would measure a refusal
const [parseOnly, check] = measure([() => parse(QUERY, 'clickhouse'), () => checkAnalystQuery(QUERY)]);
const report = {
  benchmark: 'sql-check',
  queryBytes: Buffer.byteLength(QUERY),
  iterations: ITERATIONS,
  checkMs: ms(check),
  parseOnlyMs: ms(parseOnly),
  // The full check relative to the bare parser on the same text in the same run.
  checkToParseRatioP50: round(check.p50 / parseOnly.p50),
  targetP99Ms: TARGET_P99_MS,
  // Measured p99 as a fraction of the target (at most 1 meets it).
  p99ToTargetRatio: round(check.p99 / TARGET_P99_MS),
  meetsTarget: check.p99 <= TARGET_P99_MS,
  // When the bare parse alone misses the target, the machine was too busy to judge.
  machineTooBusy: parseOnly.p99 > TARGET_P99_MS,
  node: process.version,
};
const dir = fileURLToPath(new URL('../../artifacts/bench/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}sql.json`, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
if (!report.meetsTarget && !report.machineTooBusy) process.exitCode = 1;
