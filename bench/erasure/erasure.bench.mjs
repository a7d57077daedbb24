// npm run bench:erasure — what erasure requests make ClickHouse rewrite, before and after the
// coalesced sweep (FrameDeck issue #15), on both local engines in one run.
//   old flow: each request starts its own mutation per player table as it arrives (plain ALTERs,
//             as FrameDeck did before the sweep); requests arrive minutes apart, so each mutation
//             is done before the next request;
//   new flow: the same requests wait for one sweep, which starts ONE mutation per player table
//             for all of them (libs/analytics startErasureSweep, the code the API runs).
// Data (generated inside ClickHouse, in a scratch database per engine and flow, dropped at the
// end): BENCH_TENANTS projects (default 10) × 200 players, BENCH_ROWS events (default 200,000)
// over the last 3 weeks, inserted as 4 batches mixing every project (as the consumer's batches
// do) and merged to one part per partition: every part holds rows of every tenant.
// BENCH_REQUESTS requests (default 5), from as many tenants, each naming 3 players that exist.
// "Rewritten" = a part whose data files (.bin) are new files after the erasure (a different
// inode): a part a mutation only re-links (a modern server does that for a part with no row to
// delete) or leaves alone is not counted. "Of other tenants" = a rewritten part that holds rows
// of a tenant that asked for nothing. Needs both engines up (`bash infra/local/up.sh
// clickhouse-legacy clickhouse-modern`) and a build (`npm run build`).
// Results: artifacts/bench/erasure.json.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PLAYER_TABLES, startErasureSweep, sweepMutations } from '@framedeck/analytics';
import {
  createClickHouseWriter,
  ensureClickHouseDatabase,
  identifier,
  join,
  migrateClickHouse,
  sql,
} from '@framedeck/clickhouse';
import { clickhouseSection } from '@framedeck/config';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TENANTS = Number(process.env.BENCH_TENANTS ?? 10);
const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const REQUESTS = Math.min(Number(process.env.BENCH_REQUESTS ?? 5), TENANTS);
const PLAYERS_PER_PROJECT = 200;
const INSERT_BATCHES = 4;
const ENGINES = (process.env.BENCH_ENGINES ?? 'legacy,modern').split(',');

