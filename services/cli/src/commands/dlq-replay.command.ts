import { randomUUID } from 'node:crypto';
import {
  compressionType,
  createKafka,
  createProducer,
  deadLetterMarks,
  originalHeaders,
  packRecordBatches,
  recordBytes,
  type KafkaMessage,
  type SizedRecord,
} from '@framedeck/kafka';
import type { Logger } from '@framedeck/logging';
import type { CliConfig } from '../config.js';
import { UsageError } from './accounts.command.js';

export type ReplayOptions = {
  /** Only messages dead-lettered at or after this time. */
  since?: Date;
  /** At most this many messages (the oldest first within each partition). */
  limit?: number;
};

/** `skipped`: read but dead-lettered before --since; `reasons`: why the replayed ones had failed. */
export type ReplayReport = { replayed: number; skipped: number; reasons: Record<string, number> };

/**
 * `framedeck dlq replay`: re-publishes dead-lettered messages to the events topic as they were
 * before they failed (value, key and envelope headers; the dead-letter marks removed), for
 * after the cause was fixed (a consumer upgraded, a bug corrected).
 *
 * Reads what the dead-letter topic holds when the command starts, and stops there: a message
 * that fails again is dead-lettered again, not replayed in a loop. Keeps no position: a second
 * run replays the same messages again, which is harmless — their events keep their ids
 * (batch id + index) and collapse in ClickHouse — and `--since` narrows what is replayed.
 */
export async function replayDeadLetters(
  config: CliConfig,
  logger: Logger,
  options: ReplayOptions,
): Promise<ReplayReport> {
  const kafka = createKafka(config.kafka, logger, '-dlq-replay');
  const { deadLetterTopic, eventsTopic, producer: limits } = config.kafka;
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(deadLetterTopic).finally(() => admin.disconnect());
  const remaining = new Map(
    ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)] as const),
  );
  const report: ReplayReport = { replayed: 0, skipped: 0, reasons: {} };
  if (remaining.size === 0) return report;

  const selected: SizedRecord[] = [];
  const reader = kafka.consumer({ groupId: `${config.kafka.consumerGroup}.dlq-replay.${randomUUID()}` });
  await reader.connect();
  try {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    await reader.subscribe({ topics: [deadLetterTopic], fromBeginning: true });
    await reader.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const end = remaining.get(partition);
        if (end === undefined || Number(message.offset) >= end) return;
        select(message, options, selected, report);
        if (Number(message.offset) >= end - 1) remaining.delete(partition);
        if (remaining.size === 0 || (options.limit !== undefined && selected.length >= options.limit)) finish();
      },
    });
    await done;
  } finally {
    await reader.disconnect();
  }

  const producer = createProducer(kafka);
  await producer.connect();
  try {
    // A dead-lettered record without its marks is no larger than it was on the events topic.
    for (const group of packRecordBatches(selected, recordBytes, limits.maxRecordBatchBytes, limits.compression)) {
      await producer.send({
        topic: eventsTopic,
        acks: -1,
        compression: compressionType(limits.compression),
        messages: group.map((r) => ({ key: r.key ?? null, value: r.value, headers: r.headers ?? {} })),
      });
    }
  } finally {
    await producer.disconnect();
  }
  report.replayed = selected.length;
  return report;
}

function select(message: KafkaMessage, options: ReplayOptions, selected: SizedRecord[], report: ReplayReport): void {
  if (options.limit !== undefined && selected.length >= options.limit) return;
  const marks = deadLetterMarks(message.headers);
  if (options.since !== undefined && !(marks.at >= options.since.getTime())) {
    report.skipped++;
    return;
  }
  selected.push({ key: message.key, value: message.value, headers: originalHeaders(message.headers) });
  report.reasons[marks.reason] = (report.reasons[marks.reason] ?? 0) + 1;
}

/** --since: an ISO 8601 time, or an age such as 30m, 12h, 7d. */
export function parseSince(value: string | undefined, now = new Date()): Date | undefined {
  if (value === undefined) return undefined;
  const age = /^(\d+)([mhd])$/.exec(value);
  if (age) {
    const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 }[age[2] as 'm' | 'h' | 'd'];
    return new Date(now.getTime() - Number(age[1]) * unitMs);
  }
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw new UsageError(`--since ${value}: use an ISO 8601 time (2026-11-24T08:00:00Z) or an age (30m, 12h, 7d)`);
  }
  return time;
}

export function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--limit ${value}: use a positive whole number`);
  return Number(value);
}
