// npm run bench:storage — bytes on disk per event with realistic attributes, for sizing disks
// (docs/deployment.md "Sizing"). The simulator's demo events carry ~0.2 attributes each; a
// studio's carry several (device, build settings, match and gameplay context), and their
// strings dominate the size. Generates BENCH_ROWS (default 2,000,000) such events inside
// ClickHouse into a scratch database migrated like any other (same tables, views, codecs), as
// the consumer stores them (events, and rollup_input for the rollups), merges, and reports bytes
// per event: the events' compressed and uncompressed size, per column, and each rollup's.
// Results: artifacts/bench/storage.json. Needs the local stack (npm run stack:up) and a build.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { literal, openConnection } from '@framedeck/clickhouse';
import { clickhouseSection } from '@framedeck/config';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ROWS = Number(process.env.BENCH_ROWS ?? 2_000_000);
const SCRATCH = 'framedeck_storagebench';
const log = (...args) => console.error('[bench:storage]', ...args);

const ENV = {
  ...process.env,
  FRAMEDECK_CLICKHOUSE_DATABASE: SCRATCH,
  FRAMEDECK_POSTGRES_URL: `postgres://postgres:postgres@127.0.0.1:5432/${SCRATCH}`,
};
const config = clickhouseSection(ENV);
const clickhouse = openConnection({
  url: config.url,
  user: config.admin.user,
  password: config.admin.password,
  database: 'default',
  requestTimeoutMs: 900_000,
});
const ask = async (query) => (await clickhouse.query({ query, format: 'JSONEachRow' })).json();

/**
 * The attributes an event carries: every event the session's device and settings (5 keys of
 * low cardinality), gameplay events their context (match id: one per 20-minute match; weapon,
 * difficulty, level), a quarter of them a free-text-ish value (an item or quest name of
 * ~400 values). 6–9 attributes per event, 1–2 metrics.
 */
const n = 'number';
const session = `intDiv(${n}, 400)`;
const h = (salt) => `intHash32(${n} * ${salt})`;
const hs = (salt) => `intHash32(${session} * ${salt} + 7)`;
const GPUS = `['RTX 4070', 'RTX 3060', 'RX 7800 XT', 'GTX 1660', 'Arc A770', 'RTX 4090', 'Steam Deck APU', 'PS5', 'Xbox Series X']`;
const ATTRIBUTE_KEYS = `arrayConcat(['device.gpu', 'device.os', 'settings.quality', 'settings.resolution', 'net.region'],
    if(${h(3)} % 3 = 0, emptyArrayString(), ['match.id', 'weapon', 'difficulty']), if(${h(4)} % 4 = 0, ['item'], emptyArrayString()))`;
const ATTRIBUTE_VALUES = `arrayConcat([${GPUS}[${hs(1)} % 9 + 1], ['Windows 11', 'Windows 10', 'SteamOS', 'PS5', 'Xbox'][${hs(2)} % 5 + 1],
      ['low', 'medium', 'high', 'ultra'][${hs(3)} % 4 + 1], ['1920x1080', '2560x1440', '3840x2160', '1280x800'][${hs(4)} % 4 + 1],
      ['eu-west', 'us-east', 'us-west', 'ap-south', 'sa-east'][${hs(5)} % 5 + 1]],
    if(${h(3)} % 3 = 0, emptyArrayString(), [concat('m-', lower(hex(cityHash64(intDiv(${n}, 133))))), concat('weapon_', toString(${h(5)} % 24)),
      ['story', 'normal', 'hard', 'nightmare'][${hs(6)} % 4 + 1]]),
    if(${h(4)} % 4 = 0, [concat('item_', toString(${h(6)} % 400))], emptyArrayString()))`;
// Event ids as the consumer's batches make them (libs/clickhouse event-id.ts): a batch of 200
// events shares the id's first 28 characters, which the rollup ledger keeps one row for.
const batchHex = `concat(hex(cityHash64(intDiv(${n}, 200), 1)), hex(cityHash64(intDiv(${n}, 200), 2)))`;
const EVENT_ID = `toUUID(lower(concat(substring(${batchHex}, 1, 8), '-', substring(${batchHex}, 9, 4), '-',
    substring(${batchHex}, 13, 4), '-', substring(${batchHex}, 17, 4), '-', substring(${batchHex}, 21, 4),
    hex(toUInt32(${n} % 200 + 268435456)))))`;
