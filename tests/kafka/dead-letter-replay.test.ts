import { randomUUID } from 'node:crypto';
import { clickhouseSection } from '@framedeck/config';
import { createClickHouseWriter, eventIdFor } from '@framedeck/clickhouse';
import { createKafka, createProducer, ensureTopics } from '@framedeck/kafka';
import { encodeTelemetryBatch } from '@framedeck/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadLetterPublisher } from '../../services/events-consumer/src/kafka/dead-letter.publisher.js';
import { batchMessages } from '../../services/ingest-gateway/src/publish/batch-messages.js';
import { event, expectExactlyLedger } from '../ingest/ingest-harness.js';
import { runCli, startService, waitHealthy, type RunningService } from '../support/processes.js';
import { TEST_ENV } from '../support/config.js';
import { waitFor } from '../support/wait.js';
import { deleteTopics, freshKafkaConfig, kafkaEnv, quietLogger } from './kafka-fixtures.js';

/**
 * A batch parked on the dead-letter topic (by the consumer's own DeadLetterPublisher, as it
 * parks what it cannot process) is put back on the events topic by `framedeck dlq replay`,
 * and its events are stored exactly once — also when it is replayed a second time.
 */

const config = freshKafkaConfig({ FRAMEDECK_KAFKA_EVENTS_PARTITIONS: '2' });
const env = {
  ...kafkaEnv(config),
  FRAMEDECK_KAFKA_EVENTS_PARTITIONS: '2',
  FRAMEDECK_CONSUMER_HEALTH_PORT: '18192',
  FRAMEDECK_CONSUMER_METRICS_PORT: '18492',
};
const kafka = createKafka(config, quietLogger);
const clickhouse = createClickHouseWriter(clickhouseSection(TEST_ENV));
let consumer: RunningService | undefined;

beforeAll(async () => {
  await ensureTopics(kafka, config);
  consumer = startService('events-consumer', env);
  await waitHealthy('http://127.0.0.1:18192/healthz', consumer);
});

afterAll(async () => {
  await consumer?.stop();
  await clickhouse.close();
  await deleteTopics(config);
});

async function replay(...args: string[]) {
  const result = await runCli(['dlq', 'replay', '--json', ...args], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { replayed: number; skipped: number; reasons: Record<string, number> };
}

/** Waits until the consumer group has committed everything on the events topic. */
async function consumerCaughtUp(): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await waitFor(
      async () => {
        const ends = await admin.fetchTopicOffsets(config.eventsTopic);
        const [committed] = await admin.fetchOffsets({ groupId: config.consumerGroup, topics: [config.eventsTopic] });
        return ends.every((end) => {
          const at = committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
          return Number(end.high) === 0 || Number(at) >= Number(end.high);
        });
      },
      { timeoutMs: 60_000, what: 'the consumer to commit every replayed message' },
    );
  } finally {
    await admin.disconnect();
  }
}

describe('framedeck dlq replay', () => {
  it('puts a dead-lettered batch back on the events topic; its events are stored once, however often it is replayed', async () => {
    const projectId = randomUUID();
    const batchId = randomUUID();
    const events = Array.from({ length: 5 }, (_, i) => event({ eventName: `replayed_${i}` }));
    const [record] = batchMessages(
      {
        value: Buffer.from(encodeTelemetryBatch(events)),
        envelope: {
          batchId,
          projectId,
          tenantId: randomUUID(),
          receivedAtMs: Date.now(),
          sdkVersion: 'tests',
          retentionDays: 90,
        },
      },
      config.producer,
    );
    const deadLetters = new DeadLetterPublisher(createProducer(kafka), config);
    await deadLetters.publish(
      { ...record!, key: Buffer.from(record!.key), topic: config.eventsTopic, partition: 0, offset: '0' },
      'consumer could not process it (test)',
    );
    await deadLetters.close();

    expect(await replay('--since', '2999-01-01T00:00:00Z')).toEqual({ replayed: 0, skipped: 1, reasons: {} });
    expect(await replay()).toEqual({
      replayed: 1,
      skipped: 0,
      reasons: { 'consumer could not process it (test)': 1 },
    });
    const ledger = new Set(events.map((_, i) => eventIdFor(batchId, i)));
    await expectExactlyLedger(clickhouse, projectId, ledger);

    expect(await replay('--since', '1h', '--limit', '5')).toMatchObject({ replayed: 1 });
    await consumerCaughtUp();
    await expectExactlyLedger(clickhouse, projectId, ledger);
  });

  it('refuses a malformed --since or --limit as a usage error', async () => {
    for (const args of [
      ['--since', 'yesterday'],
      ['--limit', '0'],
    ]) {
      const result = await runCli(['dlq', 'replay', ...args], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${args[0]} ${args[1]}:`));
    }
  });
});
