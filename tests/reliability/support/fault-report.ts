import { mkdirSync, writeFileSync } from 'node:fs';
import { REPO_ROOT } from '../../support/config.js';

/** One row of the fault table: what was sent, acknowledged and stored around one fault. */
export type FaultRow = {
  fault: string;
  eventsSent: number;
  acknowledged: number;
  stored: number;
  /** acknowledged but not stored: must be 0 */
  lost: number;
  /** event ids stored more than once after deduplication (FINAL): must be 0 */
  duplicatesAfterDedup: number;
  /** stored but never acknowledged: must be 0 */
  unexpected: number;
  /** rows before FINAL minus distinct events: redeliveries that deduplication removed */
  redeliveredRows: number;
  /** from the SIGKILL until an event sent after the restart was visible in ClickHouse */
  recoveryMs: number;
  /** failed attempts the senders retried, by HTTP status or network error */
  retries: Record<string, number>;
  notes: string[];
};

const COLUMNS: [keyof FaultRow, string][] = [
  ['fault', 'fault'],
  ['eventsSent', 'events sent'],
  ['acknowledged', 'acknowledged'],
  ['stored', 'stored'],
  ['lost', 'lost'],
  ['duplicatesAfterDedup', 'dup after dedup'],
  ['unexpected', 'unexpected'],
  ['redeliveredRows', 'redelivered rows'],
  ['recoveryMs', 'recovery'],
  ['retries', 'sender retries'],
];

function cell(row: FaultRow, key: keyof FaultRow): string {
  const value = row[key];
  if (key === 'recoveryMs') return `${((value as number) / 1000).toFixed(1)} s`;
  if (key === 'retries') {
    const entries = Object.entries(value as Record<string, number>);
    return entries.length ? entries.map(([k, v]) => `${k}×${v}`).join(' ') : '-';
  }
  return String(value);
}

/** The table as aligned text, one line per fault. */
export function formatFaultTable(rows: readonly FaultRow[]): string {
  const cells = [COLUMNS.map(([, title]) => title), ...rows.map((r) => COLUMNS.map(([key]) => cell(r, key)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const lines = cells.map((line) => line.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))));
  lines.splice(
    1,
    0,
    widths.map((w) => '-'.repeat(w)),
  );
  const notes = rows.flatMap((r) => r.notes.map((n) => `  ${r.fault}: ${n}`));
  return [...lines.map((l) => l.join('  ')), ...(notes.length ? ['', ...notes] : [])].join('\n');
}

/** Writes artifacts/reliability/faults.json; returns its path. */
export function writeFaultReport(rows: readonly FaultRow[]): string {
  const dir = `${REPO_ROOT}artifacts/reliability`;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/faults.json`;
  writeFileSync(path, `${JSON.stringify({ generatedAt: new Date().toISOString(), faults: rows }, null, 2)}\n`);
  return path;
}
