import { readFileSync } from 'node:fs';
import { simulateTelemetry, TelemetrySender, type SentBatch } from '@framedeck/sender';
import type { TelemetryEventInput } from '@framedeck/proto';
import type { CliConfig } from '../config.js';
import { UsageError } from './accounts.command.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHUNK_EVENTS = 20_000;

export type SimulateOptions = {
  projectId: string;
  apiKey: string;
  players: number;
  minutes: number;
  ingestUrl: string;
  mapId: string;
  /** events per second; unlimited when undefined */
  rate: number | undefined;
  seed: number;
};

export type SimulateReport = {
  projectId: string;
  mapId: string;
  players: number;
  minutes: number;
  seed: number;
  events: number;
  batches: number;
  retries: number;
  seconds: number;
  eventsPerSecond: number;
};

/** Reads and checks `framedeck simulate` flags. */
export function parseSimulateOptions(
  values: Record<string, string | boolean | undefined>,
  config: Pick<CliConfig, 'addresses' | 'simulate'>,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): SimulateOptions {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const positive = (name: string, fallback?: number) => {
    const raw = text(name);
    if (raw === undefined && fallback !== undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number`);
    return value;
  };
  const projectId = text('project');
  if (!projectId || !UUID.test(projectId)) throw new UsageError('simulate needs --project <project UUID>');
  const apiKey = ingestKeyOf(text('key-file'), text('key'), config.simulate.ingestKey, warn);
  return {
    projectId,
    apiKey,
    players: Math.round(positive('players', 20)),
    minutes: positive('minutes', 5),
    ingestUrl: text('ingest-url') ?? config.addresses.ingestUrl,
    mapId: text('map-id') ?? 'dust_valley',
    rate: text('rate') === undefined ? undefined : positive('rate'),
    seed: Math.round(positive('seed', 1)),
  };
}

/**
 * The ingest key, in order: the file named by --key-file (first line), --key, then
 * FRAMEDECK_INGEST_KEY. --key still works but is discouraged: a command line is visible to every
 * user of the machine (ps, /proc/<pid>/cmdline), so using it prints a warning.
 */
function ingestKeyOf(
  keyFile: string | undefined,
  keyFlag: string | undefined,
  fromEnv: string | undefined,
  warn: (line: string) => void,
): string {
  if (keyFile !== undefined && keyFlag !== undefined) throw new UsageError('give --key-file or --key, not both');
  if (keyFile !== undefined) {
    let content: string;
    try {
      content = readFileSync(keyFile, 'utf8');
    } catch (error) {
      throw new UsageError(`--key-file ${keyFile}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    const key = content.split(/\r?\n/)[0]!.trim();
    if (!key) throw new UsageError(`--key-file ${keyFile} is empty`);
    return key;
  }
  if (keyFlag !== undefined) {
    warn('warning: --key shows the key to every user of this machine (ps); prefer --key-file or FRAMEDECK_INGEST_KEY');
    return keyFlag;
  }
  if (fromEnv) return fromEnv;
  throw new UsageError(
    'simulate needs an ingest key: --key-file <file> or FRAMEDECK_INGEST_KEY (or --key, discouraged)',
  );
}

/**
 * `framedeck simulate`: generates `minutes` of play for `players` players (ending now, so the
 * data is fresh) and sends it through the real gateway with the sender library, printing
 * progress to stderr. The key decides the project; --project names it for the report.
 */
export async function simulate(
  options: SimulateOptions,
  progress: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<SimulateReport> {
  let retries = 0;
  const sender = new TelemetrySender({
    ingestUrl: options.ingestUrl,
    apiKey: options.apiKey,
    sdkVersion: 'framedeck-simulator/0.1.0',
    onRetry: ({ status, delayMs }) => {
      retries++;
      progress(`  retrying a batch in ${Math.round(delayMs)} ms (${status})`);
    },
  });
  const started = Date.now();
  const expected = Math.round(options.players * options.minutes * 60 * 1.03);
  let events = 0;
  const batches: SentBatch[] = [];
  try {
    const generator = simulateTelemetry({
      seed: options.seed,
      players: options.players,
      minutes: options.minutes,
      mapId: options.mapId,
    });
    let chunk: TelemetryEventInput[] = [];
    const sendChunk = async () => {
      batches.push(...(await sender.send(chunk)));
      events += chunk.length;
      chunk = [];
      const seconds = (Date.now() - started) / 1000;
      progress(
        `  sent ${events.toLocaleString('en')} of ~${expected.toLocaleString('en')} events ` +
          `in ${batches.length} batches (${Math.round(events / Math.max(seconds, 0.001)).toLocaleString('en')} events/s)`,
      );
      if (options.rate) {
        const due = started + (events / options.rate) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
    };
    for (const event of generator) {
      chunk.push(event);
      if (chunk.length >= Math.min(CHUNK_EVENTS, options.rate ?? CHUNK_EVENTS)) await sendChunk();
    }
    if (chunk.length > 0) await sendChunk();
  } finally {
    await sender.close();
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    projectId: options.projectId,
    mapId: options.mapId,
    players: options.players,
    minutes: options.minutes,
    seed: options.seed,
    events,
    batches: batches.length,
    retries,
    seconds: Math.round(seconds * 100) / 100,
    eventsPerSecond: Math.round(events / Math.max(seconds, 0.001)),
  };
}