const projectId = (i) => `5eed0000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;
const PROJECTS = Array.from({ length: TENANTS }, (_, i) => projectId(i));
/** Request i comes from tenant i and names 3 of its players. */
const REQUEST_TARGETS = Array.from({ length: REQUESTS }, (_, i) => ({
  projectId: PROJECTS[i],
  playerIds: [`p${i}`, `p${i + 50}`, `p${i + 100}`],
}));

async function seed(writer) {
  const projects = join(PROJECTS.map((p) => sql`toUUID(${p})`));
  for (let batch = 0; batch < INSERT_BATCHES; batch++) {
    await writer.command(sql`
      INSERT INTO events (project_id, event_id, event_name, timestamp_us, timestamp, session_id, player_id, map_id,
                          fps, frame_time_ms, build_id, platform, sdk_version, received_at)
      SELECT [${projects}][1 + number % ${TENANTS}], generateUUIDv4(), concat('event_', toString(number % 7)),
             (toUInt64(now()) - (number * 7919) % (21 * 86400)) * 1000000,
             toDateTime(toUInt64(now()) - (number * 7919) % (21 * 86400)),
             concat('s', toString(number % 3000)), concat('p', toString(intDiv(number, ${TENANTS}) % ${PLAYERS_PER_PROJECT})),
             'bench_map', 60, 16.6, 'bench-1', 'pc', 'bench/erasure', now()
        FROM numbers(${Math.floor(ROWS / INSERT_BATCHES)})`);
  }
  // One part per partition, holding every tenant's rows of that partition.
  for (const table of PLAYER_TABLES) {
    const partitions = await writer.rows(
      sql`SELECT DISTINCT partition_id FROM system.parts WHERE database = currentDatabase() AND table = ${table} AND active`,
    );
    for (const { partition_id } of partitions) {
      await writer.command(sql`OPTIMIZE TABLE ${identifier(table)} PARTITION ID ${partition_id} FINAL`);
    }
  }
}

/** Active parts of the player tables: size, tenants held, inodes of their data files. */
async function snapshot(writer) {
  const parts = [];
  for (const table of PLAYER_TABLES) {
    const rows = await writer.rows(
      sql`SELECT name, path, bytes_on_disk AS bytes FROM system.parts
           WHERE database = currentDatabase() AND table = ${table} AND active`,
    );
    const tenants = new Map(
      (
        await writer.rows(
          sql`SELECT _part AS part, groupUniqArray(toString(project_id)) AS projects FROM ${identifier(table)} GROUP BY _part`,
        )
      ).map((r) => [r.part, r.projects]),
    );
    for (const row of rows) {
      const inodes = readdirSync(row.path)
        .filter((f) => f.endsWith('.bin'))
        .map((f) => statSync(`${row.path}/${f}`).ino);
      parts.push({ table, name: row.name, bytes: Number(row.bytes), projects: tenants.get(row.name) ?? [], inodes });
    }
  }
  return parts;
}

/** Parts of `after` whose data files are all new, and those of them holding a tenant that asked nothing. */
function rewritten(before, after, askingProjects) {
  const known = new Set(before.flatMap((p) => p.inodes));
  const parts = after.filter((p) => p.inodes.length > 0 && p.inodes.every((ino) => !known.has(ino)));
  const ofOthers = parts.filter((p) => p.projects.some((id) => !askingProjects.includes(id)));
  return { parts: parts.length, ofOthers: ofOthers.length, bytes: parts.reduce((sum, p) => sum + p.bytes, 0) };
}

async function mutationsDone(writer) {
  for (;;) {
    const [row] = await writer.rows(
      sql`SELECT countIf(is_done = 0) AS pending FROM system.mutations WHERE database = currentDatabase()`,
    );
    if (Number(row.pending) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function countMutations(writer) {
  const [row] = await writer.rows(sql`SELECT count() AS n FROM system.mutations WHERE database = currentDatabase()`);
  return Number(row.n);
}

/** Before: one mutation per request per table, each done before the next request arrives. */
async function oldFlow(writer) {
  const total = { parts: 0, ofOthers: 0, bytes: 0 };
  for (const [i, target] of REQUEST_TARGETS.entries()) {
    const before = await snapshot(writer);
    const players = join(target.playerIds.map((id) => sql`${id}`));
    for (const table of PLAYER_TABLES) {
      await writer.command(
        sql`ALTER TABLE ${identifier(table)} DELETE
             WHERE project_id = toUUID(${target.projectId}) AND player_id IN (${players}) AND ${`bench-old-${i}`} != ''`,
      );
    }
    await mutationsDone(writer);
    const step = rewritten(before, await snapshot(writer), [target.projectId]);
    for (const key of Object.keys(total)) total[key] += step[key];
  }
  return total;
}

/** After: the requests wait for one sweep, which starts one mutation per player table for all of them. */
async function newFlow(writer) {
  const before = await snapshot(writer);
  await startErasureSweep(writer, REQUEST_TARGETS, 'bench-sweep');
  while ((await sweepMutations(writer, 'bench-sweep')).state !== 'finished') {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return rewritten(
    before,
    await snapshot(writer),
    REQUEST_TARGETS.map((t) => t.projectId),
  );
}

async function run(engine, flow) {
  const config = {
    ...clickhouseSection({ ...process.env, FRAMEDECK_CLICKHOUSE_ENGINE: engine, FRAMEDECK_CLICKHOUSE_URL: '' }),
    database: `framedeck_erasure_bench_${flow.name}`,
  };
  await ensureClickHouseDatabase(config);
  const writer = createClickHouseWriter(config);
  try {
    await migrateClickHouse(writer);
    await seed(writer);
    const before = await snapshot(writer);
    const mutationsBefore = await countMutations(writer);
    const result = await flow.run(writer);
    return {
      engine: `${engine} ${(await writer.engine()).version}`,
      flow: flow.name,
      requests: REQUESTS,
      tenants: `${REQUESTS} of ${TENANTS}`,
      playerTableParts: before.length,
      mutations: (await countMutations(writer)) - mutationsBefore,
      partsRewritten: result.parts,
      partsOfOtherTenantsRewritten: result.ofOthers,
      mbRewritten: Math.round(result.bytes / 1e4) / 100,
      partsRewrittenPerRequest: Math.round((result.parts / REQUESTS) * 10) / 10,
    };
  } finally {
    await writer.command(sql`DROP DATABASE IF EXISTS ${identifier(config.database)}`);
    await writer.close();
  }
}

const FLOWS = [
  { name: 'old', run: oldFlow },
  { name: 'new', run: newFlow },
];
console.error(
  `erasure: ${REQUESTS} requests from ${REQUESTS} of ${TENANTS} tenants, ${ROWS} events, engines ${ENGINES.join(', ')}`,
);
const results = [];
for (const engine of ENGINES) for (const flow of FLOWS) results.push(await run(engine, flow));
console.table(results);
mkdirSync(`${ROOT}artifacts/bench`, { recursive: true });
writeFileSync(
  `${ROOT}artifacts/bench/erasure.json`,
  `${JSON.stringify({ at: new Date().toISOString(), rows: ROWS, results }, null, 2)}\n`,
);
