import { gzipSync } from 'node:zlib';
import { eventIdFor } from '@framedeck/clickhouse';
import { ConfigResourceTypes, createKafka, ensureTopics } from '@framedeck/kafka';
import { encodeTelemetryBatch } from '@framedeck/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../services/ingest-gateway/src/ingest/request-headers.js';
import { event, expectExactlyLedger, newTenant, postEvents } from '../ingest/ingest-harness.js';
import { startService, waitHealthy, type RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { deleteTopics, freshKafkaConfig, kafkaEnv, quietLogger } from './kafka-fixtures.js';

/**
 * The largest batch the gateway accepts — a body at the spec's 126,000-byte cap that inflates to
 * the gateway's 4 MiB inflated cap — published to a topic with a stock broker's message limit
 * (max.message.bytes 1,048,588, the configuration's default), compression off so that the cut
 * alone must keep every record batch within the 1,000,000-byte default cap. Without the cut the
 * broker refuses the produce request and the gateway answers 503.
 */

const INFLATED_CAP = 4 * 1024 * 1024;
const config = freshKafkaConfig();
const gatewayPort = '18195';
const services = {
  ...kafkaEnv(config),
  FRAMEDECK_KAFKA_COMPRESSION: 'none',
  FRAMEDECK_INGEST_PORT: gatewayPort,
  FRAMEDECK_INGEST_METRICS_PORT: '18495',
  FRAMEDECK_CONSUMER_HEALTH_PORT: '18196',
  FRAMEDECK_CONSUMER_METRICS_PORT: '18496',
};
const stack = connectTestStack();
const kafka = createKafka(config, quietLogger);
const running: RunningService[] = [];

beforeAll(async () => {
  await ensureTopics(kafka, config);
  const gateway = startService('ingest-gateway', services);
  const consumer = startService('events-consumer', services);
  running.push(gateway, consumer);
  await waitHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, gateway);
  await waitHealthy('http://127.0.0.1:18196/healthz', consumer);
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await stack.close();
  await deleteTopics(config);
});

/** ~300 bytes per event, repetitive enough that 4 MiB of them gzip under the body cap (as real telemetry often does). */
function largestBatch(): { events: ReturnType<typeof event>[]; inflated: Buffer } {
  const base = Date.now() * 1000 - 60_000_000;
  const one = (i: number) =>
    event({
      eventName: 'frame_sample',
      sessionId: `session-${'abcdefghij'.repeat(12)}`,
      playerId: `player-${'klmnopqrst'.repeat(10)}`,
      mapId: 'map-1',
      timestampUs: base + i * 1000,
      fps: 60,
      frameTimeMs: 16.6,
      position: { x: i % 100, y: 2, z: 3 },
    });
  const perEvent = encodeTelemetryBatch([one(0)]).length;
  const events = Array.from({ length: Math.floor(INFLATED_CAP / perEvent) + 2 }, (_, i) => one(i));
  let inflated = Buffer.from(encodeTelemetryBatch(events));
  while (inflated.length > INFLATED_CAP) {
    events.pop();
    inflated = Buffer.from(encodeTelemetryBatch(events));
  }
  return { events, inflated };
}

describe('records within a stock broker’s limit', () => {
  it('stores the largest accepted batch, cut into records under the cap, every event exactly once', async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.TOPIC, name: config.eventsTopic, configNames: ['max.message.bytes'] }],
      });
      expect(resources[0]!.configEntries[0]!.configValue).toBe('1048588');

      const { events, inflated } = largestBatch();
      const body = gzipSync(inflated, { level: 9 });
      expect(inflated.length).toBeGreaterThan(INFLATED_CAP - 1024);
      expect(body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);

      const tenant = await newTenant(stack.pool);
      const res = await postEvents(
        body,
        { 'x-api-key': tenant.keys.ingest!, 'content-encoding': 'gzip' },
        `http://127.0.0.1:${gatewayPort}`,
      );
      expect(res.status, res.body).toBe(202);
      const batchId = res.headers.get('x-batch-id')!;

      const ends = await admin.fetchTopicOffsets(config.eventsTopic);
      const records = ends.reduce((sum, p) => sum + Number(p.high), 0);
      expect(records).toBeGreaterThanOrEqual(Math.ceil(inflated.length / 1_000_000));

      const ledger = new Set(events.map((_, i) => eventIdFor(batchId, i)));
      await expectExactlyLedger(stack.clickhouse, tenant.projectId, ledger, 120_000);
    } finally {
      await admin.disconnect();
    }
  }, 180_000);
});
