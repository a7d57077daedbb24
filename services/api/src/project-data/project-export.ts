import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { streamEvents, type ExportFormat } from '@framedeck/analytics';
import type { ClickHouseReader } from '@framedeck/clickhouse';
import { listAlertRules, listContentEntries, listMaps, listThresholdProfiles, type Pool } from '@framedeck/postgres';
import { toMapResponse } from '../maps/map.schema.js';
import { csvFormulaGuard } from './csv-formula-guard.js';

export const EXPORT_RESOURCES = ['maps', 'content', 'alert_rules', 'threshold_profiles', 'events'] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];

export type ProjectExport = {
  projectId: string;
  format: ExportFormat;
  include: readonly ExportResource[];
  from?: Date | undefined;
  to?: Date | undefined;
};

/** Counts lines (events) as the bytes go by, without parsing them. */
function lineCounter(): Transform & { lines: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) counter.lines++;
      done(null, chunk);
    },
  }) as Transform & { lines: number };
  counter.lines = 0;
  return counter;
}

/** Writes one line and waits for 'drain' when the socket buffer is full (backpressure). */
async function writeLine(out: Writable, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
}

/**
 * Writes the project's data to `out`.
 * NDJSON: a header line {kind: "export"}, then one line per map, content entry, alert rule and
 * threshold profile (each with its kind), then one line per event (kind "event"), then a
 * trailer {kind: "end", events: N} — a download without the trailer is incomplete.
 * CSV: events only, with a header row; text cells that spreadsheet software would evaluate
 * (=, +, -, @, tab, CR first) are prefixed with ' on the way through (csv-formula-guard.ts).
 * Postgres resources are small and read whole; events stream from ClickHouse untouched, so
 * memory stays bounded by the stream buffers whatever the project's size.
 */
export async function writeProjectExport(
  deps: { pool: Pool; clickhouse: ClickHouseReader },
  q: ProjectExport,
  out: Writable,
): Promise<void> {
  const wants = (r: ExportResource) => q.include.includes(r);
  // Started before anything is written, so a ClickHouse failure can still become a problem+json answer.
  const events: Readable | undefined = wants('events')
    ? await streamEvents(deps.clickhouse, { projectId: q.projectId, from: q.from, to: q.to, format: q.format })
    : undefined;
  try {
    if (q.format === 'csv') await pipeline(events!, csvFormulaGuard(), out);
    else await writeNdjson(deps.pool, q, events, out);
  } finally {
    events?.destroy(); // no-op when consumed; closes the ClickHouse download when we stopped early
  }
}

async function writeNdjson(pool: Pool, q: ProjectExport, events: Readable | undefined, out: Writable): Promise<void> {
  const wants = (r: ExportResource) => q.include.includes(r);
  await writeLine(out, {
    kind: 'export',
    projectId: q.projectId,
    include: q.include,
    from: q.from?.toISOString() ?? null,
    to: q.to?.toISOString() ?? null,
    exportedAt: new Date().toISOString(),
  });
  if (wants('maps'))
    for (const m of await listMaps(pool, q.projectId)) await writeLine(out, { kind: 'map', ...toMapResponse(m) });
  if (wants('content'))
    for (const c of await listContentEntries(pool, q.projectId)) await writeLine(out, { kind: 'content', ...c });
  if (wants('alert_rules'))
    for (const r of await listAlertRules(pool, q.projectId)) await writeLine(out, { kind: 'alert_rule', ...r });
  if (wants('threshold_profiles'))
    for (const p of await listThresholdProfiles(pool, q.projectId))
      await writeLine(out, { kind: 'threshold_profile', ...p });
  let eventCount = 0;
  if (events) {
    const counter = lineCounter();
    await pipeline(events, counter, out, { end: false });
    eventCount = counter.lines;
  }
  await writeLine(out, { kind: 'end', events: eventCount });
  out.end();
}