/** One "now" for every insert: the events' day is the same in each, and in events and rollup_input. */
const NOW = Math.floor(Date.now() / 1000);
/** Rows [start, start + count) of the generated events. */
const generated = (start, count) => `SELECT toUUID('00000000-0000-4000-8000-000000000001') AS project_id,
    ${EVENT_ID} AS event_id, concat('event_', toString(${h(2)} % 30)) AS event_name,
    (${NOW} - 86400 + ${n} % 86400) * 1000000 AS timestamp_us, toDateTime(intDiv(timestamp_us, 1000000)) AS timestamp,
    lower(hex(cityHash64(${session}, 1))) AS session_id, concat('player-', lower(hex(cityHash64(${hs(9)} % 20000)))) AS player_id,
    1 AS has_position, (${h(10)} % 100000) / 100 AS position_x, (${h(11)} % 100000) / 100 AS position_y, (${h(12)} % 3000) / 100 AS position_z,
    concat('map_', toString(${hs(13)} % 8)) AS map_id, 30 + (${h(14)} % 900) / 10 AS fps, 1000 / fps AS frame_time_ms,
    toInt64(1000000000 + ${h(15)} % 3000000000) AS memory_used_bytes, 2 + (${h(16)} % 140) / 10 AS gpu_time_ms,
    ${ATTRIBUTE_KEYS} AS \`attributes.key\`, ${ATTRIBUTE_VALUES} AS \`attributes.value\`,
    if(${h(17)} % 2 = 0, ['io.read_bytes'], ['io.read_bytes', 'mem.vram']) AS \`metrics.key\`,
    arrayMap(k -> toFloat64(${h(18)} % 100000), \`metrics.key\`) AS \`metrics.value\`,
    concat('build_', toString(${hs(19)} % 4)) AS build_id, ['pc', 'ps5', 'xbox', 'steamdeck'][${hs(20)} % 4 + 1] AS platform,
    'storagebench/1' AS sdk_version, toDateTime(${NOW}) AS received_at
  FROM numbers(${start}, ${count})`;
const COLUMNS = `project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, has_position, position_x,
  position_y, position_z, map_id, fps, frame_time_ms, memory_used_bytes, gpu_time_ms, attributes.key, attributes.value,
  metrics.key, metrics.value, build_id, platform, sdk_version, received_at`;

await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${SCRATCH}` });
log('migrating a scratch database');
await promisify(execFile)(process.execPath, [`${root}services/cli/bin/framedeck.js`, 'migrate'], { env: ENV });
log(`generating ${ROWS} events with realistic attributes, into events and through the rollups`);
// In inserts of half a million, as the consumer's batches are smaller still: on 26.7 the 2 M
// events in one insert into rollup_input passed the server's 4 GB per query in its views
// (2026-11-30). The bytes are measured after OPTIMIZE FINAL, whatever the inserts.
const INSERT_ROWS = 500_000;
for (let start = 0; start < ROWS; start += INSERT_ROWS)
  for (const table of ['events', 'rollup_input'])
    await clickhouse.command({
      query: `INSERT INTO ${SCRATCH}.${table} (${COLUMNS}) SELECT ${COLUMNS} FROM (${generated(start, Math.min(INSERT_ROWS, ROWS - start))})`,
    });
const tables = await ask(
  `SELECT name FROM system.tables WHERE database = ${literal(SCRATCH)} AND engine LIKE '%MergeTree'`,
);
for (const { name } of tables) await clickhouse.command({ query: `OPTIMIZE TABLE ${SCRATCH}.${name} FINAL` });

const [table] = await ask(`SELECT sum(rows) AS rows, sum(bytes_on_disk) AS disk, sum(data_uncompressed_bytes) AS raw,
    count() AS parts FROM system.parts WHERE database = ${literal(SCRATCH)} AND table = 'events' AND active`);
const [shape] = await ask(`SELECT avg(length(attributes.key)) AS attributes, avg(length(metrics.key)) AS metrics
    FROM ${SCRATCH}.events`);
const columns = await ask(`SELECT name, data_compressed_bytes AS compressed, data_uncompressed_bytes AS uncompressed
    FROM system.columns WHERE database = ${literal(SCRATCH)} AND table = 'events' ORDER BY compressed DESC LIMIT 8`);
const rows = Number(table.rows);
const perEvent = (bytes) => Math.round((Number(bytes) / rows) * 10) / 10;
const rollups = await ask(`SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS disk FROM system.parts
    WHERE database = ${literal(SCRATCH)} AND active AND table != 'events' GROUP BY table ORDER BY disk DESC`);
const result = {
  measuredAt: new Date().toISOString(),
  engine: (await ask('SELECT version() AS v'))[0].v,
  rows,
  parts: Number(table.parts),
  attributesPerEvent: Math.round(Number(shape.attributes) * 100) / 100,
  metricsPerEvent: Math.round(Number(shape.metrics) * 100) / 100,
  bytesPerEventOnDisk: perEvent(table.disk),
  bytesPerEventUncompressed: perEvent(table.raw),
  largestColumnsBytesPerEvent: Object.fromEntries(columns.map((c) => [c.name, perEvent(c.compressed)])),
  // The rollups and per-player sets, merged: bytes on disk per event, and rows per million events.
  rollupsBytesPerEvent: perEvent(rollups.reduce((sum, r) => sum + Number(r.disk), 0)),
  rollups: Object.fromEntries(
    rollups.map((r) => [
      r.table,
      { bytesPerEvent: perEvent(r.disk), rowsPerMillionEvents: Math.round((Number(r.rows) / rows) * 1e6) },
    ]),
  ),
};
await clickhouse.command({ query: `DROP DATABASE ${SCRATCH}` });
mkdirSync(`${root}artifacts/bench`, { recursive: true });
writeFileSync(`${root}artifacts/bench/storage.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
await clickhouse.close();
