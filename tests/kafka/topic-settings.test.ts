import { ConfigResourceTypes, createKafka, ensureTopics, type Admin } from '@framedeck/kafka';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteTopics, freshKafkaConfig, quietLogger } from './kafka-fixtures.js';

/**
 * Topic settings come from the configuration and are read back from the broker: on creation,
 * and again after the configuration changed (existing topics are brought in line, partitions
 * added). The dead-letter topic is sized like the events topic.
 * NOTE: acks=all cannot be shown failing on one broker (Kafka caps the effective
 * min.insync.replicas at the replica count); batch.publisher.test.ts checks what is sent.
 */

const first = freshKafkaConfig({
  FRAMEDECK_KAFKA_EVENTS_PARTITIONS: '3',
  FRAMEDECK_KAFKA_RETENTION_MS: '3600000',
  FRAMEDECK_KAFKA_RETENTION_BYTES: '52428800',
});
const kafka = createKafka(first, quietLogger);

afterAll(() => deleteTopics(first));

async function described(admin: Admin, topic: string): Promise<Record<string, string>> {
  const names = ['min.insync.replicas', 'retention.ms', 'retention.bytes', 'max.message.bytes'];
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: names }],
  });
  return Object.fromEntries(resources[0]!.configEntries.map((e) => [e.configName, e.configValue]));
}

async function shape(admin: Admin, topic: string) {
  const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
  const partitions = topics[0]!.partitions;
  return { partitions: partitions.length, replicas: Math.min(...partitions.map((p) => p.replicas.length)) };
}

describe('topic settings from the configuration', () => {
  it('creates both topics with them, then brings existing topics in line when they change', async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const created = await ensureTopics(kafka, first);
      expect(created).toEqual({
        created: [first.eventsTopic, first.deadLetterTopic],
        updated: [],
        replicationMismatches: [],
      });
      for (const topic of [first.eventsTopic, first.deadLetterTopic]) {
        expect(await described(admin, topic)).toEqual({
          'min.insync.replicas': '1',
          'retention.ms': '3600000',
          'retention.bytes': '52428800',
          'max.message.bytes': '1048588',
        });
        expect(await shape(admin, topic)).toEqual({ partitions: 3, replicas: 1 });
      }

      const changed = freshKafkaConfig({
        FRAMEDECK_KAFKA_EVENTS_TOPIC: first.eventsTopic,
        FRAMEDECK_KAFKA_DEAD_LETTER_TOPIC: first.deadLetterTopic,
        FRAMEDECK_KAFKA_EVENTS_PARTITIONS: '5',
        FRAMEDECK_KAFKA_RETENTION_MS: '7200000',
        FRAMEDECK_KAFKA_RETENTION_BYTES: '-1',
      });
      expect(await ensureTopics(kafka, changed)).toMatchObject({
        created: [],
        updated: [first.eventsTopic, first.deadLetterTopic],
      });
      for (const topic of [first.eventsTopic, first.deadLetterTopic]) {
        expect(await described(admin, topic)).toMatchObject({ 'retention.ms': '7200000', 'retention.bytes': '-1' });
        expect(await shape(admin, topic)).toEqual({ partitions: 5, replicas: 1 });
      }
      // Unchanged settings are left alone.
      expect(await ensureTopics(kafka, changed)).toMatchObject({ created: [], updated: [] });
    } finally {
      await admin.disconnect();
    }
  });
});
