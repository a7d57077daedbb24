import { simulateLiveGame, simulateTelemetry, TelemetrySender, type SentBatch } from '@framedeck/sender';
import { TelemetrySource, type TelemetryEventInput } from '@framedeck/proto';
import type { CliConfig } from '../config.js';
import { UsageError } from './accounts.command.js';
import { readKeyFile } from './key-file.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHUNK_EVENTS = 20_000;
/** The oldest event ingest accepts is 30 days old (docs/ingest.md). */
const MAX_DAYS = 30;
/** Players when --players is not given: a short burst of play, or a live game's player base. */
const DEFAULT_PLAYERS = { minutes: 20, days: 300 } as const;

export type SimulateOptions = {
  projectId: string;
  apiKey: string;
  /**
   * Key for the automated (QA bot) events, which then travel as automated runs: a key of the
   * ci preset (events:synthetic). Without it they go with `apiKey`, still marked automated.
   */
  ciKey?: string | undefined;
  players: number;
  /** Simulated time ending now: back-to-back play (simulateTelemetry), or `days` × 1,440. */
  minutes: number;
  /** Days of a live game ending now (simulateLiveGame): releases, cycles, returning players. */
  days?: number | undefined;
  /** Where those days end instead of now (ms since the epoch): the same events in every run. */
  endTimeMs?: number | undefined;
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
  days: number | undefined;
  seed: number;
  events: number;
  /** Of `events`, those of automated runs (sent with the ci key when one was given). */
  automatedEvents: number;
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
  const ciKeyFile = text('ci-key-file');
  if (text('days') !== undefined && text('minutes') !== undefined)
    throw new UsageError('give --days or --minutes, not both');
  const days = text('days') === undefined ? undefined : positive('days');
  if (days !== undefined && (!Number.isInteger(days) || days > MAX_DAYS)) {
    throw new UsageError(
      `--days must be a whole number of days from 1 to ${MAX_DAYS} (the oldest event ingest accepts)`,
    );
  }
  return {
    projectId,
    apiKey,
    ciKey: ciKeyFile === undefined ? undefined : readKeyFile('ci-key-file', ciKeyFile),
    players: Math.round(positive('players', DEFAULT_PLAYERS[days === undefined ? 'minutes' : 'days'])),
    minutes: days === undefined ? positive('minutes', 5) : days * 1_440,
    days,
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
  if (keyFile !== undefined) return readKeyFile('key-file', keyFile);
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
 * `framedeck simulate`: generates `minutes` of back-to-back play for `players` players, or with
 * `days` a live game of that many days (releases, daily and weekly cycles, returning players,
 * nightly automated runs), ending now so the data is fresh, and sends it through the real
 * gateway with the sender library, printing progress to stderr. The key decides the project;
 * --project names it for the report. Automated events go with the ci key when there is one.
 */
export async function simulate(
  options: SimulateOptions,
  progress: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<SimulateReport> {
  let retries = 0;
  const senderFor = (apiKey: string) =>
    new TelemetrySender({
      ingestUrl: options.ingestUrl,
      apiKey,
      sdkVersion: 'framedeck-simulator/0.1.0',
      onRetry: ({ status, delayMs }) => {
        retries++;
        progress(`  retrying a batch in ${Math.round(delayMs)} ms (${status})`);
      },
    });
  const playerSender = senderFor(options.apiKey);
  const automatedSender = options.ciKey ? senderFor(options.ciKey) : playerSender;
  const started = Date.now();
  let events = 0;
  let automatedEvents = 0;
  const batches: SentBatch[] = [];
  try {
    const generator =
      options.days === undefined
        ? simulateTelemetry({
            seed: options.seed,
            players: options.players,
            minutes: options.minutes,
            mapId: options.mapId,
          })
        : simulateLiveGame({
            seed: options.seed,
            players: options.players,
            days: options.days,
            mapId: options.mapId,
            endTimeMs: options.endTimeMs,
          });
    const describeProgress = progressLine(options);
    let chunk: TelemetryEventInput[] = [];
    const sendChunk = async () => {
      const played: TelemetryEventInput[] = [];
      const automated: TelemetryEventInput[] = [];
      for (const event of chunk) {
        (event.source === TelemetrySource.TELEMETRY_SOURCE_AUTOMATED ? automated : played).push(event);
      }
      const sent =
        automatedSender === playerSender
          ? [await playerSender.send(chunk)]
          : await Promise.all([playerSender.send(played), automatedSender.send(automated)]);
      batches.push(...sent.flat());
      events += chunk.length;
      automatedEvents += automated.length;
      const seconds = (Date.now() - started) / 1000;
      progress(
        `  sent ${describeProgress(events, chunk.at(-1)!)} in ${batches.length} batches ` +
          `(${Math.round(events / Math.max(seconds, 0.001)).toLocaleString('en')} events/s)`,
      );
      chunk = [];
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
    await Promise.all([playerSender.close(), automatedSender === playerSender ? undefined : automatedSender.close()]);
  }
  const seconds = (Date.now() - started) / 1000;
  return {
    projectId: options.projectId,
    mapId: options.mapId,
    players: options.players,
    minutes: options.minutes,
    days: options.days,
    seed: options.seed,
    events,
    automatedEvents,
    batches: batches.length,
    retries,
    seconds: Math.round(seconds * 100) / 100,
    eventsPerSecond: Math.round(events / Math.max(seconds, 0.001)),
  };
}

/**
 * How far the sending got: of the expected count for back-to-back play (about one event per
 * player-second), up to which simulated day for a live game (its size is known only at the end).
 */
function progressLine(options: SimulateOptions): (events: number, last: TelemetryEventInput) => string {
  if (options.days !== undefined) {
    return (events, last) =>
      `${events.toLocaleString('en')} events (played up to ${new Date(Number(last.timestampUs) / 1000).toISOString().slice(0, 16)}Z)`;
  }
  const expected = Math.round(options.players * options.minutes * 60 * 1.03);
  return (events) => `${events.toLocaleString('en')} of ~${expected.toLocaleString('en')} events`;
}
